"""A SAT call ends on time at a stop even when the solver does not read its interrupt (Glucose
4.1 does not while it analyses a long run of conflicts): it is waited for a grace, then
abandoned, kept alive and never touched again. The deadline's watchdog is the call's own: one
timer a deadline, never interrupting a call under a later one."""
from __future__ import annotations

import threading
import time

import pytest

from cbsolve.consistency import sat_call
from cbsolve.runtime.deadline import UNLIMITED, Deadline, request_stop
from cbsolve.consistency.sat_call import StoppableSolve


class DeafSolver:
    """A solver that ignores its interrupt: ``solve_limited`` returns only when released."""

    def __init__(self, answer: bool = True, seconds: float = 0.0):
        self.release = threading.Event()
        self.answer = answer
        self.seconds = seconds
        self.threads: list[str] = []
        self.interrupts = 0
        self.deleted = False

    def solve_limited(self, assumptions, expect_interrupt):
        self.threads.append(threading.current_thread().name)
        time.sleep(self.seconds)
        self.release.wait()
        return self.answer

    def interrupt(self):
        self.interrupts += 1

    def delete(self):
        self.deleted = True


class ListeningSolver:
    """A solver that reads its interrupt: ``solve_limited`` returns None once interrupted, its
    answer once released. The interrupt stays set until cleared, as Glucose's does."""

    def __init__(self, answer: bool = True):
        self.answer = answer
        self.release = threading.Event()
        self.flag = False
        self.threads: list[str] = []

    def solve_limited(self, assumptions, expect_interrupt):
        self.threads.append(threading.current_thread().name)
        while not self.flag:
            if self.release.wait(0.005):
                return self.answer
        return None

    def interrupt(self):
        self.flag = True

    def clear_interrupt(self):
        self.flag = False

    def delete(self):
        pass


class NoInterruptSolver(ListeningSolver):
    """As PySAT's CaDiCaL: an interrupt, or clearing one, raises."""

    def interrupt(self):
        raise NotImplementedError("no interrupts")

    def clear_interrupt(self):
        raise NotImplementedError("no interrupts")


def stop_soon(seconds: float = 0.05) -> None:
    threading.Timer(seconds, request_stop).start()


def test_a_stop_abandons_a_call_the_solver_does_not_end():
    solver = DeafSolver()
    solve = StoppableSolve(solver)
    stop_soon()
    try:
        assert solve([], UNLIMITED) is None
        assert solve.abandoned and solver.interrupts >= 1
        assert solve([], UNLIMITED) is None            # never asked again
        assert len(solver.threads) == 1
        solve.free()
        assert not solver.deleted                      # still running: not freed under it
    finally:
        solver.release.set()
    for _ in range(100):                               # its own thread frees it at the end
        if solver.deleted:
            break
        time.sleep(0.01)
    assert solver.deleted


def test_a_time_limit_abandons_a_call_the_solver_does_not_end():
    solver = DeafSolver()
    solve = StoppableSolve(solver)
    try:
        assert solve([], Deadline(0.05)) is None and solve.abandoned
    finally:
        solver.release.set()


def test_a_call_the_solver_ends_within_the_grace_keeps_the_solver():
    solver = DeafSolver(answer=False)
    solve = StoppableSolve(solver)
    stop_soon()
    threading.Timer(0.1 + sat_call.GRACE_SECONDS / 4, solver.release.set).start()
    assert solve([], Deadline(None)) is False
    assert not solve.abandoned
    solve.free()
    assert solver.deleted


@pytest.mark.parametrize("previous, direct", [(0.0, True), (2 * sat_call.DIRECT_BELOW, False)])
def test_a_call_after_a_fast_one_runs_in_the_calling_thread(previous, direct):
    # The solver's time is read from a clock the test moves: a loaded machine cannot make the
    # fast call look slow.
    solver = DeafSolver()
    solver.release.set()
    now = [0.0]
    solve_limited = solver.solve_limited

    def timed(assumptions, expect_interrupt):
        now[0] += previous
        return solve_limited(assumptions, expect_interrupt)

    solver.solve_limited = timed
    solve = StoppableSolve(solver, clock=lambda: now[0])
    assert solve([], UNLIMITED) is True                # the first call: always in a thread
    previous = 0.0
    assert solve([], UNLIMITED) is True
    here = threading.current_thread().name
    assert solver.threads[0] != here
    assert (solver.threads[1] == here) is direct


def test_glucose_is_stopped_on_a_hard_formula():
    """The real thing: Glucose 4.1 on pigeonhole 12 into 11 (seconds of search), stopped."""
    from pysat.examples.genhard import PHP
    from pysat.solvers import Solver

    solver = Solver(name="glucose41", bootstrap_with=PHP(11).clauses)
    solve = StoppableSolve(solver)
    stop_soon(0.3)
    assert solve([], UNLIMITED) is None
    solve.free()


def _gated_pigeonhole(n: int):
    """Glucose 4.1 with pigeonhole n+1 into n under the assumption ``a`` (its literal 1 is
    free otherwise): (solver, a). Under ``a`` it searches (PHP 7: 0.07 s, PHP 9: 10 s), under
    ``-a`` it answers at once."""
    from pysat.examples.genhard import PHP
    from pysat.solvers import Solver

    php = PHP(n)
    a = php.nv + 1
    return Solver(name="glucose41", bootstrap_with=[c + [-a] for c in php.clauses]), a


