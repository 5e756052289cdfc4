"""Per-depth weights in the expected search, and the worst objective's tie-breaks built on them.

The weighted search must match a plain exhaustive search (no bounds, no symmetry, no shortcuts)
for arbitrary nondecreasing weights (zeros included), with every pruning switched off in turn; the
tie-break weights weight(k) = k + BIG * [k == W] must give the lexicographic optimum
(secrets needing W guesses, then total), checked against an exhaustive search of that pair."""
from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from testkit import TINY, informative_splits, replay

from cbsolve.game.codes import CodeSpace
from cbsolve.runtime.deadline import Deadline
from cbsolve.errors import InvalidVariant
from cbsolve.game.rule import score
from cbsolve.search.expected import PRUNINGS, solve_expected
from cbsolve.search.worst import solve_worst, tie_weights
from cbsolve.runtime.status import Status
from cbsolve.game.variant import Variant

INF = (10**18, 10**9)


@cache  # shared by the parametrised tests (the reference is the slow part)
def exhaustive_weighted(variant: Variant, weights: tuple[int, ...], candidates_only: bool = False):
    """(sum of weights, worst) of the best strategy within len(weights) guesses, by plain
    recursion over every guess: the definition. A secret found with guess k costs weights[k-1].
    None if no strategy fits."""
    codes = [tuple(c) for c in CodeSpace(variant).codes]
    table = {(g, s): score(variant, s, g) for g in codes for s in codes}
    win = (variant.length, 0)
    cap = len(weights)

    @cache
    def best(secrets: tuple, level: int):
        if level > cap:
            return INF
        if len(secrets) == 1:
            return (weights[level - 1], 1)
        result = INF
        for _g, classes in informative_splits(table, secrets if candidates_only else codes,
                                               secrets, win):
            total, worst = 0, 1
            for reply, members in classes.items():
                if reply == win:
                    total += weights[level - 1]
                    continue
                t, w = best(tuple(members), level + 1)
                total, worst = total + t, max(worst, 1 + w)
            result = min(result, (total, worst))
        return result

    value = best(tuple(codes), 1)
    return None if value[0] >= INF[0] else value


def weighted_value(hist: dict[int, int], weights: list[int]) -> int:
    return sum(weights[k - 1] * v for k, v in hist.items())


def check_weighted(result, variant, weights, want):
    if want is None:
        assert result.proved and result.status is Status.INFEASIBLE and result.total is None
        return
    assert result.proved and result.status is Status.OPTIMAL
    hist = replay(variant, result.tree)   # the tree, replayed with the scoring rule
    assert hist == result.histogram
    assert (weighted_value(hist, weights), max(hist)) == want
    assert result.lower == result.upper == want[0]
    assert result.total == sum(k * v for k, v in hist.items())


SMALL = [TINY[1], TINY[3], TINY[4], TINY[5], TINY[6], TINY[8]]


@settings(max_examples=12, deadline=None)
@given(variant=st.sampled_from(SMALL), cap=st.integers(2, 5),
       steps=st.lists(st.integers(0, 40), min_size=5, max_size=5))
def test_weighted_optimum_matches_exhaustive_search(variant, cap, steps):
    weights = [sum(steps[:k + 1]) for k in range(cap)]
    weights[-1] += 1  # the last weight must be positive
    want = exhaustive_weighted(variant, tuple(weights))
    result = solve_expected(variant, max_depth=cap, weights=weights, progress=False, workers=2)
    check_weighted(result, variant, weights, want)


@pytest.mark.parametrize("off", PRUNINGS)
def test_weighted_each_pruning_switched_off(off):
    for variant in (TINY[1], TINY[4], TINY[6]):
        for weights in ([1, 2, 3, 104], [1, 5, 6, 40], [2, 3, 50], [0, 0, 0, 1], [0, 1, 1, 3]):
            want = exhaustive_weighted(variant, tuple(weights))
            result = solve_expected(variant, max_depth=len(weights), weights=weights,
                                    progress=False, prune={off: False})
            check_weighted(result, variant, weights, want)


