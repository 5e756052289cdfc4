"""One time budget and one stop request, made at a command's edge and passed down to the kernels.

A :class:`Deadline` is a wall-clock budget (``None`` seconds: no limit) that also answers to the
process-wide stop request Ctrl-C raises (:func:`request_stop`). The rules:

* a command (or a face: ``next``, ``assist``, a service answering a position) makes **one**
  with :meth:`Deadline.from_limit` from its ``--time-limit`` (``cli/_budget.TimeLimit`` does it
  for the CLI, counting from the process's start);
* a public entry point takes ``deadline=`` and keeps ``time_limit=`` as a convenience:
  ``deadline = Deadline.given(deadline, time_limit)``;
* layers below take a part of what is left (:meth:`~Deadline.part`, :meth:`~Deadline.capped`,
  :meth:`~Deadline.share`, :meth:`~Deadline.reserving`) with the shares of
  :mod:`cbsolve.runtime.time_policy`, and never compute with the clock themselves;
* only a native kernel's argument is seconds (``deadline.left()``, spelled for the kernel by
  ``time_policy.kernel_seconds`` / ``time_policy.search_seconds``);
* why work stopped is :meth:`Deadline.reason` / :func:`stopped_by`: ``INTERRUPTED`` after a stop
  request, ``TIME`` when a budget ran out, never the one for the other.

Native kernels run in a worker thread with the GIL released (:func:`run_interruptible`): the
calling thread keeps receiving SIGINT and watching the clock, and on either it calls the kernel's
own stop hook (typically a flag in its control block, polled by the kernel), so a search stops
within a poll interval instead of when the kernel happens to return.
"""
from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import TypeVar

from ..errors import Expired
from .status import StopReason

T = TypeVar("T")

#: Set by Ctrl-C (or anything that asks the whole command to stop); every Deadline sees it.
_STOP = threading.Event()

#: How often a waiting caller looks at the clock and the stop request (s). Kernels that poll their
#: control block at least this often stop within about twice this interval.
POLL_SECONDS = 0.1


#: Stop hooks of the kernels running now (a CP-SAT solver's stop_search, a SAT solver's
#: interrupt, a native kernel's stop flag): a stop request calls them at once, so a kernel
#: blocking the main thread stops without a thread of its own polling the clock.
_HOOKS: dict[int, Callable[[], None]] = {}
_HOOKS_LOCK = threading.Lock()


def request_stop() -> None:
    """Ask every running search to stop (what Ctrl-C does)."""
    _STOP.set()
    with _HOOKS_LOCK:
        hooks = list(_HOOKS.values())
    for hook in hooks:
        hook()


@contextlib.contextmanager
def stop_hook(hook: Callable[[], None]) -> Iterator[None]:
    """While the block runs, a stop request calls ``hook`` (at once if one was made already)."""
    key = id(hook)
    with _HOOKS_LOCK:
        _HOOKS[key] = hook
    try:
        if _STOP.is_set():
            hook()
        yield
    finally:
        with _HOOKS_LOCK:
            _HOOKS.pop(key, None)


def stopped_by() -> StopReason:
    """Why work that ended before its end stopped: ``INTERRUPTED`` after a stop request (Ctrl-C),
    else ``TIME`` (its budget ran out). Never ``TIME`` for Ctrl-C, with or without a limit."""
    return StopReason.INTERRUPTED if _STOP.is_set() else StopReason.TIME


def clear_stop() -> None:
    """Forget an earlier stop request (a new command, or a test, starts afresh)."""
    _STOP.clear()


def stop_requested() -> bool:
    return _STOP.is_set()


