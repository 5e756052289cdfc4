"""Diagnosis of an inconsistent log: a minimal conflicting set of entries.

Deletion-based minimisation (Junker's QuickXplain reduces to it for one conflict): drop each
entry in turn and keep it dropped when the rest is still inconsistent. The result is minimal:
removing any one of its entries leaves a consistent log.
"""
from __future__ import annotations

from ..feedback import FeedbackLog
from ..status import Status
from . import ConsistencyResult, Query, get_backend


def is_consistent(log: FeedbackLog, backend: str, time_limit: float | None = None) -> bool | None:
    result = get_backend(backend).solve(log, Query(limit=1, time_limit=time_limit))
    return result.consistent


def minimal_conflict(log: FeedbackLog, backend: str = "native",
                     time_limit: float | None = None) -> list[int] | None:
    """1-based numbers of a minimal set of entries that cannot all hold (None if unknown)."""
    keep = list(range(1, len(log) + 1))
    for number in list(keep):
        trial = [k for k in keep if k != number]
        answer = is_consistent(log.subset(trial), backend, time_limit)
        if answer is None:
            return None
        if answer is False:
            keep = trial
    return keep


def diagnose(log: FeedbackLog, result: ConsistencyResult, backend: str = "native",
             time_limit: float | None = None) -> ConsistencyResult:
    """Fill ``result.conflict`` for an infeasible log."""
    assert result.status == Status.INFEASIBLE
    result.conflict = minimal_conflict(log, backend, time_limit)
    return result
