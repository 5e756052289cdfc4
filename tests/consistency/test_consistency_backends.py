"""native, cpsat and sat agree exactly; every solver secret is re-scored with the rule."""
from __future__ import annotations

import itertools
import random
import string

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cbsolve.game.codes import CodeSpace
from cbsolve.consistency import Query, consistent, get_backend
from cbsolve.consistency.backends import CpSatBackend, Engines, SatBackend
from cbsolve.consistency.engine_options import SatOptions
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.rule import score
from cbsolve.game.scoring import possible_responses
from cbsolve.runtime.status import Status
from cbsolve.game.variant import Variant

SOLVERS = {
    "sat-pure": lambda: SatBackend(suffix_budget=1),     # every secret from a SAT call
    "sat": lambda: SatBackend(),                         # block completion
    "cpsat-pure": lambda: CpSatBackend(suffix_budget=1),
    "cpsat": lambda: CpSatBackend(),
}


@st.composite
def variants(draw):
    d = draw(st.integers(2, 6))
    repeats = draw(st.booleans())
    n = draw(st.integers(1, 4 if repeats else min(4, d)))
    nlz = draw(st.booleans())
    feedback = draw(st.sampled_from(["bulls-cows", "bulls"]))
    symbols = draw(st.sampled_from([string.digits, "123456789", string.ascii_uppercase]))[:d]
    return Variant(n, symbols, repeats, no_leading_zero=nlz, feedback=feedback)


@st.composite
def logs(draw):
    """A log from a hidden secret (consistent) or with arbitrary possible replies."""
    variant = draw(variants())
    space = CodeSpace(variant)
    k = draw(st.integers(0, 4))
    guesses = [space.code_at(draw(st.integers(0, space.size - 1))) for _ in range(k)]
    log = FeedbackLog(variant)
    if draw(st.booleans()):
        secret = space.code_at(draw(st.integers(0, space.size - 1)))
        replies = [score(variant, secret, g) for g in guesses]
    else:
        options = possible_responses(variant)
        replies = [draw(st.sampled_from(options)) for _ in guesses]
    for g, (b, c) in zip(guesses, replies, strict=True):
        if b == variant.length - 1 and c == 1:
            continue
        log.add(space.format(g), b, None if variant.bulls_only else c)
    return log


def rescore(log: FeedbackLog, secrets) -> None:
    for text in secrets:
        code = log.space.parse(text)
        for e in log:
            assert score(log.variant, code, e.guess) == (e.bulls, e.cows), (text, e)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs(), st.sampled_from(sorted(SOLVERS)))
def test_solvers_list_exactly_the_native_set(log, solver):
    want = get_backend("native").solve(log, Query(limit=None))
    got = SOLVERS[solver]().solve(log, Query(limit=None))
    assert got.status == want.status
    assert set(got.secrets) == set(want.secrets)
    assert (got.count, got.exact, got.determined, got.truncated) == \
        (want.count, True, want.determined, False)
    rescore(log, got.secrets)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs(), st.sampled_from(["sat", "cpsat"]), st.integers(0, 3))
def test_limited_listing_is_honest(log, solver, limit):
    want = get_backend("native").solve(log, Query(limit=None))
    got = SOLVERS[solver]().solve(log, Query(limit=limit))
    rescore(log, got.secrets)
    assert len(got.secrets) == min(limit, want.count)
    assert set(got.secrets) <= set(want.secrets)
    if got.exact:
        assert got.count == want.count and got.status == want.status
    else:   # a lower bound, and it says so
        assert got.status == Status.FEASIBLE and want.count >= got.count >= limit + 1
        assert got.truncated and got.determined is False


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs(), st.sampled_from(["sat", "cpsat"]))
def test_counts_agree(log, solver):
    want = get_backend("native").solve(log, Query(count=True, limit=0))
    got = SOLVERS[solver]().solve(log, Query(count=True, limit=0))
    assert (got.count, got.exact, got.status, got.determined) == \
        (want.count, True, want.status, want.determined)


@pytest.mark.parametrize("solver", ["sat", "cpsat"])
def test_sampling_small_sets_is_exact_uniform_like_native(solver):
    log = FeedbackLog.parse(Variant.preset("mastermind"), ["1122:1,1", "3456:0,2"])
    want = get_backend("native").solve(log, Query(sample=6, seed=7))
    got = SOLVERS[solver]().solve(log, Query(sample=6, seed=7))
    assert got.secrets == want.secrets and "exact uniform" in got.sampling
    rescore(log, got.secrets)


