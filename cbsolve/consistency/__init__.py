"""Consistency: which secrets agree with a feedback log, by one of several backends.

Every backend implements :class:`Backend` (``solve(log, query) -> ConsistencyResult``) and is
found by name with :func:`get_backend`; all return the same result type so the CLI and JSON are
identical whichever answered. ``native`` filters the enumerated space with the scoring core;
``cpsat`` and ``sat`` encode the log as constraints and work where enumeration is impossible.
"""
from __future__ import annotations

import importlib
import time
from dataclasses import dataclass, field, replace
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
#: ``auto``'s budget for the native filter, and its per-code cost model in nanoseconds, measured
#: on the 2-core machine (docs/benchmarks.md, "Constraint backends"): listing the space costs
#: ~16-60 ns/code with repeats and ~200-550 ns/code distinct; packing and filtering ~250 ns/code
#: plus a few ns per entry.
AUTO_NATIVE_SECONDS = 1.0
#: Before PySAT takes a count, a sample or a whole list beyond the filter, ``auto`` asks CP-SAT
#: for one secret with this share of the time (at most CHECK_SECONDS): CP-SAT's LP proves
#: many inconsistent logs at once that CDCL cannot (N=40 of 10 digits, 33 entries: `unknown`
#: after 5 s by PySAT, proved in 0.18 s by CP-SAT; scripts/audit_inconsistent.py).
CHECK_SHARE, CHECK_SECONDS = 0.1, 1.0
NATIVE_NS_LIST = {True: 60.0, False: 600.0}   # keyed by variant.repeats
NATIVE_NS_FILTER, NATIVE_NS_ENTRY = 250.0, 10.0


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
    time_limit_hit: bool = False      # the query's time limit stopped the work (answer partial)
    time_limit: float | None = None   # the limit in force, seconds (None: none)

    def settle(self, found: int, complete: bool) -> None:
        """``status`` and ``determined`` from ``found`` secrets: the whole set when
        ``complete`` (OPTIMAL, or INFEASIBLE when none), else a partial answer (FEASIBLE, or
        UNKNOWN when a limit stopped the work before any secret)."""
        if complete:
            self.status = Status.OPTIMAL if found else Status.INFEASIBLE
            self.determined = found == 1
        else:
            self.status = Status.FEASIBLE if found else Status.UNKNOWN
            self.determined = False if found >= 2 else None

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
        if self.approximate:
            data["approximate"] = self.approximate
        if self.auto:
            data["auto"] = self.auto
        if self.lies is not None:
            data["max_lies"] = self.lies
        if self.time_limit is not None:
            data["time_limit"] = self.time_limit
            data["time_limit_hit"] = self.time_limit_hit
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


def native_estimate(log: FeedbackLog) -> float:
    """Estimated seconds for the native filter (listing + filtering the whole space)."""
    per_code = (NATIVE_NS_LIST[log.variant.repeats] + NATIVE_NS_FILTER
                + NATIVE_NS_ENTRY * len(log))
    return log.space.size * per_code * 1e-9


def auto_choice(log: FeedbackLog, query: Query | None = None, probe: bool = True,
                lies: int = 0) -> dict:
    """``auto``: brute force wins whenever the space can be listed within the budget. Beyond
    it, for enumeration-heavy queries (lists, counts, samples), the native depth-first search
    (consistency/dfs.py) when a short probe of it answers the query (or, for a count, is
    already past what SAT enumeration and Ganak can count; measured 10-1000x faster than
    PySAT listing where it works, docs/benchmarks.md); else PySAT for counts, samples and
    unbounded lists, CP-SAT (raced against local search) for find-one / unique / none and
    bounded lists. Find-one gets a shorter probe.
    ``probe=False`` skips the probe; ``lies``: the query tolerates that many wrong replies
    (``--max-lies``). Returns {"backend",
    "reason", "native_estimate_seconds"}."""
    est = native_estimate(log)
    if log.space.size <= AUTO_NATIVE_LIMIT and est <= AUTO_NATIVE_SECONDS:
        return {"backend": "native", "native_estimate_seconds": round(est, 6),
                "reason": f"{log.space.size} codes: filtering all is estimated at {est:.3g} s "
                          f"<= {AUTO_NATIVE_SECONDS:g} s"}
    query = query or Query()
    many = query.count or bool(query.sample) or query.limit is None or query.limit > 2
    too_many = f"{log.space.size} codes: too many to filter within {AUTO_NATIVE_SECONDS:g} s"
    if probe:
        from . import dfs

        # Find-one / unique too: the search answers distinct and short-code logs in
        # milliseconds where CP-SAT's tail is 10x its median (docs/benchmarks.md).
        ok, why = dfs.probe(log, query, dfs.PROBE_SECONDS if many else dfs.find_probe_seconds(log),
                            lies)
        if ok:
            return {"backend": "native", "native_estimate_seconds": round(est, 6),
                    "reason": f"{too_many}; native depth-first search: {why}"}
        too_many += f"; {why}"
    # A bounded list goes to CP-SAT's block enumeration raced with local search: measured
    # (docs/benchmarks.md, "auto for bounded lists") 10-100x faster than PySAT on long codes
    # and never far behind; PySAT keeps counts, samples and unbounded lists.
    unbounded = query.count or bool(query.sample) or query.limit is None
    name = "sat" if unbounded else "cpsat"
    why = "enumeration engine for counts, samples and whole lists" if unbounded else \
        "find-one / unique / bounded lists (CP-SAT raced with local search)"
    return {"backend": name, "native_estimate_seconds": round(est, 6),
            "reason": f"{too_many}; {name}: {why}"}


