"""Diagnosis: minimal conflicts and fewest corrections checked by brute force; lies; CLI."""
from __future__ import annotations

import json
import string
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cbsolve.cli import main
from cbsolve.game.codes import CodeSpace
from cbsolve.consistency import Query, consistent, diagnose
from cbsolve.consistency.diagnose import conflict_search, corrections
from cbsolve.consistency.lies import consistent_with_lies
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import Feedback, FeedbackLog
from cbsolve.game.rule import score
from cbsolve.game.scoring import possible_responses
from cbsolve.runtime.status import Status
from cbsolve.game.variant import Variant

BACKENDS = ["native", "sat", "cpsat"]
#: Mastermind 16x6, 13 entries, one guess answered twice (also a row of
#: scripts/bench/bench_time_limits.py).
ONE_GUESS_TWICE = Path(__file__).parents[1] / "fixtures" / "logs" / "mastermind-16x6-one-guess-twice.txt"


def lies_of(log: FeedbackLog) -> np.ndarray:
    """Brute force: for every code, how many entries it contradicts."""
    codes = log.space.codes
    return np.array([sum(score(log.variant, tuple(c), e.guess) != (e.bulls, e.cows) for e in log)
                     for c in codes])


def holds(log: FeedbackLog) -> bool:
    return bool((lies_of(log) == 0).any()) if len(log) else True


@st.composite
def bad_logs(draw):
    """Small logs with random possible replies (mostly inconsistent)."""
    repeats = draw(st.booleans())
    d = draw(st.integers(3, 5))
    n = draw(st.integers(2, 3))
    feedback = draw(st.sampled_from(["bulls-cows", "bulls"]))
    v = Variant(n, string.digits[:d], repeats, feedback=feedback)
    space = CodeSpace(v)
    options = [r for r in possible_responses(v) if not (r[0] == n - 1 and r[1] == 1)]
    log = FeedbackLog(v)
    for _ in range(draw(st.integers(1, 6))):
        g = space.code_at(draw(st.integers(0, space.size - 1)))
        b, c = draw(st.sampled_from(options))
        log.add(space.format(g), b, None if v.bulls_only else c)
    return log


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bad_logs(), st.sampled_from(BACKENDS))
def test_conflict_is_minimal_by_brute_force(log, backend):
    conflict, minimal = conflict_search(log, backend)
    if holds(log):
        assert conflict is None
        return
    assert minimal and conflict and all(1 <= k <= len(log) for k in conflict)
    assert not holds(log.subset(conflict))                  # cannot all hold
    for k in conflict:                                       # each one is needed
        assert holds(log.subset([j for j in conflict if j != k]))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bad_logs(), st.sampled_from(BACKENDS))
def test_corrections_are_fewest_and_work(log, backend):
    fixes, proved, secret = corrections(log, backend)
    assert proved
    assert len(fixes) == lies_of(log).min()                 # fewest, by brute force
    fixed = list(log.entries)
    for fix in fixes:
        e = fixed[fix["entry"] - 1]
        assert fix["from"] == (f"{e.bulls}" if log.variant.bulls_only else f"{e.bulls},{e.cows}")
        b, *c = (int(x) for x in fix["to"].split(","))
        fixed[fix["entry"] - 1] = Feedback(e.guess, e.text, b, c[0] if c else 0)
        assert f"reply {fix['entry']}" in fix["message"]
    assert holds(FeedbackLog(log.variant, fixed))           # the changes make it consistent


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bad_logs(), st.sampled_from(BACKENDS), st.integers(1, 2))
def test_max_lies_matches_brute_force(log, backend, lies):
    want = {log.space.format(c) for c, k in zip(log.space.codes, lies_of(log), strict=True) if k <= lies}
    r = consistent_with_lies(log, lies, Query(limit=None), backend)
    assert set(r.secrets) == want and r.count == len(want) and r.exact
    assert r.status == (Status.OPTIMAL if want else Status.INFEASIBLE)


