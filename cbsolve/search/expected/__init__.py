"""The expected-case search: the strategy with the smallest total number of guesses (a face:
it only re-exports; the entry point is :mod:`.driver`, the search :mod:`.search`)."""
from __future__ import annotations

from ...game.guess_pool import GUESS_POOLS
from .driver import solve_expected
from .kernel import INF_T, INF_W, OPTIONS, PRUNINGS, new_solver
from .split import SPLIT_MIN, SPLIT_NESTED

__all__ = ["GUESS_POOLS", "INF_T", "INF_W", "OPTIONS", "PRUNINGS", "SPLIT_MIN", "SPLIT_NESTED",
           "new_solver", "solve_expected"]
