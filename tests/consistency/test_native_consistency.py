"""The native filter against a brute-force Python filter on random logs."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from testkit import brute_force_consistent, variants

from cbsolve import CodeSpace, Variant
from cbsolve.consistency import Query, consistent
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.rule import score
from cbsolve.runtime.status import Status


@st.composite
def variant_and_log(draw):
    v = draw(variants(max_length=5, max_symbols=7, max_size=5000))
    space = CodeSpace(v)
    idx = st.integers(0, space.size - 1)
    secret = space.code_at(draw(idx))
    log = FeedbackLog(v)
    for _ in range(draw(st.integers(0, 4))):
        g = space.code_at(draw(idx))
        b, c = score(v, secret, g)
        if draw(st.integers(0, 5)) == 0 and b + c < v.length and (b + 1, c) != (v.length - 1, 1):
            b += 1  # sometimes a wrong reply, so inconsistent logs are covered too
        log.add(space.format(g), b, None if v.bulls_only else c)
    return v, log


@settings(max_examples=80, deadline=None)
@given(variant_and_log())
def test_native_filter_matches_brute_force(case):
    v, log = case
    expected = brute_force_consistent(v, [(e.guess, e.bulls, e.cows) for e in log])
    result = consistent(log, Query(count=True, limit=None), backend="native")
    assert result.count == len(expected) and result.exact
    assert result.secrets == [log.space.format(c) for c in expected]
    assert result.determined == (len(expected) == 1)
    assert result.status == (Status.OPTIMAL if expected else Status.INFEASIBLE)
    if not expected:  # the conflict is minimal: every proper subset obtained by dropping one entry holds
        conflict = result.conflict
        assert conflict and not brute_force_consistent(
            v, [(log[n - 1].guess, log[n - 1].bulls, log[n - 1].cows) for n in conflict])
        for drop in conflict:
            rest = [log[n - 1] for n in conflict if n != drop]
            assert brute_force_consistent(v, [(e.guess, e.bulls, e.cows) for e in rest])


def test_limit_truncates_and_sample_is_seeded_and_uniform_without_replacement():
    v = Variant.preset("bulls-cows")
    log = FeedbackLog.parse(v, ["0123:1,2", "4567:0,1"])
    full = consistent(log, Query(limit=None), backend="native")
    assert full.count == 108 and not full.truncated
    part = consistent(log, Query(limit=5), backend="native")
    assert part.secrets == full.secrets[:5] and part.truncated
    a = consistent(log, Query(sample=10, seed=3), backend="native")
    b = consistent(log, Query(sample=10, seed=3), backend="native")
    assert a.secrets == b.secrets and len(set(a.secrets)) == 10
    assert set(a.secrets) <= set(full.secrets)
    counts = np.zeros(108)
    for seed in range(300):
        for s in consistent(log, Query(sample=5, seed=seed), backend="native").secrets:
            counts[full.secrets.index(s)] += 1
    assert counts.min() > 0  # every secret reachable by the sampler


def test_determined_secret():
    v = Variant.preset("mastermind")
    log = FeedbackLog.parse(v, ["1122:0,0", "3344:0,0", "5566:4,0"])
    result = consistent(log, Query(), backend="native")
    assert result.count == 1 and result.determined and result.secrets == ["5566"]


def test_list_based_entry_equals_the_array_filter_across_chunks():
    """Counts and lists go through the list-based entry (no NumPy); it enumerates the space
    in chunks of 65,536 codes. On 6 of 8 symbols with repeats (262,144 codes, four chunks) and
    a distinct no-leading-zero game it gives the array filter's secrets, in order, any limit."""
    from cbsolve.consistency.native import consistent_indices, consistent_rows, format_rows

    for v, entries in [(Variant(6, "ABCDEFGH", repeats=True), [("AABBCD", 1, 2)]),
                       (Variant(5, "0123456789", repeats=False, no_leading_zero=True),
                        [("10234", 1, 1), ("56789", 0, 2)])]:
        log = FeedbackLog(v)
        for guess, b, c in entries:
            log.add(guess, b, c)
        idx = consistent_indices(log)
        want = log.space.format_many(log.space.codes[idx])
        for limit in (None, 0, 1, 70_000):
            n, rows = consistent_rows(log, limit)
            assert n == idx.size
            assert format_rows(log, rows) == want[:limit]