def test_conflict_and_corrections_in_a_huge_space():
    """N=20, 26 letters with repeats: only solvers can diagnose; answers re-checked."""
    v = Variant(20, string.ascii_uppercase, True)
    space = CodeSpace(v)
    secret, *guesses = space.random_codes(9, np.random.default_rng(5))
    log = FeedbackLog(v)
    for g in guesses:
        b, c = score(v, secret, g)
        log.add(space.format(g), b, c)
    e = log.entries[3]
    log.entries[3] = Feedback(e.guess, e.text, e.bulls, e.cows + (1 if e.bulls + e.cows < 20 else -1))
    log.add(log.entries[3].text, e.bulls, e.cows)           # the same guess, the true reply
    r = consistent(log, Query(limit=1), "auto", deadline=Deadline.from_limit(60))
    assert r.status == Status.INFEASIBLE and r.backend in ("sat", "cpsat")
    assert r.conflict == [4, 9]
    # either reply alone could be the wrong one: both are named, each option re-checked alone
    assert sorted(f["entry"] for f in r.corrections) == [4, 9]
    for fix in r.corrections:
        assert fix["replies"] == 1 and fix["secrets"] is None      # not counted beyond the filter
        fixed = list(log.entries)
        b, c = (int(x) for x in fix["to"].split(","))
        old = fixed[fix["entry"] - 1]
        fixed[fix["entry"] - 1] = Feedback(old.guess, old.text, b, c)
        again = consistent(FeedbackLog(v, fixed), Query(limit=1), "cpsat", deadline=Deadline.from_limit(60))
        assert again.status in (Status.FEASIBLE, Status.OPTIMAL)


def _solvers_not_called(*args, **kwargs):
    raise AssertionError("the depth-first search should have answered")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bad_logs())
