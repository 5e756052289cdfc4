"""The parallel split: one large set solved with its guesses shared among the workers.

Place in the data flow: the expected-case driver (:class:`.search._Search`) hands a class of
a first guess of at least :data:`SPLIT_MIN` secrets here instead of to the core's ``solve``,
which would keep a single core busy with it; inside it classes of at least
:data:`SPLIT_NESTED` secrets are split again. With a checkpoint, the top split of a class
reports each second guess as it settles (its exact value, or the lower bound that refuted it)
to a journal (:meth:`cbsolve.search.checkpoint.expected.ExpectedSteps.split_journal`), and
each class of a guess being expanded as it is solved (a nested split keeps a journal of its
own inside); a resume starts from what the journal holds: a kill loses at most the classes
being solved, not the guesses being expanded nor the whole class.
"""
from __future__ import annotations

import heapq
import threading
import time

import numpy as np

from .kernel import INF_T, INF_W, _replies

#: Classes of the first guess at least this large are expanded by the driver, their guesses
#: shared among the workers (one big class would otherwise keep a single core busy); inside
#: such a class, classes of at least SPLIT_NESTED secrets are split again (the optimal guess's
#: expansion is otherwise the last job, on one thread). Measured on Bulls & Cows 4/10.
SPLIT_MIN = 1000
SPLIT_NESTED = 300


class ParallelSplit:
    """The core's ``solve`` of one set, its guesses expanded by the search's ``workers``
    threads, which share the running best (the search's solver, replies and costs)."""

    def __init__(self, search) -> None:
        self.search = search

    def solve(self, members: np.ndarray, d: int, budget, played: int, history,
              journal=None):
        """The core's solve of one large set, its guesses expanded by ``workers`` threads.

        Same contract as ``Solver.solve``: (t, w, True) exact when below ``budget``, else
        (t, w, False) a lower bound >= budget; None when stopped. Best-first over the guesses
        (up to the stabiliser) as in the core: a guess popped for the first time gets its
        classes' one-level bounds and goes back; popped again it is expanded, its classes solved
        by the core within the running best (classes of at least :data:`SPLIT_NESTED` secrets by
        this method again). Every guess is expanded or has a bound reaching the best, which
        the threads share, so the value found is the optimum whatever the interleaving.

        ``journal`` (None, or a checkpoint's record of this set): its ``known()`` guesses
        start settled (:func:`_restored`); every guess settled here is reported to it
        (``exact(g, value, tree)``, tree: where to build a new best's subtree, else None;
        ``refuted(g, lower bound)``)."""
        return _SplitRun(self, members, d, budget, played, history, journal).run()


