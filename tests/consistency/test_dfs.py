"""The native depth-first search (consistency/dfs.py) against the native filter: same set in
the same (lexicographic) order, same count, exact streaming, honest limits; every code re-scored."""
import functools
import string

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from testkit import variant_and_log

from cbsolve import CodeSpace, Variant
from cbsolve.consistency import Query, auto_choice, consistent, dfs, dfs_answer, plan
from cbsolve.consistency.backends import Engines, NativeBackend
from cbsolve.consistency.native import consistent_indices
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog, random_log
from cbsolve.game.rule import score
from cbsolve.runtime.status import Status, StopReason


def rescore(log, codes):
    for code in codes:
        code = tuple(int(s) for s in code)
        for e in log:
            assert score(log.variant, code, e.guess) == (e.bulls, e.cows), (code, e)


def filtered(log):
    return log.space.codes[consistent_indices(log)]


@settings(max_examples=150, deadline=None)
@given(variant_and_log())
def test_dfs_lists_and_counts_exactly_the_native_set_in_order(log):
    want = filtered(log)
    got = dfs.list_codes(log, None)
    assert got.complete and got.status == "complete"
    assert np.array_equal(got.codes, want)          # same codes, lexicographic order
    rescore(log, got.codes)
    c = dfs.count(log)
    assert c.complete and c.count == want.shape[0]
    one = dfs.first(log)
    assert np.array_equal(one.codes, want[:1])
    assert one.complete or want.shape[0] >= 1      # none found: proved none
    assert not one.complete or want.shape[0] <= 1  # finished: no second code exists


@settings(max_examples=80, deadline=None)
@given(variant_and_log(max_entries=7), st.sampled_from([0, 1, 3, 10_000]))
def test_with_and_without_count_vectors(log, vec_cap):
    """Per-clue bounds alone (0), a count-vector filter that gives up early (1, 3) or always
    applies: the same set."""
    got = dfs.run(log, dfs.LIST, vec_cap=vec_cap)
    assert got.complete and np.array_equal(got.codes, filtered(log))


@settings(max_examples=80, deadline=None)
@given(variant_and_log(max_entries=4), st.sampled_from([0, 1, 50, 10**6]), st.data())
def test_memoised_counts_and_ranks(log, memo_cap, data):
    """Subtree sizes memoised or not (0), with a full memo after 1 or 50 entries: same count,
    same codes at the same ranks, also when resuming from a cursor."""
    want = filtered(log)
    n = want.shape[0]
    assert dfs.run(log, dfs.COUNT, memo_cap=memo_cap).count == n
    if n:
        ranks = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=6)))
        got = dfs.run(log, dfs.SELECT, ranks=ranks, memo_cap=memo_cap)
        assert np.array_equal(got.codes, want[ranks])
    start = log.space.code_at(data.draw(st.integers(0, log.space.size - 1)))
    rest = sum(tuple(c) >= tuple(start) for c in want.tolist())
    assert dfs.run(log, dfs.COUNT, start=start, memo_cap=memo_cap).count == rest


@settings(max_examples=60, deadline=None)
@given(variant_and_log(max_entries=4), st.integers(1, 40), st.sampled_from([0, 10**6]))
def test_counts_resumed_from_cursors_add_up(log, nodes, memo_cap):
    """A count stopped by its budget returns a cursor; counting on from it, slice after slice,
    adds up to the filter's count (the resumed count behind ``--count``'s use of its time)."""
    total, cursor = 0, None
    for _ in range(10_000):
        c = dfs.run(log, dfs.COUNT, start=cursor, max_nodes=nodes, memo_cap=memo_cap)
        total += c.count
        if c.complete:
            break
        assert c.status == "nodes"
        cursor = c.cursor
    assert c.complete and total == filtered(log).shape[0]


