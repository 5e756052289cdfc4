"""The Gymnasium environments take the LLM adapters' turn limit: ``slack=k`` allows the
variant's certified worst case plus k guesses."""
from __future__ import annotations

import pytest

gymnasium = pytest.importorskip("gymnasium")

import cbsolve as cb  # noqa: E402
import cbsolve.gym  # noqa: E402,F401  (registers the ids)


def test_slack_sets_max_guesses_from_the_certified_worst_case():
    v = cb.Variant.from_options("mastermind", length=3, digits=4)
    worst = cb.bounds(v).worst.upper
    env = gymnasium.make("cbsolve/CodeBreaker-v0", variant=v, slack=1)
    assert env.unwrapped.max_guesses == worst + 1
    env.reset(seed=0, options={"secret": "444"})
    ends = [env.step(env.unwrapped.encode("111"))[2:4] for _ in range(worst + 1)]
    assert ends[-1] == (False, True)                    # cut (truncated) after the last guess
    assert all(end == (False, False) for end in ends[:-1])
