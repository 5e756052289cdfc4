"""Native depth-first search: list, count, pick or sample the secrets consistent with a log
when the code space is too large to filter.

Place in the data flow: FeedbackLog -> (this module) -> cbsolve._native.dfs; its chunks of codes
become answers in :mod:`dfs_answer`. The kernel assigns positions
0..N-1 and tries symbols in ascending order, so codes come out in **lexicographic order**, the
order of ``CodeSpace.codes`` and of the native filter. Per clue it propagates bounds on bulls and
on the total matches ``sum_s min(k_s, n_s)`` (monotone in the partial secret's counts), filters
each position's domain (a clue whose bulls are exact forbids its symbol there; one that needs
every remaining position forces it; likewise for gaining or not gaining a match), and counts the
last position with one popcount: a classic propagate-and-branch search (backtracking with
forward checking, Haralick & Elliott 1980), exact for every variant feature. Counting and
rank selection memoise subtree sizes by search state (depth, bulls per clue, symbol counts),
as in counting by dynamic programming over states.

A call is resumable: the kernel returns where the next call starts (``cursor``), so listing can
stream in chunks with the GIL released, and a time or node budget stops it with an honest
partial answer ("at least K", never a wrong number). Answering a query with these calls (lists,
counts, exact uniform samples) is :mod:`dfs_answer`; ``auto``'s probe is :mod:`plan`.

Find one (``auto``'s probe on spaces of at most 10^15 codes) races this search against the same
search guided by belief-propagation marginals (marginals.py: the most certain positions first,
each trying its likeliest symbols first) on a second thread; the first to answer stops the other
through a shared flag. Which one answers depends on timing, so the secret found may differ
between runs; the guided search is exhaustive too, so "none" is still a proof.
"""
from __future__ import annotations

import functools
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from .._native import dfs as kernel
from ..runtime import time_policy
from ..runtime.deadline import UNLIMITED, Deadline, stop_hook, stop_requested, stopped_by
from ..game.feedback import FeedbackLog
from ..runtime.status import StopReason
from .marginals import marginals
from .precheck import pair_conflict as check
from .rescoring import Checker

LIST, COUNT, SELECT = 0, 1, 2
#: Count vectors (n_s per symbol meeting every clue's total) kept when at most this many, found
#: within this many search nodes: more made the sparse rows slower, not faster (measured).
VEC_CAP, VEC_BUDGET = 256, 2_000_000
#: Counting and rank selection memoise subtree sizes by state (depth, bulls per clue, symbol
#: counts): up to this many entries (~100 bytes each). Dense counts 15-20x faster (measured).
MEMO_CAP = 1_000_000


@dataclass
class Chunk:
    """One kernel call. ``status``, why it ended: ``COMPLETE`` (the search is exhausted,
    ``count`` covers every code from the start), ``LIMIT`` (stopped at the limit or after the
    last rank), ``TIME``, ``NODES`` or ``STOPPED`` (a budget or another thread stopped it).
    ``cursor``: the start of the next call (None: nothing left)."""

    codes: np.ndarray
    count: int
    status: StopReason
    cursor: tuple[int, ...] | None
    nodes: int
    seconds: float = 0.0
    #: True when the search guided by belief propagation answered (:func:`race_first`)
    guided: bool = False

    @property
    def resumable(self) -> bool:
        """A guided search's cursor is not a lexicographic start: it cannot be resumed."""
        return not self.guided

    @property
    def complete(self) -> bool:
        return self.cursor is None

    @property
    def answered(self) -> bool:
        """The call did what was asked: searched everything, or reached its limit."""
        return self.complete or self.status is StopReason.LIMIT


def prepare(log: FeedbackLog) -> dict:
    """The log as the kernel's flat arguments."""
    v = log.variant
    n = len(log)
    guesses = log.guesses_array() if n else np.zeros((0, v.length), dtype=np.uint8)
    return dict(
        n=v.length, d=v.n_symbols, repeats=v.repeats, no_leading_zero=v.no_leading_zero,
        totals=not v.bulls_only, guesses=np.ascontiguousarray(guesses, dtype=np.uint8),
        bulls=[int(e.bulls) for e in log],
        total=[] if v.bulls_only else [int(e.bulls) + int(e.cows) for e in log])