def test_shortcut_symbols_present_is_wrong_with_repeats():
    """Published solvers count cows as "guess symbols present in the secret"; with repeats
    the total is sum_sym min(k_sym, n_sym). Guess 1111 against 1122 scores (2, 0): the shortcut
    would say total 1. Both encodings must use the true rule."""
    v = Variant.preset("mastermind")
    assert score(v, (0, 0, 1, 1), (0, 0, 0, 0)) == (2, 0)
    log = FeedbackLog.parse(v, ["1111:2,0", "1123:1,1"])

    def shortcut(secret, guess):
        bulls = sum(a == b for a, b in zip(secret, guess, strict=True))
        return bulls, len(set(guess) & set(secret)) - bulls

    codes = CodeSpace(v).codes
    by_shortcut = {tuple(c) for c in codes
                   if all(shortcut(tuple(c), e.guess) == (e.bulls, e.cows) for e in log)}
    native = set(get_backend("native").solve(log, Query(limit=None)).secrets)
    by_shortcut = {CodeSpace(v).format(c) for c in by_shortcut}
    assert native != by_shortcut                       # the shortcut really differs here
    for solver in SOLVERS.values():
        assert set(solver().solve(log, Query(limit=None)).secrets) == native


def test_hidden_secret_in_a_huge_space_is_found_and_rescored():
    log = hidden_secret_log(Variant(20, string.ascii_uppercase, True), 12, seed=3)
    for solver in ("sat", "cpsat"):
        r = get_backend(solver).solve(log, Query(limit=3), deadline=Deadline.from_limit(60))
        assert r.status in (Status.FEASIBLE, Status.OPTIMAL) and r.secrets
        rescore(log, r.secrets)


def hidden_secret_log(variant: Variant, n_guesses: int, seed: int) -> FeedbackLog:
    space = CodeSpace(variant)
    secret, *guesses = space.random_codes(n_guesses + 1, np.random.default_rng(seed))
    log = FeedbackLog(variant)
    for g in guesses:
        b, c = score(variant, secret, g)
        log.add(space.format(g), b, c)
    return log


