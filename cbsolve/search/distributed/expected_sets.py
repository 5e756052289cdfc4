"""The expected-case Dask driver's view of a set of secrets: its guesses in the order of
their proved lower bounds (the core's scan), a guess's reply classes with their counting
bounds, and a guess's one-level bound (|set| + its classes' bounds).

Place in the data flow: the driver's search (:func:`cbsolve.search.position.expected_search`:
the reply matrix and the bounds of the core) -> **this module** -> the driver
(:class:`cbsolve.search.distributed.expected.DistributedExpected`), which decides what to send.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class _Class:
    """A reply class of a guess at a set: its secrets, its proved (total, worst) lower bound,
    and once solved its tree and histogram."""

    reply: int
    members: np.ndarray
    lower: tuple[int, int]
    exact: bool = False
    tree: dict | None = None
    histogram: dict[int, int] = field(default_factory=dict)


class SetBounds:
    """Orderings and bounds of the sets one driver's search meets."""

    def __init__(self, search, max_depth: int | None):
        self.search = search
        self.win = search.variant.win_response
        self.max_depth = max_depth

    def _child_depth(self, depth: int) -> int:
        return depth - 1 if self.max_depth else 0

    def order(self, members: np.ndarray, depth: int, history: list[int]):
        """The guesses at a set, (g, total bound, worst bound, candidate), best bound first."""
        s = self.search
        order = s.solver.scan(members, depth, s.played_mask(history), None,
                              s.native_history(history))
        order.sort(key=lambda x: (x[1], x[2], not x[3], x[0]))
        return order

    def classes(self, g: int, members: np.ndarray, depth: int) -> list[_Class]:
        """Guess ``g``'s reply classes at a set (the win aside), largest first."""
        s = self.search
        resp = s.replies(g, members)
        cd = self._child_depth(depth)
        out = []
        for r in np.unique(resp):
            if r == self.win:
                continue
            sub = members[resp == r]
            out.append(_Class(int(r), sub, (s.solver.lb_total(max(cd, 0), len(sub)),
                                            s.solver.lb_worst(len(sub)))))
        return sorted(out, key=lambda c: -len(c.members))

    def refine(self, g: int, members: np.ndarray, depth: int, history: list[int]):
        """One-level lower bound of guess ``g`` at a set: |set| + its classes' bounds."""
        s = self.search
        cd = self._child_depth(depth)
        resp = s.replies(g, members)
        child = history + [g]
        bounds = [s.solver.lower_bound(members[resp == r], cd, s.played_mask(child),
                                       s.native_history(child))
                  for r in np.unique(resp) if r != self.win]
        return (len(members) + sum(b[0] for b in bounds),
                1 + max((b[1] for b in bounds), default=0))
