"""The exact quantities behind the adapters' rewards, each within a budget and labelled.

- :func:`certified_worst`: the certified worst case of the variant (``cb.bounds``: the number
  of guesses an optimal strategy never exceeds), cached per variant for the process;
- :func:`turn_limit`: that worst case plus the builder's slack;
- :func:`candidates_after`: how many secrets fit the replies so far, counted by cbsolve's
  counting API (never listed); when the count does not finish within the turn's budget, the
  bounds it leaves (what was found, and the count before the reply), labelled so;
- :func:`move_regret`: :func:`cbsolve.regret` of a move where it is exact within the turn's
  budget (positions of at most :data:`cbsolve.strategy.exact.EXACT_SECRETS` candidates);
  otherwise the move is labelled "not computed" with the reason: cbsolve's heuristic review
  takes seconds on large positions and does not stop at the deadline, so the host never runs
  it.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

from ..api import bounds, regret
from ..runtime.deadline import Deadline
from ..errors import CbsolveError, Expired
from ..game.feedback import FeedbackLog
from ..game.variant import Variant
from ..strategy.exact import EXACT_SECRETS

_WORST: dict[Variant, tuple[int, bool, str]] = {}
#: cbsolve's solvers keep per-process caches of one game at a time (the regret's position and
#: cores), so concurrent games (verifiers runs rollouts in threads) take turns at the oracle.
ORACLE_LOCK = threading.RLock()


def certified_worst(variant: Variant, deadline: Deadline) -> tuple[int, bool, str]:
    """(upper, exact, method): the certified upper end of the worst case, whether it is the
    exact optimum (lower end equal), and how it was proved."""
    with ORACLE_LOCK:
        known = _WORST.get(variant)
        if known is None:
            worst = bounds(variant, deadline=deadline).worst
            known = (int(worst.upper), worst.lower == worst.upper, str(worst.upper_method))
            _WORST[variant] = known
    return known


def turn_limit(variant: Variant, slack: int = 2, deadline: Deadline | None = None) -> int:
    """Guesses a game allows: the certified worst case plus ``slack`` (the Gymnasium
    environments' ``max_guesses`` can come from here too)."""
    if slack < 0:
        raise CbsolveError(f"slack must be at least 0, got {slack}")
    upper, _, _ = certified_worst(variant, deadline or Deadline(None))
    return upper + slack


@dataclass(frozen=True)
class Count:
    """The secrets consistent with the replies: ``lower == upper`` when ``exact``."""

    lower: int
    upper: int
    exact: bool
    method: str

    def to_json(self) -> dict:
        return {"lower": self.lower, "upper": self.upper, "exact": self.exact,
                "method": self.method}


def candidates_after(log: FeedbackLog, upper_before: int, deadline: Deadline) -> Count:
    """The candidates ``log`` leaves. ``upper_before`` (the count before the last reply) bounds
    an unfinished count from above; the host's secret, always consistent, from below."""
    from ..api import consistent

    try:
        result = consistent(log, count=True, limit=0, deadline=deadline)
    except Expired:
        raise
    except CbsolveError as exc:
        return Count(1, upper_before, False, f"bounds: the count failed ({exc})")
    if result.exact and result.count is not None:
        return Count(result.count, result.count, True, f"exact count ({result.backend})")
    found = max(1, result.count or 0)
    return Count(found, max(found, upper_before), False,
                 f"bounds: the count did not finish within the turn's budget ({result.backend}); "
                 "lower = secrets found, upper = the count before this reply")


@dataclass(frozen=True)
class MoveRegret:
    """A move's regret: ``value`` extra guesses (per secret for the expected objective, in the
    worst case for the worst objective) against the best move; ``None`` when not computed."""

    value: float | None
    exact: bool
    objective: str
    method: str
    best_guess: str | None = None

    def to_json(self) -> dict:
        return {"value": self.value, "exact": self.exact, "objective": self.objective,
                "method": self.method, "best_guess": self.best_guess}


def move_regret(guess: str, log_before: FeedbackLog, candidates_before: Count, objective: str,
                deadline: Deadline) -> MoveRegret:
    """:func:`cbsolve.regret` of ``guess`` at ``log_before``, or a labelled "not computed"."""
    if candidates_before.upper > EXACT_SECRETS:
        size = (f"{candidates_before.upper}" if candidates_before.exact
                else f"up to {candidates_before.upper}")
        return MoveRegret(None, False, objective,
                          f"not computed: {size} candidates before the move (exact regret "
                          f"is solved for at most {EXACT_SECRETS})")

    try:
        r = regret(guess, log_before, objective=objective, deadline=deadline)
    except Expired:
        raise
    except CbsolveError as exc:
        return MoveRegret(None, False, objective, f"not computed: {exc}")
    if not r.exact:          # the position service's estimate, labelled: no exact value
        return MoveRegret(None, False, objective, f"not computed exactly: {r.method}")
    return MoveRegret(float(r.average_regret), True, objective, r.method, r.best_guess)
