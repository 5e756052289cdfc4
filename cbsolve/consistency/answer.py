"""Answer a :class:`Query` with any solver oracle: list, count, sample, determined.

Place in the data flow: cpsat.py / sat.py (oracles) -> (this module) -> backends.py. The
semantics are the native backend's: status OPTIMAL when the full answer is known (every secret
found, or an exact count), FEASIBLE when partial (a limit or cap was hit), INFEASIBLE when proved
none, UNKNOWN when a time limit hit before any secret was found. A count that is not exact is a
lower bound ("at least K") with ``exact`` false, never a silent guess; approximate counts are
reported separately in ``approximate``.
"""
from __future__ import annotations

import numpy as np

from ..runtime import time_policy
from ..runtime.deadline import Deadline, stopped_by
from ..game.feedback import FeedbackLog
from ..runtime.status import Status, StopReason
from . import sampling
from .blocks import SUFFIX_BUDGET, Oracle, enumerate_blocks, suffix_length
from .counting import (
    DELTA,
    EPSILON,
    approx_count,
    available,
    cnf_of,
    ganak_count,
    near_uniform,
)
from .query import ConsistencyResult, Query
from .sat import BuildStopped

#: Enumerate at most this many secrets for an exact count before trying a model counter.
COUNT_CAP = 200_000
#: Sampling enumerates the whole set (exact uniform sampling) when it has at most this many.
SAMPLE_ENUM_CAP = 100_000


def answer_query(name: str, log: FeedbackLog, query: Query, deadline: Deadline, oracle: Oracle,
                 suffix_budget: int | None = None, lies: int = 0,
                 neighbours: bool = True,
                 enumerate_share: float | None = None) -> ConsistencyResult:
    """``neighbours``: list a few secrets (and decide ``determined``) from one-move neighbours
    of the first secret before asking the solver again; False is the solver-only path (the
    benchmark baseline). ``enumerate_share``: a count's share for enumeration (None:
    ``time_policy.ENUMERATE_SHARE``)."""
    m = suffix_length(log.variant, SUFFIX_BUDGET if suffix_budget is None else suffix_budget)
    result = ConsistencyResult(status=Status.UNKNOWN, backend=name)
    if query.sample:
        _sample(result, log, query, deadline, oracle, m, lies)
    elif query.count:
        _count(result, log, query, deadline, oracle, m, lies, enumerate_share)
    else:
        # One more than asked decides ``determined``; a pure find-one asks for exactly one.
        extra = 1 if query.determined else 0
        want = None if query.limit is None else max(1 + extra, query.limit + extra)
        found, how = _list(oracle, log, want, deadline, m, lies, neighbours)
        _settle(result, log, found, how, query.limit)
    oracle.close()
    return result


def _list(oracle, log, want, deadline, m, lies, neighbours: bool):
    """``want`` secrets; after the solver's first secret, its consistent one-move neighbours
    are listed (re-scored, exact; milliseconds) before the solver is asked again."""
    return enumerate_blocks(oracle, log, want, deadline, m, lies,
                            neighbours=neighbours and want is not None and not lies)


def _settle(result: ConsistencyResult, log: FeedbackLog, found, how: StopReason, limit) -> None:
    """Fill status/count/secrets from an enumeration outcome."""
    found = sorted(set(found))
    n = len(found)
    shown = found if limit is None else found[:limit]
    result.secrets = log.space.format_many(np.array(shown, dtype=np.uint8).reshape(-1, log.variant.length))
    result.settle(n, how is StopReason.COMPLETE)
    if how is StopReason.COMPLETE:
        result.count, result.exact = n, True
        result.truncated = len(shown) < n
        return
    result.count = n if n else None
    result.exact = False
    result.truncated = True
    if how.early:
        result.time_limit_hit = how is StopReason.TIME
        result.notes.append(f"enumeration {how.reached()} after {n} secret{'s' if n != 1 else ''}"
                            + ("; the log's consistency is unknown" if not n else ""))


def _counter_deadline(deadline: Deadline, result: ConsistencyResult) -> Deadline:
    """A model counter's budget: what is left of ``deadline``, or
    ``time_policy.UNTIMED_COUNT_SECONDS`` when it is unlimited (said in a note)."""
    if deadline.unlimited and not deadline.expired():
        result.notes.append(f"model counter limited to {time_policy.UNTIMED_COUNT_SECONDS:g} s "
                            "(no --time-limit given)")
    return deadline.share(1.0, untimed=time_policy.UNTIMED_COUNT_SECONDS)


