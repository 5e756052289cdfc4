"""The exact optimal move from a position, for ``next`` and ``assist --strategy optimal``.

Place in the data flow: FeedbackLog -> :class:`cbsolve.search.position.Position` -> the
expected-case core asked about the remaining set (:mod:`cbsolve.search.position`) -> the first
guess of the optimal tree from there (smallest expected number of guesses, ties by the worst
case). Only while the remaining set is within :data:`EXACT_SECRETS` and the answer comes
within the caller's deadline (the advice's share of it); otherwise the caller uses the stored
tree or a heuristic and says so (:func:`choose_optimal`).

Budget, measured on the project machine (2 shared cores): from each reply class after the
first guess, Mastermind 4/6 (at most 276 secrets) solves in 0.01-0.04 s; Bulls & Cows 4/10 in
0.2-0.7 s up to 480 secrets (0.2 s of it builds the reply matrix), 1.8 s at 720 and 11-20 s at
1260-1440. 500 secrets keeps the answer well under a second on the preset games.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..runtime.deadline import UNLIMITED, Deadline
from ..errors import CbsolveError, Expired

#: Largest remaining set solved exactly for advice (see the module docstring).
EXACT_SECRETS = 500

_SEARCHES: dict = {}   # (variant, guesses) -> the expected-case search (its table is reused)


@dataclass
class ExactMove:
    """The first guess of an optimal strategy from a position and the optimum it achieves."""

    guess: str
    secrets: int
    total: int      # guesses from the position, summed over its secrets
    worst: int

    def to_json(self) -> dict:
        return {"objective": "expected", "secrets": self.secrets, "total": self.total,
                "average": self.total / self.secrets, "worst": self.worst}

    def describe(self) -> str:
        return (f"exact optimum from here: {self.total / self.secrets:.3f} more guesses on "
                f"average, {self.worst} at worst")


def cached_search(variant, guesses: str = "all", deadline: Deadline | None = None):
    """The expected-case search of ``variant`` (built once per game: its reply matrix and memo
    are reused from move to move); a space too large for it raises a CbsolveError. Its set-up
    stops at ``deadline`` (the whole game's matrix, 32,768 rows on Logik 5x8, takes seconds):
    such a search scores replies on the fly and is not kept, the next move builds again."""
    from ..search.position import expected_search

    key = (variant, guesses)
    if key not in _SEARCHES:
        search = expected_search(variant, None, guesses, memo_entries=1 << 20,
                                 deadline=deadline)
        if search.setup_stopped is not None:
            return search
        _SEARCHES.clear()           # one game at a time: keep one reply matrix
        _SEARCHES[key] = search
    return _SEARCHES[key]


def exact_move(log, guesses: str = "all", budget: int = EXACT_SECRETS,
               deadline: Deadline = UNLIMITED) -> tuple[ExactMove | None, str]:
    """(the optimal move, "") when the set left by ``log`` is solved within the budget, else
    (None, why not). An inconsistent log raises InconsistentLog. The search stops at
    ``deadline`` (the caller's share: :mod:`cbsolve.advisor.exact_advice`)."""
    from ..search.position import Position, solve_set, subtree

    position = Position.from_log(log)
    n = int(position.members.size)
    if n > budget:
        return None, f"{n} secrets remain, more than the {budget} solved exactly for advice"
    try:
        search = cached_search(log.variant, guesses, deadline)
    except Expired:
        raise
    except CbsolveError as exc:        # e.g. a space too large for the exact search
        return None, f"no exact search here: {exc}"
    history = [int(g) for g in position.history]
    out = solve_set(search, position.members, history, deadline=deadline)
    if out is None or not out[2]:
        within = "" if deadline.seconds is None else f" within {deadline.seconds:g} s"
        return None, f"the exact search did not finish{within}"
    root, hist = subtree(search, position.members, history)
    total = sum(k * v for k, v in hist.items())
    return ExactMove(root["guess"], n, total, max(hist)), ""

