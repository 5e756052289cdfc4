"""The expected-case search's entry point: the arguments checked, the set-up planned, the
driver (:class:`.search._Search`) run in a worker thread so Ctrl-C is answered at once.
"""
from __future__ import annotations

import sys
import time
from collections.abc import Callable

from ...runtime.deadline import UNLIMITED, Deadline, run_interruptible
from ...runtime.status import Status
from ...game.variant import Variant
from .. import memory
from ..options import SearchOptions
from ..result import SearchInterrupted, SearchResult
from .kernel import PRUNINGS, _Abandoned
from .search import _Search
from .split import SPLIT_MIN


def solve_expected(variant: Variant, *, max_depth: int | None = None, guesses: str = "all",
                   workers: int | None = None,
                   progress: bool | Callable | None = None, prune: dict | None = None,
                   memo_entries: int = 8_000_000, split_min: int = SPLIT_MIN,
                   weights: list[int] | None = None,
                   memory_budget: str | int | None = None, replies: str = "auto",
                   deadline: Deadline | None = None, checkpoint=None) -> SearchResult:
    """Prove the expected-case optimum of ``variant`` and return it with its strategy tree.

    ``guesses``: ``"all"`` codes or only ``"candidates"`` (codes consistent with the replies).
    ``max_depth``: at most this many guesses for every secret (None: no cap).
    ``deadline`` (the caller's budget; None: no limit): stop
    and return the proved bounds, ``proved=False``.
    ``progress``: True shows a bar on stderr (None: when stderr is a terminal); a callable
    hears ``(phase, depth, counters, lower, upper)`` at every poll of the running search:
    phase ``greedy`` (the greedy value, depth 0) then ``first`` (depth: the rank of the first
    guess being solved; ``counters``: :class:`.progress.Counters`), the interval proved so far.
    ``workers``: threads sharing the search (default: the machine's cores); with more than one,
    the driver expands classes of at least ``split_min`` secrets itself (:data:`SPLIT_MIN`).
    ``prune`` (names in :data:`PRUNINGS` -> bool, as :func:`cbsolve.search.worst.solve_worst`
    takes them) switches prunings off, for the tests that compare results with and without.
    ``weights`` (needs ``max_depth``): ``weights[k-1]`` is the cost of a secret found with guess
    k, nondecreasing, >= 0; the search then minimises (sum of the weights, worst case) and the
    result's ``lower``/``upper``/``weighted`` are in that unit (``total`` stays the number of
    guesses). :func:`cbsolve.search.worst.solve_worst_ties` uses it for the worst objective's
    tie-breaks.
    ``memory_budget`` (bytes or "6G"; default :func:`cbsolve.search.memory.budget`): the reply
    matrices if they fit, else replies scored on the fly (:func:`cbsolve.search.memory.plan`;
    the result's ``reply_source`` says which); a game for which neither fits is refused
    (SpaceTooLarge, naming what each needs). ``replies`` forces a source ("matrix",
    "on-the-fly"; default "auto").
    Ctrl-C stops the search within a fraction of a second and raises
    :class:`SearchInterrupted` holding the interval proved so far (no tree).
    ``checkpoint`` (:class:`cbsolve.search.checkpoint.Checkpoint`): record each first guess
    and reply class proved there, skip what it already holds
    (:mod:`cbsolve.search.checkpoint.expected`); it is written on every stop.
    """
    started = time.perf_counter()
    deadline = deadline or UNLIMITED
    checked = SearchOptions.checked(variant, "expected", PRUNINGS, guesses=guesses,
                                    max_depth=max_depth, prune=prune, workers=workers,
                                    memory_budget=memory_budget, replies=replies,
                                    memo_entries=memo_entries)
    prune, budget, workers, plan = checked.prune, checked.budget, checked.workers, checked.plan
    guesses = checked.guesses
    options = {k: v for k, v in prune.items() if k != "symmetry"}
    # the time limit counts the set-up (the reply matrices), which stops at it too
    search = _Search(variant, max_depth, guesses, workers, prune.get("symmetry", True), options,
                     memo_entries, weights, split_min, plan=plan, deadline=deadline)
    if plan.source == memory.ON_THE_FLY:
        search.notes.append(plan.note(search.n, budget))
    if checkpoint is None:
        return _run(search, variant, max_depth, guesses, deadline, progress, started)
    search.steps = checkpoint.expected_steps(search)
    result = None
    try:
        result = _run(search, variant, max_depth, guesses, deadline, progress, started)
        return result
    except SearchInterrupted as stop:
        result = stop.result
        raise
    finally:
        if result is None:
            checkpoint.close()
        else:
            checkpoint.report(result)


def _run(search: _Search, variant: Variant, max_depth, guesses, deadline: Deadline, progress,
         started: float) -> SearchResult:
    """The set-up's stop reported, else the search run in a worker thread."""
    if search.setup_stopped is not None:
        result = search.setup_stop_result(
            SearchResult(objective="expected", status=Status.UNKNOWN, proved=False,
                         secrets=search.n, max_depth=max_depth, guesses=guesses,
                         notes=search.notes, reply_source=search.reply_source), started)
        if result.interrupted:
            raise SearchInterrupted(result)
        return result
    if callable(progress):      # the caller shows it: hears every poll
        search.hear, show = progress, False
    else:
        show = sys.stderr.isatty() if progress is None else bool(progress)
    try:
        # The driver runs in a worker thread: the calling thread answers Ctrl-C at once and
        # sets the kernel's stop flag, which every node polls.
        return run_interruptible(lambda: search.run(deadline, show, started),
                                 search.solver.request_stop, on_wait=search.show_interval)
    except (KeyboardInterrupt, _Abandoned):
        raise SearchInterrupted(search.interrupted(started)) from None