@settings(max_examples=60, deadline=None)
@given(variant_and_log(), st.integers(1, 9))
def test_listing_resumed_from_its_cursor_yields_each_code_exactly_once(log, chunk):
    """A listing stopped at its limit resumes from its cursor (as a timed listing does)."""
    want = filtered(log)
    parts = _listed_in_chunks(log, chunk)
    assert all(1 <= part.shape[0] <= chunk for part in parts)
    got = np.concatenate(parts) if parts else want[:0]
    assert np.array_equal(got, want)


def _listed_in_chunks(log, chunk):
    """Every consistent code, in kernel calls of at most ``chunk`` codes, each resuming from
    the cursor the call before left."""
    parts, cursor = [], None
    while True:
        c = dfs.run(log, dfs.LIST, chunk, cursor)
        if c.codes.shape[0]:
            parts.append(c.codes)
        if c.complete:
            return parts
        assert c.status is StopReason.LIMIT
        cursor = c.cursor


@settings(max_examples=60, deadline=None)
@given(variant_and_log(), st.data())
def test_codes_at_ranks_and_resume_from_any_cursor(log, data):
    want = filtered(log)
    n = want.shape[0]
    if n:
        ranks = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=5)))
        got = dfs.at_ranks(log, ranks)
        assert np.array_equal(got.codes, want[ranks])
    # A cursor may be any code (consistent or not): the call lists every code >= it.
    start = log.space.code_at(data.draw(st.integers(0, log.space.size - 1)))
    rest = dfs.run(log, dfs.LIST, start=start)
    keep = [tuple(c) >= tuple(start) for c in want.tolist()]
    assert np.array_equal(rest.codes, want[np.array(keep, dtype=bool)] if n else want)


@settings(max_examples=60, deadline=None)
@given(variant_and_log(), st.sampled_from([1, 2, 5, None]), st.booleans())
def test_dfs_backend_answers_queries_like_the_filter(log, limit, determined):
    q = Query(limit=limit, determined=determined)
    want = NativeBackend("filter").solve(log, q)
    got = NativeBackend("dfs").solve(log, q)
    assert got.secrets == want.secrets                # the first ``limit``, lexicographic
    if got.exact:
        assert (got.status, got.count, got.determined) == (want.status, want.count, want.determined)
    else:   # stopped at the limit (plus one to decide ``determined``): a partial answer
        assert got.status == Status.FEASIBLE and got.truncated
        assert 1 <= got.count <= want.count
        assert got.determined is (False if determined else got.determined)
        if determined:
            assert want.determined is False
    qc = Query(count=True, limit=3)
    assert NativeBackend("dfs").solve(log, qc).count == NativeBackend("filter").solve(log, qc).count


@settings(max_examples=30, deadline=None)
@given(variant_and_log(), st.integers(1, 6), st.integers(0, 99))
def test_sampling_is_exact_uniform_draw_of_the_set(log, k, seed):
    want = {log.space.format(c) for c in filtered(log)}
    r = NativeBackend("dfs").solve(log, Query(sample=k, seed=seed))
    assert set(r.secrets) <= want and len(set(r.secrets)) == len(r.secrets) == min(k, len(want))
    assert r.count == len(want) and r.exact and "exact uniform" in r.sampling


def test_sampling_is_uniform_over_ranks():
    """Each of 12 secrets drawn about equally often over 1200 seeded draws of 1 (chi-square
    with 11 degrees of freedom, 99.9% quantile 31.3: fails by chance once in a thousand)."""
    v = Variant.preset("bulls-cows")
    log = FeedbackLog.parse(v, ["0123:0,2", "4567:1,1", "1890:0,2"])
    n = dfs.count(log).count
    assert n == len(NativeBackend("filter").solve(log, Query(limit=None)).secrets) == 12
    hits = {}
    for seed in range(1200):
        (s,) = NativeBackend("dfs").solve(log, Query(sample=1, seed=seed)).secrets
        hits[s] = hits.get(s, 0) + 1
    assert len(hits) == n
    expected = 1200 / n
    chi2 = sum((h - expected) ** 2 / expected for h in hits.values())
    assert chi2 < 31.3      # chi-square quantile 0.999, 11 d.o.f. (standard tables)


