"""The guess pool: which codes a strategy, a search or a tree may guess. One type, one list of
names and one check for every layer (strategies, the exact searches, the certificate checker,
the player, the CLI).

>>> guess_pool("candidates") is GuessPool.CANDIDATES, GUESS_POOLS
(True, ('all', 'candidates'))
"""
from __future__ import annotations

from enum import StrEnum

from ..errors import unknown_name


class GuessPool(StrEnum):
    """A ``str`` enum: it prints, compares and serialises as its name."""

    ALL = "all"                    # every code of the game
    CANDIDATES = "candidates"      # only the codes consistent with the replies so far


#: The names, in the order the CLI lists them.
GUESS_POOLS = tuple(pool.value for pool in GuessPool)


def guess_pool(name: str) -> GuessPool:
    """The pool named ``name``; an unknown name is one clear error (exit 2 at the CLI)."""
    try:
        return GuessPool(name)
    except ValueError:
        raise unknown_name("guess set", name, GUESS_POOLS) from None
