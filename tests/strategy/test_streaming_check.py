"""The independent replay of a streaming strategy (cbsolve/strategy/streaming_check.py): the
kernel names each class's guess, the replay splits and counts with the NumPy reference scorer,
and its histogram must be the evaluation's; a strategy that does not split a class is caught."""
from __future__ import annotations

import pytest
from testkit import STREAMING_GAMES

from cbsolve.runtime.deadline import Deadline
from cbsolve.runtime.status import StopReason
from cbsolve.strategy import streaming_check
from cbsolve.strategy.streaming import Recipe, evaluate_streaming
from cbsolve.game.variant import Variant


@pytest.mark.parametrize("variant,recipe", STREAMING_GAMES,
                         ids=lambda x: getattr(x, "name", None) or "")
def test_replay_finds_the_evaluations_histogram(variant, recipe):
    evaluated = evaluate_streaming(variant, recipe)
    check = streaming_check.replay_every_secret(variant, recipe)
    assert check.complete and check.secrets == evaluated.secrets
    assert check.histogram == evaluated.histogram
    assert (check.worst, check.total) == (evaluated.worst, evaluated.total)


def test_a_guess_that_splits_nothing_is_caught(monkeypatch):
    """A kernel that names a code outside a class whose secrets all reply alike: no progress."""
    variant = Variant(3, "0123", repeats=True)
    real = streaming_check._engine

    class Stuck:
        def __init__(self, engine):
            self.engine = engine

        def choose_at(self, depth, members):
            # depth 0: a code of one symbol; later: the same code again, which splits nothing
            return 0 if depth > 0 else self.engine.choose_at(depth, members)

    monkeypatch.setattr(streaming_check, "_engine", lambda *a: Stuck(real(*a)))
    with pytest.raises(RuntimeError, match="does not split"):
        streaming_check.replay_every_secret(variant, Recipe(first="000"))


def test_an_expired_deadline_leaves_no_histogram():
    check = streaming_check.replay_every_secret(Variant.preset("mastermind"), Recipe(),
                                                deadline=Deadline.from_limit(0))
    assert not check.complete and check.worst is None
    assert check.stop is StopReason.TIME
