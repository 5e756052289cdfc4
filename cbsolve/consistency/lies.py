"""``--max-lies L``: the secrets that contradict at most L entries (Ulam's game with lies;
Pelc 2002).

Place in the data flow: plan + backends -> (this module) -> CLI. Each backend answers through
:meth:`~.backend.Backend.solve_with_lies`: the filter's mismatch counts, the native depth-first
search beyond the filter (each clue may be broken while at most L are), or the solvers' block
enumeration with a counter on the selectors. When none fits, the fewest corrections
(:mod:`diagnose`) say how many replies must be wrong.
"""
from __future__ import annotations

import time

from ..deadline import Deadline
from ..feedback import FeedbackLog
from ..status import Status
from .backends import get_backend
from .diagnose import corrections
from .plan import plan_for
from .query import ConsistencyResult, Query


def consistent_with_lies(log: FeedbackLog, max_lies: int, query: Query = Query(),
                         backend: str = "auto", deadline: Deadline | None = None
                         ) -> ConsistencyResult:
    """Secrets consistent with all but at most ``max_lies`` entries (count and list). The
    choice, the answer and the corrections of an inconsistent log share ``deadline`` (the
    caller's: else one of ``query.time_limit`` seconds)."""
    start = time.perf_counter()
    deadline = Deadline.given(deadline, query.time_limit)
    plan = plan_for(log, query, lies=max_lies, deadline=deadline) if backend == "auto" else None
    if plan is not None:
        backend = plan.backend
    result = get_backend(backend).solve_with_lies(log, max_lies, query, deadline=deadline,
                                                  head_start=plan.head_start if plan else None)
    result.lies = max_lies
    result.auto = plan.to_json() if plan else None
    result.notes.insert(0, f"each secret listed contradicts at most {max_lies} "
                           f"repl{'y' if max_lies == 1 else 'ies'}")
    if result.status == Status.INFEASIBLE:
        fixes, proved, _ = corrections(log, backend, deadline=deadline)
        result.corrections = fixes
        if fixes is not None:
            result.notes.append(f"at least {len(fixes)} replies must be wrong"
                                + ("" if proved else " (not proved)"))
    result.seconds = time.perf_counter() - start
    result.time_limit = deadline.seconds
    return result