@pytest.mark.parametrize("seed", range(4))
def test_sat_proves_totals_that_ask_for_too_many_symbols_inconsistent(seed):
    """Two guesses on disjoint letters whose totals add to more than N: a pigeonhole argument
    for a CNF without a global symbol count (PySAT said `unknown` after 5 s); every backend
    must prove it, and the differential tests above are too small to hit it."""
    rng = random.Random(seed)
    n = rng.choice([8, 10])
    letters = rng.sample(string.ascii_uppercase, 2 * n)
    first = rng.randint(n // 2 + 1, n)
    log = FeedbackLog.parse(Variant(n, string.ascii_uppercase, False),
                            ["".join(letters[:n]) + f":0,{first}",
                             "".join(letters[n:]) + f":0,{n - first + 1}"])
    for solver in ("sat", "cpsat"):
        r = get_backend(solver).solve(log, Query(limit=1), deadline=Deadline.from_limit(30))
        assert r.status == Status.INFEASIBLE, (solver, log.tokens(), r.notes)


def test_time_limit_is_reported_never_silent():
    """The mechanism, not its speed: a budget already spent makes every engine take its
    time-out path and say so; a short one either answers or says so (how far past the limit
    an engine ends, in wall time: scripts/bench/bench_time_limits.py)."""
    log = hidden_secret_log(Variant(40, string.digits, True), 40, seed=1)   # the hard band
    for solver in ("sat", "cpsat", "native"):
        r = get_backend(solver).solve(log, Query(limit=1), deadline=Deadline.from_limit(0.0))
        assert r.status == Status.UNKNOWN and r.time_limit_hit, (solver, r.status)
        assert r.count is None and any("time limit" in n for n in r.notes)
    for solver in ("sat", "cpsat"):
        r = get_backend(solver).solve(log, Query(limit=1), deadline=Deadline.from_limit(0.05))
        if r.status == Status.UNKNOWN:
            assert r.count is None and any("time limit" in n for n in r.notes)
        else:
            rescore(log, r.secrets)


def test_count_beyond_the_cap_is_a_lower_bound_unless_counted(monkeypatch):
    log = FeedbackLog.parse(Variant.preset("bulls-cows"), ["0123:0,1"])
    n = get_backend("native").solve(log, Query(count=True)).count
    import cbsolve.consistency.answer as answer

    monkeypatch.setattr(answer, "available", lambda name: False)
    r = SatBackend().solve(log, Query(count=True, count_cap=50, limit=0))
    assert r.exact is False and r.status == Status.FEASIBLE and 50 < r.count < n
    assert any("at least" in note for note in r.notes)


def test_count_beyond_the_cap_uses_ganak():
    import pyganak  # noqa: F401  (a declared dependency: a broken install must fail here)

    log = FeedbackLog.parse(Variant.preset("bulls-cows"), ["0123:0,1"])
    n = get_backend("native").solve(log, Query(count=True)).count
    r = SatBackend().solve(log, Query(count=True, count_cap=50, limit=0), deadline=Deadline.from_limit(60))
    assert (r.count, r.exact, r.status) == (n, True, Status.OPTIMAL)


@pytest.mark.parametrize("entries", [["0123:0,1"], ["0123:4,0", "4567:1,0"]])
def test_an_enumeration_out_of_its_share_leaves_the_count_to_ganak(entries):
    """Enumeration given no time finds nothing: the model counter, given the rest, still
    counts (the count's whole budget used, no time limit reported), and proves an
    inconsistent log inconsistent. It was skipped when enumeration had found nothing."""
    import pyganak  # noqa: F401  (a declared dependency)

    log = FeedbackLog.parse(Variant.preset("bulls-cows"), entries)
    n = get_backend("native").solve(log, Query(count=True)).count
    r = SatBackend(SatOptions(enumerate_share=0.0)).solve(log, Query(count=True, limit=0),
                                                          deadline=Deadline.from_limit(60))
    assert (r.count, r.exact, r.time_limit_hit) == (n, True, False)
    assert r.status == (Status.OPTIMAL if n else Status.INFEASIBLE)
    assert not any("consistency is unknown" in note for note in r.notes), r.notes


def test_approximate_count_is_labelled():
    import pyapproxmc  # noqa: F401  (a declared dependency)

    log = FeedbackLog.parse(Variant(6, "0123456789", True), ["012345:1,1"])
    n = get_backend("native").solve(log, Query(count=True)).count
    import cbsolve.consistency.answer as answer

    real = answer.available
    answer.available = lambda name: name != "pyganak" and real(name)
    try:
        r = SatBackend().solve(log, Query(count=True, count_cap=100, limit=0,
                                          approximate=True, seed=1), deadline=Deadline.from_limit(60))
    finally:
        answer.available = real
    assert r.exact is False and r.count < n
    a = r.approximate
    assert a["method"] == "ApproxMC" and a["epsilon"] > 0 and a["delta"] > 0
    # A PAC bound can fail with probability delta; a factor 4 margin keeps this test honest.
    assert n / 4 <= a["count"] <= 4 * n


#: ``auto``'s probes all get the same seconds: the decision is then the search's answer within
#: a given budget, not the speed of the machine the test runs on.
GENEROUS, SPENT = Engines(probe_seconds=30.0), Engines(probe_seconds=0.0)


def test_auto_uses_native_when_enumerable_and_a_solver_otherwise():
    """Where the search answers, a generous probe (30 s; it answers in milliseconds) sends the
    query to it; where it cannot, a spent probe (0 s) sends it to a solver: both decided under
    a given budget (the probes' times were 0.03-0.25 s, which a loaded machine can miss)."""
    small = FeedbackLog.parse(Variant.preset("bulls-cows"), ["0123:1,1"])
    r = consistent(small, Query(), "auto", engines=GENEROUS)
    assert r.backend == "native" and r.auto["backend"] == "native"
    assert "auto" in r.to_json() and r.to_json()["auto"]["solve_seconds"] >= 0
    big = FeedbackLog.parse(Variant(30, string.ascii_uppercase, True),
                            ["ABCDEFGHIJKLMNOPQRSTUVWXYZABCD:3,5"])
    r = consistent(big, Query(limit=1), "auto", engines=GENEROUS)
    # find-one: a short probe of the depth-first search answers a one-clue log at once...
    assert r.backend == "native" and r.auto["native_estimate_seconds"] > 1
    rescore(big, r.secrets)
    # ... but not a long code with many clues, which goes to CP-SAT (raced with local search)
    v40 = Variant(40, string.digits, True)
    rng = random.Random(7)
    secret = "".join(rng.choice(string.digits) for _ in range(40))
    guesses = ["".join(rng.choice(string.digits) for _ in range(40)) for _ in range(20)]
    space40 = CodeSpace(v40)
    hard = FeedbackLog.parse(v40, ["{}:{},{}".format(g, *score(v40, space40.parse(secret),
                                                                 space40.parse(g)))
                                   for g in guesses])
    r = consistent(hard, Query(limit=1), "auto", engines=SPENT, deadline=Deadline.from_limit(30))
    assert r.backend == "cpsat" and "depth-first search listed only" in r.auto["reason"]
    rescore(hard, r.secrets)
    r = consistent(big, Query(limit=5), "auto", engines=GENEROUS)
    # lists: the native depth-first search when its probe answers (one clue: at once)
    assert r.backend == "native" and "depth-first" in r.auto["reason"]
    rescore(big, r.secrets)


def test_every_code_of_a_tiny_space_round_trips_through_the_encodings():
    """A log that pins one secret: each code of black-peg 3/3 is recovered exactly."""
    v = Variant(3, "123", True, feedback="bulls")
    space = CodeSpace(v)
    for secret in itertools.islice(space.codes, 0, None, 5):
        log = FeedbackLog(v)
        for g in space.codes:
            log.add(space.format(g), score(v, tuple(secret), tuple(g))[0])
        for solver in ("sat-pure", "cpsat-pure"):
            assert SOLVERS[solver]().solve(log, Query(limit=None)).secrets == [space.format(secret)]


def test_bench_script_smoke():
    """scripts/bench/bench_consistency.py: its instances are consistent and its cheap rows run."""
    from testkit import load_script

    bench = load_script("bench_consistency")
    log, secret = bench.random_log(Variant(8, "123456", True), 5, seed=1)
    assert log.space.format(secret) in SatBackend().solve(log, Query(limit=None)).secrets
    rows = bench.count_native(2) + bench.diagnose_rows(1, backends=("native",))
    assert all(r["median"] >= 0 for r in rows)


@pytest.mark.parametrize("backend", ["auto", "native", "cpsat", "sat"])
def test_an_empty_log_counts_the_whole_space_exactly(backend):
    """No entries: every code is consistent, and the count is the code space's size, exact even
    for 10^40 codes (a backend counting one by one stopped at "at least 4e14" after 30 s)."""
    for variant in (Variant.preset("bulls-cows"), Variant(40, "0123456789", True)):
        log = FeedbackLog(variant)
        r = consistent(log, Query(count=True, limit=3), backend=backend, deadline=Deadline.from_limit(10))
        assert r.exact and r.count == log.space.size and r.status == Status.OPTIMAL
        assert len(r.secrets) == 3 and r.truncated and r.determined is False
        for s in r.secrets:
            log.space.parse(s)              # a valid code of the variant


# --- cheap-to-see inconsistencies a backend could not prove (scripts/stress/audit_inconsistent.py) ---
def single_symbol_log(variant: Variant, counts: dict[str, int]) -> FeedbackLog:
    """One single-symbol guess per symbol given: its bulls are the secret's count of it."""
    n = variant.length
    cows = "" if variant.bulls_only else ",0"
    return FeedbackLog.parse(variant, [c * n + f":{k}{cows}" for c, k in counts.items()])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs())