class Deadline:
    """A wall-clock budget; ``None`` seconds means unlimited. Expires early on a stop request.
    ``clock`` (seconds, monotonic) is ``time.perf_counter`` unless a test injects another;
    sub-budgets keep it."""

    def __init__(self, seconds: float | None, clock: Callable[[], float] = time.perf_counter):
        self.seconds = seconds
        self.clock = clock
        self.end = None if seconds is None else clock() + seconds

    @classmethod
    def from_limit(cls, seconds: float | None, spent: float = 0.0) -> Deadline:
        """The one Deadline of a command or a library call, from its time limit in seconds
        (``None``: no limit), of which ``spent`` seconds went before it was made (a command's
        start-up: the process counts from its start). The CLI's ``--time-limit 0`` ("no
        limit") is turned into ``None`` by ``cli/_budget.py`` before it gets here; a library's
        ``time_limit=0`` is an already expired budget (what the call can answer at once)."""
        deadline = cls(None if seconds is None else max(0.0, float(seconds)))
        if deadline.end is not None:
            deadline.end -= spent
        return deadline

    @classmethod
    def given(cls, deadline: Deadline | None, time_limit: float | None = None) -> Deadline:
        """A public entry point's budget: its ``deadline=`` when given, else one made from its
        ``time_limit=`` convenience (:meth:`from_limit`)."""
        return deadline if deadline is not None else cls.from_limit(time_limit)

    def left(self) -> float | None:
        """Seconds left (0 once stopped); ``None`` when unlimited."""
        if _STOP.is_set():
            return 0.0
        return None if self.end is None else max(0.0, self.end - self.clock())

    def part(self, fraction: float) -> Deadline:
        """A sub-budget: ``fraction`` of the time left (unlimited stays unlimited)."""
        left = self.left()
        return Deadline(None if left is None else left * fraction, self.clock)

    def capped(self, seconds: float | None) -> Deadline:
        """A sub-budget of at most ``seconds`` (of the time left, if that is less); ``None``:
        the time left, as a sub-budget that a later cap does not change."""
        left = self.left()
        if seconds is None:
            return Deadline(left, self.clock)
        return Deadline(seconds if left is None else min(seconds, left), self.clock)

    def share(self, fraction: float, cap: float | None = None,
              untimed: float | None = None) -> Deadline:
        """A share of the time left: ``fraction`` of it, at most ``cap`` seconds; ``untimed``
        seconds (``None``: unlimited) when this budget is unlimited. The one form of
        ``time_policy``'s "this share, at most that long, this long when untimed"."""
        left = self.left()
        if left is None:
            return Deadline(untimed, self.clock)
        seconds = left * fraction
        return Deadline(seconds if cap is None else min(seconds, cap), self.clock)

    def reserving(self, seconds: float) -> Deadline:
        """A sub-budget that ends ``seconds`` before this one (kept for the work after it, e.g.
        checking a certificate or building a tree; expired at once when less is left);
        unlimited stays unlimited."""
        left = self.left()
        return Deadline(None if left is None else max(left - seconds, 0.0), self.clock)

    def seconds_left(self, untimed: float | None = None) -> float | None:
        """The time left as seconds for a callee that takes a float (a solver's or a kernel's
        time limit): ``untimed`` when this budget is unlimited."""
        left = self.left()
        return untimed if left is None else left

    def reason(self) -> StopReason | None:
        """Why work under this budget must stop: ``INTERRUPTED`` (Ctrl-C or a stop request,
        whether or not a limit was set), ``TIME`` (this budget ran out), ``None`` (it may go on).
        The one place the two are told apart: a stop request is never reported as a time
        limit."""
        if _STOP.is_set():
            return StopReason.INTERRUPTED
        if self.end is not None and self.clock() >= self.end:
            return StopReason.TIME
        return None

    def expired(self) -> bool:
        return _STOP.is_set() or (self.end is not None and self.clock() >= self.end)

    @property
    def unlimited(self) -> bool:
        return self.end is None


#: No limit (but Ctrl-C): the default of a ``deadline=`` not given. A Deadline never changes, so
#: one serves every caller.
UNLIMITED = Deadline(None)


class Turns:
    """The budget of an interactive face (``play``, ``assist``, ``bot``): one Deadline a turn,
    made once by the session loop when the turn starts (a line read, or the computer's move)
    and passed to everything that turn asks (the advice, the review, a hint), so no class of
    the face keeps seconds of its own. ``seconds``: each turn's limit (``None``: no limit);
    ``first``: the first turn's Deadline when the edge made it already (``assist`` with
    entries, ``bot``: counted from the process's start)."""

    def __init__(self, seconds: float | None, first: Deadline | None = None):
        self.seconds = seconds
        self._first = first

    def start(self) -> Deadline:
        """The Deadline of the turn starting now (the edge's for the first one, if given)."""
        first, self._first = self._first, None
        return first if first is not None else Deadline.from_limit(self.seconds)


