"""The position service: what remains, the best next guess and where it came from, the
guesses still needed, what a guess costs against the best one (:mod:`.review`), a guess's
partition (or every guess's), why a log is inconsistent, the optimum and the game's bounds,
for any face.

Place in the data flow: consistency, strategy, search, symmetry, bounds and the certified
trees -> **advisor** -> cli (next, partition, assist, play, bot, optimal, bounds), play (the
game engine, the coach), the API, the gym. Every face asks :class:`PositionService`; none decides on
its own. This file only re-exports the public names (not :mod:`.optimum`'s: they load the
search wing, which a small game's ``next`` does without).
"""
from __future__ import annotations

from .answers import (
    CONSISTENT,
    DEFAULT_OBJECTIVE,
    DETERMINED,
    EXACT,
    HEURISTIC,
    OBJECTIVES,
    OPENING,
    TREE,
    Advice,
    Needed,
    PartitionTable,
    Provenance,
    Remaining,
)
from .service import OPTIMAL, STAND_IN, PositionService, check_objective, check_strategy

__all__ = ["CONSISTENT", "DEFAULT_OBJECTIVE", "DETERMINED", "EXACT", "HEURISTIC", "OBJECTIVES",
           "OPENING", "OPTIMAL", "STAND_IN", "TREE", "Advice", "Needed",
           "PartitionTable", "PositionService", "Provenance", "Remaining", "check_objective",
           "check_strategy"]