def test_a_pair_the_precheck_rejects_is_inconsistent_by_brute_force(log):
    """The native search's pair pre-check (consistency/precheck.py) is a proof, never a guess."""
    from cbsolve.consistency.native import consistent_indices
    from cbsolve.consistency.precheck import pair_conflict

    pair = pair_conflict(log)
    if pair is not None:
        assert consistent_indices(log.subset(pair)).size == 0, (log.tokens(), pair)


@pytest.mark.parametrize("variant, tokens", [
    # one guess twice with different bulls (40 of 10 digits); was `unknown` after 10 s
    (Variant(40, string.digits, True),
     ["3502131921724085471893866318537210762532:13,18",
      "9081744958244256443407737592767613396571:6,25",
      "3502131921724085471893866318537210762532:25,6"]),
    # one guess twice, same bulls, totals 28 and 25
    (Variant(40, string.digits, True),
     ["2084440554681924390522888990186848474460:21,4",
      "2084440554681924390522888990186848474460:21,7"]),
    # a guess and a copy with 5 positions changed whose bulls differ by 6 (20 of 26 letters)
    (Variant(20, string.ascii_uppercase, True),
     ["VPLRZSMSLLGKHQXHWVYL:7,3", "VPLRZSMSLTGKHMXSHPYL:1,8"]),
    # the same in black-peg Mastermind 16 x 6
    (Variant(16, "123456", True, feedback="bulls"),
     ["3312135161216362:0", "1346133452114214:2", "1346133452114214:5"]),
    # 10 of 26 letters, distinct: a copy with 2 positions changed, bulls 1 and 4
    (Variant(10, string.ascii_uppercase, False),
     ["XEQGLADSON:1,3", "WEQGLAKSON:4,1", "TYBKQACMZL:1,2"]),
])
def test_native_search_proves_two_entries_on_shared_positions_inconsistent(variant, tokens):
    """The search propagates each clue alone, so two replies to (nearly) the same guess left it
    an exhaustive search (`unknown` after 10 s, where CP-SAT and PySAT answer in ms)."""
    log = FeedbackLog.parse(variant, tokens)
    r = get_backend("native").solve(log, Query(limit=1), deadline=Deadline.from_limit(20))
    assert r.status == Status.INFEASIBLE, (r.status, r.notes)
    # the conflict is found in ms; the corrections after it search until the deadline (15 CPU s
    # of a 20 s one on the first log), which only bounds that search here
    assert consistent(log, Query(limit=1), "native", deadline=Deadline.from_limit(3)).conflict is not None