@pytest.mark.parametrize("length,repeats", [(2, False), (3, True)])
def test_more_than_64_symbols(length, repeats):
    """The wide-mask path (D > 64) against the filter."""
    v = Variant(length, "".join(chr(c) for c in range(0x100, 0x100 + 70)), repeats)
    space = CodeSpace(v)
    rng = np.random.default_rng(5)
    secret, *guesses = space.random_codes(4, rng)
    log = FeedbackLog(v)
    for g in guesses:
        b, c = score(v, secret, g)
        log.add(space.format(g), b, c)
    got = dfs.list_codes(log, None).codes
    assert np.array_equal(got, filtered(log)) and tuple(secret) in set(map(tuple, got.tolist()))


SPARSE = Variant(12, "123456", True)


def big_log(n_guesses=4, seed=0, variant=SPARSE):
    return random_log(variant, n_guesses, seed)


def test_large_space_goes_to_dfs_and_finds_the_secret():
    """6^12 = 2.2e9 codes: the native backend searches, never enumerates."""
    log, secret = big_log()
    r = consistent(log, Query(limit=None), backend="native")
    assert r.status == Status.OPTIMAL and r.exact and r.count == len(r.secrets)
    assert log.space.format(secret) in r.secrets
    assert any("depth-first" in n for n in r.notes)
    rescore(log, [log.space.parse(s) for s in r.secrets])
    c = consistent(log, Query(count=True, limit=0), backend="native")
    assert c.count == r.count and c.exact


#: The kernel looks at its stop flag, node budget and clock every this many steps (dfs.cpp), so
#: a call whose budget is spent or whose flag is set stops within this many nodes.
KERNEL_CHECK_STEPS = 256


def test_time_limit_is_honoured_and_reported():
    """A count of ~10^12 codes (few clues on N=16 of 26) cannot finish in 0.2 s: a lower
    bound, labelled. The mechanism: a kernel call whose budget is spent stops at its first look
    at the clock, with a cursor to resume from (how far past the limit a query ends, in wall
    time, is measured by scripts/bench/bench_time_limits.py: docs/benchmarks.md, "Time limits, Ctrl-C
    and input caps")."""
    log, _ = big_log(1, 3, Variant(16, string.ascii_uppercase, True))
    r = consistent(log, Query(count=True, limit=2), backend="native", deadline=Deadline.from_limit(0.2))
    assert not r.exact and r.time_limit_hit and r.status == Status.FEASIBLE
    assert r.count >= 2
    assert any("at least" in n for n in r.notes)
    rescore(log, [log.space.parse(s) for s in r.secrets])
    spent = dfs.count(log, seconds=0.0)
    assert spent.status == "time" and spent.cursor is not None and spent.nodes < KERNEL_CHECK_STEPS
    c = dfs.count(log, seconds=0.05)
    assert c.status == "time" and c.cursor is not None
    # resuming from the cursor continues the count where it stopped
    more = dfs.run(log, dfs.COUNT, start=c.cursor, seconds=0.05)
    assert more.count > 0


def test_count_cap_gives_a_lower_bound():
    log, _ = big_log(2, 1, Variant(9, string.digits, True))
    r = NativeBackend("dfs").solve(log, Query(count=True, count_cap=1000, limit=0))
    assert not r.exact and r.count >= 1000 and r.status == Status.FEASIBLE


@settings(max_examples=40, deadline=None)
@given(variant_and_log(max_entries=4), st.integers(-1, 1))
def test_a_cap_equal_to_the_count_gives_the_exact_count(log, offset):
    """``count_cap`` K: exactly K secrets is an exact count (the search looks for one more; it
    said "at least K" when the set had exactly K, found by a differential test), more than K
    is "at least K" unless the count is known exactly anyway."""
    n = filtered(log).shape[0]
    cap = n + offset
    if cap < 1:
        return
    r = NativeBackend("dfs").solve(log, Query(count=True, count_cap=cap, limit=0))
    if n <= cap:
        assert r.exact and r.count == n
    else:        # exact too when the (K+1)-th secret was also the search's last code
        assert (r.exact and r.count == n) or (not r.exact and r.count == cap)


