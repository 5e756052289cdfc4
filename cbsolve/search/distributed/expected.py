"""The expected-case optimum on a Dask cluster: reply classes as searches from a position.

Place in the data flow: ``cbsolve optimal --objective expected --scheduler ADDRESS|local`` ->
**this driver** (in the calling process) -> tasks :func:`solve_class` on the Dask workers, each
the single-set exact search of :mod:`cbsolve.search.position` -> one strategy tree
(docs/tree-format.md) that ``cbsolve verify`` replays.

Decomposition (the one :mod:`cbsolve.search.expected` uses on threads): the optimum of a set S
is min over first guesses g of |S| + the sum of the optima of g's reply classes, and a class
is the game from the position "g, that reply". The driver orders the first guesses (up to
symmetry) by their proved lower bounds, keeps the incumbent (initially Irving's greedy
strategy) and, for one first guess at a time, sends its classes to the workers, largest
first. On a cluster of enough threads a class of enough secrets (:class:`Split`) is split once
more, as the threaded search splits it: a best-first
search over its second guesses (up to the stabiliser of the history), each guess's expansion
a task, so one large class does not keep a single worker busy while the others idle.
A searched set smaller than a split class is solved with its guesses in flight (the same
best-first search, one task a guess, no barrier between first guesses: :meth:`_in_flight`).

The incumbent bound is shared by ordering: at most as many tasks as the cluster has threads
are in flight, and each task is submitted with the budget the driver knows at that moment
(the incumbent minus the proved lower bounds of the sibling classes, capped on the worker by
the class's own greedy value); a running task keeps the budget it was sent with (publishing
each improvement to running tasks was measured to save nothing: docs/journal.md, "On a Dask cluster"). A task whose
class cannot beat its budget refutes its guess;
the guess's remaining tasks are cancelled. Every value is exact or a proved bound whatever the
order tasks finish in, so the optimum is the single-machine one; which of several equally good
trees is returned may differ.

Workers keep one search (reply matrix and transposition table) per process across tasks.
"""
from __future__ import annotations

import heapq
import time
from dataclasses import dataclass

import numpy as np

from ...game.codes import CodeSpace
from ...game.variant import Variant
from ...runtime import time_policy
from ...runtime.deadline import UNLIMITED, Deadline
from ...runtime.status import Status
from ..expected.kernel import INF_T, INF_W
from ..position import expected_search
from ..result import SearchResult
from .cluster import _Stopped, cluster_client
from .expected_dispatch import TaskDispatch
from .expected_outcome import ExpectedOutcome
from .expected_sets import SetBounds, _Class
from .expected_tasks import solve_class, solve_guess  # noqa: F401  (their home was here)


@dataclass(frozen=True)
class Split:
    """When the driver splits a class of the first guess by its second guesses (see
    ``DistributedExpected._split_worth``): classes of at least ``min_size`` secrets (Bulls &
    Cows 4/10: the classes 0,1 (1440) and 0,2 (1260) of 0123, which alone are most of the
    single-worker time), and only on clusters of at least ``min_slots`` worker threads."""

    min_size: int = 1000
    min_slots: int = 2
    #: The split's first expansion (its most promising second guess, usually the best) by its
    #: reply classes as tasks (a third level), the others by one task a guess.
    third: bool = True

