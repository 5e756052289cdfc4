"""Answer a :class:`~.query.Query` by the native depth-first search (:mod:`dfs`): lists,
exact counts and exact uniform samples of spaces too large to filter.

Place in the data flow: dfs (kernel calls) -> (this module) -> backends.NativeBackend. Same
semantics as :mod:`answer` (the solvers' side): OPTIMAL when complete, FEASIBLE when partial,
UNKNOWN when a limit hit first. Sampling is exact uniform without replacement when the set can
be counted in time (count exactly, draw ranks uniformly, fetch the codes at those ranks).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..runtime import time_policy
from ..runtime.deadline import UNLIMITED, Deadline, stopped_by
from ..game.feedback import FeedbackLog
from ..runtime.status import Status, StopReason
from . import dfs, sampling
from .counting import cnf_of, exact_count_log, near_uniform
from .dfs import COUNT, LIST, Chunk
from .query import ConsistencyResult, Query

#: ``limit=None`` lists at most this many secrets (memory: N bytes each, then Python strings);
#: beyond it the answer is partial ("at least"), never silently cut.
LIST_CAP = 5_000_000


@dataclass(frozen=True)
class HeadStart:
    """What ``auto``'s probe of the search found (plan.py), handed to the answer so it is not
    redone: a finished count, or a listing (complete, at its limit, or still going)."""

    mode: int                 # dfs.COUNT or dfs.LIST
    want: int | None          # LIST: the codes asked for
    lies: int
    chunk: Chunk


def _taken(head: HeadStart | None, mode: int, want, lies: int) -> Chunk | None:
    """The probe's chunk when it answers this call (same mode, size and lies), else None."""
    if head is not None and (head.mode, head.want, head.lies) == (mode, want, lies):
        return head.chunk
    return None


def codes_wanted(query: Query, cap: int = LIST_CAP) -> int:
    """Codes a listing asks the search for: one more than shown decides ``determined``;
    ``cap``: the most a listing of every secret shows (:data:`LIST_CAP`)."""
    extra = 1 if query.determined else 0
    if query.limit is None:
        return cap + 1
    return max(1 + extra, query.limit + extra)


def solve(log: FeedbackLog, query: Query, backend: str = "native", lies: int = 0,
          head_start: HeadStart | None = None, deadline: Deadline | None = None,
          list_cap: int = LIST_CAP) -> ConsistencyResult:
    """Answer a :class:`~cbsolve.consistency.Query` by depth-first search (same semantics as
    :mod:`answer`: OPTIMAL when complete, FEASIBLE when partial, UNKNOWN when a limit hit first);
    ``lies``: the codes that contradict at most that many entries (``--max-lies``);
    ``head_start``: what ``auto``'s probe found on this log (used when it fits the query);
    ``deadline``: the caller's budget (default: no limit)."""
    start = time.perf_counter()
    deadline = deadline or UNLIMITED
    result = ConsistencyResult(status=Status.UNKNOWN, backend=backend)
    result.notes.append("native depth-first search (the space is too large to filter)")
    pair = None if lies else dfs.pair_conflict(log, deadline)
    if pair is not None:
        # The search propagates each clue alone: it would exhaust the space to see this.
        result.count, result.exact = 0, True
        result.settle(0, True)
        if query.sample:            # as the counted path labels an empty draw
            result.sampling = sampling.BY_RANKS
        result.notes.append(f"entries {pair[0]} and {pair[1]} cannot both hold: their guesses "
                            "share too few positions (or symbols) for both replies")
        result.seconds = time.perf_counter() - start
        return result
    if query.sample:
        _sample(result, log, query, deadline, lies, head_start)
    elif query.count:
        counting = deadline.capped(None if not deadline.unlimited
                                   else time_policy.UNTIMED_COUNT_SECONDS)
        if query.count_cap:     # one more than the cap: exactly `cap` secrets count exactly
            c = (_taken(head_start, COUNT, None, lies)
                 or dfs.count(log, counting.left(), query.count_cap + 1, lies))
            n, exact, method = c.count, c.complete, "native depth-first search"
            if c.status is StopReason.LIMIT:     # more than the cap: "at least cap", as the contract says
                n = query.count_cap
            stopped = c.status
        else:
            c = _taken(head_start, COUNT, None, lies)
            if lies and c is None:      # Ganak counts the exact log only
                c = dfs.count(log, counting.left(), None, lies)
            n, exact, method = ((c.count, c.complete, "native depth-first search") if c
                                else exact_count_log(log, deadline=counting))
            stopped = stopped_by()
        result.count, result.exact = n, exact
        if exact:
            if "Ganak" in method:
                result.notes.append(f"exact count by the {method}")
        else:
            result.time_limit_hit = stopped is StopReason.TIME
            why = stopped.at() if stopped.early else f"at the cap of {query.count_cap}"
            if deadline.unlimited and stopped is StopReason.TIME:
                why = f"at {time_policy.UNTIMED_COUNT_SECONDS:g} s (no --time-limit given)"
            result.notes.append(f"at least {n}: counting stopped {why} ({method})")
        if query.limit != 0 and (n or not exact):   # a count of 0 is the whole answer: the
            # listing search proves it far more slowly than the memoised count (black-peg 16x6,
            # colour counts adding to 17: 0.01 s counted, then 10 s of listing to the limit)
            shown = dfs.list_in_time(log, list_cap if query.limit is None else query.limit,
                                     deadline, lies)
            result.secrets = log.space.format_many(shown.codes)
            dfs.recheck(log, shown.codes, lies)
            result.truncated = shown.codes.shape[0] < n or not result.exact
        else:
            result.truncated = n > 0
        result.settle(n, result.exact)
    else:
        want = codes_wanted(query, list_cap)
        c = _taken(head_start, LIST, want, lies)
        if c is None:
            c = dfs.list_in_time(log, want, deadline, lies)
        elif not c.answered:                            # the probe's listing, still going
            c = dfs.list_in_time(log, want, deadline, lies, part=c)
        n = c.codes.shape[0]
        dfs.recheck(log, c.codes, lies)
        shown = c.codes[:list_cap] if query.limit is None else c.codes[:query.limit]
        result.secrets = log.space.format_many(shown)
        if query.limit is None and not c.complete and c.status is StopReason.LIMIT:
            result.notes.append(f"listing stopped at {list_cap} secrets (give --count for the "
                                "exact number)")
        if c.complete:
            result.count, result.exact = n, True
            result.truncated = shown.shape[0] < n
        else:
            result.count, result.exact = (n if n else None), False
            result.truncated = True
            if c.status.early:
                result.time_limit_hit = c.status is StopReason.TIME
                result.notes.append(f"{c.status.reached()} after {n} secret{'s' if n != 1 else ''}"
                                    + ("; the log's consistency is unknown" if not n else ""))
        result.settle(n, c.complete)
    result.seconds = time.perf_counter() - start
    return result


