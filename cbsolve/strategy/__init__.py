"""Strategies: heuristics that pick the next guess, exact evaluation, next-guess advice.

Place in the data flow: consistency -> **strategies** -> trees (:mod:`cbsolve.certificates.tree`) -> CLI.

- :func:`choose_next` — a heuristic's choice after a live game's log (the position service,
  :mod:`cbsolve.advisor`, wraps it into the advice ``cbsolve next`` prints); on a small
  position :func:`listed_choice`, the same choice without NumPy;
- :func:`evaluate` — play a strategy against every secret as one shared decision tree
  (``cbsolve evaluate``), or estimate its mean on a random sample for large spaces.

Strategies (:data:`STRATEGIES`): ``minimax`` (Knuth 1977), ``expected`` (Irving 1979),
``entropy`` (Neuwirth 1982), ``parts`` (Kooi 2005), ``first`` and ``random`` (consistent codes).
Unknown names raise :class:`~cbsolve.errors.UnknownName` listing the valid ones.

>>> from cbsolve.strategy import evaluate
>>> from cbsolve.game.variant import Variant
>>> evaluate(Variant.preset("mastermind"), "minimax").total   # Knuth 1977
5801

The names are loaded on first use, so a light module of the package (``partition``) imports
without the heuristics and NumPy.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names

_LAZY = {"HeuristicChoice": ".advice", "choose_next": ".advice", "Evaluation": ".evaluation",
         "Unfinished": ".evaluation", "estimate": ".evaluation", "evaluate": ".evaluation",
         "GUESS_MODES": ".rules", "SCORED": ".rules", "STRATEGIES": ".rules",
         "Chooser": ".heuristics", "listed_choice": ".listed"}

if TYPE_CHECKING:     # what type checkers and IDEs see; at run time __getattr__ loads them
    from .advice import HeuristicChoice, choose_next
    from .evaluation import Evaluation, Unfinished, estimate, evaluate
    from .heuristics import Chooser
    from .listed import listed_choice
    from .rules import GUESS_MODES, SCORED, STRATEGIES

__getattr__, __dir__ = lazy_names(__name__, _LAZY, globals())

__all__ = ["Chooser", "Evaluation", "GUESS_MODES", "HeuristicChoice", "SCORED", "STRATEGIES",
           "Unfinished", "choose_next", "estimate", "evaluate", "listed_choice"]
