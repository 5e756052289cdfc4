"""Count vectors (consistency/count_vectors.py) against the native filter, and the
belief-propagation marginals (consistency/marginals.py) against exact marginals where
sum-product is exact (a single factor: a tree) and against hard zeros the log forces."""
import itertools
import string

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from testkit import variant_and_log

from cbsolve import Variant
from cbsolve.consistency.count_vectors import count_vectors
from cbsolve.consistency.marginals import _leave_one_out, marginals
from cbsolve.consistency.native import consistent_indices
from cbsolve.game.feedback import FeedbackLog, random_log


def consistent_codes(log):
    return log.space.codes[consistent_indices(log)]


@settings(max_examples=120, deadline=None)
@given(variant_and_log(bulls_only=False))
def test_count_vectors_are_exactly_those_of_the_consistent_secrets(log):
    found = count_vectors(log, cap=10_000, seconds=30)
    if len(log) == 0:
        assert found is None
        return
    codes = consistent_codes(log)
    want = sorted({tuple(np.bincount(c, minlength=log.variant.n_symbols)) for c in codes})
    # Counts are necessary, not sufficient: every consistent secret's vector is listed, and a
    # listed vector meets every total (checked directly), even if no secret realises it.
    assert set(want) <= set(found)
    for vec in found:
        assert sum(vec) == log.variant.length
        for e in log:
            k = np.bincount(e.guess, minlength=log.variant.n_symbols)
            assert int(np.minimum(k, vec).sum()) == e.bulls + e.cows
    if not log.variant.repeats:
        assert all(max(vec) <= 1 for vec in found)


def test_count_vectors_gives_up_beyond_the_cap_and_without_totals():
    v = Variant(6, "0123456", True)
    log, _ = random_log(v, 1, seed=3)
    assert count_vectors(log, cap=1) is None                 # one clue leaves many vectors
    bulls = Variant(6, "0123456", True, False, "bulls")
    log, _ = random_log(bulls, 3, seed=3)
    assert count_vectors(log) is None


def test_count_vectors_of_the_band_contain_the_secret_counts():
    v = Variant(40, string.digits, True)
    for seed in range(3):
        log, secret = random_log(v, 40, seed)
        found = count_vectors(log)
        assert found and tuple(np.bincount(secret, minlength=10)) in found


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 7), st.data())
def test_leave_one_out_matches_brute_force(n, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 10**6)))
    pi = rng.random((3, n))
    pi[0, 0] = 1.0 - 1e-12                          # near-certain indicators included
    targets = rng.integers(0, n + 1, size=3)
    match, miss = _leave_one_out(pi, targets)
    for f in range(3):
        for p in range(n):
            others = [q for q in range(n) if q != p]
            dist = np.zeros(n + 1)
            for bits in itertools.product((0, 1), repeat=len(others)):
                prob = np.prod([pi[f, q] if b else 1 - pi[f, q] for q, b in zip(others, bits, strict=True)])
                dist[sum(bits)] += prob
            want_match = dist[targets[f] - 1] if targets[f] >= 1 else 0.0
            assert abs(match[f, p] - want_match) < 1e-9
            assert abs(miss[f, p] - dist[targets[f]]) < 1e-9


@settings(max_examples=80, deadline=None)
@given(variant_and_log(max_entries=1, bulls_only=True))
def test_one_clue_marginals_are_exact(log):
    """One bulls-only clue and no count factor: the factor graph is a star, so sum-product is
    exact (the leading-zero rule is a prior on one position, exact too). Distinct codes are
    excluded: their all-different rule is not a factor here."""
    codes = consistent_codes(log)
    if not log.variant.repeats or len(log) == 0 or len(codes) == 0:
        return
    n, d = log.variant.length, log.variant.n_symbols
    exact = np.zeros((n, d))
    for p in range(n):
        exact[p] = np.bincount(codes[:, p], minlength=d) / len(codes)
    got = marginals(log)
    assert np.abs(got - exact).max() < 1e-6


def test_forced_zeros_and_normalisation():
    v = Variant(8, "012345", True, True)          # no leading zero
    log, secret = random_log(v, 12, seed=7)
    counts = np.bincount(secret, minlength=6)
    m = marginals(log, counts)
    assert np.allclose(m.sum(axis=1), 1)
    assert m[0, 0] == 0                          # the leading-zero rule
    for e in log:
        if e.bulls == 0:                         # no position may show the guess's symbol
            assert all(m[p, s] < 1e-6 for p, s in enumerate(e.guess))
    for s in np.flatnonzero(counts == 0):         # an absent symbol appears nowhere
        assert m[:, s].max() < 1e-6


def test_overdetermined_band_log_points_at_the_secret():
    """At 90 random clues the band's logs have one secret and sum-product finds it
    (docs/benchmarks.md, "Hard band"); a regression in the messages shows here first."""
    v = Variant(40, string.digits, True)
    log, secret = random_log(v, 90, seed=0)
    found = count_vectors(log)
    assert found and len(found) == 1
    m = marginals(log, found[0])
    assert (m.argmax(axis=1) == np.asarray(secret)).all()


