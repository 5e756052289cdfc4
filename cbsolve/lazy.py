"""Names a package loads on first use (PEP 562), so importing it stays light: ``import cbsolve``
loads the rules only, ``cbsolve.strategy.partition`` loads without the heuristics and NumPy.

A module can declare the same for a module it uses: ``scoring = lazy_module("cbsolve.game.scoring")``
at its top says "this module uses ``cbsolve.game.scoring``, which loads NumPy: only a call that
reaches ``scoring.`` imports it". The dependency stands where a reader looks (the top of the
module, beside the other imports; tests/test_import_cycles.py follows it as an import and
tests/test_concept_sizes.py counts these declarations), instead of an ``import`` hidden in a
function body. The declaration is for heavy edges only (NumPy, a solver, an engine a light
command must not load); a module that is loaded anyway is imported plainly.

>>> import cbsolve.strategy as s
>>> s.SCORED
('minimax', 'expected', 'entropy', 'parts')
"""
from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any


def lazy_names(package: str, table: dict[str, str],
               namespace: dict) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__`` for the names of ``table`` (name -> module,
    relative to ``package``): a name is imported on first access, then kept in ``namespace``
    (the package's globals) as a plain attribute."""
    def load(name: str) -> Any:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    def names() -> list[str]:
        return sorted(set(namespace) | set(table))

    return load, names


class LazyModule:
    """Stands for the module ``name`` until first used: each attribute is read from the module,
    imported at the first read (``importlib.import_module``: thread-safe, and a module loaded
    already is not loaded again). Reading through it (not copying the module's names) keeps
    late binding: a name replaced in the module later is the one read."""

    __slots__ = ("_name",)

    def __init__(self, name: str):
        object.__setattr__(self, "_name", name)

    def __getattr__(self, attr: str) -> Any:
        module = sys.modules.get(self._name) or importlib.import_module(self._name)
        return getattr(module, attr)

    def __setattr__(self, attr: str, value: Any) -> None:
        raise AttributeError(f"set {attr!r} on the module {self._name!r}, not on its stand-in")

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}>"


def lazy_module(name: str) -> Any:
    """The module ``name`` (absolute, a string literal: the tests read it), imported on first
    attribute access. For a module's top level only (see the module docstring)."""
    return LazyModule(name)
