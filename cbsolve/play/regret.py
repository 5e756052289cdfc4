"""Regret: what a guess costs from a position against the best guess there.

Place in the data flow: a log -> :class:`cbsolve.search.position.Position` (the last one kept)
-> :class:`.regret_exact.PositionCores` (the position prepared for the native cores, its
optima kept) -> one core call a guess -> :class:`Regret`. Beyond the exact budget, or when the
deadline stops a solve, the coach's heuristic review (:mod:`.coach`), labelled so.

- ``objective="expected"`` (default): total guesses from the position over its secrets, the
  guess then expected-optimal play in each reply class, against the expected optimum;
- ``objective="worst"``: the worst case, the guess then minimax-optimal play in each reply
  class, against the minimax optimum (the worst-case kernel's decisions, not a search tree);
- exact while the position has at most :data:`cbsolve.strategy.exact.EXACT_SECRETS` secrets
  and every solve ends within the deadline; otherwise the heuristic review (each guess followed
  by Irving's heuristic), ``exact: false`` with the reason.

Cost model (Bulls & Cows 4/10, positions of at most 100 candidates; docs/benchmarks.md,
"Regret of a new guess", has the measured figures): the first call of a process builds the
game's exact core (the reply matrix: tens of milliseconds); the first call at a position
solves the position exactly (milliseconds: an exact search over the 5,040 guesses); then a
guess whose reply classes the core's table holds (the same guess again, or one the position's
solve explored) is a table look-up (tens of microseconds, most of it Python), and a new guess
costs the exact solves of its classes the table lacks: expected, about 0.1-0.2 ms, most of it
the classes of 20 secrets and more (their searches visit tens of nodes; a node counts the
replies of only the guesses whose bound can matter, and sets of a few secrets have closed
forms); worst, the worst-case kernel decides each class from the position's optimum less one,
milliseconds. A new position costs its filtering and its solve again.

The difference is never negative when exact: both sides count the guesses from the position
the same way (the guess itself is one for every secret).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..deadline import Deadline
from ..feedback import FeedbackLog

OBJECTIVES = ("expected", "worst")


@dataclass
class Regret:
    """``cost`` against ``best`` over the ``candidates`` secrets of the position: total
    guesses (expected) or the worst case, both counted from the position."""

    guess: str
    candidates: int
    objective: str
    cost: int
    best: int
    best_guess: str
    exact: bool
    method: str            # how the numbers were obtained (the label shown to people)

    @property
    def regret(self) -> int:
        """Extra guesses: summed over the secrets (expected) or in the worst case."""
        return self.cost - self.best

    @property
    def average_regret(self) -> float:
        """Extra guesses per secret (the expected objective's regret per game)."""
        return self.regret / self.candidates if self.objective == "expected" else float(self.regret)

    def to_json(self) -> dict:
        return {"guess": self.guess, "candidates": self.candidates, "objective": self.objective,
                "cost": self.cost, "best": self.best, "best_guess": self.best_guess,
                "regret": self.regret, "average_regret": self.average_regret,
                "exact": self.exact, "method": self.method}


_COACHES: dict = {}     # variant -> Coach (its reply matrix and exact cores are reused)
#: The last position asked about and its prepared cores: callers score many guesses at one
#: position, and filtering the whole code space again cost most of a call (Bulls & Cows 4/10:
#: 0.3 of 0.8 ms).
_LAST: dict = {}


def position_of(log: FeedbackLog):
    """The position ``log`` leaves (:meth:`cbsolve.search.position.Position.from_log`), the
    last one kept."""
    from ..search.position import Position

    key = (log.variant, tuple(log.tokens()))
    if _LAST.get("key") != key:
        _LAST.clear()
        _LAST["position"] = Position.from_log(log)
        _LAST["key"] = key
    return _LAST["position"]


def _coach(variant):
    from .coach import Coach

    if variant not in _COACHES:
        _COACHES.clear()       # one game at a time, as the exact cores' cache
        _COACHES[variant] = Coach(variant)
    return _COACHES[variant]


def regret(log: FeedbackLog, guess: str, objective: str = "expected",
           deadline: Deadline | None = None) -> Regret:
    """The regret of playing ``guess`` after ``log`` (see the module docstring). An
    inconsistent log raises :class:`~cbsolve.errors.InconsistentLog`; a space too large for
    the coach raises :class:`~cbsolve.errors.SpaceTooLarge`."""
    from ..errors import unknown_name

    if objective not in OBJECTIVES:
        raise unknown_name("objective", objective, OBJECTIVES)
    deadline = Deadline.given(deadline)
    if (won := log.solved_at()) is not None:
        return _solved(log, guess, objective, won)
    why = _exact(log, guess, objective, deadline)
    if isinstance(why, Regret):
        return why
    return _from_review(log, guess, objective, deadline, why)


def exact_regret(log: FeedbackLog, guess: str, objective: str = "expected",
                 deadline: Deadline | None = None) -> Regret | str:
    """:func:`regret` when it is exact within ``deadline``, else why not (a string), without
    the heuristic review (which takes seconds on large positions and does not stop at the
    deadline): for callers with a hard per-move budget, such as the LLM adapters' host."""
    from ..errors import unknown_name

    if objective not in OBJECTIVES:
        raise unknown_name("objective", objective, OBJECTIVES)
    if (won := log.solved_at()) is not None:
        return _solved(log, guess, objective, won)
    why = _exact(log, guess, objective, Deadline.given(deadline))
    if isinstance(why, Regret):
        return why
    return why or f"beyond the {_exact_secrets()} secrets solved exactly"


def _solved(log: FeedbackLog, guess: str, objective: str, won: int) -> Regret:
    """A log already won (an entry had every bull): the game is over, no guess costs anything,
    as ``optimal`` and the position service answer (0 more guesses, proved)."""
    _guess_index(log.space, guess)                       # a malformed guess is still an error
    winner = log.entries[won - 1].text                  # the guess as typed
    return Regret(guess=guess, candidates=1, objective=objective, cost=0, best=0,
                  best_guess=winner, exact=True,
                  method=f"solved: entry {won} had every bull; the game is over")


def _exact(log: FeedbackLog, guess: str, objective: str,
           deadline: Deadline) -> Regret | str | None:
    """The exact regret (:mod:`.regret_exact`); else why not when it ran out of time, or None
    when the position is beyond the exact budget (the coach's review says so)."""
    from ..errors import CbsolveError
    from .coach_exact import OutOfTime

    position = position_of(log)
    n = int(position.members.size)
    if n > _exact_secrets():
        return None
    space = log.space
    g, text = _guess_index(space, guess)
    try:
        cores = _cores(log, position)
        if objective == "expected":
            best, best_guess = cores.expected_optimum(deadline)
            cost = cores.expected_total(g, deadline)
            method = ("exact optimum from this position ({n} candidates): the guess then "
                      "expected-optimal play in each reply class, vs the optimal strategy")
        else:
            best, best_guess = cores.worst_optimum(deadline)
            cost = cores.worst_cost(g, deadline)
            method = ("exact minimax optimum from this position ({n} candidates): the guess "
                      "then minimax-optimal play in each reply class, vs the minimax-optimal "
                      "strategy")
    except OutOfTime:
        return "the exact solve did not end within the deadline"
    except CbsolveError:
        return None
    return Regret(text, n, objective, cost, best, space.format(space.codes[best_guess]), True,
                  method.format(n=n))


#: (variant, guess as typed) -> (code index, guess as printed): parsing and ranking a code
#: was a third of a call whose answer the core's table already held.
_GUESSES: dict = {}


def _guess_index(space, guess: str) -> tuple[int, str]:
    key = (space.variant, guess)
    if key not in _GUESSES:
        if len(_GUESSES) >= 1 << 16:
            _GUESSES.clear()
        g = space.index_of(space.parse(guess))
        _GUESSES[key] = g, space.format(space.codes[g])
    return _GUESSES[key]


def _exact_secrets() -> int:
    from ..strategy.exact import EXACT_SECRETS

    return EXACT_SECRETS


def _cores(log: FeedbackLog, position):
    """The :class:`.regret_exact.PositionCores` of the last position asked about (its optima
    are kept between calls), on the game's exact core."""
    from ..strategy.exact import cached_search
    from .regret_exact import PositionCores

    search = cached_search(log.variant)
    cores = _LAST.get("cores")
    if cores is None or cores.search is not search or _LAST.get("position") is not position:
        cores = _LAST["cores"] = PositionCores(search, position)
    return cores


def _from_review(log: FeedbackLog, guess: str, objective: str, deadline: Deadline,
                 why: str | None) -> Regret:
    """The coach's review read for one objective: exact within what is left of ``deadline``,
    else heuristic and labelled; ``why``: the exact answer is already known to be out of
    reach (only the heuristic runs). The heuristic has no deadline (no stop flag inside)."""
    from ..errors import InconsistentLog
    from ..search.position import Position

    coach = _coach(log.variant)
    saved = coach.exact_secrets, coach.exact_seconds
    left = deadline.left()
    try:
        if why is not None:
            coach.exact_secrets = -1
        if left is not None:
            coach.exact_seconds = min(coach.exact_seconds, left)
        review = coach.review(log, guess, against_advice=False)
    finally:
        coach.exact_secrets, coach.exact_seconds = saved
    if review is not None and why is not None:
        review.why = why
    if review is None:
        Position.from_log(log)          # raises InconsistentLog with the conflict
        raise InconsistentLog("no secret is consistent with this log")
    if objective == "expected":
        cost, best, best_guess = review.total, review.best_total, review.best_expected_guess
    else:
        cost, best, best_guess = review.worst, review.best_worst, review.best_worst_guess
    return Regret(review.guess, review.candidates, objective, cost, best, best_guess,
                  review.exact, review.label)