def test_inconsistent_large_log_is_proved_empty_and_diagnosed():
    log, secret = big_log(4, 2)
    e = log.entries[0]
    bad = FeedbackLog(log.variant, [type(e)(e.guess, e.text, e.bulls, e.cows + 1)]
                      + list(log.entries[1:]) + [e])
    r = consistent(bad, Query(), backend="native")
    assert r.status == Status.INFEASIBLE and r.count == 0 and r.exact
    assert r.conflict is not None and set(r.conflict) >= {1, len(bad)}


@pytest.mark.parametrize("limit", [1, 7])
def test_cli_lists_a_huge_space_with_the_native_backend(capsys, limit):
    import json

    from cbsolve.cli import main

    log, _ = big_log()
    args = ["consistent", *log.tokens(), "--length", "12", "--symbols", "123456", "--repeats",
            "--backend", "native", "--limit", str(limit), "--json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["backend"] == "native" and len(out["secrets"]) == limit
    rescore(log, [log.space.parse(s) for s in out["secrets"]])


def test_exact_count_log_uses_the_search_first():
    from cbsolve.consistency.counting import exact_count_log

    log, _ = big_log(4, 1)
    n, exact, method = exact_count_log(log, 30.0)
    assert exact and "depth-first" in method
    assert n == len(consistent(log, Query(limit=None), backend="native").secrets)


#: ``auto``'s probes all get the same seconds: a decision under a given budget.
GENEROUS, SPENT = Engines(probe_seconds=30.0), Engines(probe_seconds=0.0)


def test_auto_probes_the_search_and_falls_back_to_a_solver():
    """auto: a count of a large set goes to the search; a list the search cannot produce in
    its probe (N=20 of 26 with 10 clues: no secret in 10 s, measured) goes to CP-SAT when
    bounded, to PySAT when it asks for everything. Decided under given probe budgets: a
    generous one where the search answers (the count: ~0.3 s, beside a 0.25 s probe, which a
    loaded machine decided either way), a spent one where it does not."""
    log, _ = big_log(2, 1, Variant(9, string.digits, True))   # 5.1M secrets, counted in ~0.3 s
    r = consistent(log, Query(count=True, limit=3), backend="auto", engines=GENEROUS)
    assert r.backend == "native" and r.exact and "depth-first" in r.auto["reason"]
    assert r.count == dfs.count(log).count
    hard, secret = big_log(10, 0, Variant(20, string.ascii_uppercase, True))
    r = consistent(hard, Query(limit=3), backend="auto", engines=SPENT,
                   deadline=Deadline.from_limit(20))
    assert r.backend == "cpsat" and "depth-first search listed only" in r.auto["reason"]
    rescore(hard, [hard.space.parse(s) for s in r.secrets])
    assert auto_choice(hard, Query(limit=None), deadline=Deadline.from_limit(20),
                       probe_seconds=0.0)["backend"] == "sat"


def test_listing_everything_is_capped_honestly():
    log, _ = big_log(4, 1)
    r = NativeBackend("dfs", list_cap=10).solve(log, Query(limit=None))
    assert len(r.secrets) == 10 and not r.exact and r.truncated and r.count >= 10
    assert r.status == Status.FEASIBLE and any("stopped at 10" in n for n in r.notes)
    rescore(log, [log.space.parse(s) for s in r.secrets])


def test_sampling_a_set_too_large_to_count_in_time_is_labelled():
    """N=16 of 26 letters with one clue (~10^19 secrets): no exact count in 0.3 s, so the
    sample is CMSGen's near-uniform one, labelled, every secret re-scored."""
    log, _ = big_log(1, 3, Variant(16, string.ascii_uppercase, True))
    r = NativeBackend("dfs").solve(log, Query(sample=3, seed=2), deadline=Deadline.from_limit(0.3))
    assert not r.exact and r.time_limit_hit and len(r.secrets) >= 1
    assert "uniform" in r.sampling and "exact uniform" not in r.sampling
    rescore(log, [log.space.parse(s) for s in r.secrets])


@settings(max_examples=80, deadline=None)
@given(variant_and_log(max_entries=7), st.integers(1, 5), st.data())
def test_meet_in_the_middle_lists_the_same_codes_and_resumes(log, suffix, data):
    """The last ``suffix`` positions from the meet-in-the-middle table (count vectors on):
    the filter's set in the same order, also when resuming from any cursor or stopping at a
    limit inside a suffix list and going on from its cursor."""
    want = filtered(log)
    got = dfs.run(log, dfs.LIST, suffix=suffix)
    assert got.complete and np.array_equal(got.codes, want)
    start = log.space.code_at(data.draw(st.integers(0, log.space.size - 1)))
    keep = np.array([tuple(c) >= tuple(start) for c in want.tolist()], dtype=bool)
    rest = dfs.run(log, dfs.LIST, start=start, suffix=suffix)
    assert np.array_equal(rest.codes, want[keep] if want.shape[0] else want)
    chunk = data.draw(st.integers(1, 4))
    parts, cursor = [], None
    while True:
        c = dfs.run(log, dfs.LIST, chunk, start=cursor, suffix=suffix)
        parts.append(c.codes)
        if c.complete:
            break
        assert c.status == "limit" and c.codes.shape[0] == chunk
        cursor = c.cursor
    assert np.array_equal(np.concatenate(parts), want)


def mastermind_16x6_log(seed=2):
    return random_log(Variant(16, "123456", True), 8, seed)[0]


@functools.cache
def plain_listing(seed=2) -> np.ndarray:
    """The whole set of ``mastermind_16x6_log(seed)`` listed by the search alone (no table:
    the reference the table's listings are checked against), once a test process: about 4 s
    of CPU each, which five tests shared."""
    dfs.KEPT.clear()                      # a searcher of its own, as a fresh call gets
    codes = dfs.run(mastermind_16x6_log(seed), dfs.LIST, suffix=0).codes
    codes.flags.writeable = False
    return codes


def test_a_searcher_builds_its_table_once_and_only_when_listing_pays():
    """The kernel object lives across calls: a first secret costs no table (the search finds
    it in a few nodes), a whole listing builds it once, and listing again in chunks reuses it;
    every way gives the same codes."""
    log = mastermind_16x6_log()
    dfs.KEPT.clear()
    one = dfs.first(log)
    s = dfs.searcher(log)
    assert one.codes.shape[0] == 1 and s.table_rows == 0 and s.table_builds == 0
    whole = dfs.list_codes(log, None)
    assert whole.complete and s.table_rows > 0 and s.table_builds == 1
    chunks = _listed_in_chunks(log, 500)
    assert np.array_equal(np.concatenate(chunks), whole.codes)
    assert dfs.searcher(log) is s and s.table_builds == 1
    assert np.array_equal(plain_listing(), whole.codes)
    rescore(log, whole.codes[:200])


def test_table_build_stops_at_the_time_limit_and_the_listing_resumes():
    """An explicit 8-position table (10^5 rows) cannot be built in 1 ms: the call stops with
    status ``time``, keeps no half-built table, and what it listed is a prefix of the set; the
    listing then resumes from its cursor to the complete set."""
    log = mastermind_16x6_log()
    want = plain_listing()
    dfs.KEPT.clear()
    dfs.first(log)                        # settle the count vectors (no table)
    c = dfs.run(log, dfs.LIST, seconds=0.001, suffix=8)
    s = dfs.searcher(log)
    assert c.status == "time" and not c.complete and s.table_builds == 0
    assert np.array_equal(c.codes, want[:c.codes.shape[0]])
    rest = dfs.run(log, dfs.LIST, start=c.cursor, suffix=8)
    assert rest.complete and s.table_builds == 1
    assert np.array_equal(np.concatenate([c.codes, rest.codes]), want)


@settings(max_examples=200, deadline=None)
@given(variant_and_log(max_entries=6), st.integers(1, 3), st.sampled_from([0, 256]), st.data())
def test_lies_list_count_ranks_and_resume_like_the_filter(log, lies, vec_cap, data):
    """``lies``: the codes contradicting at most that many entries, exactly the mismatch
    counts' set of the enumerated space, in order; counted, picked by rank and resumed; with
    count vectors (each with the totals it gets wrong) and without."""
    from cbsolve.consistency.rescoring import mismatch_counts

    codes = log.space.codes
    want = codes[mismatch_counts(log, codes) <= lies] if len(log) else codes
    got = dfs.run(log, dfs.LIST, lies=lies, vec_cap=vec_cap)
    assert got.complete and np.array_equal(got.codes, want)
    assert dfs.run(log, dfs.COUNT, lies=lies, vec_cap=vec_cap).count == want.shape[0]
    if want.shape[0]:
        ranks = sorted(set(data.draw(st.lists(st.integers(0, want.shape[0] - 1), max_size=4))))
        got = dfs.run(log, dfs.SELECT, ranks=ranks, lies=lies, vec_cap=vec_cap)
        assert np.array_equal(got.codes, want[ranks])
    start = log.space.code_at(data.draw(st.integers(0, log.space.size - 1)))
    keep = np.array([tuple(c) >= tuple(start) for c in want.tolist()], dtype=bool)
    rest = dfs.run(log, dfs.LIST, start=start, lies=lies, vec_cap=vec_cap)
    assert np.array_equal(rest.codes, want[keep] if want.shape[0] else want)


def test_max_lies_beyond_the_filter_uses_the_search():
    """Mastermind with 16 pegs (2.8e12 codes) and a wrong reply: ``auto`` answers --max-lies 1
    by the depth-first search; the secret is among the answers, every answer contradicts at
    most one reply, and the SAT backend counts the same set. The probe's budget is generous
    (the decision is the search's answer, not this machine's speed)."""
    from cbsolve.consistency.lies import consistent_with_lies

    v = Variant(16, "123456", True)
    true_log, secret = random_log(v, 16, 5)
    log = FeedbackLog(v)
    for i, e in enumerate(true_log):
        log.add(e.text, e.bulls + (i == 3) * (1 if e.bulls + e.cows < 16 else -1), e.cows)
    r = consistent_with_lies(log, 1, Query(limit=None), deadline=Deadline.from_limit(60),
                             engines=GENEROUS)
    assert r.auto["backend"] == "native" and r.exact
    assert log.space.format(secret) in r.secrets
    for s in r.secrets:
        code = log.space.parse(s)
        wrong = sum(score(v, code, x.guess) != (x.bulls, x.cows) for x in log)
        assert wrong <= 1
    sat = consistent_with_lies(log, 1, Query(count=True, limit=0), "sat", deadline=Deadline.from_limit(60))
    assert sat.exact and sat.count == r.count


def test_auto_keeps_a_listing_the_probe_left_going_and_resumes_it():
    """A probe that lists fast but cannot finish (Mastermind 16x6, 8 guesses: ~7,000 secrets in
    ~0.5 s) hands its partial listing to the search, which resumes from the probe's cursor:
    the whole set, in order, no code twice."""
    log = mastermind_16x6_log()
    want = plain_listing()
    dfs.KEPT.clear()     # a probe of 0.02 s that goes on from one secret a second
    r = consistent(log, Query(limit=None), engines=Engines(probe_seconds=0.02, probe_list_going=1))
    assert r.auto["backend"] == "native" and "goes on" in r.auto["reason"]
    assert r.exact and r.count == want.shape[0]
    assert r.secrets == log.space.format_many(want)


@pytest.mark.parametrize("cap", [300, 5_000])
def test_an_automatic_table_too_big_gives_way_to_a_shorter_one(cap):
    """Automatic tables hold at most ``table_cap`` rows: beyond it the table covers one
    position fewer (the search goes one level deeper), the same codes in the same order."""
    log = mastermind_16x6_log(0)
    want = plain_listing(0)
    dfs.KEPT.clear()
    got = dfs.run(log, dfs.LIST, table_cap=cap)
    s = dfs.searcher(log)
    assert got.complete and np.array_equal(got.codes, want)
    assert 0 < s.table_rows <= cap and s.table_builds == 1


def test_one_searcher_shared_by_threads_gives_every_thread_the_whole_set():
    """Calls on one kernel object are serialised (it builds its table in place): four threads
    listing the same log at once each get the whole set, in order."""
    from concurrent.futures import ThreadPoolExecutor

    log = mastermind_16x6_log(1)
    want = plain_listing(1)
    dfs.KEPT.clear()
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda _: dfs.run(log, dfs.LIST).codes, range(4)))
    assert all(np.array_equal(g, want) for g in got)
    assert dfs.searcher(log).table_builds == 1


