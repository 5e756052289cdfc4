"""The exact cost of a guess from a position: one prepared position asked about many guesses.

Place in the data flow: a :class:`cbsolve.search.position.Position` -> :class:`PositionCores`
(its members and history as the native cores take them, its optima kept) -> for each guess,
one call into a core -> the guess's cost, against the optimum, for :mod:`.review`. This is
the one exact engine for each objective (measured against the coach's former engine, which
solved each reply class by a separate call and probed the minimax optimum with a depth-capped
expected core: on Bulls & Cows 4/10 positions of at most 100 candidates, a new guess cost
0.32 ms expected and 1.8 ms worst here against 2.2 ms and 53 ms there, the same values;
docs/benchmarks.md, "A guess's cost: one exact engine").

- expected: the guess's total is ``n`` + the expected optimum of each of its reply classes,
  all in one call of the expected-case core (``Solver.guess_value``: the partition and the
  class solves inside the kernel, through the same transposition table as the position's own
  solve, :func:`cbsolve.strategy.exact.cached_search`). The optimum is the position's exact
  solve, made by the first call at a position and kept;
- worst: the guess's worst case is 1 + the largest minimax optimum of its reply classes,
  all in one call of the worst-case kernel (``WorstSearch.guess_cost``: the partition, then
  each class, largest first, decided only if it could exceed the largest found so far: settled
  by a strategy that guesses only its members when one fits, else by ``feasible``, can the
  class be finished within d guesses, upward), on the expected core's reply matrix. The
  optimum is the position's minimax optimum by the same decisions (from the counting bound
  upward), and an optimal first guess the root of the kernel's tree of that depth
  (``root_guess``: the root alone, not the tree below it).

Both sides count the guesses made from the position the same way (the guess itself is one for
every secret; a class that is the guess itself costs nothing more), so the regret is exact and
never negative. Every kernel call runs within the caller's :class:`cbsolve.runtime.deadline.Deadline`
(:class:`OutOfTime` when it stops one); a set of more than :data:`DIRECT_LIMIT` secrets is
solved in a worker thread so Ctrl-C stops it.
"""
from __future__ import annotations

import numpy as np

from ..game.capacity import worst_lower
from ..game.codes import CodeSpace
from ..runtime.deadline import Deadline, run_interruptible, stopped_by
from ..errors import Expired
from ..runtime.time_policy import search_seconds

#: Largest set solved in the calling thread (no worker thread to watch for Ctrl-C): such a
#: solve is a memo look-up once warm (tens of microseconds) and milliseconds cold, so a
#: thread's start-up would be most of its cost and Ctrl-C waits at most that long.
DIRECT_LIMIT = 100
#: The worst-case kernel's nodes of at most this many guesses left first try the strategies
#: that guess only their members (a proved yes without scanning every guess): a review's
#: nodes are small and mostly feasible (Bulls & Cows 4/10, positions of at most 100
#: candidates: a new guess's worst case 2.6 ms -> 0.55 ms of kernel and Python, 4 about as
#: good as 3 and better than 2).
MEMBERS_FIRST = 4
#: ... and a node with at least this many guesses left bounds its guesses' classes by its
#: settle table (the kernel's default, 4, is for the deep proofs; here 3 refuted the reply
#: classes that need 4 guesses about a fifth sooner, the same answers).
SETTLE_FROM = 3


class OutOfTime(Expired):
    """An exact solve did not end within the review's deadline (or Ctrl-C came)."""

    def __init__(self) -> None:
        super().__init__("the exact solve did not end", stopped_by())


