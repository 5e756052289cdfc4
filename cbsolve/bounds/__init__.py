"""Bounds on the number of guesses for any N and D: proved intervals, exact where reachable.

The face of the package: it only re-exports, on first use. :func:`compute_bounds` (in
:mod:`.compute`) gathers the methods, cheapest first; ``docs/bounds.md`` says what each proves.
:mod:`.atlas_file` reads the atlas, the proved table shipped as data.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names

_NAMES = ("SCORER_LIMIT", "STRATEGY_LIMIT", "UPPER_STRATEGIES", "Bounds", "Interval",
          "compute_bounds", "exact_search_limit")

if TYPE_CHECKING:     # what type checkers see; at run time __getattr__ loads them
    from .compute import (SCORER_LIMIT, STRATEGY_LIMIT, UPPER_STRATEGIES, Bounds, Interval,
                          compute_bounds, exact_search_limit)

# Lazy, so that the light modules of this package (the atlas as data, the counting bounds)
# load without the methods that compute bounds.
__getattr__, __dir__ = lazy_names(__name__, {name: ".compute" for name in _NAMES}, globals())

__all__ = list(_NAMES)
