"""``--time-limit`` at a command's edge: one Deadline for the whole command, and how to say
that it stopped the work.

The option's value becomes one :class:`~cbsolve.deadline.Deadline`, made before the input is
read, so parsing, pre-checks, replays, solving and diagnosis all spend the same budget: no value
means the command's default (if it has one), ``0`` means no limit.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..deadline import Deadline, stop_requested


@dataclass
class TimeLimit:
    deadline: Deadline
    #: True when the user gave no --time-limit and the command's default applies.
    defaulted: bool

    @classmethod
    def from_option(cls, seconds: float | None, default: float | None) -> TimeLimit:
        if seconds is None:
            return cls(Deadline.from_limit(default), default is not None)
        return cls(Deadline.from_limit(seconds or None), False)

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
