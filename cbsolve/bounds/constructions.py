"""Which construction bounds a variant's worst case from above: count, split into regions, locate
for repeats (:mod:`.regions`, on top of :mod:`.constructive`) or the block composition
(:mod:`.blocks`), whichever proves less, set-then-place for distinct symbols
(:mod:`.constructive_distinct`).

Apart from both so that they import one way (set-then-place reuses count-then-locate's pieces).
"""
from __future__ import annotations

from ..game.variant import Variant
from .blocks import METHOD as BLOCKS_METHOD
from .blocks import block_worst
from .constructive_distinct import METHOD as DISTINCT_METHOD
from .constructive_distinct import set_place_worst
from .regions import METHOD as REPEATS_METHOD
from .regions import split_locate_worst


def constructive_worst(variant: Variant) -> tuple[int, str] | None:
    """(proved worst case, method) of the construction that applies to ``variant``, or None."""
    found = [(w, method) for w, method in ((split_locate_worst(variant), REPEATS_METHOD),
                                           (block_worst(variant), BLOCKS_METHOD),
                                           (set_place_worst(variant), DISTINCT_METHOD))
             if w is not None]
    return min(found, key=lambda pair: pair[0]) if found else None