def _sample(result: ConsistencyResult, log: FeedbackLog, query: Query, deadline: Deadline,
            lies: int = 0, head_start: HeadStart | None = None) -> None:
    """Exact uniform without replacement when the set can be counted in time; otherwise the
    first secrets in lexicographic order, labelled NOT uniform."""
    c = (_taken(head_start, COUNT, None, lies)
         or dfs.count(log, deadline.share(time_policy.SAMPLE_COUNT_SHARE, untimed=(
             time_policy.SAMPLE_COUNT_SHARE * time_policy.UNTIMED_COUNT_SECONDS)).left(),
                      None, lies))
    n = c.count
    rng = np.random.default_rng(query.seed)
    if c.complete:
        ranks = sampling.draw(rng, n, query.sample)
        k = ranks.size
        got = dfs.at_ranks(log, ranks, deadline.left(), lies)
        if got.codes.shape[0] == k:
            dfs.recheck(log, got.codes, lies)
            result.secrets = log.space.format_many(got.codes)
            result.count, result.exact, result.truncated = n, True, k < n
            result.sampling = sampling.BY_RANKS
            result.settle(n, True)
            return
    clauses, _, decode = cnf_of(log, lies)
    models = near_uniform(clauses, query.sample, query.seed, _at_least_a_little(deadline))
    if models:
        codes = np.array([decode(m) for m in models], dtype=np.uint8)
        dfs.recheck(log, codes, lies)
        result.secrets = log.space.format_many(codes)
        result.count, result.exact, result.truncated = n or None, False, True
        result.time_limit_hit = stopped_by() is StopReason.TIME
        result.sampling = sampling.NEAR_UNIFORM.format(
            why=_not_counted())
        result.settle(max(n, codes.shape[0]), False)
        return
    listed = dfs.list_codes(log, max(query.sample, 1000), _at_least_a_little(deadline), lies)
    dfs.recheck(log, listed.codes, lies)
    m = listed.codes.shape[0]
    pick = sampling.draw(rng, m, query.sample)
    result.secrets = log.space.format_many(listed.codes[pick])
    result.count, result.exact, result.truncated = max(n, m) or None, False, True
    result.time_limit_hit = stopped_by() is StopReason.TIME
    result.sampling = sampling.NOT_UNIFORM.format(
        listed="in lexicographic order", why=_not_counted())
    result.settle(max(n, m), False)


def _at_least_a_little(deadline: Deadline) -> float | None:
    """The time left for a sample's last steps, at least ``time_policy.SAMPLE_FLOOR_SECONDS``."""
    left = deadline.left()
    return None if left is None else max(left, time_policy.SAMPLE_FLOOR_SECONDS)


def _not_counted() -> str:
    """Why a sample is not exactly uniform: the count did not finish (time, or Ctrl-C)."""
    why = stopped_by()
    return ("the set could not be counted within the time limit" if why is StopReason.TIME
            else "the set was not counted: interrupted (Ctrl-C)")

