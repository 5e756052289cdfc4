"""Optimal play from a position: the exact searches started from the secrets a log leaves.

Place in the data flow: FeedbackLog -> :class:`Position` (the consistent secrets and the guesses
played) -> worst-case search (:func:`cbsolve.search.worst.solve_worst` with ``root=``) or the
expected-case core (:mod:`cbsolve.search.expected`'s solver, asked about one set) -> a tree and
certificate that record the position (docs/tree-format.md, "Trees from a position"), so
``cbsolve verify`` replays them from the same secrets.

The game from a position is a game of its own: depths and totals count the guesses made from
the position (the entries already played are not counted), and ``max_depth`` caps those. Every
optimal strategy of the whole game is optimal in each reply class of its first guess (a
better class strategy would lower the total), so the optimum from a position equals the
subtree value of an optimal tree there; the tests check exactly that.

The guesses already played fix the symmetry the searches may use: only permutations that fix
every played guess map the consistent set onto itself (the same rule the certificate checker
applies to a refutation tree's history).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..certificates.tree import make_tree
from ..consistency.native import consistent_indices
from ..runtime import time_policy
from ..game.codes import CodeSpace
from ..runtime.deadline import UNLIMITED, Deadline, run_interruptible
from ..errors import InconsistentLog
from ..game.feedback import FeedbackLog
from ..runtime.status import Status, StopReason
from ..game.variant import Variant
from . import memory
from .expected.kernel import INF_T, INF_W
from .expected.search import _Search
from .result import SearchInterrupted, SearchResult
from .. import consistency

#: The key of the position block in trees and certificates (docs/tree-format.md).
POSITION_KEY = "position"


@dataclass(frozen=True, eq=False)
class Position:
    """The secrets consistent with a log (``members``) and the guesses played (``history``),
    both as code indices (int64, members sorted); ``entries`` as (guess, reply) texts."""

    variant: Variant
    entries: tuple[tuple[str, str], ...]
    history: np.ndarray
    members: np.ndarray

    @classmethod
    def from_log(cls, log: FeedbackLog) -> Position:
        """The position ``log`` leaves; an inconsistent log raises InconsistentLog (exit 1)."""
        members = np.asarray(consistent_indices(log), dtype=np.int64)
        if members.size == 0:
            result = consistency.consistent(log, consistency.Query(count=True, limit=0), backend="native")
            nums = ", ".join(str(n) for n in result.conflict or [])
            raise InconsistentLog(f"no secret is consistent with this log (conflicting entries: "
                                  f"{nums or 'unknown'})", result.conflict, result.corrections)
        v = log.variant
        entries = tuple((e.text, v.format_response(v.response_index(e.bulls, e.cows)))
                        for e in log)
        history = np.array([log.space.index_of(e.guess) for e in log], dtype=np.int64)
        return cls(v, entries, history, members)

    @property
    def start(self) -> bool:
        """True when nothing has been played (the whole game)."""
        return len(self.entries) == 0

    def to_json(self) -> dict:
        """The ``position`` block of a tree or certificate (docs/tree-format.md)."""
        return {"entries": [{"guess": g, "reply": r} for g, r in self.entries],
                "secrets": int(self.members.size)}


def solve_from(position: Position, objective: str = "worst", *, guesses: str = "all",
               max_depth: int | None = None,
               workers: int | None = None, progress=None, certificate: bool = True,
               lookahead: int = 0, memory_budget: str | int | None = None,
               replies: str = "auto", deadline: Deadline | None = None) -> SearchResult:
    """The proved optimum of the game from ``position`` (tree and, worst case, certificate);
    ``memory_budget`` and ``replies`` choose the reply source as for the whole game;
    ``deadline``: the caller's budget (None: no limit)."""
    if objective == "worst":
        from .worst import solve_worst

        result = solve_worst(position.variant, guesses=guesses, max_depth=max_depth,
                             workers=workers, progress=progress,
                             certificate=certificate, lookahead=lookahead, position=position,
                             memory_budget=memory_budget, replies=replies, deadline=deadline)
    else:
        result = solve_expected_from(position, guesses=guesses, max_depth=max_depth,
                                     memory_budget=memory_budget,
                                     replies=replies, deadline=deadline)
    stamp(result, position)
    return result


def stamp(result: SearchResult, position: Position) -> None:
    """Record the position in the result's tree and certificate (the verifier replays it)."""
    block = position.to_json()
    for doc in (result.tree, result.certificate, (result.tree or {}).get("certificate")):
        if doc is not None:
            doc[POSITION_KEY] = block
    if result.tree is not None and "root" in result.tree:
        result.tree["root"] = result.tree.pop("root")   # keep the root last, as make_tree does


def expected_search(variant: Variant, max_depth: int | None, guesses: str,
                    memo_entries: int = 2_000_000, memory_budget: str | int | None = None,
                    replies: str = "auto", deadline=None):
    """The expected-case search object whose native solver answers one set at a time (the
    reply matrix if it fits the memory budget, else replies scored on the fly). ``deadline``
    (a :class:`cbsolve.runtime.deadline.Deadline`) stops the set-up: see ``_Search.setup_stopped``."""
    plan = memory.check(variant.describe(), CodeSpace(variant).size, "expected",
                        memory.budget(memory_budget), 1, replies, memo_entries)
    return _Search(variant, max_depth, guesses, 1, True, None, memo_entries, plan=plan,
                   deadline=deadline)


