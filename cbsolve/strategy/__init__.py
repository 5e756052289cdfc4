"""Strategies: heuristics that pick the next guess, exact evaluation, next-guess advice.

Place in the data flow: consistency -> **strategies** -> trees (:mod:`cbsolve.tree`) -> CLI.

- :func:`next_guess` — the best next guess for a live game's log (``cbsolve next``);
- :func:`evaluate` — play a strategy against every secret as one shared decision tree
  (``cbsolve evaluate``), or estimate its mean on a random sample for large spaces.

Strategies (:data:`STRATEGIES`): ``minimax`` (Knuth 1977), ``expected`` (Irving 1979),
``entropy`` (Neuwirth 1982), ``parts`` (Kooi 2005), ``first`` and ``random`` (consistent codes).
Unknown names raise :class:`~cbsolve.errors.UnknownName` listing the valid ones.

>>> from cbsolve.strategy import evaluate
>>> from cbsolve.variant import Variant
>>> evaluate(Variant.preset("mastermind"), "minimax").total   # Knuth 1977
5801

The names are loaded on first use, so a light module of the package (``partition``) imports
without the heuristics and NumPy.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_LAZY = {"Advice": ".advice", "next_guess": ".advice", "Evaluation": ".evaluation",
         "Unfinished": ".evaluation", "estimate": ".evaluation", "evaluate": ".evaluation",
         "GUESS_MODES": ".heuristics", "SCORED": ".heuristics", "STRATEGIES": ".heuristics",
         "Chooser": ".heuristics"}

if TYPE_CHECKING:     # what type checkers and IDEs see; at run time __getattr__ loads them
    from .advice import Advice, next_guess
    from .evaluation import Evaluation, Unfinished, estimate, evaluate
    from .heuristics import GUESS_MODES, SCORED, STRATEGIES, Chooser


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value       # the next access is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = ["Advice", "Chooser", "Evaluation", "GUESS_MODES", "SCORED", "STRATEGIES", "Unfinished",
           "estimate", "evaluate", "next_guess"]
