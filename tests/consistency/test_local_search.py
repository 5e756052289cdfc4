"""Native local search (cbsolve._native.local_search): whatever it returns is consistent.

The kernel can only find secrets; these tests check that every code it reports has cost 0 by the
pure-Python rule (never trusted on its own word), respects the variant (distinct symbols, no
leading zero) and the forbidden patterns, and that it finds the known-consistent hidden secret's
set on seeded instances.
"""
from __future__ import annotations

import string

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from testkit import brute_force_consistent, consistent_with, hidden_secret_log, is_code, logs

from cbsolve._native import local_search
from cbsolve.consistency.portfolio import WILD, LocalSearch, LocalSearchOptions
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.variant import Variant


def arrays(log: FeedbackLog):
    n = log.variant.length
    g = np.ascontiguousarray(log.guesses_array(), dtype=np.uint8).reshape(-1, n)
    b = np.array([e.bulls for e in log], dtype=np.int32)
    t = np.array([-1 if log.variant.bulls_only else e.bulls + e.cows for e in log], dtype=np.int32)
    return g, b, t


def kernel(log: FeedbackLog, seed=0, flips=20_000, forbidden=None, want=1, start=None):
    v, n = log.variant, log.variant.length
    g, b, t = arrays(log)
    forb = np.zeros((0, n), np.uint8) if forbidden is None else np.asarray(forbidden, np.uint8)
    st_ = np.zeros(0, np.uint8) if start is None else np.asarray(start, np.uint8)
    opts = LocalSearchOptions(seed=seed, max_flips=flips, seconds=30.0, want=want)
    return local_search.solve(g, b, t, v.n_symbols, v.repeats, v.no_leading_zero, st_, forb,
                              np.zeros(1, np.int32), opts.native(local_search))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs(), st.integers(0, 2**32), st.integers(1, 4))
def test_every_code_returned_is_consistent_and_valid(log, seed, want):
    r = kernel(log, seed=seed, flips=3_000, want=want)
    sols = [tuple(int(s) for s in c) for c in r["solutions"]]
    assert len(set(sols)) == len(sols) <= want
    for code in sols:
        assert is_code(log.variant, code) and consistent_with(log, code)
    assert is_code(log.variant, r["best"])        # even the best non-solution is a code
    truth = brute_force_consistent(log.variant, [(e.guess, e.bulls, e.cows) for e in log])
    if not truth:
        assert not sols and r["best_cost"] > 0
    assert (r["best_cost"] == 0) == bool(sols)   # a cost-0 code is always reported


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs(), st.integers(0, 2**32))
def test_forbidden_patterns_are_never_returned(log, seed):
    truth = brute_force_consistent(log.variant, [(e.guess, e.bulls, e.cows) for e in log])
    if not truth:
        return
    n = log.variant.length
    first = truth[0]
    prefix = [first[0]] + [WILD] * (n - 1)              # every code starting like ``first``
    r = kernel(log, seed=seed, flips=5_000, forbidden=[list(first), prefix], want=len(truth),
               start=first)
    for code in r["solutions"]:
        code = tuple(int(s) for s in code)
        assert code != first and code[0] != first[0] and consistent_with(log, code)
    allowed = [c for c in truth if c[0] != first[0]]
    assert len(r["solutions"]) <= len(allowed)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_finds_a_hidden_secret_at_n40(seed):
    """N=40, 10 digits with repeats, 20 random guesses: the find row (docs/benchmarks.md, "Find one
    and `determined`") the local search is for. Deterministic for the seed and flip budget
    (measured: 200-8000 flips)."""
    variant = Variant(40, string.digits, True)
    _, log = hidden_secret_log(variant, 20, np.random.default_rng(seed))
    r = LocalSearch(log, seed).run(None, max_flips=200_000, want=2)
    assert len(r["solutions"]) == 2
    for code in r["solutions"]:
        assert consistent_with(log, code)


def test_variants_distinct_and_no_leading_zero_are_kept():
    variant = Variant(8, string.digits, False, no_leading_zero=True)
    _, log = hidden_secret_log(variant, 6, np.random.default_rng(5))
    r = kernel(log, flips=100_000, want=3)
    assert r["solutions"]
    for code in r["solutions"]:
        assert is_code(variant, code) and consistent_with(log, code)


def test_bad_shapes_are_rejected():
    log = FeedbackLog(Variant(4, string.digits, True))
    log.add("0123", 1, 1)
    g, b, t = arrays(log)
    stop = np.zeros(1, np.int32)
    opts = LocalSearchOptions(max_flips=10, seconds=1.0).native(local_search)
    with pytest.raises(ValueError):
        local_search.solve(g, b[:0], t, 10, True, False, np.zeros(0, np.uint8),
                           np.zeros((0, 4), np.uint8), stop, opts)
    with pytest.raises(ValueError):
        local_search.solve(g, b, t, 10, True, False, np.zeros(3, np.uint8),
                           np.zeros((0, 4), np.uint8), stop, opts)


def test_a_stop_flag_that_would_be_copied_is_rejected():
    """The stop flag must be the caller's own int32 array: a converted copy would never see
    the caller set it."""
    log = FeedbackLog(Variant(4, string.digits, True))
    log.add("0123", 1, 1)
    g, b, t = arrays(log)
    for copied in (np.zeros(1, np.int16), np.zeros(4, np.int32)[::2]):
        with pytest.raises(TypeError):
            local_search.solve(g, b, t, 10, True, False, np.zeros(0, np.uint8),
                               np.zeros((0, 4), np.uint8), copied,
                               LocalSearchOptions(max_flips=10, seconds=1.0).native(local_search))