def test_a_deadline_stops_glucose_on_a_hard_formula():
    solver, a = _gated_pigeonhole(9)
    solve = StoppableSolve(solver)
    assert solve([a], Deadline(0.3)) is None           # the watchdog, at the deadline
    solve.free()


def test_an_earlier_deadlines_watchdog_does_not_stop_a_later_call():
    solver, a = _gated_pigeonhole(7)
    solve = StoppableSolve(solver)
    assert solve([-a], Deadline(0.05)) is True         # answered at once; its watchdog stays
    time.sleep(0.15)                                   # ... and fires: the solver's flag is set
    assert solve([a], UNLIMITED) is False              # cleared first: the search ran, UNSAT
    solve.free()


def test_one_watchdog_per_deadline(monkeypatch):
    made = []

    class CountedTimer(threading.Timer):
        def __init__(self, *args, **kwargs):
            made.append(args[0])
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(sat_call.threading, "Timer", CountedTimer)
    solver, a = _gated_pigeonhole(5)
    solve = StoppableSolve(solver)
    one, two = Deadline(60.0), Deadline(60.0)
    answers = [solve([-a], one) for _ in range(50)] + [solve([-a], two), solve([-a], UNLIMITED)]
    assert answers == [True] * 52 and len(made) == 2   # one per timed deadline, none untimed
    solve.free()


def test_a_stale_watchdog_never_interrupts_a_call_under_another_deadline():
    """A fast call under a short deadline arms its watchdog; the next call (direct, in the
    calling thread) runs under another deadline past the first one's end: not interrupted."""
    for later in (UNLIMITED, Deadline(60)):
        solver = ListeningSolver()
        solver.release.set()
        solve = StoppableSolve(solver)
        assert solve([], Deadline(0.1)) is True
        solver.release.clear()
        threading.Timer(0.4, solver.release.set).start()
        assert solve([], later) is True
        assert solver.threads[1] == threading.current_thread().name      # the direct path
        solve.free()


def test_a_watchdog_interrupts_a_direct_call_at_its_deadline():
    """After a fast call the next runs in the calling thread, with no waiter looking at the
    clock: the watchdog alone ends it."""
    solver = ListeningSolver()
    solver.release.set()
    solve = StoppableSolve(solver)
    deadline = Deadline(0.3)
    assert solve([], deadline) is True
    solver.release.clear()
    assert solve([], deadline) is None
    assert solver.threads[1] == threading.current_thread().name
    assert solve([], deadline) is None                 # expired: the solver not asked again
    assert len(solver.threads) == 2


def test_a_watchdog_waits_for_its_deadline_by_the_deadline_s_own_clock():
    """A deadline on a slow clock (a twentieth of real time): the watchdog's timer, set in real
    seconds, wakes early and waits on instead of interrupting before the deadline."""
    real = time.perf_counter
    t0 = real()
    deadline = Deadline(0.1, clock=lambda: t0 + (real() - t0) / 20)       # 2 s of real time
    solver = ListeningSolver()
    solver.release.set()
    solve = StoppableSolve(solver)
    assert solve([], deadline) is True
    solver.release.clear()
    threading.Timer(0.3, solver.release.set).start()
    assert solve([], deadline) is True                 # past 0.1 real seconds, not interrupted
    solver.release.clear()
    assert solve([], deadline) is None                 # at the deadline, interrupted


def test_a_stop_on_a_solver_without_interrupts_raises_nothing():
    """Ctrl-C's stop request calls the stop hook: on a solver that raises on an interrupt it
    must not raise in the stop request (the CLI's Ctrl-C path); the direct call then ends with
    its answer, when the solver returns."""
    solver = NoInterruptSolver()
    solver.release.set()
    solve = StoppableSolve(solver)
    assert solve([], Deadline(60)) is True
    solver.release.clear()
    raised = []

    def stop():
        try:
            request_stop()
        except Exception as exc:  # noqa: BLE001 - the test's finding
            raised.append(exc)

    threading.Timer(0.05, stop).start()
    threading.Timer(0.3, solver.release.set).start()
    assert solve([], UNLIMITED) is True                # direct: nothing could stop it
    assert raised == [] and not solve.interruptible
    assert solve([], UNLIMITED) is None                # stopped: not asked again


def test_cadical_is_not_broken_by_the_watchdog(monkeypatch):
    """PySAT's CaDiCaL raises on interrupt and clear_interrupt: its deadline's watchdog fires
    without an error and later calls answer."""
    from pysat.solvers import Solver

    errors = []
    monkeypatch.setattr(threading, "excepthook", lambda args: errors.append(args.exc_value))
    solver = Solver(name="cadical153", bootstrap_with=[[1, 2], [-1, 2]])
    solve = StoppableSolve(solver)
    try:
        assert solve([], Deadline(0.05)) is True
        assert solve._timer.finished.wait(10)           # its watchdog has fired
        assert errors == [] and not solve.interruptible
        assert solve([-2], Deadline(30)) is False
        assert solve([], Deadline(0)) is None
        assert solve([2], UNLIMITED) is True
    finally:
        solve.free()
