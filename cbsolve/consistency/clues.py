"""A feedback log as clues: the form in which the constraint engines encode it.

Place in the data flow: FeedbackLog -> (this module) -> cpsat.py / sat.py / counting.py. A log
entry becomes a :class:`Clue`: the guess, its bulls, its total matches ``bulls + cows`` (None in
bulls-only mode) and the guess's count ``k_sym`` of every symbol it uses. Both solver engines
encode the secret as one-hot booleans ``x[pos][sym]`` and a clue as two cardinality constraints:

* bulls: ``sum_pos x[pos][guess[pos]] == bulls``;
* total: ``sum_sym min(k_sym, n_sym) == bulls + cows`` where ``n_sym = sum_pos x[pos][sym]``.
  Because ``k_sym`` is a constant, ``min(k, n) = sum_{t=1..k} [n >= t]``, so with unary count
  indicators ``y[sym][t] <=> n_sym >= t`` the total is a plain sum of booleans. The shortcut
  "total = number of guess symbols present in the secret" equals this only when the secret
  cannot repeat a symbol (then ``min(k, n) = [n >= 1]`` needs ``k = 1`` too); with repeats it is
  wrong, which the tests check.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..game.feedback import FeedbackLog
from ..game.variant import Variant


@dataclass(frozen=True)
class Clue:
    """One entry as constraints: guess symbols, bulls, total matches (None: bulls only)."""

    guess: tuple[int, ...]
    bulls: int
    total: int | None
    counts: dict[int, int]   # symbol -> how often the guess uses it (k_sym)


def clues(log: FeedbackLog) -> list[Clue]:
    return [clue_of(log.variant, e.guess, e.bulls, e.cows) for e in log]


def clue_of(variant: Variant, guess, bulls: int, cows: int) -> Clue:
    guess = tuple(int(s) for s in guess)
    counts: dict[int, int] = {}
    for s in guess:
        counts[s] = counts.get(s, 0) + 1
    total = None if variant.bulls_only else bulls + cows
    return Clue(guess, bulls, total, counts)
