"""The expected-case search: the strategy with the smallest total number of guesses (a face:
it only re-exports; the driver is :mod:`.search`)."""
from __future__ import annotations

from .search import (
    GUESS_POOLS,
    INF_T,
    INF_W,
    OPTIONS,
    PRUNINGS,
    SPLIT_MIN,
    SPLIT_NESTED,
    new_solver,
    solve_expected,
)

__all__ = ["GUESS_POOLS", "INF_T", "INF_W", "OPTIONS", "PRUNINGS", "SPLIT_MIN", "SPLIT_NESTED",
           "new_solver", "solve_expected"]
