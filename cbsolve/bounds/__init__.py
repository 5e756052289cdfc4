"""Bounds on the number of guesses for any N and D: proved intervals, exact where reachable.

The face of the package: it only re-exports. :func:`compute_bounds` (in :mod:`.compute`)
gathers the methods, cheapest first; ``docs/bounds.md`` says what each proves.
"""
from __future__ import annotations

from .compute import (
    SCORER_LIMIT,
    STRATEGY_LIMIT,
    UPPER_STRATEGIES,
    Bounds,
    Interval,
    compute_bounds,
    exact_search_limit,
)

__all__ = ["SCORER_LIMIT", "STRATEGY_LIMIT", "UPPER_STRATEGIES", "Bounds", "Interval",
           "compute_bounds", "exact_search_limit"]