def test_timed_listing_keeps_time_to_check_and_format_what_it_found():
    """`consistent --all --time-limit 5` on N=40 used to run 19 s: the search listed for 5 s,
    then re-checking and formatting its millions of codes took the rest. A timed listing now
    keeps POST_SECONDS_PER_SYMBOL per symbol listed: with that cost made huge it stops after
    its first chunk, status ``time``, and resuming from its cursor lists exactly the rest."""
    log, _ = random_log(Variant(9, string.digits, False), 2, 0)
    whole = dfs.list_codes(log, None).codes
    assert whole.shape[0] > dfs.TIMED_CHUNK                 # needs more than one chunk
    first = dfs.list_in_time(log, whole.shape[0] + 1, Deadline.from_limit(60.0),
                             post_per_symbol=1.0)
    assert first.status == "time" and first.codes.shape[0] == dfs.TIMED_CHUNK
    rest = dfs.list_in_time(log, whole.shape[0] + 1, None, part=first)
    assert rest.complete and np.array_equal(rest.codes, whole)


@settings(max_examples=120, deadline=None)
@given(variant_and_log(max_entries=7), st.sampled_from([1, 2, 10**6]))
def test_guided_search_finds_codes_of_the_set_and_proves_what_it_exhausts(log, want):
    """The search in the marginals' order (positions permuted, symbols per position in their
    own order): every code it lists is in the set, none twice; exhausted, it listed the whole
    set; stopped at ``want``, it listed that many (no-leading-zero and distinct codes included)."""
    truth = {tuple(c) for c in filtered(log).tolist()}
    got = dfs.guided(log, want, None)
    codes = [tuple(c) for c in got.codes.tolist()]
    assert len(set(codes)) == len(codes) and set(codes) <= truth
    if got.complete:
        assert set(codes) == truth and got.status == "complete"
    else:
        assert got.status == "limit" and len(codes) == want <= len(truth)
    assert got.guided and not got.resumable