def log_key(log: FeedbackLog) -> tuple:
    """A hashable identity of the log (variant and entries) for the caches here."""
    return (log.variant, tuple((e.guess, e.bulls, e.cows) for e in log))


#: Kernel searchers kept for the last few logs: a searcher keeps its count vectors and its
#: meet-in-the-middle table (at most 600k rows of ~50 bytes) across calls, so a probe, the
#: answer after it and a listing in chunks compute them once.
SEARCHERS_KEPT = 2


def new_searcher(args: dict, vec_cap: int = VEC_CAP, lies: int = 0):
    """A fresh kernel :class:`Searcher` for the log given as :func:`prepare`'s arguments."""
    return kernel.Searcher(**args, vec_cap=int(vec_cap), vec_budget=VEC_BUDGET, lies=int(lies))


class Kept:
    """What the search keeps for the last ``size`` logs, under one lock: the kernel searchers
    and the pair checks (:func:`pair_conflict`: one check per log, not per call). The process
    has one, :data:`KEPT`; :meth:`clear` forgets everything (a cold start, for a benchmark or
    a test)."""

    def __init__(self, size: int = SEARCHERS_KEPT):
        self.size = size
        self._searchers: OrderedDict = OrderedDict()
        self._pairs: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def searcher(self, log: FeedbackLog, vec_cap: int = VEC_CAP, lies: int = 0):
        key = (*log_key(log), vec_cap, lies)
        return self._kept(self._searchers, key, lambda: new_searcher(prepare(log), vec_cap, lies))

    def pair(self, key) -> tuple[bool, tuple[int, int] | None]:
        """(known, the pair check's answer) for a log's key."""
        with self._lock:
            if key not in self._pairs:
                return False, None
            self._pairs.move_to_end(key)
            return True, self._pairs[key]

    def keep_pair(self, key, pair: tuple[int, int] | None) -> None:
        self._kept(self._pairs, key, lambda: pair)

    def clear(self) -> None:
        with self._lock:
            self._searchers.clear()
            self._pairs.clear()

    def _kept(self, cache: OrderedDict, key, make):
        """``cache[key]``, made by ``make()`` when missing; the last ``size`` keys stay."""
        with self._lock:
            value = cache.pop(key) if key in cache else make()
            cache[key] = value
            while len(cache) > self.size:
                cache.popitem(last=False)
        return value


KEPT = Kept()


def searcher(log: FeedbackLog, vec_cap: int = VEC_CAP, lies: int = 0):
    """The kernel's :class:`Searcher` for ``log`` (kept for the last few logs, :data:`KEPT`);
    ``lies``: the codes may contradict that many entries (each count vector then carries the
    totals it gets wrong)."""
    return KEPT.searcher(log, vec_cap, lies)


def pair_conflict(log: FeedbackLog, deadline: Deadline | None = None) -> tuple[int, int] | None:
    """Two entries that cannot both hold, by counting (:mod:`precheck`); kept per log. The
    check takes at most ``time_policy.PAIR_CHECK_SECONDS`` (or ``PAIR_CHECK_SHARE`` of what is
    left of ``deadline``); one cut short found nothing and is not kept. The native backend's answer
    and :func:`first` (the diagnosis's deletion tests) use it; ``auto``'s probe does not, so
    ``auto`` still sends such logs to CP-SAT, whose diagnosis is faster than the search's
    (measured: 0.7 s vs 15 s on the N=20 log of tests/consistency/test_diagnose.py)."""
    key = log_key(log)
    known, pair = KEPT.pair(key)
    if known:
        return pair
    budget = (deadline or UNLIMITED).share(time_policy.PAIR_CHECK_SHARE,
                                           cap=time_policy.PAIR_CHECK_SECONDS,
                                           untimed=time_policy.PAIR_CHECK_SECONDS)
    pair = check(log, budget)
    if pair is not None or not budget.expired():
        KEPT.keep_pair(key, pair)
    return pair


