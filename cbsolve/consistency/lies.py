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

from ..game import scoring
from ..runtime.deadline import UNLIMITED, Deadline
from ..game.feedback import FeedbackLog
from ..runtime.status import Status
from .backends import Engines, get_backend
from .diagnose import corrections
from .plan import plan_for
from .query import ConsistencyResult, Query


def consistent_with_lies(log: FeedbackLog, max_lies: int, query: Query = Query(),
                         backend: str = "auto", deadline: Deadline | None = None,
                         engines: Engines = Engines()) -> ConsistencyResult:
    """Secrets consistent with all but at most ``max_lies`` entries (count and list). The
    choice, the answer and the corrections of an inconsistent log share ``deadline`` (the
    caller's; default: no limit); ``engines``: the engines' options (``auto``'s probes)."""
    start = time.perf_counter()
    deadline = deadline or UNLIMITED
    plan = plan_for(log, query, lies=max_lies, deadline=deadline,
                    probe_seconds=engines.probe_seconds,
                    list_going=engines.probe_list_going) if backend == "auto" else None
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
            k = len(fixes)
            result.notes.append(f"at least {k} repl{'y' if k == 1 else 'ies'} must be wrong"
                                + ("" if proved else " (not proved)"))
    if result.secrets:
        result.breaks = broken_replies(log, result.secrets)
    result.seconds = time.perf_counter() - start
    result.time_limit = deadline.seconds
    return result


def broken_replies(log: FeedbackLog, secrets: list[str]) -> list[list[int]]:
    """For each secret, the 1-based numbers of the entries it contradicts (scored at once)."""
    import numpy as np

    codes = _codes_of(log.space, secrets)
    replies = scoring.score_matrix(log.variant, log.guesses_array(), codes)
    bad = replies != np.asarray(log.responses(), dtype=replies.dtype)[:, None]
    return [(np.flatnonzero(bad[:, j]) + 1).tolist() for j in range(codes.shape[0])]


def _codes_of(space, secrets: list[str]):
    """Secrets (canonical text, as the backends list them) as a (k, N) array; ASCII alphabets
    through one byte lookup (millions of secrets under --all)."""
    import numpy as np

    symbols, n = space.variant.symbols, space.variant.length
    if not symbols.isascii():
        return np.array([space.parse(s) for s in secrets], dtype=np.uint8).reshape(-1, n)
    lut = np.zeros(256, dtype=np.uint8)
    lut[np.frombuffer(symbols.encode("ascii"), np.uint8)] = np.arange(len(symbols), dtype=np.uint8)
    return lut[np.frombuffer("".join(secrets).encode("ascii"), np.uint8)].reshape(-1, n)
