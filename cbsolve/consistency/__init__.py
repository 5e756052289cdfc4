"""Consistency: which secrets agree with a feedback log, by one of several backends.

Every backend implements :class:`Backend` (``solve(log, query) -> ConsistencyResult``) and is
found by name with :func:`get_backend`; all return the same result type so the CLI and JSON are
identical whichever answered. ``native`` filters the enumerated space with the scoring core;
``cpsat`` and ``sat`` encode the log as constraints and work where enumeration is impossible.
"""
from __future__ import annotations

import importlib
import time
from dataclasses import dataclass, field
from typing import Protocol

from ..errors import InconsistentLog, unknown_name
from ..feedback import FeedbackLog
from ..status import Status

#: name -> "module:class", imported on first use so solver packages load only when needed.
BACKENDS = {
    "native": "cbsolve.consistency.native:NativeBackend",
    "cpsat": "cbsolve.consistency.cpsat:CpSatBackend",
    "sat": "cbsolve.consistency.sat:SatBackend",
}
BACKEND_CHOICES = ("auto", *BACKENDS)

#: ``auto`` uses the native filter up to this many codes (measured: sub-second filtering).
AUTO_NATIVE_LIMIT = 5_000_000


@dataclass(frozen=True)
class Query:
    """What to compute. ``limit`` caps listed secrets (None: all); ``count`` asks for an exact
    count; ``sample`` draws that many secrets with ``seed``; ``time_limit`` in seconds."""

    count: bool = False
    limit: int | None = 20
    sample: int | None = None
    seed: int | None = None
    time_limit: float | None = None
    count_cap: int | None = None


@dataclass
class ConsistencyResult:
    status: Status
    backend: str
    count: int | None = None          # exact count, or a lower bound when ``exact`` is False
    exact: bool = False
    secrets: list[str] = field(default_factory=list)
    truncated: bool = False
    determined: bool | None = None    # True iff exactly one secret remains (None: unknown)
    sampling: str | None = None       # how ``secrets`` were drawn when sampling
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    conflict: list[int] | None = None
    corrections: list[dict] | None = None

    @property
    def consistent(self) -> bool | None:
        if self.status == Status.INFEASIBLE:
            return False
        return None if self.status == Status.UNKNOWN else True

    def to_json(self) -> dict:
        data = {"status": str(self.status), "consistent": self.consistent, "count": self.count,
                "exact": self.exact, "secrets": self.secrets, "truncated": self.truncated,
                "determined": self.determined, "backend": self.backend,
                "seconds": round(self.seconds, 6)}
        if self.sampling:
            data["sampling"] = self.sampling
        if self.notes:
            data["notes"] = self.notes
        if self.status == Status.INFEASIBLE:
            data["conflict"] = self.conflict
            data["corrections"] = self.corrections
        return data


class Backend(Protocol):
    name: str

    def solve(self, log: FeedbackLog, query: Query) -> ConsistencyResult: ...


def get_backend(name: str) -> Backend:
    """Backend instance by name; an unknown name lists the valid ones."""
    if name not in BACKENDS:
        raise unknown_name("backend", name, BACKEND_CHOICES)
    module, cls = BACKENDS[name].split(":")
    return getattr(importlib.import_module(module), cls)()


def choose_backend(log: FeedbackLog) -> str:
    """``auto``: brute force wins whenever the space can be listed; a solver otherwise."""
    return "native" if log.space.size <= AUTO_NATIVE_LIMIT else "cpsat"


def consistent(log: FeedbackLog, query: Query = Query(), backend: str = "auto") -> ConsistencyResult:
    """Secrets consistent with ``log``. An inconsistent log gives status INFEASIBLE with a
    minimal conflicting set of entries in ``conflict`` (when it could be computed)."""
    start = time.perf_counter()
    name = choose_backend(log) if backend == "auto" else backend
    result = get_backend(name).solve(log, query)
    if result.status == Status.INFEASIBLE and result.conflict is None:
        from .diagnose import diagnose

        diagnose(log, result, backend=name, time_limit=query.time_limit)
    result.seconds = time.perf_counter() - start
    return result


__all__ = ["BACKENDS", "BACKEND_CHOICES", "Backend", "ConsistencyResult", "InconsistentLog",
           "Query", "choose_backend", "consistent", "get_backend"]
