"""One first guess of the expected-case search solved by its reply classes: the classes are
independent subproblems, solved on the search's ``workers`` threads (the native call releases
the GIL) sharing one transposition table, each with the budget the incumbent and the other
classes' best known values leave; a class of at least ``split_min`` secrets is solved by the
parallel split (:class:`.split.ParallelSplit`), its guesses shared among the threads.

Place in the data flow: the expected-case driver (:class:`.search._Search`, which orders the
first guesses and keeps the incumbent) -> **this module** -> the core's ``solve`` or the split
-> the classes' exact values, or a refutation, or a stop.
"""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .kernel import INF_T, INF_W, _Class, _replies
from .split import ParallelSplit


class FirstGuessClasses:
    """The classes of the first guesses of one search, solved within its incumbent."""

    def __init__(self, search) -> None:
        self.search = search
        self.split = ParallelSplit(search)

    def classes(self, g1: int) -> list[_Class]:
        """The reply classes of first guess ``g1`` (the win aside) with their fill bounds."""
        s = self.search
        resp = s.replies(g1)
        cd = s._child_depth(s.depth)
        out = []
        for r in _replies(resp):
            if r == s.variant.win_response:
                continue
            members = np.flatnonzero(resp == r).astype(np.int32)
            lb = (s.solver.lb_total(max(cd, 0), len(members)), s.solver.lb_worst(len(members)))
            out.append(_Class(int(r), members, lb))
        return out

    def solve(self, g1: int, best, bar, classes: list[_Class]):
        """Solve every class of first guess ``g1`` (in parallel) within the incumbent ``best``.

        Returns ((total, worst) or (INF, INF) if refuted, classes, finished)."""
        s = self.search
        solver, first = s.solver, s.n * s._inc(s.depth)
        cd = s._child_depth(s.depth)
        played = s.played_mask([g1])
        refuted = threading.Event()
        stopped = threading.Event()
        reps_all = None if s.cand_only else s._reps([g1], None)
        if s.steps is not None:
            s.steps.begin(g1, classes)   # classes solved before a resume count as solved

        def task(c: _Class):
            if solver.stopped():      # the deadline passed in another class's search
                stopped.set()
            if refuted.is_set() or stopped.is_set():
                return
            with s.lock:
                others = sum(o.lower[0] for o in classes if o is not c)
            budget = (best[0] - first - others, best[1] - 1)
            if c.lower >= budget:
                refuted.set()
                return
            reps = s._reps([g1], c.members) if s.cand_only else reps_all
            # (The class's greedy value as a tighter budget saved no nodes and cost 20% of
            # Mastermind 4/6's search: not computed.)
            if (s.workers > 1 and reps is None and s.native_sym
                    and len(c.members) >= s.split_min):
                journal = None if s.steps is None else s.steps.split_journal(g1, c)
                out = self.split.solve(c.members, cd, budget, played, [g1], journal)
            else:
                out = solver.solve(c.members, cd, budget[0], budget[1], played, reps,
                                   s.native_history([g1]))
            if out is None:
                stopped.set()
                return
            t, w, exact = out
            with s.lock:
                c.lower = max(c.lower, (t, w))
                c.exact = exact
            if not exact:
                refuted.set()
            elif s.steps is not None:
                s.steps.class_solved(g1, c, cd)
            bar.advance()

        bar.classes(len(classes))
        # Largest classes first: they take longest, so the pool stays busy until the end.
        ordered = sorted((c for c in classes if not c.exact), key=lambda c: -len(c.members))
        if s.workers > 1 and len(ordered) > 1:
            with ThreadPoolExecutor(s.workers) as pool:
                list(pool.map(task, ordered))
        else:
            for c in ordered:
                task(c)
        if stopped.is_set():
            return None, classes, False
        if refuted.is_set() or not all(c.exact for c in classes):
            return (INF_T, INF_W), classes, True
        total = first + sum(c.lower[0] for c in classes)
        worst = 1 + max((c.lower[1] for c in classes), default=0)
        return (total, worst), classes, True
