"""One budget from the edge to the kernels: what is decided under a given Deadline.

No test here reads the wall clock: a Deadline on a fake clock, or one already expired, says
what the code decided with the time it was given (the shares of ``time_policy``, the reasons
a piece of work stopped).
"""
from __future__ import annotations

import string

import pytest

from cbsolve.runtime import time_policy
from cbsolve.runtime.deadline import UNLIMITED, Deadline, request_stop, stopped_by
from cbsolve.game.feedback import FeedbackLog
from cbsolve.runtime.status import Status, StopReason
from cbsolve.game.variant import Variant


class FakeClock:
    """Seconds that pass only when a test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


# --- the API ----------------------------------------------------------------------------------
def test_from_limit_and_given():
    assert Deadline.from_limit(None).unlimited and Deadline.from_limit(None).left() is None
    assert Deadline.from_limit(0).expired()             # a library's 0: what it can do at once
    late = Deadline.from_limit(10, spent=10)            # the process's start-up took it all
    assert late.seconds == 10 and late.expired()
    mine = Deadline.from_limit(5)
    assert Deadline.given(mine, 99) is mine             # deadline= wins over time_limit=
    assert Deadline.given(None, 3).seconds == 3 and Deadline.given(None, None).unlimited


def test_parts_of_a_budget_on_a_fake_clock():
    clock = FakeClock()
    whole = Deadline(10, clock)
    clock.now = 4                                       # 6 s left
    assert whole.part(0.5).left() == pytest.approx(3)
    assert whole.capped(2).left() == pytest.approx(2) and whole.capped(60).left() == pytest.approx(6)
    assert whole.share(0.1, cap=1.0).left() == pytest.approx(0.6)
    assert whole.share(0.5, cap=1.0).left() == pytest.approx(1.0)
    assert whole.reserving(5).left() == pytest.approx(1) and whole.reserving(7).expired()
    assert UNLIMITED.share(0.1, cap=1.0, untimed=2.0).left() == pytest.approx(2.0, abs=0.1)
    assert UNLIMITED.share(0.1).unlimited and UNLIMITED.reserving(5).unlimited
    assert whole.seconds_left(untimed=60) == pytest.approx(6)
    assert UNLIMITED.seconds_left(untimed=60) == 60
    clock.now = 10
    assert whole.expired() and whole.reason() is StopReason.TIME


def test_a_stop_request_is_never_a_time_limit():
    """Ctrl-C with no time limit was reported as "the time limit was reached"."""
    assert UNLIMITED.reason() is None and stopped_by() is StopReason.TIME
    request_stop()
    assert UNLIMITED.expired() and UNLIMITED.reason() is StopReason.INTERRUPTED
    assert Deadline.from_limit(0).reason() is StopReason.INTERRUPTED
    assert stopped_by() is StopReason.INTERRUPTED


def test_search_seconds_floor_keeps_a_spent_budget_a_limit():
    """The exact searches' set_deadline reads 0 as "no limit": a spent budget is a floor."""
    assert time_policy.search_seconds(None) == 0.0
    assert time_policy.search_seconds(0.0) == time_policy.SEARCH_FLOOR_SECONDS
    assert time_policy.search_seconds(2.5) == 2.5


# --- consistency: one budget, and its stop reasons -------------------------------------------
def _long_log() -> FeedbackLog:
    return FeedbackLog.parse(Variant(30, string.ascii_uppercase, True),
                             ["ABCDEFGHIJKLMNOPQRSTUVWXYZABCD:3,5"])


def test_an_interrupted_query_says_interrupted_not_time_limit():
    from cbsolve.consistency import Query, consistent

    request_stop()                                      # Ctrl-C before the engines start
    r = consistent(_long_log(), Query(count=True, limit=0), backend="sat")
    assert r.status is Status.UNKNOWN and not r.time_limit_hit
    assert any("interrupted" in n for n in r.notes)
    assert not any("time limit" in n for n in r.notes)


def test_max_lies_corrections_get_what_the_answer_left(monkeypatch):
    """``--max-lies`` spent the limit on the answer and gave the corrections the same full
    limit again. Under one deadline (a fake clock) the answer spends 8 of 10 s: the
    corrections get the 2 left."""
    from cbsolve.consistency import Query, lies
    from cbsolve.consistency.backends import NativeBackend
    from cbsolve.consistency.query import ConsistencyResult

    clock = FakeClock()
    seen = []

    def slow_infeasible(self, log, max_lies, query, head_start=None, deadline=None):
        clock.now += 8
        return ConsistencyResult(status=Status.INFEASIBLE, backend="native")

    def corrections(log, backend, time_limit=None, *, deadline=None):
        seen.append(deadline.left())
        return None, False, None

    monkeypatch.setattr(NativeBackend, "solve_with_lies", slow_infeasible)
    monkeypatch.setattr(lies, "corrections", corrections)
    log = FeedbackLog.parse(Variant.preset("bulls-cows"), ["0123:4,0", "0123:0,0"])
    r = lies.consistent_with_lies(log, 1, Query(limit=1), backend="native",
                                  deadline=Deadline(10, clock))
    assert r.status is Status.INFEASIBLE and r.time_limit == 10
    assert seen == [pytest.approx(2)]


