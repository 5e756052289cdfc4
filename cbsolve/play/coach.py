"""The coach (``play --coach``, ``assist --coach``): says what a person's guess costs against
the best guess from the same position, for the game's objective. It only formats: the
figures are the position service's review (:meth:`cbsolve.advisor.PositionService.review`,
:mod:`cbsolve.advisor.review`), asked with the game's strategy, on the service that gave the
game's advice and ``hint``, under the turn's one Deadline. So the advised guess (the one
``hint`` showed) is never reviewed as a cost: the review says it followed the advice.
"""
from __future__ import annotations

from ..runtime.deadline import Deadline
from ..errors import InconsistentLog, SpaceTooLarge
from ..game.feedback import FeedbackLog


class Coach:
    """Reviews of one game's guesses, by ``service`` (the game's advisor) for ``objective``,
    against its advice for ``strategy``."""

    def __init__(self, service, objective: str = "worst", strategy: str = "optimal"):
        from ..advisor import check_objective
        from ..advisor.heuristic_cost import LIMIT      # the estimate of large positions

        if service.space.size > LIMIT:
            raise SpaceTooLarge(f"the coach is limited to {LIMIT} codes; "
                                f"{service.variant.describe()} has {service.space.size}")
        self.service = service
        self.objective = check_objective(objective)
        self.strategy = strategy

    def review(self, log: FeedbackLog, guess: str, deadline: Deadline):
        """The service's review of ``guess`` played after ``log`` (None: the log is
        inconsistent, the game says why elsewhere)."""
        try:
            return self.service.review(log, guess, self.objective, deadline, self.strategy)
        except InconsistentLog:
            return None


def _guesses(k: float) -> str:
    return "guess" if k == 1 else "guesses"


def describe(review) -> str:
    """One line for people: the cost against the best, in the objective's unit."""
    n, worst = review.candidates, review.objective == "worst"
    if review.cost is None:
        lo, _ = review.cost_bounds
        unit = "in the worst case" if worst else "in total"
        return f"coach: {review.guess}: at least {lo} more guesses {unit} (no estimate here)"
    if review.followed is not None:
        figure = (f"{review.cost} more {_guesses(review.cost)} at worst" if worst else
                  f"{review.cost / n:.3f} more guesses on average")
        return f"coach: {review.guess} is the advice ({review.followed}): {figure} from here"
    if worst:
        return (f"coach: {review.guess} costs +{review.regret} in the worst case "
                f"({review.cost} vs {review.best} with {review.best_guess})")
    return (f"coach: {review.guess} costs +{review.average_regret:.3f} guesses on average "
            f"({review.cost / n:.3f} to finish vs {review.best / n:.3f} with {review.best_guess})")


def record(review) -> dict:
    """The review's JSON for a game record: the review's fields, and the objective's figures
    under the names the coach's records used (``worst``, ``best_worst``, ``delta_worst``, ...;
    ``expected`` ones per secret)."""
    data = review.to_json()
    if review.cost is None:
        return data
    if review.objective == "worst":
        data.update(worst=review.cost, best_worst=review.best,
                    best_worst_guess=review.best_guess, delta_worst=review.regret)
    else:
        n = review.candidates
        data.update(expected=review.cost / n, best_expected=review.best / n,
                    best_expected_guess=review.best_guess, delta_expected=review.average_regret)
    return data
