"""Native backend: filter the enumerated code space with the scoring core, or search it.

Brute force beats every solver whenever the space can be listed (sub-millisecond up to ~150k
codes on the prototype machine), so this is ``auto``'s choice for enumerable spaces and the
reference every other backend is compared with. Beyond the filter's budget (the same cost model
``auto`` uses) the backend answers by the native propagating depth-first search of :mod:`dfs`,
which lists, counts and samples without enumerating the space.
"""
from __future__ import annotations

import time

import numpy as np

from .. import scoring
from ..feedback import FeedbackLog
from ..status import Status
from . import ConsistencyResult, Query


def consistent_indices(log: FeedbackLog) -> np.ndarray:
    """Indices (into ``log.space.codes``) of the codes consistent with every entry."""
    codes = log.space.codes
    if len(log) == 0:
        return np.arange(codes.shape[0])
    mask = scoring.filter_mask(log.variant, codes, log.guesses_array(), log.responses())
    return np.flatnonzero(mask)


def result_from_indices(space, idx: np.ndarray, query: Query, backend: str = "native") -> ConsistencyResult:
    """The answer for a fully enumerated set of secrets ``idx``: exact count, listed or sampled."""
    n = int(idx.size)
    result = ConsistencyResult(status=Status.OPTIMAL if n else Status.INFEASIBLE,
                               backend=backend, count=n, exact=True, determined=n == 1)
    if query.sample:
        rng = np.random.default_rng(query.seed)
        k = min(query.sample, n)
        picked = np.sort(rng.choice(idx, size=k, replace=False)) if k else idx[:0]
        result.secrets = space.format_many(space.codes[picked])
        result.sampling = "exact uniform, without replacement, from the enumerated set"
        result.truncated = k < n
    else:
        shown = idx if query.limit is None else idx[:query.limit]
        result.secrets = space.format_many(space.codes[shown])
        result.truncated = shown.size < n
    return result


def filterable(log: FeedbackLog) -> bool:
    """True when filtering the whole space fits ``auto``'s budget (else depth-first search)."""
    from . import AUTO_NATIVE_LIMIT, AUTO_NATIVE_SECONDS, native_estimate

    return (log.space.size <= AUTO_NATIVE_LIMIT
            and native_estimate(log) <= AUTO_NATIVE_SECONDS)


class NativeBackend:
    """``method``: ``auto`` (filter when :func:`filterable`, else depth-first search),
    ``filter`` or ``dfs``."""

    name = "native"

    def __init__(self, method: str = "auto"):
        self.method = method

    def solve(self, log: FeedbackLog, query: Query) -> ConsistencyResult:
        start = time.perf_counter()
        method = self.method
        if method == "auto":
            method = "filter" if filterable(log) else "dfs"
        if method == "dfs":
            from . import dfs

            result = dfs.solve(log, query, self.name)
        else:
            result = result_from_indices(log.space, consistent_indices(log), query, self.name)
        result.seconds = time.perf_counter() - start
        return result
