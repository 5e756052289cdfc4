"""The native filter: score the whole enumerated code space against the log, and its cost model.

Brute force beats every solver whenever the space can be listed (sub-millisecond up to ~150k
codes on the prototype machine), so this is ``auto``'s choice for enumerable spaces and the
reference every other backend is compared with. Beyond the filter's budget (:func:`filterable`)
the native backend (backends.py) answers by the depth-first search of :mod:`dfs`.

Counts and lists go through the kernel's list-based entry (:func:`listed_result`: codes as
bytes, no NumPy), so a small ``consistent`` starts as fast as ``score``; samples and the callers
that want indices into ``log.space.codes`` use the array entry. Both run the same filter kernel.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..runtime import time_policy
from ..game.feedback import FeedbackLog
from ..runtime.status import Status, StopReason
from .query import ConsistencyResult, Query

if TYPE_CHECKING:  # NumPy is imported where used: counts and lists run without it
    import numpy as np


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


#: Spaces of more codes than this are listed by the depth-first search of :mod:`.dfs` instead
#: (its bounds skip every subtree of inconsistent prefixes; it lists codes in the same
#: lexicographic order, ranked back to indices by :meth:`~cbsolve.game.codes.CodeSpace.indices_of`):
#: Mastermind 8x8 after 12345678:2,3 lists its 1.39 M of 16.7 M codes in 0.15 s, where listing
#: the space, packing and filtering every code took 1.7 s (docs/benchmarks.md, "Position
#: service"). Smaller spaces keep the filter, the reference the other backends are checked by.
SEARCH_CODES = FILTER_CHUNK
#: Codes per call of the search when it lists (a few hundredths of a second each): the
#: deadline is checked between calls, and the kernel watches it and Ctrl-C inside a call.
SEARCH_CHUNK = 1 << 18


def consistent_indices(log: FeedbackLog) -> np.ndarray:
    """Indices (into ``log.space.codes``) of the codes consistent with every entry: all of
    them, or KeyboardInterrupt when Ctrl-C's stop request cut the search (never a part)."""
    found, complete = consistent_within(log)
    if not complete:
        raise KeyboardInterrupt
    return found


def consistent_within(log: FeedbackLog, deadline=None,
                      chunk: int = FILTER_CHUNK) -> tuple[np.ndarray, bool]:
    """(indices of the consistent codes found, whether the whole space was filtered): the
    space is filtered in chunks of ``chunk`` codes (:data:`FILTER_CHUNK`) (beyond :data:`SEARCH_CODES`,
    searched in calls of :data:`SEARCH_CHUNK` codes), and a ``deadline``
    (:class:`cbsolve.runtime.deadline.Deadline`) that expires part-way leaves the codes found in the
    chunks filtered so far (the first chunk is always filtered). Ctrl-C's stop request ends
    the search the same way."""
    import numpy as np

    from ..game import scoring

    if len(log) == 0:
        return np.arange(log.space.size), True
    if log.space.size > SEARCH_CODES:
        return searched_within(log, deadline)
    codes = log.space.codes
    guesses, replies = scoring.pack(log.variant, log.guesses_array()), log.responses()
    found = []
    for start in range(0, codes.shape[0], chunk):
        if start and deadline is not None and deadline.expired():
            return np.concatenate(found), False
        mask = scoring.filter_mask(log.variant, codes[start:start + chunk], guesses,
                                   replies)
        found.append(np.flatnonzero(mask) + start)
    return (np.concatenate(found) if found else np.empty(0, dtype=np.int64)), True


def searched_within(log: FeedbackLog, deadline=None,
                    chunk: int | None = None) -> tuple[np.ndarray, bool]:
    """:func:`consistent_within` by the depth-first search, resumed call after call, ``chunk``
    codes a call (:data:`SEARCH_CHUNK`); the first call runs without a time limit (its chunk
    bounds it, as the filter's first chunk does)."""
    import numpy as np

    from . import dfs

    found, start = [], None
    while True:
        seconds = None if deadline is None or not found else deadline.left()
        part = dfs.run(log, dfs.LIST, chunk or SEARCH_CHUNK, start, seconds=seconds)
        found.append(log.space.indices_of(part.codes))
        done = part.complete
        if done or part.status is not StopReason.LIMIT or (
                deadline is not None and deadline.expired()):
            return np.concatenate(found), done
        start = part.cursor


def result_from_indices(space, idx: np.ndarray, query: Query, backend: str = "native") -> ConsistencyResult:
    """The answer for a fully enumerated set of secrets ``idx``: exact count, listed or sampled."""
    import numpy as np

    from . import sampling

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


def listable(log: FeedbackLog, query: Query) -> bool:
    """True when the list-based entry answers ``query``: a count or a list (a sample draws
    from the array), an alphabet of one-byte symbols (codes are formatted by byte)."""
    return not query.sample and log.variant.symbols.isascii()


def consistent_rows(log: FeedbackLog, limit: int | None = None) -> tuple[int, bytes]:
    """(count, rows): how many codes fit every entry, and the first ``limit`` of them (all
    when None) as bytes of symbol indices, ``length`` a code, in the space's order."""
    from .._native import scoring as core

    v = log.variant
    guesses = bytes(symbol for e in log.entries for symbol in e.guess)
    return core.consistent_listed(v.length, v.n_symbols, v.repeats, v.no_leading_zero,
                                  v.bulls_only, guesses, log.responses(),
                                  -1 if limit is None else limit)


def format_rows(log: FeedbackLog, rows: bytes) -> list[str]:
    """Code strings of ``rows`` (symbol indices, ``length`` bytes a code; ASCII alphabet)."""
    n = log.variant.length
    symbols = log.variant.symbols.encode("ascii")
    text = rows.translate(bytes.maketrans(bytes(range(len(symbols))), symbols)).decode("ascii")
    return [text[i:i + n] for i in range(0, len(text), n)]


def listed_result(log: FeedbackLog, query: Query, backend: str = "native") -> ConsistencyResult:
    """:func:`result_from_indices` for a count or a list, through the list-based entry."""
    n, rows = consistent_rows(log, query.limit)
    secrets = format_rows(log, rows)
    return ConsistencyResult(status=Status.OPTIMAL if n else Status.INFEASIBLE, backend=backend,
                             count=n, exact=True, determined=n == 1, secrets=secrets,
                             truncated=len(secrets) < n)