class PositionCores:
    """One position as the cores take it (see the module docstring); the optima are computed
    by the first call that needs them and kept."""

    def __init__(self, search, worst, position) -> None:
        """``search``: the game's expected-case search; ``worst``: a callable giving the
        worst-case kernel on the same codes (built when first needed, kept by the caller)."""
        self.search = search
        self._worst_core = worst
        self.members = np.ascontiguousarray(position.members, dtype=np.int32)
        self.history = [int(g) for g in position.history]
        self.played = search.played_mask(self.history)
        self.native_history = search.native_history(self.history)
        self.members64 = self.members.astype(np.int64)     # as the worst-case kernel takes them
        self.history64 = np.asarray(self.history, dtype=np.int64)
        self.expected_best: tuple[int, int] | None = None   # (total, an optimal guess)
        self.worst_best: tuple[int, int] | None = None      # (minimax optimum, a guess)
        self.worst_costs: dict[int, int] = {}   # guess -> its worst case (Python's share of
        # a call whose classes the kernel's table holds: replies, classes, a call per class)
        from ..game.scoring import possible_responses

        self.n_responses = len(possible_responses(search.variant))

    @property
    def size(self) -> int:
        return int(self.members.size)

    # --- expected ------------------------------------------------------------------------
    def expected_optimum(self, deadline: Deadline) -> tuple[int, int]:
        """(the expected optimum's total from the position, an optimal first guess)."""
        if self.expected_best is None:
            from ..search.expected import INF_T, INF_W

            s = self.search
            out = self._run(s.solver, lambda: s.solver.solve(
                self.members, s.depth, INF_T, INF_W, self.played, None, self.native_history),
                deadline)
            if out is None or not out[2]:
                raise OutOfTime
            guess = int(s.solver.best_guess(self.members, s.depth))
            if guess < 0:       # a set answered in closed form keeps no table entry (2
                # secrets: -1 was read as the last code, a guess that tells nothing)
                from ..search.position import subtree

                space = CodeSpace(s.variant)
                guess = space.index_of(space.parse(subtree(s, self.members, self.history)[0]["guess"]))
            self.expected_best = int(out[0]), guess
        return self.expected_best

    def expected_total(self, guess: int, deadline: Deadline) -> int:
        """Total guesses from the position over its secrets: ``guess``, then the expected
        optimum in each reply class."""
        s = self.search
        out = self._run(s.solver, lambda: s.solver.guess_value(
            self.members, guess, s.depth, self.played, self.native_history), deadline)
        if out is None:
            raise OutOfTime
        return int(out[0])

    # --- worst ---------------------------------------------------------------------------
    def worst_optimum(self, deadline: Deadline) -> tuple[int, int]:
        """(the minimax optimum from the position, an optimal first guess)."""
        if self.worst_best is None:
            core = self._worst_core()
            hist, members = self.history64, self.members64
            d = self._minimax(core, members, hist, 0, deadline)
            guess = self._run(core, lambda: core.root_guess(members, d, hist), deadline)
            if guess is None or guess < 0:
                raise OutOfTime
            self.worst_best = d, int(guess)
        return self.worst_best

    def worst_cost(self, guess: int, deadline: Deadline) -> int:
        """Guesses from the position in the worst case: ``guess``, then minimax-optimal play
        in each reply class. No guess does better than the position's optimum, so some class
        needs at least that less one: each class is only asked whether it fits within the
        largest optimum found so far (from that floor), and nothing below it is proved. One
        call of the kernel (``WorstSearch.guess_cost``: the partition, then each class, largest
        first, settled by a strategy guessing only its members when one fits, else decided)."""
        if guess in self.worst_costs:
            return self.worst_costs[guess]
        floor = self.worst_optimum(deadline)[0] - 1
        core = self._worst_core()
        cost = self._run(core, lambda: core.guess_cost(self.members64, guess, floor,
                                                       self.history64), deadline)
        if cost is None or cost < 0:
            raise OutOfTime
        self.worst_costs[guess] = cost
        return cost

    def _minimax(self, core, members: np.ndarray, hist: np.ndarray, floor: int,
                 deadline: Deadline) -> int:
        """The minimax optimum of ``members`` after ``hist`` when it exceeds ``floor``, else
        ``floor`` (decided from the larger of the counting bound and ``floor``, upward)."""
        d = max(worst_lower(int(members.size), self.n_responses), floor)
        while True:
            answer = self._run(core, lambda d=d: core.feasible(members, d, hist), deadline)
            if answer < 0:
                raise OutOfTime
            if answer:
                return d
            d += 1

    def _run(self, core, work, deadline: Deadline):
        """``work`` (a call into ``core``) within ``deadline``: in this thread for a small
        position (the kernel watches the deadline), else in a worker thread (Ctrl-C too)."""
        if deadline.expired():
            raise OutOfTime
        core.set_deadline(0.0 if deadline.unlimited else search_seconds(deadline.left()))
        try:
            if self.size <= DIRECT_LIMIT:
                return work()
            return run_interruptible(work, core.request_stop)
        finally:
            core.set_deadline(0.0)          # no deadline, and the stop flag cleared


def worst_core(search):
    """The worst-case kernel over the codes of ``search`` (an expected-case search), on its
    reply matrix (or scoring on the fly, as that search does)."""
    from .._native.search_worst import WorstSearch
    from ..game.scoring import possible_responses

    v = search.variant
    replies = possible_responses(v)
    core = WorstSearch(search.matrix, search.codes, v.n_symbols, v.no_leading_zero,
                       v.response_slots, v.win_response, len(replies),
                       [v.response_index(b, c) for b, c in replies],
                       repeats=v.repeats, bulls_only=v.bulls_only)
    core.configure({"candidates_only": search.cand_only, "threads": 1,
                    "members_first": MEMBERS_FIRST, "bound_min_left": SETTLE_FROM})
    return core
