"""A stop (time limit, another thread's stop, Ctrl-C) at any point of the expected-case search
never yields a wrong answer: what is proved is the full search's value, an interval contains it,
a stopped search is never "infeasible", and the result says why it stopped (the kernel's control
block keeps the reason).

The stop is requested through the kernel's own stop hook just before a chosen native call (the
mechanism a deadline uses), so the tests do not depend on timing. On 3 of 6 distinct symbols
Irving's greedy strategy totals 447 and the optimum is 436: a result that reads the greedy
value as the optimum is caught there.
"""
from __future__ import annotations

import pytest
from testkit import load_script

from cbsolve.certificates.certify import verify
from cbsolve.runtime.deadline import Deadline
from cbsolve.search import SearchInterrupted
from cbsolve.search.expected import solve_expected
from cbsolve.search.expected.search import _Search
from cbsolve.runtime.status import Status, StopReason
from cbsolve.game.variant import Variant

GAME = Variant(3, "012345", False)


class _StopBefore:
    """The native solver, except that its ``nth`` call of ``method`` starts with a stop."""

    def __init__(self, solver, method: str, nth: int, why: str):
        self._solver, self._method, self._nth, self._why, self._seen = solver, method, nth, why, 0

    def __getattr__(self, name):
        attr = getattr(self._solver, name)
        if name != self._method:
            return attr

        def call(*args, **kwargs):
            self._seen += 1
            if self._seen == self._nth:
                self._solver.request_stop(self._why)
            return attr(*args, **kwargs)
        return call


def _stop_before(monkeypatch, method: str, nth: int = 1, why: str = "time"):
    init = _Search.__init__

    def wrapped(search, *args, **kwargs):
        init(search, *args, **kwargs)
        search.solver = _StopBefore(search.solver, method, nth, why)

    monkeypatch.setattr(_Search, "__init__", wrapped)


def _full(variant, **kwargs):
    return solve_expected(variant, workers=1, **kwargs)


def _assert_sound(res, variant, value):
    assert res.status is not Status.INFEASIBLE
    if res.lower is not None:
        assert res.lower <= value
    if res.upper is not None:
        assert res.upper >= value
    if res.proved:
        assert res.lower == res.upper == value and res.status is Status.OPTIMAL
    else:
        assert res.stop is not None
        assert res.status is (Status.FEASIBLE if res.upper is not None else Status.UNKNOWN)
    if res.tree is not None:
        rep = verify(res.tree, expect=variant)
        assert rep.valid and rep.total == res.total == res.upper
        if res.tree["proved"]:
            assert rep.total == value


def test_greedy_total_exceeds_the_optimum_here():
    import numpy as np

    search = _Search(GAME, None, "all", 1, True, {}, 1000)
    greedy = search.solver.greedy_value(np.arange(search.n, dtype=np.int32), 0, 0)
    assert greedy[0] > _full(GAME).total


@pytest.mark.parametrize("max_depth", [None, 5])
def test_a_stop_during_the_greedy_strategy_is_not_infeasible(monkeypatch, max_depth):
    """The old driver read a stopped greedy value as "no strategy" and a stopped first scan as
    "no first guess": it reported infeasible, proved."""
    full = _full(GAME, max_depth=max_depth)
    _stop_before(monkeypatch, "greedy_value", why="stopped")
    res = solve_expected(GAME, max_depth=max_depth, workers=1)
    _assert_sound(res, GAME, full.total)
    assert res.status is Status.UNKNOWN and res.stop is StopReason.STOPPED
    assert not any("greedy strategy needs more" in note for note in res.notes)
    assert res.lower is not None and res.lower <= full.total   # the counting bound, at least


def test_a_time_limit_during_the_first_scan_leaves_an_interval(monkeypatch):
    """The old driver took the stopped scan's empty list as "every first guess tried" and
    labelled the greedy strategy (447) optimal."""
    full = _full(GAME)
    _stop_before(monkeypatch, "scan")
    res = solve_expected(GAME, workers=1, deadline=Deadline.from_limit(60))
    _assert_sound(res, GAME, full.total)
    assert not res.proved and res.tree["proved"] is False
    assert res.stop is StopReason.TIME and res.to_json()["time_limit_hit"] is True