def _none_left(log: FeedbackLog, t0: float) -> Chunk:
    """The answer of a search that proved no code consistent before it started."""
    return Chunk(np.zeros((0, log.variant.length), np.uint8), 0, StopReason.COMPLETE, None, 0,
                 time.perf_counter() - t0)


def _status(kernel_status: str) -> StopReason:
    """The kernel's stop word as a :class:`StopReason`; a search stopped by Ctrl-C's stop
    request (through its stop flag) is ``INTERRUPTED``, never ``TIME``."""
    why = StopReason(kernel_status)
    return StopReason.INTERRUPTED if why is StopReason.STOPPED and stop_requested() else why


def run(log: FeedbackLog, mode: int = LIST, limit: int | None = None,
        start=None, ranks=None, max_nodes: int | None = None,
        seconds: float | None = None, vec_cap: int = VEC_CAP, memo_cap: int = MEMO_CAP,
        suffix: int = -1, lies: int = 0, table_cap: int | None = None,
        stop: np.ndarray | None = None) -> Chunk:
    """One kernel call from ``start`` (a code; None: the first). ``limit``: codes to list (LIST)
    or a count at which to stop (COUNT); ``ranks``: sorted 0-based ranks to fetch (SELECT);
    ``vec_cap``: most count vectors the search keeps (0: per-clue bounds only); ``memo_cap``:
    most subtree sizes memoised when counting or selecting (0: none); ``suffix``: listing
    with count vectors completes the last ``suffix`` positions from a meet-in-the-middle table
    (0: off, the plain search; -1: automatic, N >= 8, m <= N/2, D^m <= 2M, at most
    ``table_cap`` rows (default 600k; else m shrinks), built once the search below that depth
    has visited 2% of the table's row cap); ``lies``: list the codes that contradict at most
    that many entries; ``stop``: an int32[1] flag another thread sets to stop the call (status
    ``stopped``)."""
    t0 = time.perf_counter()
    stop = np.zeros(1, np.int32) if stop is None else stop
    with stop_hook(functools.partial(stop.__setitem__, 0, 1)):   # Ctrl-C sets the kernel's flag
        out = searcher(log, vec_cap, lies).run(
            mode=mode, limit=-1 if limit is None else int(limit),
            start=[] if start is None else [int(s) for s in start],
            ranks=[] if ranks is None else [int(r) for r in ranks],
            max_nodes=-1 if max_nodes is None else int(max_nodes),
            seconds=time_policy.kernel_seconds(seconds),
            memo_cap=int(memo_cap), suffix=int(suffix),
            stop=stop, **({} if table_cap is None else {"table_cap": int(table_cap)}))
    cursor = out["cursor"]
    return Chunk(out["codes"], int(out["count"]), _status(out["status"]),
                 None if cursor is None else tuple(cursor), int(out["nodes"]),
                 time.perf_counter() - t0)


def list_codes(log: FeedbackLog, limit: int | None, seconds: float | None = None,
               lies: int = 0) -> Chunk:
    """The first ``limit`` consistent codes (None: all) within ``seconds``."""
    return run(log, LIST, limit, seconds=seconds, lies=lies)


#: Re-checking and formatting a listed code costs about this much per symbol (N=40 of 10 digits:
#: 0.3 us to re-check and 0.35 us to format a code, measured, with a 1.5x margin): a timed
#: listing keeps that much of its time for the codes it has, so the query ends near its limit.
POST_SECONDS_PER_SYMBOL = 2.5e-8
#: A timed listing runs in kernel calls of at most this many codes (the reserve is checked
#: between calls; one call lists 65k codes in 0.02-0.1 s on the benchmark rows).
TIMED_CHUNK = 65_536


