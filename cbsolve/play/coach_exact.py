"""The coach's exact review: a guess against the proved optimum from the same position.

Place in the data flow: the position before the guess (:class:`cbsolve.search.position.Position`)
-> the expected-case core (:func:`cbsolve.strategy.exact.cached_search`) asked about the set
and, for the person's guess, about each of its reply classes (the position plus that guess and
reply) -> :class:`ExactCosts`. Both sides count the guesses made from the position the same
way (the guess itself is 1 for every secret; a class that is the guess itself costs nothing
more), so the differences are exact and never negative:

- expected: the optimal total from the set versus ``n`` + the sum over the guess's classes of
  the optimal total from each class;
- worst case: the minimax optimum from the set versus 1 + the largest minimax optimum of a
  class. The set itself and large classes go to the worst-case search
  (:func:`cbsolve.search.position.solve_from`); for a class of at most :data:`PROBE_LIMIT`
  secrets it is cheaper to ask a depth-capped expected core (:func:`capped_search`) for a
  strategy within fewer guesses than the optimal tree's worst case until none exists (that
  core minimises the total under the cap, which costs seconds on a few hundred secrets).

Only while the set is within :data:`cbsolve.strategy.exact.EXACT_SECRETS` and every solve ends
within the review's :class:`cbsolve.deadline.Deadline`; otherwise the caller falls back to the
heuristic review (:mod:`.coach`) and says why.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..deadline import Deadline
from ..scoring import score_against

#: The cap the depth-capped core is built with; each probe passes its own, smaller cap.
CAP = 32

#: Largest class whose minimax optimum comes from depth-capped probes of the expected core.
PROBE_LIMIT = 100

#: Largest set solved in the calling thread (no worker thread to watch for Ctrl-C): such a
#: solve is a memo look-up once warm (tens of microseconds) and milliseconds cold, so a
#: thread's start-up would be most of its cost and Ctrl-C waits at most that long.
DIRECT_LIMIT = 100

class OutOfTime(Exception):
    """An exact solve did not end within the review's deadline."""


@dataclass
class ExactCosts:
    """Guesses from the position, summed over the ``secrets`` and in the worst case."""

    total: int             # the guess, then the expected-optimal play in each class
    worst: int             # the guess, then the minimax-optimal play in each class
    best_total: int        # the expected optimum from the position
    best_worst: int        # the minimax optimum from the position
    best_expected_guess: str
    best_worst_guess: str


def capped_search(variant):
    """The expected-case core that honours a depth cap per solve (the minimax probes)."""
    from ..search.position import expected_search

    return expected_search(variant, CAP, "all", memo_entries=1 << 20)


class _Solver:
    """The cores asked about sets of one position, every solve within one deadline."""

    def __init__(self, search, capped, deadline: Deadline):
        self.search, self.capped, self.deadline = search, capped, deadline

    def solve(self, members: np.ndarray, history: list[int], depth: int = 0):
        """(total, worst) of the optimum within ``depth`` guesses (0: no cap), None when no
        strategy fits the cap; OutOfTime when the deadline stops it."""
        from ..search.position import solve_set

        if self.deadline.expired():
            raise OutOfTime
        search = self.capped if depth else self.search
        if members.size <= DIRECT_LIMIT:
            out = self._direct(search, members, history, depth, self.deadline)
        else:
            out = solve_set(search, members, history, depth=depth, deadline=self.deadline)
        if out is None:
            raise OutOfTime
        return (int(out[0]), int(out[1])) if out[2] else None

    @staticmethod
    def _direct(search, members: np.ndarray, history: list[int], depth: int,
                deadline: Deadline):
        """One small solve in this thread, the deadline watched by the kernel itself."""
        from ..search.expected import INF_T, INF_W

        search.set_deadline(deadline)
        try:
            return search.solver.solve(np.ascontiguousarray(members, dtype=np.int32),
                                       depth, INF_T, INF_W,
                                       search.played_mask(history), None,
                                       search.native_history(history))
        finally:
            search.set_deadline(None)

    def minimax(self, position, worst: int) -> int:
        """The fewest guesses that find every member of ``position``, given a strategy within
        ``worst`` (the expected optimum's worst case)."""
        members, history = position.members, [int(g) for g in position.history]
        if members.size > PROBE_LIMIT:
            return self.worst_search(position)[0]
        while worst > min(2, members.size) and self.solve(members, history, worst - 1):
            worst -= 1
        return worst

    def worst_search(self, position) -> tuple[int, str]:
        """(minimax optimum, an optimal first guess) by the worst-case search."""
        from ..search.position import solve_from

        if self.deadline.expired():
            raise OutOfTime
        result = solve_from(position, "worst", deadline=self.deadline, certificate=False)
        if not result.proved or result.tree is None:
            raise OutOfTime
        return int(result.upper), result.tree["root"]["guess"]

    def first_guess(self, members: np.ndarray, history: list[int]) -> str:
        """The first guess of the expected-optimal tree of the set."""
        from ..search.position import subtree

        self.solve(members, history)       # memoised: puts the set's answer back on top
        return subtree(self.search, members, history)[0]["guess"]


def reply_classes(space, position, guess: int) -> list:
    """The positions ``guess`` (a code index of ``space``) leaves from ``position``, one per
    reply, the winning reply left out (that secret is found by the guess itself)."""
    from ..search.position import Position

    v = position.variant
    members = position.members
    replies = score_against(v, space.codes[guess], space.codes[members])
    after = np.append(position.history, guess).astype(np.int64)
    text = space.format(space.codes[guess])
    # the replies present, in order, by counting: np.unique's first call in a process loads
    # numpy.ma (25-40 ms, most of a cold regret call once the core is built)
    return [Position(v, position.entries + ((text, v.format_response(int(r))),), after,
                     members[replies == r])
            for r in np.flatnonzero(np.bincount(replies)) if int(r) != v.win_response]


def exact_costs(search, capped, space, position, guess: int,
                deadline: Deadline) -> ExactCosts:
    """The exact review of the code index ``guess`` (of ``space``) from ``position`` with the
    uncapped and the :func:`capped_search` cores; OutOfTime when the deadline stops a solve
    (Ctrl-C raises KeyboardInterrupt)."""
    solver = _Solver(search, capped, deadline)
    members = position.members
    history = [int(g) for g in position.history]
    best_total, _ = solver.solve(members, history)
    total, worst = int(members.size), 1
    for cls in reply_classes(space, position, guess):
        t, w = solver.solve(cls.members, [int(g) for g in cls.history])
        total += t
        worst = max(worst, 1 + solver.minimax(cls, w))
    expected_guess = solver.first_guess(members, history)
    best_worst, worst_guess = solver.worst_search(position)
    return ExactCosts(total, worst, best_total, best_worst, expected_guess, worst_guess)
