"""Names a package loads on first use (PEP 562), so importing it stays light: ``import cbsolve``
loads the rules only, ``cbsolve.strategy.partition`` loads without the heuristics and NumPy.

>>> import cbsolve.strategy as s
>>> s.SCORED
('minimax', 'expected', 'entropy', 'parts')
"""
from __future__ import annotations

import importlib
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
