"""Advice: the best next guess for a live game's feedback log under a strategy.

Place in the data flow: FeedbackLog -> native consistency filter (the candidates) ->
:class:`~cbsolve.strategy.heuristics.Chooser` (one node, scored on the fly so a large variant
does not build its full score matrix) -> :class:`Advice`. An inconsistent log raises
:class:`~cbsolve.errors.InconsistentLog` carrying a minimal conflicting set of entries.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..consistency.native import consistent_indices
from ..errors import InconsistentLog
from ..feedback import FeedbackLog
from .heuristics import Chooser, check_guesses, check_strategy, partition_summary, require_enumerable


@dataclass
class Advice:
    """The recommended guess; ``determined`` when exactly one secret remains (it is the guess)."""

    guess: str
    strategy: str
    candidates: int
    determined: bool
    guesses: str = "all"
    partition: dict = field(default_factory=dict)
    secret: str | None = None

    def to_json(self) -> dict:
        data = {"guess": self.guess, "strategy": self.strategy, "candidates": self.candidates,
                "determined": self.determined, "guesses": self.guesses,
                "partition": self.partition}
        if self.determined:
            data["secret"] = self.secret
        return data


def next_guess(log: FeedbackLog, strategy: str = "minimax", guesses: str = "all", seed=None,
               symmetry=None) -> Advice:
    """Best next guess for ``log`` by one heuristic, every guess scored at once (see
    :mod:`cbsolve.strategy.heuristics` for the rules). The faces ask the position service
    (:mod:`cbsolve.advisor`), which adds the openings, the certified trees, the exact search,
    the deadline and the provenance."""
    check_strategy(strategy)
    check_guesses(guesses)
    require_enumerable(log.variant, "next-guess advice")
    cands = consistent_indices(log)
    if cands.size == 0:
        from ..consistency import Query, consistent

        result = consistent(log, Query(count=True, limit=0), backend="native")
        nums = ", ".join(str(n) for n in result.conflict or [])
        raise InconsistentLog(f"no secret is consistent with this log (conflicting entries: "
                              f"{nums or 'unknown'})", result.conflict, result.corrections)
    chooser = Chooser(log.variant, strategy, guesses, seed=seed, use_matrix=False,
                      symmetry=symmetry)
    history = tuple(log.space.index_of(e.guess) for e in log)
    g = chooser.choose(cands, history)
    space = log.space
    text = space.format(space.codes[g])
    determined = cands.size == 1
    return Advice(guess=text, strategy=strategy, candidates=int(cands.size),
                  determined=determined, guesses=guesses,
                  partition=partition_summary(log.variant, chooser.responses(g, cands)),
                  secret=text if determined else None)

