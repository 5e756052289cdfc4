"""What a heuristic's choice checks before any guess is scored, without NumPy: the strategy
names, the guess pools, that the space can be listed.

Kept apart from :mod:`.heuristics` (NumPy arrays, the choosers) so that a face checking its
options and a small game's choice through the list-based entries (:mod:`.listed`) import
neither NumPy nor the array path.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..game.codes import ENUMERATION_LIMIT, CodeSpace
from ..errors import SpaceTooLarge, unknown_name
from ..game.guess_pool import GUESS_POOLS, guess_pool

if TYPE_CHECKING:
    from ..game.codes import CodeSpace
    from ..game.variant import Variant

SCORED = ("minimax", "expected", "entropy", "parts")
STRATEGIES = (*SCORED, "first", "random")
GUESS_MODES = GUESS_POOLS
#: The native kernel's ids of the scored heuristics.
HEURISTIC_ID = {name: i for i, name in enumerate(SCORED)}


def check_strategy(name: str) -> str:
    if name not in STRATEGIES:
        raise unknown_name("strategy", name, STRATEGIES)
    return name


def check_guesses(mode: str) -> str:
    return guess_pool(mode)


def require_enumerable(variant: Variant, what: str) -> CodeSpace:
    """The code space, or SpaceTooLarge saying that ``what`` must list every code."""
    space = CodeSpace(variant)
    if not space.enumerable:
        raise SpaceTooLarge(f"{what} lists every code, but {variant.describe()} has {space.size} "
                            f"codes (limit {ENUMERATION_LIMIT}); `cbsolve consistent` can still "
                            "count and sample the candidates")
    return space
