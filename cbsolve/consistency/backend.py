"""The one interface every consistency engine answers through.

A :class:`Backend` answers a :class:`~.query.Query` about a log. Capabilities that not every
engine has are real methods whose default says so (:class:`NotSupported`), never ``hasattr``
probes: a caller asks, and an engine without the capability refuses in one clear line.
"""
from __future__ import annotations

from ..runtime.deadline import Deadline
from ..errors import CbsolveError
from ..game.feedback import FeedbackLog
from .query import ConsistencyResult, Query


class NotSupported(CbsolveError, ValueError):
    """The backend cannot answer this kind of query."""


class Backend:
    """A consistency engine. ``head_start``: what ``auto``'s probe already found (the engine
    resumes from it when it can use it, else ignores it)."""

    name = "backend"

    def solve(self, log: FeedbackLog, query: Query, head_start=None,
              deadline: Deadline | None = None) -> ConsistencyResult:
        """The secrets consistent with every entry of ``log``, before ``deadline`` (default: no
        limit)."""
        raise NotSupported(f"backend {self.name} cannot answer consistency queries")

    def solve_with_lies(self, log: FeedbackLog, max_lies: int, query: Query,
                        head_start=None, deadline: Deadline | None = None) -> ConsistencyResult:
        """The secrets that contradict at most ``max_lies`` entries (``--max-lies``)."""
        raise NotSupported(f"backend {self.name} cannot allow wrong replies (--max-lies)")
