"""``--time-limit`` at a command's edge: one Deadline for the whole command, and how to say
that it stopped the work.

The option's value becomes one :class:`~cbsolve.runtime.deadline.Deadline`, made before the input is
read, so parsing, pre-checks, replays, solving and diagnosis all spend the same budget: no value
means the command's default (if it has one), ``0`` means no limit. In the ``cbsolve`` process
(:func:`count_from_process_start`) the budget counts from the process's start: the interpreter
and the imports (0.3-0.6 s on the loaded 2-core machine) are waited for too.
"""
from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass

from ..runtime.deadline import Deadline, stop_requested

#: Set by the ``cbsolve`` process's entry point: a time limit then counts from the process's
#: start. Callers of the CLI in a process of their own (tests) count from the command's call.
_FROM_PROCESS_START = [False]


def count_from_process_start() -> None:
    """This process is the command: its time limit includes the start-up before the edge."""
    _FROM_PROCESS_START[0] = True


#: When a ``serve`` request is being answered: the time it arrived (``time.perf_counter``). A
#: request is its own edge: its budget counts from its arrival, not from the service's start.
_REQUEST_START: list[float | None] = [None]


@contextlib.contextmanager
def request_edge() -> Iterator[None]:
    """While a ``serve`` request runs: its command's time limit counts from now."""
    _REQUEST_START[0] = time.perf_counter()
    try:
        yield
    finally:
        _REQUEST_START[0] = None


def serving() -> bool:
    """True while a ``serve`` request is being answered."""
    return _REQUEST_START[0] is not None


def spent_before_edge() -> float:
    """Seconds the work waited for before the command's edge: since the request arrived
    (``serve``), or since the process started (``cbsolve CMD``), else none (a caller of
    ``cli.main`` in its own process)."""
    if _REQUEST_START[0] is not None:
        return time.perf_counter() - _REQUEST_START[0]
    return process_age() if _FROM_PROCESS_START[0] else 0.0


def process_age() -> float:
    """Seconds since this process started (Linux ``/proc``; 0 where that cannot be read)."""
    try:
        with open("/proc/self/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()   # after the command's name
        with open("/proc/uptime", encoding="ascii") as fh:
            uptime = float(fh.read().split()[0])
        return max(0.0, uptime - int(fields[19]) / os.sysconf("SC_CLK_TCK"))  # starttime
    except (OSError, ValueError, IndexError):
        return 0.0


@dataclass
class TimeLimit:
    deadline: Deadline
    #: True when the user gave no --time-limit and the command's default applies.
    defaulted: bool

    @classmethod
    def from_option(cls, seconds: float | None, default: float | None) -> TimeLimit:
        spent = spent_before_edge()
        if seconds is None:
            return cls(Deadline.from_limit(default, spent), default is not None)
        return cls(Deadline.from_limit(seconds or None, spent), False)

    @property
    def seconds(self) -> float | None:
        return self.deadline.seconds

    def note(self) -> str:
        """Why the work stopped before its end, for a partial answer."""
        if stop_requested():
            return "interrupted (Ctrl-C): the answer is partial"
        if self.seconds is None:
            return ("stopped at an internal budget (no time limit was set): the answer is "
                    "partial")
        which = "the default " if self.defaulted else "the "
        return (f"stopped at {which}time limit of {self.seconds:g} s: the answer is partial "
                "(--time-limit SECONDS to change, 0 for none)")
