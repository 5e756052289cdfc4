"""Local-search options tried on the hard band (docs/benchmarks.md, "Local-search portfolio"): swaps only
and Luby restarts.

Swaps only must keep the start code's symbol counts in everything it reports (solutions and the
best code), and both options must still return only consistent, valid codes.
"""
from __future__ import annotations

import string

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from testkit import consistent_with, hidden_secret_log, is_code, logs

from cbsolve.game.codes import CodeSpace
from cbsolve.consistency.portfolio import LocalSearch
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.variant import Variant


def counts(code, d: int) -> list[int]:
    return np.bincount(np.asarray(code, dtype=np.int64), minlength=d).tolist()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs(), st.integers(0, 2**32), st.booleans())
def test_swaps_only_keeps_the_start_counts(log, seed, luby):
    v = log.variant
    rng = np.random.default_rng(seed)
    start = CodeSpace(v).random_codes(1, rng)[0]
    r = LocalSearch(log, seed).run(None, start=start, max_flips=3_000, want=3,
                                   swaps_only=True, luby=luby, restart=200)
    for code in [*r["solutions"], r["best"]]:
        assert counts(code, v.n_symbols) == counts(start, v.n_symbols)
        assert is_code(v, code)
    for code in r["solutions"]:
        assert consistent_with(log, code)


@pytest.mark.parametrize("seed", [0, 1])
def test_both_options_find_the_hidden_secret_at_n40(seed):
    """N=40, 10 digits, 20 clues; swaps only starts from a random arrangement of the secret's
    counts (what the totals force on such logs)."""
    variant = Variant(40, string.digits, True)
    rng = np.random.default_rng(seed)
    secret, log = hidden_secret_log(variant, 20, rng)
    start = rng.permutation(secret).astype(np.uint8)
    for kw in ({"swaps_only": True, "start": start}, {"luby": True, "restart": 1_000}):
        r = LocalSearch(log, seed).run(None, max_flips=300_000, **kw)
        assert r["solutions"], kw
        assert all(consistent_with(log, code) for code in r["solutions"])


def test_swaps_only_needs_a_start():
    log = FeedbackLog.parse(Variant.preset("mastermind"), ["1122:1,1"])
    with pytest.raises(ValueError, match="start"):
        LocalSearch(log).run(None, max_flips=10, swaps_only=True)