def test_a_guided_listing_is_never_resumed():
    log, _ = big_log()
    part = dfs.guided(log, 1, None)
    with pytest.raises(ValueError, match="guided"):
        dfs.list_in_time(log, 3, None, part=part)


@settings(max_examples=60, deadline=None)
@given(variant_and_log(max_entries=7))
def test_the_race_answers_find_one_like_the_filter(log):
    """Whichever search wins, find-one gets a secret of the set, or the proof that there is
    none; ``auto``'s probe takes it (limit 1, no ``determined``) and answers like the filter."""
    truth = {tuple(c) for c in filtered(log).tolist()}
    c = dfs.race_first(log, 1, None)
    assert c.complete or c.status == "limit"
    assert {tuple(x) for x in c.codes.tolist()} <= truth and len(c.codes) == min(1, len(truth))
    found = plan.probe_search(log, Query(limit=1, determined=False))
    assert found.ok
    r = dfs_answer.solve(log, Query(limit=1, determined=False), head_start=found.head_start)
    assert (r.status == Status.INFEASIBLE) == (not truth)
    assert len(r.secrets) == min(1, len(truth))
    rescore(log, [log.space.parse(s) for s in r.secrets])


def test_a_set_stop_flag_stops_the_search_and_its_set_up():
    """The race's flag: set before the call, the kernel stops at its first check (count
    vectors and the suffix table check it too) with status ``stopped`` and a cursor."""
    log, _ = big_log(1, 3, Variant(16, string.ascii_uppercase, True))
    stop = np.ones(1, np.int32)
    dfs.KEPT.clear()
    c = dfs.run(log, dfs.LIST, None, stop=stop)
    assert c.status == "stopped" and c.cursor is not None and c.nodes < KERNEL_CHECK_STEPS
    g = dfs.guided(log, 10**6, None, stop=stop)
    assert g.status == "stopped" and not g.complete
    for copied in (np.ones(1, np.int16), np.ones(4, np.int32)[::2]):   # a copy would miss it
        with pytest.raises(TypeError):
            dfs.run(log, dfs.LIST, 1, stop=copied)


