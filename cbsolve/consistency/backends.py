"""The consistency backends by name: ``native``, ``cpsat`` and ``sat``, each a
:class:`~.backend.Backend` answering every query (and ``--max-lies``) with its engines.

Place in the data flow: engines (native.py, dfs.py, cpsat.py + portfolio.py, sat.py) and the
query answerers (dfs_answer.py, answer.py) -> (this module) -> plan.py, solve.py. All return the
same result type, so the CLI and JSON are identical whichever answered. The engines (and
OR-Tools, PySAT, NumPy) are imported on their first solve, not here: a count or a list that the
native filter answers (native.listed_result) imports none of them.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..runtime.deadline import UNLIMITED, Deadline, stopped_by
from ..errors import unknown_name
from ..game.feedback import FeedbackLog
from ..runtime.status import Status, StopReason
from .backend import Backend
from .engine_options import (
    CPSAT_DEFAULTS,
    LOCAL_SEARCH,
    PORTFOLIO_DEFAULTS,
    SAT_DEFAULTS,
    WORKERS,
    CpSatOptions,
    PortfolioShape,
    SatOptions,
)
from .native import consistent_indices, filterable, listable, listed_result, result_from_indices
from .query import ConsistencyResult, Query
from ..lazy import lazy_module

rescoring = lazy_module("cbsolve.consistency.rescoring")
cpsat = lazy_module("cbsolve.consistency.cpsat")
answer = lazy_module("cbsolve.consistency.answer")
portfolio = lazy_module("cbsolve.consistency.portfolio")
sat = lazy_module("cbsolve.consistency.sat")
dfs_answer = lazy_module("cbsolve.consistency.dfs_answer")

if TYPE_CHECKING:
    from .dfs_answer import HeadStart


class NativeBackend(Backend):
    """``method``: ``auto`` (filter when :func:`filterable`, else depth-first search),
    ``filter`` or ``dfs``."""

    name = "native"

    def __init__(self, method: str = "auto", list_cap: int | None = None):
        self.method = method
        # the most a listing of every secret shows (None: dfs_answer.LIST_CAP)
        self.list_cap = list_cap
    def solve(self, log: FeedbackLog, query: Query, head_start: HeadStart | None = None,
              deadline: Deadline | None = None) -> ConsistencyResult:
        start = time.perf_counter()
        method = self.method
        if method == "auto":
            method = "filter" if filterable(log) else "dfs"
        if method == "dfs":
            cap = {} if self.list_cap is None else {"list_cap": self.list_cap}
            result = dfs_answer.solve(log, query, self.name, head_start=head_start,
                                      deadline=deadline, **cap)
        elif listable(log, query):
            result = listed_result(log, query, self.name)
        else:
            result = result_from_indices(log.space, consistent_indices(log), query, self.name)
        result.seconds = time.perf_counter() - start
        return result

    def solve_with_lies(self, log: FeedbackLog, max_lies: int, query: Query,
                        head_start: HeadStart | None = None,
                        deadline: Deadline | None = None) -> ConsistencyResult:
        """The filter's mismatch counts, or beyond the filter the depth-first search that lets
        up to ``max_lies`` clues break."""
        if not filterable(log):     # beyond the filter's budget: the depth-first search

            return dfs_answer.solve(log, query, self.name, lies=max_lies, head_start=head_start,
                                    deadline=deadline)
        import numpy as np

        idx = np.flatnonzero(rescoring.mismatch_counts(log, log.space.codes) <= max_lies)
        return result_from_indices(log.space, idx, query)


class CpSatBackend(Backend):
    """CP-SAT: robust find-one / unique / none at large N; enumerates by re-solving."""

    name = "cpsat"

    def __init__(self, workers: int = WORKERS, suffix_budget: int | None = None,
                 seed: int = 0, seeded: bool = False, local_search: bool | None = None,
                 options: CpSatOptions = CPSAT_DEFAULTS, neighbours: bool = True,
                 portfolio: PortfolioShape = PORTFOLIO_DEFAULTS):
        self.workers = workers
        self.local_search = LOCAL_SEARCH if local_search is None else local_search
        self.portfolio = portfolio          # the race's shape (benchmarks try others)
        self.suffix_budget = suffix_budget
        self.seed = seed
        self.seeded = seeded
        self.options = options
        self.neighbours = neighbours        # answer.answer_query's one-move neighbours

    def solve(self, log: FeedbackLog, query: Query, head_start=None,
              deadline: Deadline | None = None) -> ConsistencyResult:
        start = time.perf_counter()
        deadline = deadline or UNLIMITED
        oracle = cpsat.CpSatOracle(cpsat.model_for(log), self.workers, self.seed, self.seeded,
                                   log=log if self.options.pin_counts else None,
                                   options=self.options)
        # Lists of a few secrets (find-one, determined): race the native local search against
        # CP-SAT (portfolio.py). Counts, samples and full lists enumerate, where it cannot help.
        if self.local_search and not query.count and not query.sample and query.limit is not None:
            oracle = portfolio.PortfolioOracle(oracle, log, self.seed, self.portfolio)
        result = answer.answer_query(self.name, log, query, deadline, oracle,
                                     suffix_budget=self.suffix_budget, neighbours=self.neighbours)
        note = oracle.note()
        if note:
            result.notes.append(note)
        return _finished(result, start, "CP-SAT")

    def solve_with_lies(self, log: FeedbackLog, max_lies: int, query: Query,
                        head_start=None, deadline: Deadline | None = None) -> ConsistencyResult:
        """Each entry enforced by its own selector, at least all but ``max_lies`` of them true."""
        cm, sels = cpsat.selector_model(log)
        cm.model.Add(sum(sels) >= len(sels) - max_lies)
        return answer.answer_query(self.name, log, query, deadline or UNLIMITED,
                                   cpsat.CpSatOracle(cm, options=self.options), lies=max_lies)


class SatBackend(Backend):
    """PySAT: the enumeration engine (incremental blocking clauses, block completion)."""

    name = "sat"

    def __init__(self, options: SatOptions = SAT_DEFAULTS, suffix_budget: int | None = None,
                 neighbours: bool = True):
        self.options = options
        self.suffix_budget = suffix_budget
        self.neighbours = neighbours        # answer.answer_query's one-move neighbours

    def solve(self, log: FeedbackLog, query: Query, head_start=None,
              deadline: Deadline | None = None) -> ConsistencyResult:
        start = time.perf_counter()
        deadline = deadline or UNLIMITED
        try:
            session = sat.session_for(log, self.options, deadline)
        except sat.BuildStopped:
            return _finished(stopped_before_solving(self.name), start, "PySAT")
        with session:
            oracle = session.oracle()
            result = answer.answer_query(self.name, log, query, deadline, oracle,
                                         suffix_budget=self.suffix_budget, neighbours=self.neighbours,
                                         enumerate_share=self.options.enumerate_share)
        return _finished(result, start, f"PySAT ({self.options.solver})")

    def solve_with_lies(self, log: FeedbackLog, max_lies: int, query: Query,
                        head_start=None, deadline: Deadline | None = None) -> ConsistencyResult:
        """A counter over the negated selectors: at most ``max_lies`` entries false."""
        deadline = deadline or UNLIMITED
        try:
            session = sat.session_for(log, self.options, deadline)
        except sat.BuildStopped:
            return stopped_before_solving(self.name)
        with session as s:
            return answer.answer_query(self.name, log, query, deadline, s.oracle(lies=max_lies),
                                       lies=max_lies)


def stopped_before_solving(name: str) -> ConsistencyResult:
    """The answer of a backend whose deadline expired (a time limit, or Ctrl-C) while it was
    building its formula: nothing found, nothing proved, and why."""
    why = stopped_by()
    result = ConsistencyResult(status=Status.UNKNOWN, backend=name, truncated=True,
                               time_limit_hit=why is StopReason.TIME)
    result.notes.append(f"{why.reached()} while the solver's formula was being built; the "
                        "log's consistency is unknown")
    return result


def _finished(result: ConsistencyResult, start: float, engine: str) -> ConsistencyResult:
    """The result with its time, and which engine proved "none" when it did."""
    if result.status == Status.INFEASIBLE:
        result.notes.append(f"proved inconsistent by {engine}")
    result.seconds = time.perf_counter() - start
    return result


@dataclass(frozen=True)
class Engines:
    """The engines' options, passed down from :func:`~.solve.consistent` to every backend it
    makes; the defaults are the product's, benchmarks compare others side by side."""

    sat: SatOptions = SAT_DEFAULTS
    cpsat: CpSatOptions = CPSAT_DEFAULTS
    #: How ``cpsat`` races the native local search for find-one and short lists.
    portfolio: PortfolioShape = PORTFOLIO_DEFAULTS
    #: The solvers list one-move neighbours of a first secret before asking again.
    neighbours: bool = True
    #: ``auto``'s find-one probe races two orders of the depth-first search (plan.probe_search).
    race_guided: bool = True
    #: ``auto``'s probes of the depth-first search all get this many seconds (None: the time
    #: policy's, ``PROBE_SECONDS`` and the find-one probes'): a test decides under a given
    #: budget, not the speed of its machine.
    probe_seconds: float | None = None
    #: A listing the probe could not finish goes on in the search from this rate, secrets/s
    #: (None: :data:`cbsolve.consistency.dfs.PROBE_LIST_GOING`).
    probe_list_going: int | None = None
    #: CP-SAT's check that no secret fits gets at most this many seconds (None:
    #: ``time_policy.CHECK_SECONDS``).
    check_seconds: float | None = None


BACKENDS: dict[str, type[Backend]] = {"native": NativeBackend, "cpsat": CpSatBackend,
                                      "sat": SatBackend}
BACKEND_CHOICES = ("auto", *BACKENDS)


def get_backend(name: str, engines: Engines = Engines()) -> Backend:
    """Backend instance by name, with ``engines``' options; an unknown name lists the valid
    ones."""
    if name not in BACKENDS:
        raise unknown_name("backend", name, BACKEND_CHOICES)
    if name == "cpsat":
        return CpSatBackend(options=engines.cpsat, neighbours=engines.neighbours,
                            portfolio=engines.portfolio)
    if name == "sat":
        return SatBackend(options=engines.sat, neighbours=engines.neighbours)
    return BACKENDS[name]()
