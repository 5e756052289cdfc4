"""Exact expected-case search: the strategy with the smallest total number of guesses.

Place in the data flow: Variant -> CodeSpace -> scoring (full score matrix) -> **expected search**
-> strategy tree (docs/tree-format.md) -> ``cbsolve optimal --objective expected`` / ``verify``.

Objective (Koyama–Lai 1993 for Mastermind 4/6, 5625; Tanaka 1996 for Bulls & Cows 4/10, 26274):
the smallest total, over all secrets, of the guesses needed (the winning guess included); among
total-optimal strategies the smallest worst case. ``max_depth=K`` restricts to strategies that
never need more than K guesses (Mastermind 4/6: 5626 with K=5).

Division of work. The native core (``cbsolve/_native/search_expected.cpp``) runs a depth-first
branch and bound over candidate sets with fill lower bounds (branching factor sharpened per
node), best-first refinement of guesses, the obvious-guess and equivalent-partition shortcuts,
guesses reduced by the stabiliser of the history at every level and a transposition table
(details in that file). This module drives the top of the tree:

* the first guess is tried only up to the full symmetry group (positions x symbols), deeper
  guesses up to the stabiliser of the history, the classic reduction of Knuth 1977 and
  Koyama–Lai 1993 (in the core; :mod:`cbsolve.game.symmetry` at the top two levels when the core's
  ``stabiliser`` option is off);
* the classes of a first guess are independent subproblems: they are solved on ``workers``
  threads (the native call releases the GIL) sharing one transposition table, each with the
  budget left by the incumbent and the other classes' best known values; a class of at least
  :data:`SPLIT_MIN` secrets (Bulls & Cows 4/10: 0,1 and 0,2 after 0123) is expanded here, its
  guesses shared among the threads;
* the incumbent starts as Irving's greedy strategy (1979, smallest expected class size);
* on a time limit the search stops and returns the bounds proved so far (``proved=False``).

A hash collision in the transposition table (two independent 64-bit Zobrist keys per set) is
the only way a wrong value could be reused; the returned tree is replayed with the scorer, so
its statistics are exact in every case.
"""
from __future__ import annotations

import threading
import time

import numpy as np

from ...errors import InvalidVariant
from ...game.codes import CodeSpace
from ...game.symmetry import Symmetry
from ...runtime import time_policy
from ...runtime.deadline import Deadline, stop_requested
from ...runtime.status import Status, StopReason
from ...runtime.workers import resolve
from .. import memory, reply_matrix, setup
from ..result import SearchResult
from .first_guess import FirstGuessClasses
from .kernel import INF_T, INF_W, _Abandoned, _Class, _replies, new_solver
from .live import LiveInterval
from .progress import Counters, _Progress
from .split import SPLIT_MIN
from .trees import _Trees