def test_guided_order_is_for_listing_only_and_checked():
    from cbsolve._native import dfs as kernel

    log, _ = big_log()
    s = kernel.Searcher(**dfs.prepare(log))
    ok = list(range(6)) * 12
    for bad, mode in (([0] * 5, dfs.LIST), (ok[:-1] + [6], dfs.LIST), (ok, dfs.COUNT)):
        with pytest.raises(ValueError, match="order"):
            s.run(mode=mode, limit=1, start=[], ranks=[], max_nodes=-1, seconds=-1.0, order=bad)


def test_a_call_waiting_for_a_busy_searcher_keeps_its_time_limit_and_stop_flag():
    """Calls on one log share a searcher and run one at a time; a call that waits behind a
    long one still stops at its own time limit or flag, having done nothing (its cursor is its
    start). Found by a differential test: a 0.01 s race waited 2.4 s behind a count. The busy
    call here has no time limit and runs until the test sets its flag, so every waiting call
    that returns while it still runs returned on its own budget or flag."""
    import threading
    import time

    log, _ = big_log(1, 3, Variant(16, string.ascii_uppercase, True))
    dfs.first(log)                                      # the searcher exists
    busy_flag = np.zeros(1, np.int32)
    busy = threading.Thread(target=lambda: dfs.run(log, dfs.COUNT, stop=busy_flag))
    # a watchdog, not a timing assertion: a waiting call that waited for the busy one would
    # otherwise hang; after it fires, the assertions on the busy call fail
    watchdog = threading.Timer(120.0, busy_flag.__setitem__, (0, 1))
    busy.start()
    watchdog.start()
    time.sleep(0.2)                                     # set-up: the busy call holds the searcher

    def still_busy() -> bool:
        return busy.is_alive() and not busy_flag[0]

    try:
        c = dfs.run(log, dfs.LIST, 1, seconds=0.05)
        assert still_busy()
        # on its own it lists one code at once (status ``limit``): it waited, then gave up
        assert c.status == "time"
        assert c.codes.shape == (0, 16) and c.cursor == (0,) * 16
        stopped = dfs.run(log, dfs.LIST, 1, stop=np.ones(1, np.int32))
        assert still_busy()
        assert stopped.status == "stopped" and stopped.codes.shape == (0, 16)
        race = dfs.race_first(log, 1, Deadline.from_limit(0.05))    # the guided search: own searcher
        assert still_busy()
        assert race.codes.shape[0] == 1 or race.status == "time"
    finally:
        busy_flag[0] = 1
        busy.join()
        watchdog.cancel()
    rescore(log, race.codes)


def test_an_unknown_mode_is_an_error_not_a_crash():
    from cbsolve._native import dfs as kernel

    log, _ = big_log()
    for mode in (-1, 3):
        with pytest.raises(ValueError, match="mode"):
            kernel.Searcher(**dfs.prepare(log)).run(mode=mode, limit=-1, start=[], ranks=[],
                                                    max_nodes=-1, seconds=-1.0)