def choose_backend(log: FeedbackLog, query: Query | None = None) -> str:
    """The backend ``auto`` picks for this log and query (see :func:`auto_choice`)."""
    return auto_choice(log, query)["backend"]


def consistent(log: FeedbackLog, query: Query = Query(), backend: str = "auto",
               deadline=None) -> ConsistencyResult:
    """Secrets consistent with ``log``. An inconsistent log gives status INFEASIBLE with a
    minimal conflicting set of entries in ``conflict`` (when it could be computed).
    ``deadline``: the command's :class:`~cbsolve.deadline.Deadline` (default: a new one of
    ``query.time_limit`` seconds); choice, solve and diagnosis share it."""
    from ..deadline import Deadline

    start = time.perf_counter()
    deadline = Deadline(query.time_limit) if deadline is None else deadline
    query = replace(query, time_limit=deadline.left())
    if not len(log) and query.count and not query.sample:
        return _unconstrained(log, query, backend, deadline)
    choice = auto_choice(log, query) if backend == "auto" else None
    name = choice["backend"] if choice else backend
    result = _proved_none_first(log, query) if name == "sat" and choice else None
    if result is not None:
        name = choice["backend"] = "cpsat"
        choice["reason"] += "; CP-SAT's check proved the log inconsistent first"
    else:
        result = get_backend(name).solve(log, replace(query, time_limit=deadline.left()))
    if choice:
        choice["choose_seconds"] = round(time.perf_counter() - start - result.seconds, 6)
        choice["solve_seconds"] = round(result.seconds, 6)
        result.auto = choice
    if result.status == Status.INFEASIBLE and result.conflict is None:
        from .diagnose import diagnose

        t0 = time.perf_counter()
        diagnose(log, result, backend=name, time_limit=deadline.left())
        if choice:
            choice["diagnose_seconds"] = round(time.perf_counter() - t0, 6)
    result.seconds = time.perf_counter() - start
    result.time_limit = deadline.seconds
    return result


def _proved_none_first(log: FeedbackLog, query: Query) -> ConsistencyResult | None:
    """CP-SAT's answer when it proves within a short budget that no secret fits (the answer
    to any query then), else None (a secret was found, or the budget ran out)."""
    seconds = CHECK_SECONDS if query.time_limit is None else \
        min(CHECK_SECONDS, CHECK_SHARE * query.time_limit)
    check = replace(query, count=False, sample=None, limit=1, determined=False,
                    time_limit=seconds)
    result = get_backend("cpsat").solve(log, check)
    if result.status != Status.INFEASIBLE:
        return None
    if query.sample:
        result.sampling = "nothing to draw: no secret is consistent"
    return result


def _unconstrained(log: FeedbackLog, query: Query, backend: str, deadline) -> ConsistencyResult:
    """No entry constrains the secret: every code is consistent and the code space counts them
    exactly (a backend would count 10^40 codes one by one and stop at "at least"); the secrets
    are listed by the backend as asked."""
    result = consistent(log, replace(query, count=False), backend, deadline)
    n = log.space.size
    result.count, result.exact = n, True
    result.truncated = len(result.secrets) < n
    result.settle(n, True)
    result.notes.append("no entries: every code is consistent; the count is the code space's size")
    return result


__all__ = ["BACKENDS", "BACKEND_CHOICES", "Backend", "ConsistencyResult", "InconsistentLog",
           "Query", "auto_choice", "choose_backend", "consistent", "get_backend"]