class _SplitRun:
    """One call of :meth:`ParallelSplit.solve`: the set, its heap of guesses (bound, not a
    candidate, guess, refined data or None) and the running best the threads share."""

    def __init__(self, split: ParallelSplit, members: np.ndarray, d: int, budget, played: int,
                 history, journal) -> None:
        self.split, self.search = split, split.search
        self.solver, self.members, self.n = self.search.solver, members, len(members)
        self.d, self.played, self.history, self.journal = d, played, history, journal
        self.win = self.search.variant.win_response
        self.cd = self.search._child_depth(d)
        heap = [((lbt, lbw), not cand, int(g), None)
                for g, lbt, lbw, cand in self.solver.scan(members, d, played, None, history)]
        heapq.heapify(heap)
        self.state = {"best": tuple(budget), "guess": None, "fail": (INF_T, INF_W),
                      "stopped": False, "refining": 0}
        if journal is not None:
            heap = _restored(heap, self.state, *journal.known())
        self.heap = heap
        self.lock = threading.Lock()

    def refine(self, g):
        """The one-level bound of guess ``g`` (the lower bounds of its classes) and the data
        its expansion needs."""
        search, solver, members = self.search, self.solver, self.members
        resp = search.replies(g, members)
        subs = [members[resp == r] for r in _replies(resp) if r != self.win]
        subs.sort(key=len)
        child_played, child_hist = self.played | int(search.symmask[g]), self.history + [g]
        bounds = [solver.lower_bound(c, self.cd, child_played, child_hist) for c in subs]
        t = self.n * search._inc(self.d) + sum(b[0] for b in bounds)
        w = 1 + max(b[1] for b in bounds) if bounds else 1
        return (t, w), (subs, bounds, child_played, child_hist)

    def solve_class(self, g, sub, cb, child_played, child_hist):
        """One class of ``g`` within the budget ``cb``: split again when large and shallow."""
        if len(sub) >= min(self.search.split_min, SPLIT_NESTED) and len(child_hist) < 3:
            return self.split.solve(sub, self.cd, cb, child_played, child_hist,
                                    None if self.journal is None
                                    else self.journal.inner(g, sub))
        return self.solver.solve(sub, self.cd, cb[0], cb[1], child_played, None, child_hist)

    def expand(self, g, data) -> None:
        """Solve the classes of ``g`` within the running best: a new best, or a refutation."""
        subs, bounds, child_played, child_hist = data
        state, lock, journal = self.state, self.lock, self.journal
        done, wmax, rest = self.n * self.search._inc(self.d), 1, sum(b[0] for b in bounds)
        solved = {} if journal is None else journal.solved(g)   # before a resume
        for sub, bound in zip(subs, bounds, strict=True):
            rest -= bound[0]
            with lock:
                best = state["best"]
            cb = (best[0] - done - rest, best[1] - 1)
            value, exact = (bound[0], bound[1]), bound[2]
            if int(sub[0]) in solved:
                value, exact = solved[int(sub[0])], True
            if value < cb and not exact:
                began = time.perf_counter()
                out = self.solve_class(g, sub, cb, child_played, child_hist)
                if out is None:
                    state["stopped"] = True
                    return
                value = (out[0], out[1])
                if journal is not None and out[2]:   # its subtree too if it took long
                    journal.class_solved(g, sub, value, self.cd, child_hist,
                                         time.perf_counter() - began >= journal.record_seconds)
            if value >= cb:
                low = (done + value[0] + rest, max(wmax, 1 + value[1]))
                with lock:
                    state["fail"] = min(state["fail"], low)
                if journal is not None:
                    journal.refuted(g, low)
                return
            done, wmax = done + value[0], max(wmax, 1 + value[1])
        with lock:
            better = (done, wmax) < state["best"]
            if better:
                state["best"], state["guess"] = (done, wmax), g
        if journal is not None:   # a new best with its subtree (read from the table now)
            journal.exact(g, (done, wmax), (self.members, self.d, self.history) if better
                          else None)

    def worker(self) -> None:
        """One thread: pop the best guess, refine it the first time, expand it the second."""
        state, lock, heap, solver = self.state, self.lock, self.heap, self.solver
        while True:
            # Refining runs no search node: the core's scans read the clock only once per
            # 2^20 steps of work, and a bound found in the table reads none, so a heap of
            # guesses refined past the deadline ran for minutes. Look here, once a guess.
            why = None if self.search.deadline is None else self.search.deadline.reason()
            if why is not None:
                solver.request_stop(why.value)
            if solver.stopped():
                state["stopped"] = True
            with lock:
                if state["stopped"] or (not heap and not state["refining"]):
                    return
                item = heapq.heappop(heap) if heap else None
                if item is not None:
                    bound, notcand, g, data = item
                    if bound >= state["best"]:
                        state["fail"] = min(state["fail"], bound)
                        heap.clear()
                        continue  # guesses being refined come back and stop here too
                    if data is None:
                        state["refining"] += 1
            if item is None:  # another thread is about to push a refined guess back
                time.sleep(0.001)
            elif data is None:
                refined, data = self.refine(g)
                with lock:
                    heapq.heappush(heap, (max(bound, refined), notcand, g, data))
                    state["refining"] -= 1
            else:
                self.expand(g, data)

    def run(self):
        """The threads to the end; the result as :meth:`ParallelSplit.solve` returns it."""
        threads = [threading.Thread(target=self.worker) for _ in range(self.search.workers)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        state, solver = self.state, self.solver
        if state["stopped"]:
            return None
        if state["guess"] is not None:
            t, w = state["best"]
            solver.store_exact(self.members, self.d, t, w, state["guess"])
            return t, w, True
        low = solver.lower_bound(self.members, self.d, self.played, self.history)
        t, w = max((low[0], low[1]), state["fail"])
        return t, w, False


def _restored(heap: list, state: dict, exact: dict, refuted: dict) -> list:
    """The heap and running best of a split resumed from its journal: the best exact value
    recorded (``exact``: guess -> (t, w)) is the running best if below the budget, every
    guess recorded exact leaves the heap, and so does every guess whose recorded lower bound
    (``refuted``: guess -> (t, w)) reaches the best; the other refuted guesses keep that bound
    (values and lower bounds hold whatever budget they were found under)."""
    for g, value in sorted(exact.items(), key=lambda x: x[1]):
        if value < state["best"]:
            state["best"], state["guess"] = value, g
        else:
            state["fail"] = min(state["fail"], value)
    out = []
    for bound, notcand, g, data in heap:
        if g in exact:
            continue
        low = refuted.get(g)
        if low is not None:
            if low >= state["best"]:
                state["fail"] = min(state["fail"], low)
                continue
            bound = max(bound, low)
        out.append((bound, notcand, g, data))
    heapq.heapify(out)
    return out
