"""What the expected-case Dask driver reports: the strategy tree and histogram assembled from
a guess and its solved classes, the proved optimum with its tree, or, when a time limit or
Ctrl-C stopped the search, the interval proved (the counting lower bound, the greedy
strategy's value and its tree), as the one-process search reports them.

Place in the data flow: the driver's solved sets
(:class:`cbsolve.search.distributed.expected.DistributedExpected`) -> **this module** ->
a :class:`~cbsolve.search.result.SearchResult` with a tree (docs/tree-format.md) that
``cbsolve verify`` replays.
"""
from __future__ import annotations

import numpy as np

from ...certificates.tree import make_tree
from ...runtime.deadline import stopped_by
from ...runtime.status import Status, StopReason
from ..expected.kernel import _NoGreedyTree
from ..result import SearchResult


class ExpectedOutcome:
    """The trees and results of one driver's search (its game, cap and guess pool)."""

    def __init__(self, search, max_depth: int | None, guesses: str):
        self.search = search
        self.variant = search.variant
        self.max_depth = max_depth
        self.guesses = guesses

    def assemble(self, g: int, members: np.ndarray, classes: list):
        """The tree and histogram (depths from this set) of guess ``g`` and its solved
        classes."""
        space, v = self.search.space, self.variant
        hist: dict[int, int] = {}
        if np.any(self.search.replies(g, members) == v.win_response):
            hist[1] = 1
        children = {}
        for c in sorted(classes, key=lambda c: c.reply):
            children[v.format_response(c.reply)] = c.tree
            for k, count in c.histogram.items():
                hist[k + 1] = hist.get(k + 1, 0) + count
        return {"guess": space.format(self.search.codes[g]), "children": children}, \
            dict(sorted(hist.items()))

    def _tree(self, root: dict, hist: dict, proved: bool) -> dict:
        extra = {"objective": "expected", "proved": proved}
        if self.max_depth:
            extra["max_depth"] = self.max_depth
        return make_tree(self.variant, "optimal-expected", self.guesses, root, hist, **extra)

    def proved(self, result: SearchResult, value, root: dict, hist: dict) -> None:
        """The optimum ``value`` proved with the tree ``root`` and its histogram ``hist``."""
        result.histogram = hist
        result.total, result.worst = sum(k * v for k, v in hist.items()), max(hist)
        if (result.total, result.worst) != tuple(value):
            raise AssertionError(f"internal error: tree gives {(result.total, result.worst)}"
                                 f", search claimed {tuple(value)}")
        result.tree = self._tree(root, hist, True)
        result.lower = result.upper = result.total
        result.status, result.proved = Status.OPTIMAL, True

    def stopped(self, result: SearchResult, members: np.ndarray, history: list[int],
                greedy) -> None:
        """A time limit or Ctrl-C stopped the search: the interval proved, as the one-process
        search reports it: the counting lower bound of the set and the greedy strategy's value
        (its tree after a time limit; none after Ctrl-C, which leaves at once). ``greedy``:
        the set's greedy value when known (False: computed here)."""
        s = self.search
        result.stop = stopped_by()
        result.interrupted = result.stop is StopReason.INTERRUPTED
        s.set_deadline(None)
        played = s.played_mask(history)
        result.lower = int(s.solver.lower_bound(members, s.depth, played,
                                                s.native_history(history))[0])
        if greedy is False:
            greedy = s.solver.greedy_value(members, s.depth, played)
        if greedy is not None:
            result.upper = int(greedy[0])
            result.status = Status.FEASIBLE
            if not result.interrupted:
                self._greedy_tree(result, members, history)
        what = "interrupted" if result.interrupted else "time limit"
        hi = "?" if result.upper is None else result.upper
        result.notes.append(f"{what}: total in [{result.lower}, {hi}]"
                            + (" (no tree)" if result.tree is None else ""))

    def _greedy_tree(self, result: SearchResult, members: np.ndarray, history: list[int]):
        """The greedy strategy's tree from the searched set (depths counted from it)."""
        s = self.search
        s._wins = {}
        try:
            root = s._greedy_tree(members, s.depth, list(history))
        except _NoGreedyTree:
            return
        finally:
            wins, s._wins = s._wins, {}
        hist = {k - len(history): v for k, v in sorted(wins.items())}
        result.histogram = hist
        result.total, result.worst = sum(k * v for k, v in hist.items()), max(hist)
        result.tree = self._tree(root, hist, False)
