"""A PySAT solve that a time limit or Ctrl-C ends on time, even when the solver does not look.

A caller says ``solve(assumptions, deadline)`` and gets True / False, or None when the deadline
or Ctrl-C stopped the call (or stopped an earlier one that was abandoned); the timers, the
solver's interrupt flag and the abandonment are this module's business.

**The watchdog.** A deadline with a limit arms one timer that interrupts the solver when it
passes. An enumeration makes thousands of calls under one deadline and a timer costs 0.2-0.5 ms
to start and cancel (measured here, loaded), so the timer is re-armed only when the deadline
object changes. A timer of
an earlier deadline is disarmed under a lock, and fires only once its deadline has expired by
the deadline's own clock: it never interrupts a later call under another deadline. The flag an
interrupt leaves set (Glucose keeps it until cleared) is cleared before the next call. A solver
that refuses an interrupt gets no more: PySAT's CaDiCaL raises on one (it raised in the timer's
thread, and in Ctrl-C's stop request), and its binding holds the GIL for the whole call (the
main thread starved while it searched), so nothing in this process ends its call early
(benchmarks run it in a child process).

**The abandonment.** Glucose reads its interrupt flag (and its budgets) only in its search
loop's no-conflict branch. A long run of conflicts, each analysed at length (the cardinality
encodings of a 40-digit log), left the flag unread for up to 0.8 s after Ctrl-C, past the CLI's
grace (gdb, at the grace's end: the main thread in ``Glucose41::Solver::search`` -> ``analyze``).
So a call that may be long runs in a thread (:func:`cbsolve.runtime.deadline.finish_or_abandon`): at the
stop the solver is interrupted (by the stop hook, or by the watchdog at the deadline) and waited
for :data:`GRACE_SECONDS`, then abandoned. The caller gets None at once and the solver is never
used again; it is freed by its own thread when the search ends (freeing it earlier would pull
its memory from under the search).

Handing a call to a thread costs about 50 us here (an OS thread's wake-up, measured), and an
enumeration makes thousands of calls of a few hundred microseconds. So a call that follows a
fast one (under :data:`DIRECT_BELOW`) runs in the calling thread: a solve that needs long after
fast ones is rare, and a long call hands the next one to the thread again.
"""
from __future__ import annotations

import threading
import time

from ..runtime.deadline import UNLIMITED, Abandoned, Deadline, finish_or_abandon, stop_hook

#: A call after one that took less than this (s) runs in the calling thread.
DIRECT_BELOW = 0.001
#: After the stop, how long a call is still waited for before it is abandoned (s): well within
#: the 0.5 s a command has to stop, and long enough for the calls that do read the flag.
GRACE_SECONDS = 0.2


class StoppableSolve:
    """``solve_limited`` of one PySAT solver, stoppable on time (module docstring)."""

    def __init__(self, solver, clock=time.perf_counter) -> None:
        self.solver = solver
        self._clock = clock                         # seconds; a test passes a fake one
        self.abandoned = False
        self.interruptible = True                   # until the solver raises on an interrupt
        self._last_seconds: float | None = None     # the previous call's time; None: no call yet
        self._running = False
        self._lock = threading.Lock()               # abandoning vs. the call's end
        self._flagged = False                       # an interrupt may be set on the solver
        self._armed: Deadline | None = None         # the deadline the watchdog serves
        self._timer: threading.Timer | None = None
        # The interrupt vs. the watchdog's disarming, the flag's clearing and the abandonment.
        # Re-entrant: a Ctrl-C handler may call the stop hook in a thread that holds it.
        self._watch = threading.RLock()

    def __call__(self, assumptions, deadline: Deadline | None) -> bool | None:
        """True / False, or None when the call was stopped, or the solver abandoned before."""
        if self.abandoned:
            return None
        deadline = deadline or UNLIMITED
        if self._armed is not deadline:
            self._arm(deadline)
        if self._flagged:
            self._clear()
        if deadline.expired():
            return None

        def call():
            with self._lock:
                if self.abandoned:           # abandoned before its thread began: not begun
                    return None
                self._running = True
            start = self._clock()            # the solver's own time, not the hand-off's
            try:
                return self.solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
            finally:
                self._last_seconds = self._clock() - start
                with self._lock:
                    self._running = False
                    if self.abandoned:       # nobody waits for it: free it here
                        self.solver.delete()

        with stop_hook(self._interrupt):
            if self._last_seconds is not None and self._last_seconds < DIRECT_BELOW:
                return call()
            return self._in_thread(call, deadline)

    def add_clause(self, lits) -> None:
        """Add a clause; none to an abandoned solver (its search still runs)."""
        if not self.abandoned:
            self.solver.add_clause(lits)

    def free(self) -> None:
        """Delete the solver (an abandoned one is deleted by its thread, when it returns)."""
        self._disarm()
        if not self.abandoned:
            self.solver.delete()

    # --- the watchdog -----------------------------------------------------------------------
    def _arm(self, deadline: Deadline) -> None:
        """Serve ``deadline``: the earlier deadline's timer disarmed, one for this one started."""
        self._disarm()
        self._armed = deadline
        left = deadline.left()
        if left is not None and self.interruptible:
            self._start_timer(deadline, left)

    def _start_timer(self, deadline: Deadline, seconds: float) -> None:
        timer = threading.Timer(seconds, self._fire, (deadline,))
        timer.daemon = True
        self._timer = timer
        timer.start()

    def _fire(self, deadline: Deadline) -> None:
        with self._watch:
            if self._armed is not deadline:          # disarmed meanwhile: stale
                return
            left = deadline.left()
            if left:                                 # not yet by the deadline's clock: wait on
                self._start_timer(deadline, left)
                return
            self._interrupt()

    def _disarm(self) -> None:
        with self._watch:                            # after this no earlier timer interrupts
            self._armed = None
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

    # --- the interrupt flag -----------------------------------------------------------------
    def _interrupt(self) -> None:
        with self._watch:
            if self.interruptible and not self.abandoned:
                self._flagged = True
                try:
                    self.solver.interrupt()
                except NotImplementedError:          # PySAT's CaDiCaL (module docstring)
                    self.interruptible = self._flagged = False

    def _clear(self) -> None:
        with self._watch:
            self._flagged = False
            self.solver.clear_interrupt()

    # --- the thread -------------------------------------------------------------------------
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
        with self._watch:                # no interrupt reaches the solver once it is freed
            self._disarm()
            with self._lock:
                self.abandoned = True
                if not self._running:    # ended meanwhile, or never began: free it now
                    self.solver.delete()

