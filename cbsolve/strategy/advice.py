"""A heuristic's choice from a live game's log: what the strategy layer computes for a
position, before any face sees it.

Place in the data flow: FeedbackLog -> native consistency filter (the candidates) ->
:class:`~cbsolve.strategy.heuristics.Chooser` (one node, scored on the fly so a large variant
does not build its full score matrix) -> :class:`HeuristicChoice` -> the position service
(:mod:`cbsolve.advisor`), which wraps it into its ``Advice`` with the provenance, the
objective, the deadline and the guesses still needed. There is one advice type, the
service's; this is the plain result under it. An inconsistent log raises
:class:`~cbsolve.errors.InconsistentLog` carrying a minimal conflicting set of entries.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..consistency.native import consistent_indices
from ..errors import InconsistentLog
from ..game.feedback import FeedbackLog
from .rules import check_guesses, check_strategy, require_enumerable

if TYPE_CHECKING:   # NumPy and the choosers are imported where used: HeuristicChoice is light
    import numpy as np

    from .heuristics import Chooser


@dataclass(frozen=True)
class HeuristicChoice:
    """The guess a heuristic chooses (its code index and text), the secrets it was chosen
    for and how it splits them (:func:`~cbsolve.strategy.heuristics.partition_summary`)."""

    index: int
    guess: str
    strategy: str
    candidates: int
    guesses: str = "all"
    partition: dict = field(default_factory=dict)

    @property
    def determined(self) -> bool:
        """One secret is left: the guess is it."""
        return self.candidates == 1


def candidates_of(log: FeedbackLog) -> np.ndarray:
    """The secrets ``log`` leaves (sorted code indices); :func:`no_secret_left` when none is."""
    cands = consistent_indices(log)
    if cands.size == 0:
        raise no_secret_left(log)
    return cands


def no_secret_left(log: FeedbackLog, deadline=None) -> InconsistentLog:
    """The error of a log no secret fits, with consistency's diagnosis: a minimal conflicting
    set of entries and the corrections."""
    from ..consistency import Query, consistent

    result = consistent(log, Query(count=True, limit=0), backend="native", deadline=deadline)
    nums = ", ".join(str(n) for n in result.conflict or [])
    return InconsistentLog(f"no secret is consistent with this log (conflicting entries: "
                           f"{nums or 'unknown'})", result.conflict, result.corrections)


def choose_next(log: FeedbackLog, strategy: str = "minimax", guesses: str = "all", seed=None,
                symmetry=None, *, chooser: Chooser | None = None,
                cands: np.ndarray | None = None) -> HeuristicChoice:
    """The guess ``strategy`` chooses after ``log``, every guess scored at once (see
    :mod:`cbsolve.strategy.heuristics` for the rules). ``chooser`` and ``cands``: the
    caller's, when it keeps them between questions (the position service does). The faces
    ask the position service (:meth:`cbsolve.advisor.PositionService.advise`), which adds the
    openings, the certified trees, the exact search, the deadline and the provenance."""
    from .heuristics import Chooser, partition_summary

    check_strategy(strategy)
    check_guesses(guesses)
    require_enumerable(log.variant, "next-guess advice")
    cands = candidates_of(log) if cands is None else cands
    if chooser is None:
        chooser = Chooser(log.variant, strategy, guesses, seed=seed, use_matrix=False,
                          symmetry=symmetry)
    history = tuple(log.space.index_of(e.guess) for e in log)
    g = int(chooser.choose(cands, history))
    return HeuristicChoice(index=g, guess=log.space.format(log.space.codes[g]),
                           strategy=strategy, candidates=int(cands.size), guesses=guesses,
                           partition=partition_summary(log.variant, chooser.responses(g, cands)))
