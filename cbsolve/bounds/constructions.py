"""Which construction bounds a variant's worst case from above: count, split into regions, locate
for repeats (:mod:`.regions`, on top of :mod:`.constructive`), set-then-place for distinct
symbols (:mod:`.constructive_distinct`).

Apart from both so that they import one way (set-then-place reuses count-then-locate's pieces).
"""
from __future__ import annotations

from ..game.variant import Variant
from .constructive_distinct import METHOD as DISTINCT_METHOD
from .constructive_distinct import set_place_worst
from .regions import METHOD as REPEATS_METHOD
from .regions import split_locate_worst


def constructive_worst(variant: Variant) -> tuple[int, str] | None:
    """(proved worst case, method) of the construction that applies to ``variant``, or None."""
    for worst, method in ((split_locate_worst, REPEATS_METHOD), (set_place_worst, DISTINCT_METHOD)):
        w = worst(variant)
        if w is not None:
            return w, method
    return None
