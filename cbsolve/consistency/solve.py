"""``consistent``: the secrets consistent with a feedback log, by ``auto``'s plan or a named
backend, with the diagnosis of an inconsistent log, all within the query's one time limit.

Place in the data flow: plan, backends, diagnose -> (this module) -> CLI, strategies, play.
"""
from __future__ import annotations

import time
from dataclasses import replace

from ..runtime import time_policy
from ..runtime.deadline import UNLIMITED, Deadline
from ..extras import MissingExtra, imported_within
from ..game.feedback import FeedbackLog
from ..runtime.status import Status
from .backends import Engines, get_backend
from .plan import plan_for
from .query import ConsistencyResult, Query


def consistent(log: FeedbackLog, query: Query = Query(), backend: str = "auto",
               engines: Engines = Engines(), deadline: Deadline | None = None) -> ConsistencyResult:
    """Secrets consistent with ``log``. An inconsistent log gives status INFEASIBLE with a
    minimal conflicting set of entries in ``conflict`` (when it could be computed).
    ``engines``: the engines' options (benchmarks; the defaults are the product's).
    ``deadline``: the command's (default: no limit)."""
    start = time.perf_counter()
    # Choice, solve and diagnosis share the one deadline.
    deadline = deadline or UNLIMITED
    if query.count and not query.sample:
        from .closed_form import zero_reply_count

        known = log.space.size if not len(log) else zero_reply_count(log)
        if known:        # 0: an inconsistent log, which the search proves and diagnoses
            return _counted(log, query, backend, engines, deadline, known)
    plan = plan_for(log, query, race_guided=engines.race_guided, deadline=deadline,
                    probe_seconds=engines.probe_seconds,
                    list_going=engines.probe_list_going) if backend == "auto" else None
    choice = plan.to_json() if plan else None
    name = plan.backend if plan else backend
    result = _proved_none_first(log, query, deadline, engines) if name == "sat" and plan else None
    if result is not None:
        name = choice["backend"] = "cpsat"
        choice["reason"] += "; CP-SAT's check proved the log inconsistent first"
    else:
        result = get_backend(name, engines).solve(log, query, deadline=deadline,
                                                  head_start=plan.head_start if plan else None)
    if choice:
        choice["choose_seconds"] = round(time.perf_counter() - start - result.seconds, 6)
        choice["solve_seconds"] = round(result.seconds, 6)
        result.auto = choice
    if result.status == Status.INFEASIBLE and result.conflict is None:
        from .diagnose import diagnose  # only for "none": it needs the search and NumPy

        t0 = time.perf_counter()
        try:
            diagnose(log, result, backend=name, deadline=deadline)
        except MissingExtra as missing:     # "none" stays the answer; the diagnosis says why not
            result.notes.append(f"no diagnosis: {missing}")
        if choice:
            choice["diagnose_seconds"] = round(time.perf_counter() - t0, 6)
    result.seconds = time.perf_counter() - start
    result.time_limit = deadline.seconds
    return result


def _proved_none_first(log: FeedbackLog, query: Query, deadline: Deadline,
                       engines: Engines = Engines()) -> ConsistencyResult | None:
    """CP-SAT's answer when it proves within a short budget that no secret fits (the answer
    to any query then), else None (a secret was found, or the budget ran out). The budget:
    ``time_policy.CHECK_SHARE`` of the time left, at most ``CHECK_SECONDS`` (the engines'
    ``check_seconds`` when given). None at once when
    the deadline expires (a time limit, or Ctrl-C) before OR-Tools is imported: the check would
    only delay the partial answer."""
    if not imported_within("ortools.sat.python.cp_model", deadline):
        return None                     # stopped while OR-Tools was being imported
    check = replace(query, count=False, sample=None, limit=1, determined=False)
    most = time_policy.CHECK_SECONDS if engines.check_seconds is None else engines.check_seconds
    result = get_backend("cpsat", engines).solve(log, check, deadline=deadline.share(
        time_policy.CHECK_SHARE, cap=most, untimed=most))
    if result.status != Status.INFEASIBLE:
        return None
    if query.sample:
        from . import sampling

        result.sampling = sampling.NOTHING
    return result


def _counted(log: FeedbackLog, query: Query, backend: str, engines: Engines,
             deadline: Deadline, count: int) -> ConsistencyResult:
    """The log's secrets counted in closed form (no entry: the code space's size; only
    "nothing" replies: :mod:`.closed_form`), where a backend would count 10^40 codes one by
    one and stop at "at least"; the secrets are listed by the backend as asked."""
    result = consistent(log, replace(query, count=False), backend, engines, deadline)
    result.count, result.exact = count, True
    result.truncated = len(result.secrets) < count
    result.settle(count, True)
    result.notes.append("no entries: every code is consistent; the count is the code space's "
                        "size" if not len(log) else "every reply is \"nothing\": the count is "
                        "the product of the symbols each position still allows")
    return result