def _count(result, log, query, deadline, oracle, m, lies, share: float | None = None) -> None:
    cap = query.count_cap or COUNT_CAP
    # Enumeration first, the rest for a model counter if the cap or time is hit; an asked-for
    # estimate keeps its share of the whole (time_policy).
    exact_part = deadline.part(1 - time_policy.APPROX_SHARE) if query.approximate else deadline
    share = time_policy.ENUMERATE_SHARE if share is None else share
    found, how = enumerate_blocks(oracle, log, cap + 1, exact_part.part(share), m, lies)
    _settle(result, log, found, how, query.limit)
    if how is StopReason.COMPLETE:
        return
    # Enumeration was capped or ran out of its share, with or without secrets found: the
    # counter, given the rest of the budget, may count what enumeration could not reach.
    counter = _counter_deadline(exact_part, result)
    if not found and counter.expired():
        return                      # nothing found and no time to count: the note says so
    if not counter.expired() and available("pyganak"):
        exact = ganak_count(log, lies, counter)
        if exact is not None:
            assert exact >= len(set(found)), "model counter disagrees with enumeration"
            result.settle(exact, True)            # the whole set counted: no time limit hit
            result.count, result.exact, result.time_limit_hit = exact, True, False
            result.notes = [note for note in result.notes if not note.startswith("enumeration ")]
            result.notes.append("exact count by the Ganak model counter (projected on x)")
            return
        result.notes.append("Ganak exact counting did not finish in time")
        result.time_limit_hit = stopped_by() is StopReason.TIME
    elif not available("pyganak"):
        result.notes.append("exact model counting unavailable (pip install 'cbsolve[counting]')")
    if found:
        result.notes.append(f"at least {result.count}: enumeration stopped "
                            + (how.at() if how.early else f"at the cap of {cap}"))
    if query.approximate:
        _approximate(result, log, deadline, lies, query.seed)


def _approximate(result, log, deadline, lies, seed) -> None:
    if not available("pyapproxmc"):
        result.notes.append("approximate counting unavailable (pip install 'cbsolve[counting]')")
        return
    if deadline.expired():
        result.notes.append("no time left for approximate counting")
        return
    counter = _counter_deadline(deadline, result)
    try:
        clauses, xs, _ = cnf_of(log, lies, counter)
        est = approx_count(clauses, xs, counter, EPSILON, DELTA, seed=int(seed or 1))
    except BuildStopped:
        est = None
    if est is None:
        result.notes.append("ApproxMC did not finish in time")
        return
    result.approximate = {"count": est, "epsilon": EPSILON, "delta": DELTA, "method": "ApproxMC"}


def _sample(result, log, query, deadline, oracle, m, lies) -> None:
    k = query.sample
    found, how = enumerate_blocks(oracle, log, SAMPLE_ENUM_CAP + 1,
                                  deadline.part(time_policy.SAMPLE_ENUMERATE_SHARE), m, lies)
    if how is StopReason.COMPLETE:
        found = sorted(set(found))
        n = len(found)
        picked = sampling.draw(np.random.default_rng(query.seed), n, k)
        codes = np.array([found[i] for i in picked], dtype=np.uint8).reshape(-1, log.variant.length)
        result.secrets = log.space.format_many(codes)
        result.settle(n, True)
        result.count, result.exact = n, True
        result.truncated = picked.size < n
        result.sampling = sampling.FROM_THE_SET
        return
    _settle(result, log, found, how, 0)
    if not found:
        return
    try:
        clauses, xs, decode = cnf_of(log, lies, deadline)
        models = near_uniform(clauses, k, query.seed, deadline.left())
    except BuildStopped:
        models = []                     # no time left for the sampler: the solver's secrets
    if models:
        codes = [decode(mdl) for mdl in models]
        result.sampling = sampling.NEAR_UNIFORM.format(why="the set was too large to enumerate")
    else:
        rng = np.random.default_rng(query.seed)
        pool = sorted(set(found))
        idx = rng.choice(len(pool), size=min(k, len(pool)), replace=False)
        codes = [pool[i] for i in idx]
        why = "install pycmsgen" if models is None else "CMSGen ran out of time"
        result.sampling = sampling.NOT_UNIFORM.format(listed="the solver enumerated",
                                                      why=f"{why} for near-uniform sampling")
    arr = np.array(codes, dtype=np.uint8).reshape(-1, log.variant.length)
    result.secrets = log.space.format_many(arr)
    result.truncated = True