def solve_set(search, members: np.ndarray, history: list[int], budget=None,
              depth: int | None = None, seconds: float | None = None,
              deadline: Deadline | None = None, interruptible: bool = True):
    """Solve one set exactly within ``budget`` (total, worst): (total, worst, exact) as the
    core's ``solve``, or None when stopped; the call runs in a thread so Ctrl-C stops it.
    ``depth``: guesses left under a ``max_depth`` cap (default: the search's cap; 0 none).
    ``deadline`` (or ``seconds``, 0: none): a deadline for this call alone, set on the search
    and cleared after it with the stop flag; neither leaves the search's deadline as the
    caller set it. ``interruptible=False``: the kernel runs in the calling thread (a Dask
    task: no Ctrl-C to honour there, the search's deadline stops it, and the task's thread CPU
    is then the search's own, apart from the worker's event loop and heartbeats)."""
    solver = search.solver
    members = np.ascontiguousarray(members, dtype=np.int32)
    bt, bw = budget if budget is not None else (INF_T, INF_W)

    def work():
        return solver.solve(members, search.depth if depth is None else depth, int(bt), int(bw),
                            search.played_mask(history), None, search.native_history(history))

    def run():
        return run_interruptible(work, solver.request_stop) if interruptible else work()

    if deadline is None and seconds is None:
        return run()
    search.set_deadline(Deadline.given(deadline, seconds or None))
    try:
        return run()
    finally:
        search.set_deadline(None)


def subtree(search, members: np.ndarray, history: list[int],
            depth: int | None = None) -> tuple[dict, dict[int, int]]:
    """The optimal tree of a set the solver has just solved exactly, and its histogram with
    depths counted from that set (guess 1 = the first guess there)."""
    search._wins = {}
    root = search._optimal_subtree(np.ascontiguousarray(members, dtype=np.int32),
                                   search.depth if depth is None else depth, list(history))
    shift = len(history)
    hist = {k - shift: v for k, v in sorted(search._wins.items())}
    search._wins = {}
    return root, hist


def solve_expected_from(position: Position, *, guesses: str = "all",
                        max_depth: int | None = None,
                        memory_budget: str | int | None = None,
                        replies: str = "auto", deadline: Deadline | None = None) -> SearchResult:
    """Smallest total (then worst case) from ``position``: one exact solve of its set, before
    ``deadline`` (None: no limit)."""
    started = time.perf_counter()
    deadline = deadline or UNLIMITED
    search = expected_search(position.variant, max_depth, guesses, memory_budget=memory_budget,
                             replies=replies, deadline=deadline)
    n = int(position.members.size)
    result = SearchResult(objective="expected", status=Status.UNKNOWN, proved=False, secrets=n,
                          max_depth=max_depth, guesses=guesses, reply_source=search.reply_source)
    if search.setup_stopped is not None:   # the counting bound, as a stop right after it
        search.setup_stop_result(result, started)
        if result.interrupted:
            raise SearchInterrupted(result)
        return result
    if not deadline.unlimited:   # it counts the set-up (the reply matrix), as the whole game's does
        search.set_deadline(deadline)
    history = [int(g) for g in position.history]

    def stopped(why: str, reason: StopReason) -> SearchResult:
        result.stop = reason
        # a bound, not another search (its own short budget: the search's is spent)
        search.set_deadline(UNLIMITED.capped(time_policy.STOPPED_BOUND_SECONDS))
        low = search.solver.lower_bound(np.ascontiguousarray(position.members, dtype=np.int32),
                                        search.depth, search.played_mask(history),
                                        search.native_history(history))
        result.lower = int(low[0])
        result.notes.append(f"{why}: total >= {result.lower} (not proved)")
        result.seconds, result.nodes = time.perf_counter() - started, search.solver.nodes
        return result

    try:
        out = solve_set(search, position.members, history)
    except KeyboardInterrupt:     # Ctrl-C: report the bound proved, as the whole-game search
        result.interrupted = True
        raise SearchInterrupted(stopped("interrupted", StopReason.INTERRUPTED)) from None
    # the kernel's control block says what stopped it (read before set_deadline clears it)
    reason = StopReason(search.solver.stop_reason())
    search.set_deadline(None)
    result.nodes = search.solver.nodes
    if out is None:
        return stopped("time limit" if reason is StopReason.TIME else str(reason), reason)
    total, worst, exact = out
    if not exact:   # only with max_depth: no strategy within the cap
        result.status, result.proved = Status.INFEASIBLE, True
        result.notes.append(f"no strategy solves every secret in at most {max_depth} more "
                            "guesses" + (" with consistent guesses only"
                                         if guesses == "candidates" else ""))
        result.seconds = time.perf_counter() - started
        return result
    root, hist = subtree(search, position.members, history)
    extra = {"objective": "expected", "proved": True}
    if max_depth:
        extra["max_depth"] = max_depth
    result.tree = make_tree(position.variant, "optimal-expected", guesses, root, hist, **extra)
    result.histogram = hist
    result.total, result.worst = sum(k * v for k, v in hist.items()), max(hist)
    if (result.total, result.worst) != (total, worst):
        raise AssertionError(f"internal error: tree replays to {(result.total, result.worst)}, "
                             f"search claimed {(total, worst)}")
    result.lower = result.upper = result.total
    result.status, result.proved = Status.OPTIMAL, True
    result.seconds = time.perf_counter() - started
    return result