class Abandoned(Expired):
    """The deadline given to :func:`finish_or_abandon` expired (or a stop request came) before
    the work ended; the work goes on in its thread, its result unused."""

    def __init__(self) -> None:
        super().__init__("the work was left running", stopped_by())


#: Set once work is left running in its thread (:func:`finish_or_abandon`): the process should
#: then end without the interpreter's shutdown, which a native call still running can abort.
_ABANDONED = threading.Event()


def work_abandoned() -> bool:
    """Some work was left running in its thread: end the process with ``os._exit``."""
    return _ABANDONED.is_set()


def finish_or_abandon(work: Callable[[], T], deadline: Deadline, grace: float = 0.0) -> T:
    """``work()`` (a call that cannot be stopped: a Python import, a connection's handshake, a
    kernel with no stop flag that releases the GIL) in a daemon thread, waited for while
    ``deadline`` lasts: its value, or its exception re-raised here, or :class:`Abandoned`
    when the deadline expires or Ctrl-C's stop request comes first (looked at every
    :data:`POLL_SECONDS`). ``grace``: once the deadline has expired, how long more the work
    is waited for (work that has a stop of its own, which the stop request or a timer has
    called: a SAT solver's interrupt, which ends most calls at once)."""
    if deadline.expired():
        raise Abandoned
    box: dict = {}
    done = threading.Event()      # an Event, not join(): see run_interruptible
    wake = threading.Event()      # the work's end, or a stop request: no poll's delay

    def target() -> None:
        try:
            box["value"] = work()
        except BaseException as exc:  # surfaced in the calling thread  # noqa: BLE001
            box["error"] = exc
        finally:
            done.set()
            wake.set()

    threading.Thread(target=target, daemon=True, name="cbsolve-abandonable").start()
    try:
        with stop_hook(wake.set):
            while not done.is_set():
                wake.wait(POLL_SECONDS)
                if not done.is_set() and deadline.expired():
                    if not done.wait(grace):
                        raise Abandoned
    except BaseException:             # Abandoned, or a KeyboardInterrupt while waiting
        if not done.is_set():
            _ABANDONED.set()
        raise
    if "error" in box:
        raise box["error"]
    return box["value"]


def run_interruptible(work: Callable[[], T], stop: Callable[[str], None], *,
                      deadline: Deadline | None = None,
                      on_wait: Callable[[], None] | None = None) -> T:
    """Run ``work`` (a call into a kernel that releases the GIL) in a worker thread.

    While it runs, the calling thread polls every :data:`POLL_SECONDS`: it calls ``on_wait``
    (progress), and when the deadline expires or Ctrl-C arrives it calls ``stop`` (the kernel's
    stop hook) with the reason's word (:class:`~cbsolve.runtime.status.StopReason`: ``time`` for the
    deadline, ``interrupted`` for Ctrl-C or a stop request), which the kernel's control block
    keeps, and waits for the kernel to return what it has. A Ctrl-C is re-raised as
    :class:`KeyboardInterrupt` once the kernel has stopped, so the caller can report the
    interval proved so far; a deadline only stops the kernel, whose result says it was stopped.
    """
    box: dict = {}
    # An Event, not Thread.join/is_alive: a Ctrl-C that interrupts join() can leave is_alive()
    # False while the kernel still runs (CPython 3.11), and the process then exits under a
    # running native thread ("terminate called without an active exception").
    done = threading.Event()

    def target() -> None:
        try:
            box["value"] = work()
        except BaseException as exc:  # surfaced in the calling thread
            box["error"] = exc
        finally:
            done.set()

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    interrupted = False
    stopped = False
    while not done.is_set():
        try:
            done.wait(POLL_SECONDS)
            if on_wait is not None:
                on_wait()
            if not stopped and (_STOP.is_set() or deadline is not None and deadline.expired()):
                stop((StopReason.INTERRUPTED if _STOP.is_set() else StopReason.TIME).value)
                stopped = True
        except KeyboardInterrupt:
            request_stop()
            interrupted = True
            if not stopped:
                stop(StopReason.INTERRUPTED.value)
                stopped = True
    if interrupted:
        raise KeyboardInterrupt
    if "error" in box:
        raise box["error"]
    return box["value"]