@pytest.mark.parametrize("nth", [1, 2, 5])
@pytest.mark.parametrize("why", ["time", "stopped"])
def test_a_stop_in_any_class_search_leaves_a_sound_interval(monkeypatch, nth, why):
    full = _full(GAME)
    _stop_before(monkeypatch, "solve", nth, why)
    res = solve_expected(GAME, workers=1)
    _assert_sound(res, GAME, full.total)
    assert res.stop is StopReason(why)
    assert res.to_json()["time_limit_hit"] is (why == "time")


@pytest.mark.parametrize("nth", [15, 28])
def test_a_stop_under_a_depth_cap_keeps_a_tree_within_the_cap(monkeypatch, nth):
    """Mastermind within 5 guesses (Koyama-Lai 1993: 5626). Stopped in the 15th or 28th class
    search, the old driver built its stopped first guess's tree with Irving's greedy strategy
    in the unsolved classes; there it breaks the cap, and the tree builder recursed on guess -1
    until Python's recursion limit."""
    game = Variant(4, "012345", True)
    _stop_before(monkeypatch, "solve", nth)
    res = solve_expected(game, max_depth=5, workers=1)
    _assert_sound(res, game, 5626)
    assert verify(res.tree, expect=game).worst <= 5


def test_the_stop_request_is_reported_as_an_interrupt(monkeypatch):
    full = _full(GAME)
    _stop_before(monkeypatch, "solve", 2, why="interrupted")
    with pytest.raises(SearchInterrupted) as stop:
        solve_expected(GAME, workers=1)
    res = stop.value.result
    assert res.interrupted and res.stop is StopReason.INTERRUPTED and res.tree is None
    assert res.lower is None or res.lower <= full.total <= res.upper


def test_an_interrupt_in_the_first_phase_reports_what_a_time_limit_there_does(monkeypatch):
    """Stopped in the greedy value (the first phase, right after the set-up), a time limit
    reports the counting bound; Ctrl-C there reported [?, ?]."""
    _stop_before(monkeypatch, "greedy_value", 1, why="time")
    timed = solve_expected(GAME, workers=1)
    monkeypatch.undo()
    _stop_before(monkeypatch, "greedy_value", 1, why="interrupted")
    with pytest.raises(SearchInterrupted) as stop:
        solve_expected(GAME, workers=1)
    res = stop.value.result
    assert timed.lower is not None and timed.upper is None
    assert (res.lower, res.upper, res.interrupted) == (timed.lower, None, True)


@pytest.mark.parametrize("rounds", [15, pytest.param(40, marks=pytest.mark.slow)])
def test_random_stop_points_in_one_process(rounds):
    """Deadlines, kernel stops and stop requests at random points, searches and bounds in
    sequence in one process: scripts/stress/stress_expected_deadlines.py on small games (15
    rounds in the default run, 40 in the slow one)."""
    stress = load_script("stress_expected_deadlines")
    report = stress.stress(stress.SMALL, rounds=rounds, seed=20261124)
    assert report.failures == []
    assert report.runs == rounds and sum(report.outcomes.values()) == rounds


def test_a_deadline_passed_while_the_driver_refines_guesses_stops_it():
    """The driver's own expansion of a large class (two threads) refines one guess after
    another by the core's lower bounds, which read no clock: Mastermind 7 x 4 with a 70 s
    limit took 400 s there. The driver now reads the deadline between guesses: with it passed,
    no guess is refined and the class reports a stop."""
    import numpy as np


    counted = {"lower_bound": 0}
    search = _Search(GAME, None, "all", 2, True, {}, 1000, split_min=2)

    class Counting:
        def __init__(self, solver):
            self._solver = solver

        def __getattr__(self, name):
            attr = getattr(self._solver, name)
            if name in counted:
                def call(*args, **kwargs):
                    counted[name] += 1
                    return attr(*args, **kwargs)
                return call
            return attr

    search.solver = Counting(search.solver)
    search.set_deadline(Deadline.from_limit(0))       # already passed
    members = np.arange(search.n, dtype=np.int32)
    assert search.firsts.split.solve(members, search.depth, (10**9, 99), 0, []) is None
    assert counted["lower_bound"] == 0 and search.solver.stop_reason() == "time"
