"""One status vocabulary for every backend and search (never raw solver codes)."""
from __future__ import annotations

from enum import Enum


class Status(str, Enum):
    OPTIMAL = "optimal"        # the answer is complete/proved (all secrets found, optimum proved)
    FEASIBLE = "feasible"      # an answer exists; it may be partial (limit or time cap hit)
    INFEASIBLE = "infeasible"  # proved: no answer (e.g. an inconsistent log)
    UNKNOWN = "unknown"        # a limit was hit before anything was proved

    def __str__(self) -> str:
        return self.value


class StopReason(str, Enum):
    """Why a piece of work ended: a native kernel's call (the words of
    ``cbsolve/_native/toolkit_control.hpp``, checked equal by tests/native/test_toolkit.py) or a block
    enumeration. Not a status: :meth:`status` is the one place a stop reason becomes one."""

    COMPLETE = "complete"  # the search is exhausted: everything there is was found
    LIMIT = "limit"        # the caller's limit (codes listed, a count's cap, ranks) was reached
    NODES = "nodes"        # the node budget ran out
    TIME = "time"          # the time limit ran out (never a stop request: that is INTERRUPTED)
    STOPPED = "stopped"    # another thread stopped it (a race won elsewhere)
    INTERRUPTED = "interrupted"  # the command's stop request (Ctrl-C)

    def __str__(self) -> str:
        return self.value

    @property
    def early(self) -> bool:
        """Stopped by the clock or by Ctrl-C: the work could have gone on."""
        return self in (StopReason.TIME, StopReason.INTERRUPTED)

    def at(self) -> str:
        """Where the work stopped, for a note: "at the time limit" or "by Ctrl-C"."""
        return {StopReason.TIME: "at the time limit",
                StopReason.INTERRUPTED: "by Ctrl-C"}.get(self, f"({self.value})")

    def reached(self) -> str:
        """What happened, for a note: "time limit reached" or "interrupted (Ctrl-C)"."""
        return {StopReason.TIME: "time limit reached",
                StopReason.INTERRUPTED: "interrupted (Ctrl-C)"}.get(self, f"stopped ({self.value})")

    def status(self, found: int) -> Status:
        """The status of an answer with ``found`` items when the work ended for this reason:
        an exhausted search is the whole answer (OPTIMAL, or INFEASIBLE when it found none);
        any other reason leaves a partial one (FEASIBLE, or UNKNOWN before the first item)."""
        if self is StopReason.COMPLETE:
            return Status.OPTIMAL if found else Status.INFEASIBLE
        return Status.FEASIBLE if found else Status.UNKNOWN
