"""The expected-case search's trees: the optimal tree read back from the core's table, the
greedy tree (Irving's), a mix of the two after a stop, the document (docs/tree-format.md), and
the result of a run with its tree (:meth:`_Trees._result`). A mixin of
:class:`.search._Search`, whose solver, replies and symmetry it reads.
"""
from __future__ import annotations

import time

import numpy as np

from ...certificates.tree import make_tree
from ...runtime.status import Status, StopReason
from ..result import SearchResult
from .kernel import INF_T, INF_W, _Class, _NoGreedyTree, _replies

#: How a result's note names the stop (the kernel's reason).
_STOPPED_BY = {StopReason.TIME: "time limit", StopReason.INTERRUPTED: "interrupted",
               StopReason.STOPPED: "stopped"}


class _Trees:
    """The tree-building half of the expected-case driver."""

    def _take_histogram(self, root: dict) -> dict[int, int]:
        """Guess-count histogram of the tree just built: every secret is won at exactly one
        node (where it is the guess), at depth len(history) + 1; counted by :meth:`_node` from
        the score matrix while building (the tests replay trees with the scoring rule)."""
        hist, self._wins = dict(sorted(self._wins.items())), {}
        if sum(hist.values()) != self.n:
            raise AssertionError("internal error: the tree does not solve every secret")
        return hist

    def _node(self, guess: int, members: np.ndarray, d: int, history, child) -> dict:
        resp = self.replies(guess, members)
        if (resp == self.variant.win_response).any():
            depth = len(history) + 1
            self._wins[depth] = self._wins.get(depth, 0) + 1
        children = {}
        for r in _replies(resp):
            if r == self.variant.win_response:
                continue
            sub = members[resp == r]
            children[self.variant.format_response(int(r))] = child(sub, self._child_depth(d),
                                                                   history + [guess])
        return {"guess": self.space.format(self.codes[guess]), "children": children}

    def _optimal_subtree(self, members: np.ndarray, d: int, history) -> dict:
        solver = self.solver
        if len(members) <= 2:
            g = int(members[0])
        else:
            g = solver.best_guess(members, d)
            if g < 0:  # evicted from the table: solve again (exactly, no budget)
                reps = self._reps(history, members) if len(history) == 1 else None
                solver.solve(members, d, INF_T, INF_W, self.played_mask(history), reps,
                             self.native_history(history))
                g = solver.best_guess(members, d)
            if g < 0:
                self._abandon_if_interrupted()
                raise AssertionError("internal error: an exactly solved set has no best guess")
        return self._node(g, members, d, history, self._optimal_subtree)

    def _tree_from(self, g1: int, classes: list[_Class]) -> dict:
        everyone = np.arange(self.n, dtype=np.int32)
        return self._node(g1, everyone, self.depth, [], self._optimal_subtree)

    def _solved_subtree(self, g1: int, sub: np.ndarray, d: int, history) -> dict:
        """The optimal subtree of a class of ``g1`` solved exactly: the one a checkpoint
        recorded (the class may have been solved before a resume), else read from the table."""
        steps = getattr(self, "steps", None)
        if steps is not None:
            return steps.subtree(g1, sub, d, history)
        return self._optimal_subtree(sub, d, history)

    def _mixed_tree(self, g1: int, classes: list[_Class]) -> dict:
        exact = {int(c.members[0]) for c in classes if c.exact}

        def child(sub, d, history):
            if int(sub[0]) in exact:
                return self._solved_subtree(g1, sub, d, history)
            return self._greedy_tree(sub, d, history)

        everyone = np.arange(self.n, dtype=np.int32)
        return self._node(g1, everyone, self.depth, [], child)

    def greedy_subtree(self, members: np.ndarray, history) -> dict:
        """Irving's greedy tree of a set from a position, for a caller outside the search (the
        tree polisher): the win counts of a tree being built are left as they were."""
        saved, self._wins = self._wins, {}
        try:
            return self._greedy_tree(members, 0, list(history))
        finally:
            self._wins = saved

    def _greedy_tree(self, members: np.ndarray, d: int, history) -> dict:
        g = self.solver.greedy_guess(members, self.played_mask(history), d)
        if g < 0:
            self._abandon_if_interrupted()
            # Under a depth cap the greedy strategy of a class below another first guess than
            # its own may break the cap (it used to recurse on guess -1 until Python gave up).
            raise _NoGreedyTree
        return self._node(g, members, d, history, self._greedy_tree)

    def _document(self, root: dict, hist: dict[int, int], proved: bool) -> dict:
        extra = {"objective": "expected", "proved": proved}
        if self.max_depth:
            extra["max_depth"] = self.max_depth
        return make_tree(self.variant, "optimal-expected", self.pool, root, hist, **extra)

    def _result(self, started, everyone, greedy, order, bounds, best, best_guess, best_classes,
                stopped, halted, partial) -> SearchResult:
        """What :meth:`run` found, as a result: the value proved (or the interval, when
        stopped), its tree (the incumbent's, or the greedy one; after a stop the classes solved
        so far as optimal subtrees when that is better) and the notes."""
        solver, n, d = self.solver, self.n, self.depth
        seconds = time.perf_counter() - started
        self.set_deadline(None)  # clears the stop flag (read above): the tree walk may re-solve
        lower = min(bounds) if bounds else best
        if not order and greedy is None and not stopped:   # stopped: the counting bound stands
            lower = (INF_T, INF_W)
        proved = not stopped
        result = SearchResult(objective="expected", status=Status.UNKNOWN, proved=proved,
                              reply_source=self.reply_source,
                              secrets=n, max_depth=self.max_depth, guesses=self.pool,
                              seconds=seconds, nodes=solver.nodes, notes=self.notes,
                              stop=halted if stopped else None)
        if best[0] >= INF_T:
            if lower[0] < INF_T and not proved:  # a bound on the capped total, if one exists
                result.lower = lower[0]
            if not proved:   # stopped before any strategy: the result says why and what holds
                self.notes.append(f"{_STOPPED_BY[result.stop]} before a strategy was found"
                                  + (f": total at least {result.lower}"
                                     if result.lower is not None else ""))
            if proved:
                result.status = Status.INFEASIBLE
                self.notes.append(f"no strategy solves every secret in at most {self.max_depth} "
                                  "guesses" + (" with consistent guesses only" if self.cand_only else ""))
            return result
        self._wins = {}
        stored = None if self.steps is None or best_guess is None else \
            self.steps.incumbent_tree(best_guess)
        if stored is not None:   # built when it became the incumbent (this run or before)
            root, self._wins = stored[0], dict(stored[1])
        else:
            root = (self._tree_from(best_guess, best_classes) if best_guess is not None
                    else self._greedy_tree(everyone, d, []))
        hist = self._take_histogram(root)
        total = sum(k * v for k, v in hist.items())
        worst = max(hist)
        if (self._value(hist), worst) != tuple(best):
            raise AssertionError(f"internal error: tree replays to {(total, worst)}, "
                                 f"search claimed {best}")
        if partial is not None and any(c.exact for c in partial[1]):
            # Stopped: the classes solved so far are optimal subtrees; greedy for the rest.
            self._wins = {}
            try:
                mixed = self._mixed_tree(*partial)
            except _NoGreedyTree:   # no such tree within the cap: keep the incumbent's
                mixed = None
            if mixed is not None:
                mixed_hist = self._take_histogram(mixed)
                mixed_value = (self._value(mixed_hist), max(mixed_hist))
                if mixed_value < (self._value(hist), worst):
                    root, hist = mixed, mixed_hist
                    total, worst = sum(k * v for k, v in hist.items()), max(hist)
        result.total, result.worst, result.histogram = total, worst, hist
        value = self._value(hist)
        result.upper = value
        result.lower = value if proved else min(lower[0], value)
        result.status = Status.OPTIMAL if proved else Status.FEASIBLE
        if not proved:
            unit = "weighted total" if self.weights else "total"
            self.notes.append(f"{_STOPPED_BY[result.stop]}: {unit} in [{result.lower}, "
                              f"{result.upper}]")
        result.tree = self._document(root, hist, proved)
        result.seconds = time.perf_counter() - started
        result.nodes = solver.nodes
        return result
