"""What a consistency query asks (:class:`Query`) and what every backend answers
(:class:`ConsistencyResult`): the types at the top of the consistency layers, imported by all."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..runtime.status import Status, StopReason


@dataclass(frozen=True)
class Query:
    """What to compute. ``limit`` caps listed secrets (None: all); ``count`` asks for an exact
    count; ``sample`` draws that many secrets with ``seed``. Its time is no part of it: the
    caller's Deadline is passed beside it."""

    count: bool = False
    limit: int | None = 20
    sample: int | None = None
    seed: int | None = None
    count_cap: int | None = None
    approximate: bool = False         # allow an (epsilon, delta) approximate count (ApproxMC)
    #: Also decide ``determined`` (look for one secret more than ``limit``). False makes
    #: ``limit=1`` a pure "find one" query: one solver call, ``determined`` left None
    #: unless the search proved the set complete anyway.
    determined: bool = True


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
    approximate: dict | None = None   # {"count", "epsilon", "delta", "method"}: not exact
    auto: dict | None = None          # how ``--backend auto`` chose
    lies: int | None = None           # --max-lies: secrets may contradict this many entries
    breaks: list[list[int]] | None = None   # --max-lies: the entries each listed secret breaks
    time_limit_hit: bool = False      # the query's time limit stopped the work (answer partial)
    time_limit: float | None = None   # the limit in force, seconds (None: none)

    def settle(self, found: int, complete: bool) -> None:
        """``status`` and ``determined`` from ``found`` secrets: the whole set when
        ``complete`` (OPTIMAL, or INFEASIBLE when none), else a partial answer (FEASIBLE, or
        UNKNOWN when a limit stopped the work before any secret)."""
        self.status = (StopReason.COMPLETE if complete else StopReason.LIMIT).status(found)
        if complete:
            self.determined = found == 1
        else:
            self.determined = False if found >= 2 else None

    @property
    def consistent(self) -> bool | None:
        if self.status == Status.INFEASIBLE:
            return False
        return None if self.status == Status.UNKNOWN else True

    def to_json(self) -> dict:
        data: dict[str, Any] = {
                "status": str(self.status), "consistent": self.consistent, "count": self.count,
                "exact": self.exact, "secrets": self.secrets, "truncated": self.truncated,
                "determined": self.determined, "backend": self.backend,
                "seconds": round(self.seconds, 6)}
        if self.sampling:
            data["sampling"] = self.sampling
        if self.notes:
            data["notes"] = self.notes
        if self.approximate:
            data["approximate"] = self.approximate
        if self.auto:
            data["auto"] = self.auto
        if self.lies is not None:
            data["max_lies"] = self.lies
        if self.breaks is not None:
            data["breaks"] = self.breaks
        if self.time_limit is not None:
            data["time_limit"] = self.time_limit
            data["time_limit_hit"] = self.time_limit_hit
        if self.status == Status.INFEASIBLE:
            data["conflict"] = self.conflict
            data["corrections"] = self.corrections
        return data