class DistributedExpected:
    """The driver: first (and second) guesses here, classes on the cluster's workers; what is
    sent to the cluster and counted is its :class:`~.expected_dispatch.TaskDispatch`
    (``dispatch``: its ``tasks``, ``nodes``, the workers' CPU), what it reports its :class:`~.expected_outcome.ExpectedOutcome`."""

    def __init__(self, client, variant: Variant, max_depth: int | None, guesses: str,
                 split: Split = Split(), deadline: Deadline | None = None, trace=None):
        self.variant = variant
        self.max_depth = max_depth
        self.guesses = guesses
        self.dispatch = TaskDispatch(client, variant, max_depth, guesses, deadline or UNLIMITED,
                                trace)
        self._search = None     # ordering and bounds (:attr:`search`)
        self._outcome: ExpectedOutcome | None = None
        self.sets: SetBounds | None = None   # made with the search: a set's order, bounds
        self._replies = "auto"
        self.split = split
        self.slots = self.dispatch.slots
        self.root_level = 0     # guesses played before the searched set (a position's entries)
        self.splits = 0         # classes solved by the second-guess split
        self.root_greedy = False   # the searched set's greedy value, once computed (None: none)
        self.trace = trace      # a .trace.Trace to record the tasks in, or None
        self.steps = None       # --checkpoint: the results recorded (checkpoint.distributed)

    @property
    def search(self):
        """The driver's search (orderings, bounds, greedy values), built on first use; its
        set-up (the reply matrix) stops at the limit too. With the guesses in flight
        (:meth:`run`) its replies are scored on the fly: the driver then only scans and
        bounds the one small set, and its reply matrix (0.31 s of CPU on `numbers`) would be
        the run's longest serial step before the first task."""
        if self._search is None:
            self._search = expected_search(self.variant, self.max_depth, self.guesses,
                                           replies=self._replies, deadline=self.deadline)
            self._outcome = ExpectedOutcome(self._search, self.max_depth, self.guesses)
            self.sets = SetBounds(self._search, self.max_depth)
        return self._search

    @property
    def deadline(self) -> Deadline:
        return self.dispatch.deadline

    # --- a set: min over its guesses ---------------------------------------------------------
    def solve_set(self, members: np.ndarray, depth: int, history: list[int], budget,
                  greedy=False):
        """(value, guess, classes): the optimum of ``members`` if below ``budget``, with the
        guess and its solved classes (or None and (tree, histogram), the guesses in flight:
        :meth:`_in_flight`); else (a proved lower bound >= budget, None, None).
        ``greedy``: the set's greedy value when the caller has it (False: computed here)."""
        s = self.search
        if greedy is False:
            greedy = s.solver.greedy_value(members, depth, s.played_mask(history))
        if self._in_flight(len(members)):
            return self._solve_in_flight(members, depth, history, budget, greedy)
        best = budget
        if greedy is not None and (greedy[0], greedy[1] + 1) < best:
            best = (greedy[0], greedy[1] + 1)   # strictly above the greedy value: it is found
        found, bounds, steps = None, [], self.steps
        for rank, (g, lbt, lbw, _cand) in enumerate(self.sets.order(members, depth, history)):
            if (lbt, lbw) >= best:
                bounds.append((lbt, lbw))
                break
            known = None if steps is None else steps.done(rank, g)
            if known is not None:   # settled before the checkpoint: replayed (the incumbent's
                value, bound, incumbent = known   # classes are read back after the loop)
                best, found = (value, (g, None)) if incumbent else (best, found)
                bounds += [] if incumbent else [bound]
                continue
            value, classes = self.evaluate(g, members, depth, history, best)
            if value < best:
                best, found = value, (g, classes)
            else:
                bounds.append(value)
            if steps is not None:
                incumbent = found is not None and found[0] == g
                steps.settle(rank, g, value if incumbent else None, value, incumbent, classes)
        if found is not None and found[1] is None:   # the incumbent replayed: its classes
            found = (found[0], self.sets.classes(found[0], members, depth))
            steps.incumbent_classes(*found)
        if found is None:
            low = min(bounds) if bounds else (INF_T, INF_W)
            return max(low, best), None, None
        return best, found[0], found[1]

    def _in_flight(self, size: int) -> bool:
        """Solve the searched set with its guesses in flight (:meth:`_solve_in_flight`)
        rather than one first guess at a time: when it is smaller than a class the split
        takes (its guesses' classes are then small: the `numbers` class 2,0 of 1234, 360
        secrets, gave about 7 class tasks of 0.15 s a guess, a barrier each), on a cluster the
        split runs on; not under a checkpoint, which records first guesses one at a time."""
        return (self.steps is None and size < self.split.min_size
                and self.slots >= self.split.min_slots)

    def _solve_in_flight(self, members: np.ndarray, depth: int, history: list[int], budget,
                         greedy):
        """The searched set solved as the split solves a large class (:meth:`_split`), every
        guess as one task (:func:`solve_guess`), as many in flight as the cluster has threads,
        each sent with the incumbent known at that moment, in the order of the scan's bounds;
        without the split's third level (its first guess by classes, alone: a barrier; the
        `numbers` sample's trace projected on 32 workers 15.3× with it, 21.8× without,
        docs/journal.md, "Cost of the open values") and without its one-level bounds in the driver (serial work between
        sends; each task computes them, and a guess they refute costs its task
        milliseconds). (value, None, tree and histogram) or (a proved lower bound >= budget,
        None, None)."""
        s = self.search
        lower = s.solver.lower_bound(members, depth, s.played_mask(history),
                                     s.native_history(history))
        whole = _Class(-1, members, (int(lower[0]), int(lower[1])))
        self._split(whole, depth, history, budget, greedy=greedy, third=False, refine=False)
        if not whole.exact:
            return max(whole.lower, tuple(budget)), None, None
        return whole.lower, None, (whole.tree, whole.histogram)

    # --- a guess: its classes on the workers -------------------------------------------------
    def evaluate(self, g: int, members: np.ndarray, depth: int, history: list[int], best):
        """(value, classes) of guess ``g`` at a set: exact when below ``best``, else a proved
        lower bound >= ``best`` (the guess is refuted and its running tasks cancelled)."""
        n = len(members)
        cd = depth - 1 if self.max_depth else 0
        if self.trace is not None:
            self.trace.group(f"guess {self.search.space.format(self.search.codes[g])}")
        classes = self.sets.classes(g, members, depth)
        child_history = history + [g]

        def value() -> tuple[int, int]:
            return (n + sum(c.lower[0] for c in classes),
                    1 + max((c.lower[1] for c in classes), default=0))

        def budget(c: _Class) -> tuple[int, int]:
            others = sum(o.lower[0] for o in classes if o is not c)
            return (best[0] - n - others, best[1] - 1)

        # the checkpoint records the first guesses' classes; a second guess evaluated by its
        # classes (the split's third level) is recorded by the split as one of its guesses
        steps = self.steps if len(history) == self.root_level else None
        if steps is not None:
            steps.begin(g, classes)   # classes solved before a resume count as solved
        pending = [c for c in classes if not c.exact]
        running: dict = {}
        try:
            while pending or running:
                while pending and len(running) < self.slots:
                    c = pending.pop(0)
                    if c.lower >= budget(c):
                        return max(value(), best), classes
                    if self._split_worth(c, history):
                        self._split(c, cd, child_history, budget(c))
                        if not c.exact:
                            return max(value(), best), classes
                        if steps is not None:
                            steps.class_solved(g, c)
                        continue
                    running[self.dispatch.submit_class(c.members, cd, child_history, budget(c))] = c
                for c, res in self.dispatch.finished(running):
                    c.lower = max(c.lower, (res["total"], res["worst"]))
                    if not res["exact"]:
                        return max(value(), best), classes
                    c.exact, c.tree = True, res["tree"]
                    c.histogram = {int(k): v for k, v in res["histogram"].items()}
                    if steps is not None:
                        steps.class_solved(g, c)
        finally:
            for fut in running:
                fut.cancel()
        return value(), classes

    def _split_worth(self, c: _Class, history: list[int]) -> bool:
        """Split a large class of the searched set by its second guesses when the cluster has
        at least ``split.min_slots`` threads. Measured on Bulls & Cows 4/10 with 2 workers
        (task thread CPU; one process 30.8 s): whole-class tasks 34.9 s, 30.0 s on the busiest
        worker; split by second guesses 44.2 s, 24.9 s; with the third level 36.2 s, 18.6 s
        (docs/journal.md, "Work efficiency, the causes separated"). One worker gains nothing."""
        return (len(history) == self.root_level and len(c.members) >= self.split.min_size
                and self.slots >= self.split.min_slots)

    def _split(self, c: _Class, depth: int, history: list[int], budget, greedy=False,
               third: bool | None = None, refine: bool = True) -> None:
        """Solve a large class by the core's best-first search over its guesses, each guess
        expanded by a task (:func:`solve_guess`): a guess popped the first time gets its
        classes' one-level bounds here and goes back; popped again it is sent to a worker with
        the best value known at that moment. Every guess is expanded or has a bound reaching
        the best, so the value is the class's optimum whatever the order tasks finish in.

        With ``split.third`` (``third`` when given), the first guess expanded is evaluated
        by its classes on the workers (:meth:`evaluate`, a third level), alone: it is usually
        the best, its exact value most of the class's work (Bulls & Cows 4/10, class 0,1 of
        0123: 23 s of 43 s as one task), and the other guesses are then sent with that value
        as their budget."""
        s, members = self.search, c.members
        self.splits += 1
        played, hist = s.played_mask(history), s.native_history(history)
        best = tuple(budget)
        if greedy is False:
            greedy = s.solver.greedy_value(members, depth, played)
        if greedy is not None and (greedy[0], greedy[1] + 1) < best:
            best = (greedy[0], greedy[1] + 1)
        heap = [((lbt, lbw), not cand, int(g), not refine)
                for g, lbt, lbw, cand in s.solver.scan(members, depth, played, None, hist)]
        heapq.heapify(heap)
        fail, found, running = (INF_T, INF_W), None, {}
        if self.steps is not None:   # the second guesses settled before a resume
            best, fail, found, heap = self.steps.split_restored(history[-1], c, best, fail, heap)
        by_classes = self.split.third if third is None else third
        try:
            while heap or running:
                while heap and len(running) < self.slots:
                    bound, notcand, g, refined = heapq.heappop(heap)
                    if bound >= best:
                        fail = min(fail, bound)
                        heap.clear()
                        break
                    if not refined:
                        heapq.heappush(heap, (max(bound, self.sets.refine(g, members, depth,
                                                                      history)),
                                              notcand, g, True))
                        continue
                    if by_classes and not running:
                        by_classes = False
                        value, classes = self.evaluate(g, members, depth, history, best)
                        if self.trace is not None:   # the other guesses come after it
                            self.trace.group(f"guesses after {s.space.format(s.codes[g])}")
                        res = {"total": value[0], "worst": value[1], "exact": value < best}
                        if res["exact"]:
                            res["tree"], res["histogram"] = self._outcome.assemble(g, members, classes)
                            best, found = value, res
                        else:
                            fail = min(fail, value)
                        if self.steps is not None:
                            self.steps.split_settled(history[-1], c, g, res, res["exact"])
                        continue
                    running[self.dispatch.submit_guess(g, members, depth, history, best)] = g
                for g, res in self.dispatch.finished(running):
                    value = (res["total"], res["worst"])
                    better = res["exact"] and value < best
                    if better:
                        best, found = value, res
                    else:
                        fail = min(fail, value)
                    if self.steps is not None:
                        self.steps.split_settled(history[-1], c, g, res, better)
        finally:
            for fut in running:
                fut.cancel()
        if found is None:
            c.lower = max(c.lower, fail)
            return
        c.exact, c.lower = True, best
        c.tree = found["tree"]
        c.histogram = {int(k): v for k, v in found["histogram"].items()}

    # --- the whole search --------------------------------------------------------------------
    def run(self, members: np.ndarray | None = None, history: list[int] | None = None
            ) -> SearchResult:
        started = time.perf_counter()
        if self._search is None:    # the driver's replies: on the fly for guesses in flight
            size = CodeSpace(self.variant).size if members is None else len(members)
            self._replies = "on-the-fly" if self._in_flight(size) else "auto"
        s = self.search
        members = np.arange(s.n, dtype=np.int32) if members is None else \
            np.ascontiguousarray(members, dtype=np.int32)
        history = [] if history is None else [int(g) for g in history]
        self.root_level = len(history)
        result = SearchResult(objective="expected", status=Status.UNKNOWN, proved=False,
                              secrets=int(members.size), max_depth=self.max_depth,
                              guesses=self.guesses)
        if s.setup_stopped is not None:   # the counting bound, as a stop right after it
            return s.setup_stop_result(result, started)
        try:
            # The greedy value first, timed: after a time limit its tree is the answer, so the
            # search keeps time_policy.TREE_RESERVE x that time for it, as on one machine
            # (without the reserve the distributed search ended ~2 s past its limit).
            t = time.perf_counter()
            args = (members, s.depth, s.played_mask(history))
            self.root_greedy = s.solver.greedy_value(*args) if self.steps is None else \
                self.steps.greedy(lambda: s.solver.greedy_value(*args))
            if not self.deadline.unlimited:
                self.dispatch.deadline = self.deadline.reserving(
                    time_policy.TREE_RESERVE * (time.perf_counter() - t))
            value, g, classes = self.solve_set(members, s.depth, history, (INF_T, INF_W),
                                               greedy=self.root_greedy)
        except (_Stopped, KeyboardInterrupt):
            self._outcome.stopped(result, members, history, self.root_greedy)
            result.seconds, result.nodes = time.perf_counter() - started, self.dispatch.nodes
            return result
        if classes is None:   # only under a depth cap: nothing within it
            result.status, result.proved = Status.INFEASIBLE, True
            result.notes.append(f"no strategy solves every secret in at most {self.max_depth} "
                                "guesses")
        else:
            # classes: the first guess's, or the tree found with the guesses in flight
            root, hist = self._outcome.assemble(g, members, classes) if g is not None \
                else classes
            self._outcome.proved(result, value, root, hist)
        result.notes.append(f"distributed: {self.dispatch.tasks} tasks on {self.slots} worker threads, "
                            f"{self.dispatch.task_seconds:.1f} s of CPU in the tasks")
        result.phases["task_cpu"] = round(self.dispatch.task_seconds, 3)
        result.seconds, result.nodes = time.perf_counter() - started, self.dispatch.nodes
        return result


def solve_expected_distributed(variant: Variant, scheduler: str, *, workers: int | None = None,
                               max_depth: int | None = None, guesses: str = "all",
                               root=None, deadline: Deadline | None = None, trace=None,
                               checkpoint=None) -> SearchResult:
    """The expected-case optimum on the Dask cluster at ``scheduler`` (an address, or "local":
    a local cluster of ``workers`` one-thread processes); ``root`` a position to start from;
    ``deadline`` (None: no limit) counts the cluster's start; ``trace`` a
    :class:`.trace.Trace` that records the run's tasks; ``checkpoint`` (a
    :class:`cbsolve.search.checkpoint.Checkpoint`): the settled tasks' results recorded."""
    deadline = deadline or UNLIMITED
    result = None
    try:
        with cluster_client(scheduler, workers, deadline=deadline) as client:
            driver = DistributedExpected(client, variant, max_depth, guesses, deadline=deadline,
                                         trace=trace)
            driver.steps = None if checkpoint is None else checkpoint.dask_expected_steps()
            result = driver.run() if root is None else driver.run(root.members, list(root.history))
            return result
    finally:
        if checkpoint is not None:
            checkpoint.close() if result is None else checkpoint.report(result)

