"""A SAT call ends on time at a stop even when the solver does not read its interrupt (Glucose
4.1 does not while it analyses a long run of conflicts): it is waited for a grace, then
abandoned, kept alive and never touched again."""
from __future__ import annotations

import threading
import time

import pytest

from cbsolve import sat_call
from cbsolve.deadline import UNLIMITED, Deadline, request_stop
from cbsolve.sat_call import StoppableSolve


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
    solver = DeafSolver(seconds=previous)
    solver.release.set()
    solve = StoppableSolve(solver)
    assert solve([], UNLIMITED) is True                # the first call: always in a thread
    solver.seconds = 0.0
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