class _Search(_Trees):
    def __init__(self, variant, max_depth, guesses, workers, symmetry, options, memo_entries,
                 weights=None, split_min: int = SPLIT_MIN, plan: memory.Plan | None = None,
                 deadline: Deadline | None = None):
        self.split_min = split_min
        self.deadline: Deadline | None = None   # set_deadline's
        if weights is not None:
            weights = [int(x) for x in weights]
            if max_depth is None or len(weights) != max_depth or weights[-1] <= 0 or any(
                    b < a for a, b in zip([0] + weights, weights, strict=False)):
                raise InvalidVariant("weights need max_depth and one nondecreasing weight >= 0 "
                                     f"per depth (the last > 0), got {weights!r}")
        self.weights = weights
        self.variant = variant
        self.space = CodeSpace(variant)
        self.codes = self.space.codes
        self.n = self.codes.shape[0]
        self.max_depth = max_depth
        self.depth = max_depth or 0
        self.pool = guesses
        self.cand_only = guesses == "candidates"
        self.workers = resolve(workers)
        if plan is None:   # a search built for one set at a time (position, advice, Dask)
            plan = setup.default_plan(variant, self.n, "expected", self.workers, memo_entries)
        self.reply_source = plan.source
        self.base_played = 1 if variant.no_leading_zero else 0

        def solver(matrix):
            return new_solver(variant, self.codes, matrix, self.cand_only, self.depth,
                              memo_entries, weights, plan.table_bytes)

        # the reply matrix, or None: the kernel scores replies on the fly (memory.plan). The
        # set-up (the matrix, its transposed copy) stops at ``deadline`` or Ctrl-C: then
        # ``setup_stopped`` says where, and the solver scores on the fly (nothing half-built
        # is read; the drivers report the counting bound without searching).
        self.matrix, self.setup_stopped = setup.matrix_within(variant, self.codes, plan, deadline)
        if self.matrix is not None:
            self.solver = solver(self.matrix)
            try:
                reply_matrix.prepare(self.solver, deadline)
            except reply_matrix.SetupStopped as stop:
                self.setup_stopped, self.matrix = stop, None
        if self.matrix is None:
            self.solver = solver(None)
        for key, value in (options or {}).items():
            setattr(self.solver, f"opt_{key}", bool(value))
        self._sym = None
        self._wins: dict[int, int] = {}   # depth -> secrets won there, in the tree being built
        # The native core reduces guesses by the stabiliser of the history at every level when
        # it is told the history; otherwise the top two levels use cbsolve.game.symmetry.
        self.native_sym = symmetry and (options or {}).get("stabiliser", True)
        if symmetry and not self.native_sym:
            self._sym = Symmetry(variant)
        self.symmask = np.zeros(self.n, dtype=np.uint64)
        for j in range(variant.length):
            self.symmask |= np.left_shift(np.uint64(1), self.codes[:, j].astype(np.uint64))
        self.lock = threading.Lock()
        self.notes: list[str] = []
        # the proved interval while the search runs (objective units), for progress and Ctrl-C
        self.live = LiveInterval(self.n * self._inc(self.depth), self.lock)
        self.bar = None
        self.hear = None    # a progress callable: hears (phase, depth, counters, lower, upper)
        self.firsts = FirstGuessClasses(self)   # a first guess solved by its classes
        self.steps = None   # --checkpoint: the state recorded (checkpoint.expected.ExpectedSteps)

    def set_deadline(self, deadline: Deadline | None) -> None:
        """The core's deadline (None: none, and the stop flag cleared); the driver's own loops
        read it too (the split, :class:`.split.ParallelSplit`)."""
        seconds = 0.0 if deadline is None else time_policy.search_seconds(deadline.left())
        self.solver.set_deadline(seconds)
        self.deadline = deadline

    def replies(self, guess: int, members: np.ndarray | None = None) -> np.ndarray:
        """Reply indices of ``guess`` to ``members`` (default: every code), from the matrix or
        scored."""
        return setup.replies_of(self.variant, self.codes, self.matrix, guess, members)

    def reply_classes(self, guess: int, members: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """(reply, the members giving it) for every reply of ``guess`` to ``members`` but the
        win, replies ascending."""
        resp = self.replies(guess, members)
        return [(int(r), members[resp == r]) for r in _replies(resp)
                if r != self.variant.win_response]

    # --- symmetry at the top two levels ------------------------------------------------------
    def _reps(self, history, members) -> np.ndarray | None:
        """Guesses to try at a node of the given history, one per orbit; None lets the core
        choose (all codes up to never-played symbols)."""
        if self._sym is None:
            return None
        cands = members if self.cand_only else None
        reps = self._sym.guess_representatives([tuple(self.codes[g]) for g in history], cands)
        return np.ascontiguousarray(reps, dtype=np.int32)

    def native_history(self, history):
        """The history for the native stabiliser (None: not used)."""
        return [int(g) for g in history] if self.native_sym else None

    def played_mask(self, history) -> int:
        """The symbols ``history`` has played, as the native kernels' symmetry mask."""
        mask = self.base_played
        for g in history:
            mask |= int(self.symmask[g])
        return mask

    def _child_depth(self, d: int) -> int:
        return d - 1 if self.max_depth else 0

    def _inc(self, d: int) -> int:
        """Cost every secret of a set with ``d`` guesses left pays for its guess (1 without
        weights; with weights, weight(k) - weight(k-1) for guess number k = max_depth - d + 1)."""
        if not self.weights:
            return 1
        k = self.max_depth - d + 1
        return self.weights[k - 1] - (self.weights[k - 2] if k >= 2 else 0)

    def _value(self, hist: dict[int, int]) -> int:
        """The objective's sum for a histogram (guesses, or weights)."""
        if not self.weights:
            return sum(k * v for k, v in hist.items())
        return sum(self.weights[k - 1] * v for k, v in hist.items())

    # --- the search ----------------------------------------------------------------------------
    def run(self, deadline: Deadline, show, started) -> SearchResult:
        solver, n, d = self.solver, self.n, self.depth
        everyone = np.arange(n, dtype=np.int32)
        if not deadline.unlimited:
            # The greedy value is the first long phase (Logik 5x8: seconds, and the search ran
            # 46 s under a 2 s limit when it was not timed): it ends at the limit too, and a
            # search stopped there reports the counting bound alone.
            self.set_deadline(deadline)
        t = time.perf_counter()
        if self.steps is None:
            greedy = solver.greedy_value(everyone, d, self.base_played)
        else:
            greedy = self.steps.greedy(lambda: solver.greedy_value(everyone, d, self.base_played),
                                       self._halted)
        self._abandon_if_interrupted()
        halted = self._halted()   # stopped before the search began: nothing is proved
        if halted is not None:
            greedy = None
        if greedy is not None:
            self.live.upper = greedy[0]
        if not deadline.unlimited:
            # After a stop the reported tree is built (greedy where the search did not
            # finish): keep time_policy.TREE_RESERVE x the greedy value's time for it.
            self.set_deadline(deadline.reserving(time_policy.TREE_RESERVE * (time.perf_counter() - t)))
        best = (greedy[0], greedy[1]) if greedy else (INF_T, INF_W)
        best_guess = None            # None: the incumbent is the greedy strategy
        best_classes: list[_Class] = []
        if greedy is None and self.max_depth and halted is None:
            self.notes.append(f"the greedy strategy needs more than {self.max_depth} guesses")
        reps = self._reps([], everyone)
        def scan():
            found = solver.scan(everyone, d, self.base_played, reps, self.native_history([]))
            return sorted(found, key=lambda x: (x[1], x[2], not x[3], x[0]))

        order = [] if halted else scan() if self.steps is None else self.steps.order(
            scan, self._halted)
        self._abandon_if_interrupted()
        halted = halted or self._halted()
        bounds: list[tuple[int, int]] = []   # proved lower bound of every first guess
        stopped = halted is not None
        if stopped:  # a stopped scan lists no guesses: only the counting bound is proved
            order = []
            bounds.append((solver.lb_total(max(d, 0), n), solver.lb_worst(n)))
        partial = None  # (first guess, classes) being solved when the time ran out
        bar = self.bar = _Progress(show, len(order))
        live = self.live
        live.bounds, live.current, live.pending = bounds, None, order[0][1] if order else None
        try:
            for rank, (g1, lbt, lbw, _cand) in enumerate(order):
                if (lbt, lbw) >= best:
                    bounds.append((lbt, lbw))
                    break
                known = None if self.steps is None else self.steps.done(rank, g1)
                if known is not None:   # settled before the checkpoint: replayed
                    value, bound, incumbent = known
                    if incumbent:
                        best, best_guess, best_classes = value, g1, []
                        self.live.upper = best[0]
                    bounds.append(bound)
                    continue
                bar.first(rank, self.space.format(self.codes[g1]))
                live.pending = order[rank + 1][1] if rank + 1 < len(order) else None
                classes = self.firsts.classes(g1)
                live.current = ((lbt, lbw), classes)
                value, classes, done = self.firsts.solve(g1, best, bar, classes)
                live.current = None
                if not done:
                    stopped = True
                    halted = self._halted() or StopReason.STOPPED
                    partial = (g1, classes)
                    bounds.append(live.partial_bound(classes, (lbt, lbw)))
                    bounds.extend((x[1], x[2]) for x in order[rank + 1:])
                    break
                if value < best:
                    best, best_guess, best_classes = value, g1, classes
                    bounds.append(value)
                    self.live.upper = best[0]
                else:
                    bounds.append(max(live.partial_bound(classes, (lbt, lbw)), best))
                if self.steps is not None:
                    self.steps.settle(rank, g1, None if value[0] >= INF_T else value, bounds[-1],
                                      best_guess == g1, classes)
        finally:
            bar.close()
        self._abandon_if_interrupted()
        return self._result(started, everyone, greedy, order, bounds, best, best_guess,
                            best_classes, stopped, halted, partial)

    def counting_bound(self, secrets: int) -> int | None:
        """The fill bound of a set of ``secrets`` (objective units; None: none within the cap)."""
        lower = self.solver.lb_total(max(self.depth, 0), secrets)
        return int(lower) if lower < INF_T else None

    def setup_stop_result(self, result: SearchResult, started: float) -> SearchResult:
        """What a stop during the set-up leaves, filled into ``result`` (its ``secrets`` the
        set searched): the counting bound, as a search stopped right after its set-up reports
        it (:meth:`run`), and a note saying where the set-up stopped."""
        return self.setup_stopped.report(result, self.counting_bound(result.secrets), started)

    # --- interrupts and progress ----------------------------------------------------------------
    def _abandon_if_interrupted(self) -> None:
        """After Ctrl-C the driver leaves at once (no tree); :meth:`interrupted` reports."""
        if stop_requested() or self._halted() is StopReason.INTERRUPTED:
            raise _Abandoned

    def _halted(self) -> StopReason | None:
        """Why the kernel was stopped, as its control block says (None: it was not)."""
        if not self.solver.stopped():
            return None
        return StopReason(self.solver.stop_reason())

    def show_interval(self) -> None:
        """The interval proved so far to the bar and the progress callable (every poll)."""
        if self.bar is None and self.hear is None:
            return
        lower, upper = self.live.interval()
        if self.bar is not None:
            self.bar.interval(lower, upper)
        if self.hear is not None:
            if self.bar is None:   # the greedy value (the scan comes next)
                self.hear("greedy", 0, Counters(self.solver.nodes), lower, upper)
            else:
                self.hear("first", self.bar.rank + 1, self.bar.counters(self.solver.nodes),
                          lower, upper)

    def interrupted(self, started: float) -> SearchResult:
        """What Ctrl-C leaves: the interval proved so far, no tree (before the first scan
        settled anything, the counting bound)."""
        lower, upper = self.live.interval()
        if lower is None:
            lower = self.counting_bound(self.n)
        proved = lower is not None and lower == upper
        result = SearchResult(objective="expected", status=Status.UNKNOWN, proved=proved,
                              reply_source=self.reply_source,
                              secrets=self.n, max_depth=self.max_depth, guesses=self.pool,
                              seconds=time.perf_counter() - started, nodes=self.solver.nodes,
                              notes=self.notes, lower=lower, upper=upper, interrupted=True,
                              stop=StopReason.INTERRUPTED)
        if upper is not None:
            result.status = Status.OPTIMAL if proved else Status.FEASIBLE
        unit = "weighted total" if self.weights else "total"
        self.notes.append(f"interrupted: {unit} in [{'?' if lower is None else lower}, "
                          f"{'?' if upper is None else upper}] (no tree)")
        return result