@pytest.mark.parametrize("variant", [TINY[1], TINY[4], TINY[6]], ids=lambda v: v.describe())
def test_weighted_candidates_and_split_driver(variant):
    weights = [1, 2, 3, 4 + 100]
    want = exhaustive_weighted(variant, tuple(weights), candidates_only=True)
    result = solve_expected(variant, max_depth=4, weights=weights, guesses="candidates",
                            progress=False)
    check_weighted(result, variant, weights, want)
    want = exhaustive_weighted(variant, tuple(weights))
    result = solve_expected(variant, max_depth=4, weights=weights, progress=False, workers=2,
                            split_min=2)            # the driver expands every class itself
    check_weighted(result, variant, weights, want)


def test_bad_weights():
    v = Variant(2, "012", True)
    for bad in ([2, 1, 3], [-1, 0, 2], [0, 0, 0], [1, 2]):
        with pytest.raises(InvalidVariant, match="weights"):
            solve_expected(v, max_depth=3, weights=bad)
    with pytest.raises(InvalidVariant, match="weights"):
        solve_expected(v, weights=[1, 2, 3])


@cache
def exhaustive_ties(variant: Variant, W: int, candidates_only: bool = False):
    """(secrets needing W guesses, total) minimised lexicographically over W-guess strategies,
    by plain recursion on pairs (independent of the weight encoding)."""
    codes = [tuple(c) for c in CodeSpace(variant).codes]
    table = {(g, s): score(variant, s, g) for g in codes for s in codes}
    win = (variant.length, 0)
    none = (10**9, 10**9)

    @cache
    def best(secrets: tuple, level: int):
        if level > W:
            return none
        if len(secrets) == 1:
            return (int(level == W), level)
        result = none
        for _g, classes in informative_splits(table, secrets if candidates_only else codes,
                                               secrets, win):
            at, total = 0, 0
            for reply, members in classes.items():
                if reply == win:
                    at, total = at + int(level == W), total + level
                    continue
                a, t = best(tuple(members), level + 1)
                at, total = at + a, total + t
            result = min(result, (at, total))
        return result

    return best(tuple(codes), 1)


@pytest.mark.parametrize("variant", TINY[:9], ids=lambda v: v.describe())
def test_worst_tie_breaks_match_exhaustive_search(variant):
    result = solve_worst(variant, progress=None, workers=2, ties=True)
    W = result.worst
    at, total = exhaustive_ties(variant, W)
    assert result.proved and result.at_worst == (at, at)
    assert result.histogram[W] == at and result.total == total
    assert replay(variant, result.tree) == result.histogram
    assert result.tree["ties"] == {"at_worst": at, "total": total, "proved": True,
                                   "at_worst_proved": True, "total_lower": total}
    # the certificate still proves W - 1 impossible, and verify accepts the whole file
    from cbsolve.certificates.certify import verify

    report = verify(result.tree)
    assert report.valid and report.optimal and report.worst == W


def test_tie_weights_encode_the_lexicographic_order():
    n, W = 10, 3
    w = tie_weights(n, W)
    assert w[:2] == [1, 2] and w[2] == 3 + n * W + 1
    # any strategy's total guesses is at most n*W < BIG, so one more secret at W always costs more
    assert 1 * w[2] + 0 > 0 * w[2] + n * W


def test_mastermind_4_6_ties():  # ~3 s CPU (scripts/bench/bench_optimal.py --ties)
    # Within 5 guesses, 539 secrets of Mastermind 4/6 need the fifth at minimum: proved by this
    # search and by the verifier on the stored model (tests/test_certify_models.py); no
    # publication of the figure found (docs/optimal.md, "Tie-breaks of the worst objective").
    v = Variant.preset("mastermind")
    result = solve_worst(v, progress=None, ties=True)
    assert result.worst == 5 and result.at_worst == (539, 539)
    assert replay(v, result.tree) == result.histogram
    assert result.tree["ties"]["proved"] and result.tree["ties"]["total"] == result.total


def test_tie_breaks_not_started_without_time_to_set_them_up(monkeypatch):
    """`optimal --ties --time-limit 3` ran 5.5 s: the tie-break search sets up and reports a
    tree even when stopped at once. With less time left than its set-up takes (the factor made
    huge here) it is not started, and the note says so; the worst case stays proved."""
    from cbsolve.runtime import time_policy
    from cbsolve.search import worst

    monkeypatch.setattr(time_policy, "TIES_SETUP_FACTOR", 1e9)
    r = worst.solve_worst(Variant.preset("mastermind"), deadline=Deadline.from_limit(600), ties=True,
                          workers=1)
    assert r.proved and r.worst == 5
    assert any("too little to start the tie-break search" in n for n in r.notes)