#: CP-SAT lists every code of each drawn game (about 70 ms an example): 15 examples in the
#: default run, the 60 it had in the slow one.
@settings(max_examples=15, deadline=None)
@given(variant_and_log(bulls_only=False))
def test_pinned_counts_keep_cpsat_solution_set(log):
    """The count-vector bounds are redundant: CP-SAT with them lists exactly the filter's set."""
    _pinned_counts_keep_cpsat_solution_set(log)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(variant_and_log(bulls_only=False))
def test_pinned_counts_keep_cpsat_solution_set_more_examples(log):
    _pinned_counts_keep_cpsat_solution_set(log)


def _pinned_counts_keep_cpsat_solution_set(log):
    from cbsolve.consistency.count_vectors import pin_counts
    from cbsolve.consistency.cpsat import CpSatOracle, model_for
    from cbsolve.runtime.deadline import Deadline

    cm = model_for(log)
    pin_counts(cm, log)
    found, how = CpSatOracle(cm).find_many(None, Deadline(60))
    assert how == "complete"
    assert sorted(found) == sorted(map(tuple, consistent_codes(log).tolist()))


#: Loopy propagation that oscillates (here the largest marginal swings between 1 - 1e-3 and 1):
#: the kernels differ by 2.2e-16 after one sweep, 4.6e-16 after three, 2.1e-4 after 27.
OSCILLATING = FeedbackLog.parse(Variant(6, "01234567", False, no_leading_zero=True), [
    "142760:1,4", "134257:6,0", "102354:3,3", "106543:1,3", "103247:4,1", "105723:1,4"])


@settings(max_examples=80, deadline=None)
@given(variant_and_log(max_entries=6), st.booleans(), st.integers(1, 30))
@example(OSCILLATING, False, 27)
def test_native_marginals_match_the_numpy_reference(log, with_counts, sweeps):
    """The C++ kernel (cbsolve._native.belief) runs the reference's computation: same factors,
    schedule, damping and floor, so the two agree to rounding over the first sweeps, with and
    without a count factor, for every variant feature. Rounding is amplified where a probability
    sits at the clamp 1 - 1e-12: a last-bit difference in NumPy's summation (its order depends on
    memory alignment) makes 1 - p differ by up to 1.1e-16 / 1e-12 = 1.1e-4 relatively (a deep run
    found 5.4e-7 after 3 sweeps), hence 1e-4; a wrong factor, schedule or damping moves marginals
    by far more within three sweeps. Where the propagation oscillates, later sweeps amplify the
    last bits without limit (``OSCILLATING``), so the whole run is checked to be marginals."""
    vecs = count_vectors(log) if with_counts and not log.variant.bulls_only else None
    counts = vecs[0] if vecs else None
    early = min(sweeps, 3)
    want = marginals(log, counts, sweeps=early, native=False)
    got = marginals(log, counts, sweeps=early)
    assert got.shape == want.shape == (log.variant.length, log.variant.n_symbols)
    assert np.abs(got - want).max() < 1e-4
    whole = marginals(log, counts, sweeps=sweeps)
    assert whole.shape == got.shape and np.isfinite(whole).all()
    assert (whole >= 0).all() and (whole <= 1 + 1e-9).all()


@settings(max_examples=60, deadline=None)
@given(variant_and_log(bulls_only=False))
def test_belief_guided_cpsat_lists_the_same_set(log):
    """The branching order from the marginals changes CP-SAT's path, never its answers: with
    one count vector pinned and the guide on, CP-SAT lists exactly the filter's set."""
    from cbsolve.consistency import cpsat
    from cbsolve.runtime.deadline import Deadline

    vecs = count_vectors(log)
    if not vecs or len(vecs) != 1:
        return
    oracle = cpsat.CpSatOracle(cpsat.model_for(log), log=log)
    oracle.ready(Deadline(60))
    assert oracle.cm.guided == cpsat.CpSatOptions().guide
    found, how = oracle.find_many(None, Deadline(60))
    assert how == "complete"
    assert sorted(found) == sorted(map(tuple, consistent_codes(log).tolist()))


def test_guide_is_used_when_one_count_vector_is_left():
    from cbsolve.consistency import cpsat
    from cbsolve.runtime.deadline import Deadline

    v = Variant(8, "0123", True)
    log, secret = random_log(v, 10, seed=2)
    assert len(count_vectors(log)) == 1
    oracle = cpsat.CpSatOracle(cpsat.model_for(log), log=log)
    oracle.ready(Deadline(60))
    assert oracle.cm.guided
    found, how = oracle.find_many(None, Deadline(60))
    assert how == "complete" and tuple(secret) in found
    assert sorted(found) == sorted(map(tuple, consistent_codes(log).tolist()))