def list_in_time(log: FeedbackLog, want: int, deadline: Deadline | None, lies: int = 0,
                 part: Chunk | None = None, post_per_symbol: float = POST_SECONDS_PER_SYMBOL
                 ) -> Chunk:
    """Up to ``want`` codes before ``deadline``, re-checking and formatting them included; with
    ``part`` (a listing stopped by time) the listing resumes from its cursor. Kernel calls of at
    most TIMED_CHUNK codes, each given the time left after keeping ``post_per_symbol`` seconds
    (:data:`POST_SECONDS_PER_SYMBOL`) per symbol of the codes listed so far (without a time
    limit: one call)."""
    deadline = deadline or UNLIMITED
    t0 = time.perf_counter()
    pieces = [] if part is None else [part.codes]
    have = 0 if part is None else part.codes.shape[0]
    if part is not None and not part.resumable:
        raise ValueError("a guided search's listing cannot be resumed")
    cursor = None if part is None else part.cursor
    nodes, spent = (0, 0.0) if part is None else (part.nodes, part.seconds)
    post = post_per_symbol * log.variant.length
    status = StopReason.LIMIT
    while have < want:
        budget = deadline.reserving(post * have)
        if have and budget.expired():
            status = stopped_by()
            break
        ask = want - have if deadline.unlimited else min(want - have, TIMED_CHUNK)
        c = run(log, LIST, ask, cursor, seconds=budget.left(), lies=lies)
        pieces.append(c.codes)
        have += c.codes.shape[0]
        cursor, status, nodes = c.cursor, c.status, nodes + c.nodes
        if c.complete or c.status is not StopReason.LIMIT:
            break
    codes = np.concatenate(pieces) if len(pieces) > 1 else (pieces[0] if pieces else
                                                            np.zeros((0, log.variant.length), np.uint8))
    return Chunk(codes, have, status, cursor, nodes, spent + time.perf_counter() - t0)


def count(log: FeedbackLog, seconds: float | None = None, cap: int | None = None,
          lies: int = 0) -> Chunk:
    """Exact count (``complete``), or a lower bound when the time or ``cap`` stopped it."""
    return run(log, COUNT, cap, seconds=seconds, lies=lies)


def first(log: FeedbackLog, deadline: Deadline | None = None, lies: int = 0) -> Chunk:
    """Find one: the lexicographically first consistent code, or a proof there is none (at
    once when two entries cannot both hold, :func:`pair_conflict`)."""
    deadline = deadline or UNLIMITED
    if not lies and pair_conflict(log, deadline) is not None:
        return _none_left(log, time.perf_counter())
    return run(log, LIST, 1, seconds=deadline.left(), lies=lies)


def at_ranks(log: FeedbackLog, ranks, seconds: float | None = None, lies: int = 0) -> Chunk:
    """The codes at the given 0-based ranks of the lexicographic consistent set."""
    ranks = sorted(set(int(r) for r in ranks))
    return run(log, SELECT, ranks=ranks, seconds=seconds, lies=lies)


def recheck(log: FeedbackLog, codes: np.ndarray, lies: int = 0) -> None:
    """Re-score codes with the scoring core; a mismatch is a kernel bug, never an answer."""
    if codes.shape[0] and not Checker(log).keep(codes, lies).all():
        raise RuntimeError("depth-first search returned a code that contradicts the log")


# --- a race for find-one (``auto``'s probe) ----------------------------------------------------
#: Sum-product sweeps for the guided search's order (marginals.py; 60 converge on long codes,
#: an order needs fewer).
GUIDE_SWEEPS = 20


