"""Shared checks of the LLM-environment adapters' tests (tests/integrations): the NumPy
reference scorer and plain enumeration, independent of the game session under test."""
from __future__ import annotations

import numpy as np

from cbsolve.codes import CodeSpace
from cbsolve.scoring import score_matrix
from cbsolve.variant import Variant
from testkit import brute_force_consistent


def reference_reply(variant: Variant, secret: str, guess: str) -> tuple[int, int]:
    """(bulls, cows) of ``guess`` against ``secret`` by the NumPy reference scorer."""
    space = CodeSpace(variant)
    g = np.array([space.parse(guess)], dtype=np.uint8)
    s = np.array([space.parse(secret)], dtype=np.uint8)
    return variant.response_of(int(score_matrix(variant, g, s, backend="numpy")[0, 0]))


def reference_count(variant: Variant, moves: list[tuple[str, int, int]]) -> int:
    """Secrets consistent with ``moves`` (guess, bulls, cows), by plain enumeration."""
    space = CodeSpace(variant)
    return len(brute_force_consistent(variant, [(space.parse(g), b, c) for g, b, c in moves]))


def check_moves(session) -> None:
    """Every scored move of ``session``: the reply the reference scorer gives, and an exact
    candidate count equal to plain enumeration's (bounds around it otherwise)."""
    variant, moves = session.variant, []
    for turn in session.turns:
        if turn.kind != "ok":
            continue
        assert (turn.bulls, turn.cows) == reference_reply(variant, session.secret, turn.guess)
        moves.append((turn.guess, turn.bulls, turn.cows))
        truth = reference_count(variant, moves)
        count = turn.candidates
        assert count.lower <= truth <= count.upper
        if count.exact:
            assert count.lower == truth


def weighted_total(rewards: dict, weights: dict, penalty: float, bad: int) -> float:
    return sum(weights[k] * rewards[k] for k in weights) - penalty * bad
