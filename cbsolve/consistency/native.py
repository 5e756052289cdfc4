"""The native filter: score the whole enumerated code space against the log, and its cost model.

Brute force beats every solver whenever the space can be listed (sub-millisecond up to ~150k
codes on the prototype machine), so this is ``auto``'s choice for enumerable spaces and the
reference every other backend is compared with. Beyond the filter's budget (:func:`filterable`)
the native backend (backends.py) answers by the depth-first search of :mod:`dfs`.
"""
from __future__ import annotations

import numpy as np

from .. import scoring, time_policy
from ..feedback import FeedbackLog
from ..status import Status
from . import sampling
from .query import ConsistencyResult, Query

#: ``auto`` uses the native filter up to this many codes (measured: sub-second filtering).
AUTO_NATIVE_LIMIT = 5_000_000
#: The native filter's per-code cost model in nanoseconds (its budget is
#: ``time_policy.FILTER_SECONDS``), measured on the 2-core machine (docs/benchmarks.md, "`auto`:
#: cost model and probes"): listing the space costs ~16-60 ns/code with repeats and ~200-550
#: ns/code distinct; packing and filtering ~250 ns/code plus a few ns per entry.
NATIVE_NS_LIST = {True: 60.0, False: 600.0}   # keyed by variant.repeats
NATIVE_NS_FILTER, NATIVE_NS_ENTRY = 250.0, 10.0


def native_estimate(log: FeedbackLog) -> float:
    """Estimated seconds for the native filter (listing + filtering the whole space)."""
    per_code = (NATIVE_NS_LIST[log.variant.repeats] + NATIVE_NS_FILTER
                + NATIVE_NS_ENTRY * len(log))
    return log.space.size * per_code * 1e-9


#: Codes packed and filtered per step of :func:`consistent_within`: about 0.05 s on Mastermind
#: 8x8 (16.7 M codes in 1.3 s on the loaded 2-core machine), so a deadline or Ctrl-C is seen
#: within a tenth of a second.
FILTER_CHUNK = 1 << 20


def consistent_indices(log: FeedbackLog) -> np.ndarray:
    """Indices (into ``log.space.codes``) of the codes consistent with every entry."""
    return consistent_within(log)[0]


def consistent_within(log: FeedbackLog, deadline=None) -> tuple[np.ndarray, bool]:
    """(indices of the consistent codes found, whether the whole space was filtered): the
    space is filtered in chunks of :data:`FILTER_CHUNK` codes, and a ``deadline``
    (:class:`cbsolve.deadline.Deadline`) that expires part-way leaves the codes found in the
    chunks filtered so far (the first chunk is always filtered)."""
    codes = log.space.codes
    if len(log) == 0:
        return np.arange(codes.shape[0]), True
    guesses, replies = scoring.pack(log.variant, log.guesses_array()), log.responses()
    found = []
    for start in range(0, codes.shape[0], FILTER_CHUNK):
        if start and deadline is not None and deadline.expired():
            return np.concatenate(found), False
        mask = scoring.filter_mask(log.variant, codes[start:start + FILTER_CHUNK], guesses,
                                   replies)
        found.append(np.flatnonzero(mask) + start)
    return (np.concatenate(found) if found else np.empty(0, dtype=np.int64)), True


def result_from_indices(space, idx: np.ndarray, query: Query, backend: str = "native") -> ConsistencyResult:
    """The answer for a fully enumerated set of secrets ``idx``: exact count, listed or sampled."""
    n = int(idx.size)
    result = ConsistencyResult(status=Status.OPTIMAL if n else Status.INFEASIBLE,
                               backend=backend, count=n, exact=True, determined=n == 1)
    if query.sample:
        picked = idx[sampling.draw(np.random.default_rng(query.seed), n, query.sample)]
        result.secrets = space.format_many(space.codes[picked])
        result.sampling = sampling.FROM_THE_SET
        result.truncated = picked.size < n
    else:
        shown = idx if query.limit is None else idx[:query.limit]
        result.secrets = space.format_many(space.codes[shown])
        result.truncated = shown.size < n
    return result


def filterable(log: FeedbackLog) -> bool:
    """True when filtering the whole space fits ``auto``'s budget (else depth-first search)."""
    return (log.space.size <= AUTO_NATIVE_LIMIT
            and native_estimate(log) <= time_policy.FILTER_SECONDS)