@pytest.mark.parametrize("log", [
    # every symbol's count given, adding to N - 1 (20 of 26 letters); was `unknown` after 10 s
    single_symbol_log(Variant(20, string.ascii_uppercase, True), dict(zip(
        "CMSWOBYRNXFIZJQPUGLEHVTDKA",
        [0, 1, 0, 0, 0, 2, 0, 0, 1, 0, 3, 1, 1, 0, 2, 1, 1, 0, 0, 1, 1, 0, 1, 2, 1, 0],
        strict=True))),
    # the same for 40 of 10 digits (counts add to 39)
    single_symbol_log(Variant(40, string.digits, True), dict(zip(
        "4052381697", [4, 5, 4, 6, 5, 2, 2, 2, 5, 4], strict=True))),
])
def test_sat_proves_counts_that_cannot_add_up_to_n_inconsistent(log):
    """With repeats the totals constrain the symbols' counts, which add up to N; PySAT's CNF
    lacked that sum (and the counts' order n >= t+1 -> n >= t), so these stayed `unknown`
    after 10 s where the native search and CP-SAT answer in ms."""
    r = get_backend("sat").solve(log, Query(limit=1), deadline=Deadline.from_limit(20))
    assert r.status == Status.INFEASIBLE, (r.status, r.notes)


def test_cpsat_proves_black_peg_counts_adding_to_n_minus_1_inconsistent():
    """Black-peg 16 x 6: single-symbol guesses count 15 pegs in all, plus four other clues.
    CP-SAT's presolve lost the row sums' total and it stayed `unknown` after 10 s; the same
    six clues alone it proved in 20 ms."""
    v = Variant(16, "123456", True, feedback="bulls")
    log = FeedbackLog.parse(v, [
        "3244325155453646:3", "1111111111111111:4", "3333333333333333:2", "2222222222222222:1",
        "1234333436416455:2", "5555555555555555:3", "6641134436126645:2", "6666666666666666:4",
        "4444444444444444:1", "6416343525213511:1"])
    r = get_backend("cpsat").solve(log, Query(limit=1), deadline=Deadline.from_limit(20))
    assert r.status == Status.INFEASIBLE, (r.status, r.notes)


def test_a_count_of_zero_by_the_search_is_not_followed_by_a_listing(monkeypatch):
    """Black-peg 16 x 6, colour counts adding to 17: the search's memoised count proves 0 in
    ms, and the listing that used to follow it (to show up to 20 secrets) ran to the time
    limit trying to prove the same thing. The answer must not wait for the limit: no listing
    follows an exact count of 0."""
    from cbsolve.consistency import dfs

    listings = []
    list_in_time = dfs.list_in_time
    monkeypatch.setattr(dfs, "list_in_time",
                        lambda *args, **kwargs: listings.append(1) or list_in_time(*args, **kwargs))
    v = Variant(16, "123456", True, feedback="bulls")
    log = FeedbackLog.parse(v, ["5555555555555555:3", "3333333333333333:6", "1111111111111111:4",
                                "6666666666666666:4"])
    r = get_backend("native").solve(log, Query(count=True), deadline=Deadline.from_limit(30))
    assert r.status == Status.INFEASIBLE and r.count == 0 and r.exact
    assert listings == []
    assert not r.time_limit_hit