def test_beyond_the_filter_the_search_diagnoses_like_brute_force(log):
    """Past the filter, ``native`` (and ``auto``) diagnose by the depth-first search: deletion
    tests and L = 1, 2, ... lies, each search exhaustive, so both answers are proved. Forced
    here on small logs, with the solvers barred, and checked by brute force."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(diagnose, "_native_ok", lambda log, backend: False)
        mp.setattr(diagnose, "_conflict_solvers", _solvers_not_called)
        mp.setattr(diagnose, "_corrections_cpsat", _solvers_not_called)
        conflict, minimal = conflict_search(log, "native")
        fixes, proved, secret = corrections(log, "native")
    if holds(log):
        assert conflict is None
        return
    assert minimal and not holds(log.subset(conflict))
    for k in conflict:
        assert holds(log.subset([j for j in conflict if j != k]))
    assert proved and len(fixes) == lies_of(log).min()
    assert sum(score(log.variant, secret, e.guess) != (e.bulls, e.cows) for e in log) == len(fixes)


def test_an_inconsistent_log_beyond_the_filter_is_diagnosed_by_the_search(monkeypatch):
    """N=10 of 26 letters, distinct (1.9e13 codes): the SAT deletion had not proved a minimal
    conflict in 15 s, nor CP-SAT the fewest corrections (found by a differential test); the
    search proves both at once."""
    v = Variant(10, string.ascii_uppercase, False)
    log = FeedbackLog.parse(v, ["PINKYQGEJM:0,2", "PYBDVHFWMQ:2,6", "BJIGQXTURS:0,5",
                                "KFMHNJTLQE:0,2", "DZIHEMRSYV:0,4", "COLSNKBQJA:0,2"])
    from cbsolve.consistency import diagnose as diagnosis

    def solvers_asked(*args, **kwargs):
        raise AssertionError("the solvers were asked: the search did not answer")

    # the mechanism, not its speed: the search proves both, so the solvers are never asked
    # (they get the time the search left: 15 s and more for this log, docs/benchmarks.md,
    # "Diagnosis")
    monkeypatch.setattr(diagnosis, "_conflict_solvers", solvers_asked)
    monkeypatch.setattr(diagnosis, "_corrections_cpsat", solvers_asked)
    r = consistent(log, Query(limit=1, determined=False), "auto", deadline=Deadline.from_limit(30))
    assert r.status == Status.INFEASIBLE and r.conflict == [2, 3]
    assert r.corrections and all(f["replies"] == 1 and f["entry"] in (2, 3)
                                 for f in r.corrections)
    # only the counts of the repairs may be cut ("at least", labelled), not the diagnosis
    assert not any("time limit" in n for n in r.notes)
    assert all(f["secrets_exact"] or "reply 2: " in " ".join(r.notes) for f in r.corrections)
    assert any("fewest replies to change: 1;" in n for n in r.notes)


def test_a_deletion_test_the_search_finds_hard_goes_to_sat(monkeypatch):
    """Mastermind 16x6 with one guess answered twice: dropping entries leaves small subsets that
    the search can only prove empty by a huge exhaustive search (10 s per test, found by a
    cross-check) while SAT proves them in ms; each test alternates the two engines. The
    mechanism: a first engine that never decides (the search on such a subset) leaves every
    test to SAT, one SAT call after each of its tries, and the conflict is still proved."""
    from cbsolve.consistency import diagnose as diagnosis
    from cbsolve.consistency.sat import SatSession
    from cbsolve.runtime.deadline import Deadline

    log = FeedbackLog.from_file(Variant(16, "123456", True), ONE_GUESS_TWICE)
    assert conflict_search(log, "native", deadline=Deadline.from_limit(20)) == ([6, 7], True)
    tries, by_sat = [], []
    sat_solve = SatSession.solve
    monkeypatch.setattr(SatSession, "solve", lambda self, assumptions, deadline=None:
                        by_sat.append(sat_solve(self, assumptions, deadline)) or by_sat[-1])
    found = diagnosis._conflict_by_tests(log, Deadline(20), lambda *args: tries.append(1))
    assert found == ([6, 7], True)
    # the whole set, then each entry once: every test decided by SAT, each after one try
    assert sum(a is not None for a in by_sat) == 1 + len(log) and len(tries) == len(by_sat)


def test_conflict_search_reports_unproved_minimality_on_timeout():
    log = FeedbackLog.parse(Variant.preset("bulls-cows"), ["0123:4,0", "0123:0,4"])
    conflict, minimal = conflict_search(log, "sat", deadline=Deadline.from_limit(30))
    assert (conflict, minimal) == ([1, 2], True)


# --- CLI ------------------------------------------------------------------------------------
def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("backend", ["sat", "cpsat", "native", "auto"])
def test_cli_inconsistent_log_exits_1_with_conflict_and_corrections(capsys, backend):
    code, out, _ = run(capsys, "consistent", "0123:1,1", "4567:0,2", "0123:2,0",
                       "--backend", backend, "--json")
    data = json.loads(out)
    assert code == 1 and data["consistent"] is False
    assert data["conflict"] == [1, 3]
    # the same guess answered twice: either answer alone can be wrong, to the other's score
    assert sorted((f["entry"], f["to"]) for f in data["corrections"]) == [(1, "2,0"), (3, "1,1")]
    assert data["corrections"][0]["entry"] == 3          # the newest reply first
    code, out, _ = run(capsys, "consistent", "0123:1,1", "4567:0,2", "0123:2,0",
                       "--backend", backend)
    assert code == 1 and "replies 1 and 3 cannot both be right" in out
    assert "reply 3 (0123:2,0) alone could be wrong; it fits as 1,1" in out


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_cli_solver_backends_agree_with_native(capsys, backend):
    args = ["consistent", "1122:1,1", "3456:0,2", "--variant", "mastermind", "--all", "--json"]
    _, out, _ = run(capsys, *args)
    native = json.loads(out)
    code, out, _ = run(capsys, *args, "--backend", backend)
    data = json.loads(out)
    assert code == 0 and data["backend"] == backend
    assert set(data["secrets"]) == set(native["secrets"]) and data["count"] == native["count"]


def test_cli_max_lies(capsys):
    code, out, _ = run(capsys, "consistent", "0123:1,1", "4567:0,2", "0123:2,0",
                       "--max-lies", "1", "--count", "--json", "--backend", "sat")
    data = json.loads(out)
    log = FeedbackLog.parse(Variant.preset("bulls-cows"), ["0123:1,1", "4567:0,2", "0123:2,0"])
    assert code == 0 and data["max_lies"] == 1
    assert data["count"] == int((lies_of(log) <= 1).sum()) and data["exact"]


def test_cli_huge_space_with_time_limit(capsys):
    code, out, _ = run(capsys, "consistent", "--length", "30", "--letters", "26", "--repeats",
                       "ABCDEFGHIJKLMNOPQRSTUVWXYZABCD:3,5", "--limit", "2", "--json",
                       "--time-limit", "20")
    data = json.loads(out)
    # 26^30 codes: never the filter; the depth-first search's probe answers a one-clue log
    assert code == 0 and data["auto"]["backend"] == "native" and len(data["secrets"]) == 2
    assert "depth-first" in data["auto"]["reason"]
    assert data["count"] >= 3 and data["exact"] is False and data["truncated"]


@pytest.mark.parametrize("args, word", [
    (["--backend", "z3"], "z3"),
    (["--count-cap", "-1"], "--count-cap"),
    (["--time-limit", "-1"], "--time-limit"),
    (["--max-lies", "-2"], "--max-lies"),
])
def test_cli_bad_options_exit_2(capsys, args, word):
    code, out, err = run(capsys, "consistent", "0123:1,1", *args)
    assert code == 2 and word in err and "Traceback" not in err and err.count("\n") == 1


def test_cli_default_time_limit_is_reported_and_zero_means_none(capsys):
    # A huge space with a tiny limit must stop and say so in text and JSON.
    clue = "0123456789" * 4 + ":4,30"
    code, out, _ = run(capsys, "consistent", "--digits", "10", "--length", "40", "--repeats",
                       clue, "--count", "--time-limit", "0.001", "--json")  # a count: ~10^30
    data = json.loads(out)
    assert data["time_limit"] == 0.001 and data["time_limit_hit"] is True
    assert any("time limit of 0.001 s" in n for n in data["notes"])
    code, out, _ = run(capsys, "consistent", "0123:4,0", "--time-limit", "0", "--json")
    data = json.loads(out)
    assert "time_limit" not in data and data["secrets"] == ["0123"]


# --- beyond the filter, where CP-SAT's LP proves what CDCL and the search cannot ---------------
def bulls_overflow_log(seed: int = 0) -> tuple[FeedbackLog, list[int]]:
    """N=40 of 10 digits: 20 replies to random guesses for a hidden secret, then three guesses
    that differ at every position (digit + 0, 1, 2), whose bulls are raised to add up to 41:
    at most 40 positions can match one of them. Totals stay true. Returns the log and the
    numbers of the three doctored entries."""
    from cbsolve.game.feedback import random_log

    v = Variant(40, string.digits, True)
    log, secret = random_log(v, 20, seed)
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 10, 40)
    guesses = [tuple(int(x) for x in (base + k) % 10) for k in range(3)]
    replies = [list(score(v, secret, g)) for g in guesses]
    extra = 41 - sum(b for b, _ in replies)
    for r in replies:                       # move cows to bulls, keeping each total
        step = min(extra, r[1])
        r[0], r[1], extra = r[0] + step, r[1] - step, extra - step
    assert extra == 0
    tokens = log.tokens() + [f"{''.join(map(str, g))}:{b},{c}"
                             for g, (b, c) in zip(guesses, replies, strict=True)]
    return FeedbackLog.parse(v, tokens), [21, 22, 23]


@pytest.mark.slow
def test_bulls_adding_up_to_more_than_n_get_a_proved_minimal_conflict():
    """PySAT and the depth-first search cannot prove this log inconsistent (`unknown` after
    10 s, scripts/stress/audit_inconsistent.py); CP-SAT proves it in 0.2 s. The conflict comes from
    CP-SAT's deletion tests, whose unknown answers (a hard find-one on 22 clues) wait for a
    later pass on a smaller set; checked here: inconsistent, and each entry needed."""
    from cbsolve.consistency import auto_choice
    from cbsolve.consistency.backends import Engines
    from cbsolve.consistency.solve import _proved_none_first

    log, doctored = bulls_overflow_log()
    count = Query(count=True)
    # which said `unknown` here
    assert auto_choice(log, count, deadline=Deadline.from_limit(30))["backend"] == "sat"
    # so auto asks CP-SAT first
    checked = Engines(check_seconds=30.0)     # the mechanism, not its budget
    assert _proved_none_first(log, count, Deadline.from_limit(30),
                              checked).status == Status.INFEASIBLE
    conflict, minimal = conflict_search(log, "cpsat", deadline=Deadline.from_limit(60))
    assert minimal and set(conflict) & set(doctored)
    from cbsolve.consistency import get_backend

    cpsat, check = get_backend("cpsat"), Query(limit=1, determined=False)
    assert cpsat.solve(log.subset(conflict), check,
                       deadline=Deadline.from_limit(30)).status == Status.INFEASIBLE
    for k in conflict:
        rest = cpsat.solve(log.subset([j for j in conflict if j != k]), check,
                           deadline=Deadline.from_limit(30))
        assert rest.status in (Status.FEASIBLE, Status.OPTIMAL), (conflict, k)


@pytest.mark.slow          # 6.4 CPU s; the deletion's mechanism is tested on an oracle below
def test_solvers_find_the_conflict_of_colour_counts_that_miss_a_peg():
    """Black-peg 16 x 6: the single-colour guesses (entries 2, 3, 4, 6, 8, 9) count 4 + 2 + 1 +
    3 + 4 + 1 = 15 pegs of 16, and no other entry is needed for that; with any one of them
    dropped, its colour may fill the gap. CP-SAT had been `unknown` after 10 s (presolve lost
    the rows' total) and the PySAT core alone is not minimal."""
    v = Variant(16, "123456", True, feedback="bulls")
    log = FeedbackLog.parse(v, [
        "3244325155453646:3", "1111111111111111:4", "3333333333333333:2", "2222222222222222:1",
        "1234333436416455:2", "5555555555555555:3", "6641134436126645:2", "6666666666666666:4",
        "4444444444444444:1", "6416343525213511:1"])
    for backend in ("cpsat", "sat"):
        assert conflict_search(log, backend, deadline=Deadline.from_limit(30)) == ([2, 3, 4, 6, 8, 9], True)


def test_the_deletion_makes_no_test_after_the_deadline():
    # a 20,002-line log took 31 s under --time-limit 3: each entry was still tested (and its
    # subset built) after the deadline, every pass
    from cbsolve.consistency.diagnose import _deletion

    asked = []

    def consistent(numbers, attempt=0):
        asked.append(len(numbers))
        return None

    keep, minimal = _deletion(list(range(1, 1001)), consistent, Deadline(0))
    assert asked == [] and keep == list(range(1, 1001)) and not minimal


def test_an_unknown_deletion_test_is_asked_again_on_the_smaller_set():
    """The mechanism of the CP-SAT conflict above (slow run: about 9 CPU s) on an oracle: a
    test is unknown while the set is large, decided once the pass has shrunk it; the entry
    whose test was unknown is tested again with a higher attempt number, and the conflict is
    proved minimal. The needed entries are 3 and 7 of 8."""
    from cbsolve.consistency.diagnose import _deletion

    asked = []

    def consistent(numbers, attempt=0):
        asked.append((len(numbers), attempt))
        if {3, 7} <= set(numbers):
            return False                   # proved inconsistent
        return None if len(numbers) > 3 else True   # a hard find-one on a large set

    keep, minimal = _deletion(list(range(1, 9)), consistent)
    assert keep == [3, 7] and minimal
    assert (5, 0) in asked and (1, 1) in asked      # entry 3: unknown in [4..8], then asked on [7]


def test_repeated_entries_are_diagnosed_once():
    # a log of thousands of copies of one reply: a minimal conflict never holds two copies,
    # so the deletion tests each distinct reply once (beyond the filter too)
    v = Variant(12, string.ascii_uppercase[:10], repeats=True)
    guess = "AABBCCDDAABB"
    lines = [f"{guess}:0,0"] * 3000 + [f"{guess}:1,0"]
    log = FeedbackLog.parse(v, lines)
    conflict, minimal = conflict_search(log, "native", deadline=Deadline(None))
    assert (conflict, minimal) == ([1, 3001], True)