def test_the_probe_takes_its_share_of_the_query_deadline(monkeypatch):
    """``auto``'s probe gets ``PROBE_FRACTION`` of the time left, at most ``PROBE_SECONDS``."""
    from cbsolve.consistency import Query, dfs, plan

    clock = FakeClock()
    given = []

    def run(log, mode=dfs.LIST, limit=None, start=None, seconds=None, **kw):
        given.append(seconds)
        return dfs.Chunk(dfs.np.zeros((0, log.variant.length), dfs.np.uint8), 0,
                         StopReason.TIME, None, 0, 0.0)

    monkeypatch.setattr(dfs, "run", run)
    plan.probe_search(_long_log(), Query(count=True), deadline=Deadline(1.0, clock))
    plan.probe_search(_long_log(), Query(count=True), deadline=Deadline(100.0, clock))
    plan.probe_search(_long_log(), Query(count=True), deadline=UNLIMITED)
    assert given == [pytest.approx(time_policy.PROBE_FRACTION * 1.0),
                     pytest.approx(time_policy.PROBE_SECONDS),
                     pytest.approx(time_policy.PROBE_SECONDS, abs=0.05)]


# --- bounds: what it proves at once ------------------------------------------------------------
def test_bounds_at_a_spent_deadline_answer_what_they_prove_at_once():
    """``bounds --length 64 --letters 26 --repeats --time-limit 0.001`` took 6.9 s: the
    constructions' recursions did not look at the deadline. With it spent they stop at their
    first step; the closed-form lower bounds stand, the upper bound is the trivial one."""
    from cbsolve.bounds import compute_bounds
    from cbsolve.game.capacity import worst_lower
    from cbsolve.game.scoring import possible_responses

    _clear_construction_caches()    # an earlier test may have built this game's constructions
    v = Variant(64, string.ascii_uppercase, True)
    b = compute_bounds(v, deadline=Deadline.from_limit(0))
    assert b.worst.upper == b.secrets and b.worst.upper_method.startswith("trivial")
    assert b.worst.lower >= worst_lower(b.secrets, len(possible_responses(v)))
    assert any("constructive upper bounds not finished" in n for n in b.notes)


def _clear_construction_caches() -> None:
    """Empty every cached step of the constructions (functools caches in cbsolve.bounds)."""
    import importlib
    import pkgutil

    import cbsolve.bounds as package

    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"cbsolve.bounds.{info.name}")
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def test_a_construction_cut_short_leaves_no_value_behind():
    """The constructions cache their steps: a step the deadline cut raised, and a cache keeps
    nothing for a call that raised, so a later full computation is the one from scratch."""
    from cbsolve.bounds import balance, constructions, cross_search, regions, weighing
    from cbsolve.bounds.cutoff import OutOfTime, within

    caches = [balance._best, weighing._weigh, cross_search._choice, regions._any_region,
              regions._with_filler]
    v = Variant(12, "0123456789", True)

    def fresh():
        for f in caches:
            f.cache_clear()

    fresh()
    want = constructions.constructive_worst(v)
    fresh()
    with pytest.raises(OutOfTime), within(Deadline.from_limit(0)):
        constructions.constructive_worst(v)
    assert constructions.constructive_worst(v) == want


# --- analyze: the cells kept ---------------------------------------------------------------------
def test_a_sweep_past_its_deadline_computes_nothing_and_still_reports(tmp_path):
    from cbsolve.analysis import make_cells, run_sweep

    cells = make_cells(["mastermind"], [2], [3], ["minimax"], bounds=False)
    r = run_sweep(cells, tmp_path, workers=0, make_plots=False, deadline=Deadline.from_limit(0))
    assert r.computed == 0 and r.time_limit_hit and not r.interrupted
    assert r.to_json()["complete"] is False and (tmp_path / "results.csv").exists()
    again = run_sweep(cells, tmp_path, workers=0, make_plots=False)     # the rerun computes it
    assert again.computed == 1 and not again.time_limit_hit and again.complete


def test_a_cell_its_deadline_cut_is_not_kept():
    from cbsolve.analysis.sweep import STOPPED, make_cells, run_cell

    cell = make_cells(["mastermind"], [4], [6], ["minimax"], bounds=False)[0]
    assert run_cell(cell, deadline=Deadline.from_limit(0))["row"]["status"] == STOPPED
    assert run_cell(cell)["row"]["status"] == "ok"


# --- scripts/stress/stress_time_limits.py --commands: one command, both ways ------------------------------
def test_stress_commands_smoke():
    """The stress run of the commands on its smallest case: a time limit, then a Ctrl-C, each
    a whole process (what is asserted is the outcome, not the seconds: those go to
    docs/benchmarks.md)."""
    import os

    from testkit import load_script

    stress = load_script("stress_time_limits")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "PYTHONPATH": root}
    timed = stress.run_command("bounds-huge", stress.COMMANDS["bounds-huge"], env, 0.2, None)
    assert timed["exit"] == 0 and timed["printed"] and timed["overrun"] is not None
    # 3 s in: past the start-up even on a loaded machine; Logik's worst case takes hours
    stopped = stress.run_command("optimal-worst", stress.COMMANDS["optimal-worst"], env, None, 3.0)
    assert stopped["exit"] == 130 and stopped["says_time_limit"] is False and stopped["printed"]


def test_evaluate_takes_time_limit_as_a_convenience():
    """The public ``cb.evaluate``'s ``time_limit=`` builds the deadline when none is given (the
    layers below take the Deadline only): a spent one settles nothing."""
    import cbsolve as cb
    from cbsolve.strategy import Unfinished

    with pytest.raises(Unfinished) as stop:
        cb.evaluate("minimax", variant="mastermind", time_limit=0)
    assert stop.value.settled == 0 and stop.value.secrets == 1296