def guided_order(log: FeedbackLog) -> tuple[np.ndarray, list[int]]:
    """The guided search's order from belief-propagation marginals of the clues' bulls
    (marginals.py): positions most certain first, each trying its likeliest symbols first.
    Returns (positions in search order, per searched position its symbols in order, flat)."""
    m = marginals(log, sweeps=GUIDE_SWEEPS)
    pos = np.argsort(-m.max(axis=1), kind="stable")
    if log.variant.no_leading_zero:     # the kernel's first position is the one that cannot be 0
        pos = np.concatenate([[0], pos[pos != 0]])
    return pos, np.argsort(-m[pos], axis=1, kind="stable").ravel().tolist()


def guided(log: FeedbackLog, want: int, deadline: Deadline | None,
           stop: np.ndarray | None = None) -> Chunk:
    """Up to ``want`` codes by the search in the marginals' order (:func:`guided_order`): the
    same propagation and the same exhaustive search as :func:`run`, so ``complete`` is a proof,
    but the codes come in no useful order and the search cannot be resumed. The positions are
    permuted in the log given to the kernel (a symmetry of the scoring) and back in the codes."""
    t0 = time.perf_counter()
    pos, order = guided_order(log)      # the marginals take part of the time
    args = prepare(log)
    args["guesses"] = np.ascontiguousarray(args["guesses"][:, pos])
    left = time_policy.kernel_seconds((deadline or UNLIMITED).left())
    stop = np.zeros(1, np.int32) if stop is None else stop
    with stop_hook(functools.partial(stop.__setitem__, 0, 1)):
        out = new_searcher(args).run(
            mode=LIST, limit=int(want), start=[], ranks=[], max_nodes=-1, seconds=left,
            order=order, stop=stop)
    codes = np.ascontiguousarray(out["codes"][:, np.argsort(pos)])
    return Chunk(codes, int(out["count"]), _status(out["status"]), None if out["cursor"] is None else (),
                 int(out["nodes"]), time.perf_counter() - t0, guided=True)


def race_first(log: FeedbackLog, want: int, deadline: Deadline | None) -> Chunk:
    """Up to ``want`` codes (find one; two for ``determined``) by two searches on two threads,
    the lexicographic one and the guided one; the first to answer stops the other. Their times
    differ from log to log by 10x either way, so the race cuts the tail (docs/benchmarks.md, "Find one
    and `determined`").
    Returns the lexicographic search's chunk unless only the guided one answered."""
    stop = np.zeros(1, np.int32)
    box: dict = {}

    def other():
        try:
            box["chunk"] = guided(log, want, deadline, stop)
            if box["chunk"].answered:
                stop[0] = 1
        except BaseException as e:      # re-raised in the caller's thread
            box["error"] = e

    thread = threading.Thread(target=other, name="cbsolve-guided-search", daemon=True)
    thread.start()
    try:
        lex = run(log, LIST, want, seconds=(deadline or UNLIMITED).left(), stop=stop)
    finally:
        stop[0] = 1                     # answered, failed or out of time: the race is over
        thread.join()
    if "error" in box:
        raise box["error"]
    other_chunk = box["chunk"]
    return other_chunk if not lex.answered and other_chunk.answered else lex


# --- probing (``auto``, plan.py; the probes' times are in time_policy) --------------------------
#: A count the probe could not finish still goes to the search when the probe had already
#: counted this many (the SAT engine enumerates at most 200k and Ganak fails on large counts).
PROBE_COUNT_GOING = 100_000
#: A listing the probe could not finish still goes to the search (resumed where the probe
#: stopped) when the probe listed at this rate, secrets/s: 10x what CP-SAT and PySAT list on the
#: rows where the search is slowest (Mastermind 16x6 with 8 guesses: 130-270/s, the search
#: 12-14k/s; docs/journal.md, "2026-11-24 01:13 · Listing, first secrets and lies by the
#: depth-first search").
PROBE_LIST_GOING = 2_000


def find_probe_seconds(log: FeedbackLog) -> float:
    """The probe's time for a find-one / unique query on this log's space."""
    small = log.space.size <= time_policy.FIND_PROBE_SMALL_SPACE
    return time_policy.FIND_PROBE_SMALL_SECONDS if small else time_policy.FIND_PROBE_SECONDS
