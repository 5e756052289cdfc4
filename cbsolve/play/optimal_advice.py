"""``next --strategy optimal`` as a library call: the position service's answer for one
objective (:meth:`cbsolve.advisor.PositionService.advise`): the certified tree in ``models/``
while the log follows it, else the exact optimum from the position when it fits the time,
else a heuristic aiming at the objective; the answer's provenance says which.
"""
from __future__ import annotations

from ..advisor import OPTIMAL, Advice, PositionService
from ..deadline import Deadline
from ..feedback import FeedbackLog

__all__ = ["OPTIMAL", "optimal_next_guess"]


def optimal_next_guess(log: FeedbackLog, guesses: str = "all", objective: str = "worst",
                       deadline: Deadline | None = None) -> Advice:
    """The optimal move from the position ``log`` leaves, for ``objective``."""
    return PositionService(log.variant, guesses).advise(log, strategy=OPTIMAL,
                                                        objective=objective, deadline=deadline)
