"""A PySAT solve that a time limit or Ctrl-C ends on time, even when the solver does not look.

Glucose reads its interrupt flag (and its budgets) only in its search loop's no-conflict branch.
A long run of conflicts, each analysed at length (the cardinality encodings of a 40-digit log),
left the flag unread for up to 0.8 s after Ctrl-C, past the CLI's grace (gdb, at the grace's
end: the main thread in ``Glucose41::Solver::search`` -> ``analyze``). So a call that may be
long runs in a thread (:func:`cbsolve.deadline.finish_or_abandon`): at the stop the solver is
interrupted (by the stop hook, or by its caller's timer at the deadline) and waited for
:data:`GRACE_SECONDS`, then abandoned. The caller gets "unknown" at once and never uses the
solver again; the solver is freed by its own thread when the search ends (freeing it earlier
would pull its memory from under the search).

Handing a call to a thread costs about 50 us here (an OS thread's wake-up, measured), and an
enumeration makes thousands of calls of a few hundred microseconds. So a call that follows a
fast one (under :data:`DIRECT_BELOW`) runs in the calling thread: a solve that needs long after
fast ones is rare, and a long call hands the next one to the thread again.

The deadline's watchdog lives here too: a timer interrupts the solver when the deadline passes,
one per deadline and not per call (an enumeration makes thousands of calls under one), and the
solver's interrupt flag, which a fired watchdog or a stop leaves set, is cleared before the
next call. A caller asks ``solve(assumptions, deadline)`` and never handles timers, flags or
abandonment.
"""
from __future__ import annotations

import threading
import time

from .deadline import UNLIMITED, Abandoned, Deadline, finish_or_abandon, stop_hook, stop_requested

#: A call after one that took less than this (s) runs in the calling thread.
DIRECT_BELOW = 0.001
#: After the stop, how long a call is still waited for before it is abandoned (s): well within
#: the 0.5 s a command has to stop, and long enough for the calls that do read the flag.
GRACE_SECONDS = 0.2


class StoppableSolve:
    """``solve_limited`` of one PySAT solver, stoppable on time (module docstring)."""

    def __init__(self, solver) -> None:
        self.solver = solver
        self.abandoned = False
        self._last_seconds: float | None = None     # the previous call's time; None: no call yet
        self._running = False
        self._lock = threading.Lock()               # abandoning vs. the call's end
        self._watchdog: threading.Timer | None = None
        self._watched: Deadline | None = None       # the deadline the watchdog is set for
        self._flagged = False                       # the solver's interrupt flag may be set

    def __call__(self, assumptions, deadline: Deadline | None) -> bool | None:
        """True / False, or None when the deadline had passed or a stop was requested, or the
        call was interrupted or abandoned."""
        deadline = deadline or UNLIMITED
        left = deadline.left()
        if self.abandoned or stop_requested() or (left is not None and left <= 0):
            return None
        self._watch(deadline, left)
        if self._flagged:                # a fired watchdog's or a stop's: this call is not stopped
            self._flagged = False
            self.solver.clear_interrupt()
            if deadline.expired():       # its watchdog fired before the flag was cleared
                return None
        return self._call(assumptions, deadline)     # an answer found is one, even at a stop

    def _watch(self, deadline: Deadline, left: float | None) -> None:
        """The watchdog for ``deadline`` (none when it is unlimited: a stale one must not
        interrupt this call)."""
        if self._watched is deadline:
            return
        self._unwatch()
        if left is not None:
            self._watchdog = threading.Timer(left, self._interrupt)
            self._watchdog.daemon = True
            self._watchdog.start()
            self._watched = deadline

    def _unwatch(self) -> None:
        if self._watchdog is not None:
            self._watchdog.cancel()
        self._watchdog = self._watched = None

    def _interrupt(self) -> None:
        """The watchdog's and the stop hook's: never on a solver abandoned (its thread frees it)."""
        if not self.abandoned:
            self._flagged = True
            self.solver.interrupt()

    def _call(self, assumptions, deadline: Deadline) -> bool | None:

        def call():
            with self._lock:
                if self.abandoned:           # abandoned before its thread began: not begun
                    return None
                self._running = True
            start = time.perf_counter()      # the solver's own time, not the hand-off's
            try:
                return self.solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
            finally:
                self._last_seconds = time.perf_counter() - start
                with self._lock:
                    self._running = False
                    if self.abandoned:       # nobody waits for it: free it here
                        self.solver.delete()

        with stop_hook(self._interrupt):
            if self._last_seconds is not None and self._last_seconds < DIRECT_BELOW:
                return call()
            return self._in_thread(call, deadline)

    def _in_thread(self, call, deadline: Deadline) -> bool | None:
        try:
            return finish_or_abandon(call, deadline, grace=GRACE_SECONDS)
        except Abandoned:
            self._abandon()
            return None
        except KeyboardInterrupt:      # a library's caller, without the CLI's stop request
            self._interrupt()
            self._abandon()
            raise

    def _abandon(self) -> None:
        self._unwatch()
        with self._lock:
            self.abandoned = True
            if not self._running:        # ended meanwhile, or never began: free it now
                self.solver.delete()

    def free(self) -> None:
        """Delete the solver (an abandoned one is deleted by its thread, when it returns)."""
        self._unwatch()
        if not self.abandoned:
            self.solver.delete()
