"""Advice: the best next guess for a live game's feedback log under a strategy.

Place in the data flow: FeedbackLog -> native consistency filter (the candidates) ->
:class:`~cbsolve.strategy.heuristics.Chooser` (one node, scored on the fly so a large variant
does not build its full score matrix) -> :class:`Advice`. An inconsistent log raises
:class:`~cbsolve.errors.InconsistentLog` carrying a minimal conflicting set of entries.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..consistency.native import consistent_indices
from ..errors import InconsistentLog
from ..feedback import FeedbackLog
from .heuristics import Chooser, check_guesses, check_strategy, partition_summary, require_enumerable

OPTIMAL = "optimal"
#: The heuristic advising where neither the exact search nor a stored tree applies.
FALLBACK = "minimax"


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
    # strategy "optimal": where the guess came from ("exact", "tree" or "heuristic"), why,
    # and the optimum from here when it was solved exactly
    source: str | None = None
    note: str | None = None
    optimum: dict | None = None

    def to_json(self) -> dict:
        data = {"guess": self.guess, "strategy": self.strategy, "candidates": self.candidates,
                "determined": self.determined, "guesses": self.guesses,
                "partition": self.partition}
        if self.determined:
            data["secret"] = self.secret
        if self.source is not None:
            data.update(source=self.source, note=self.note, optimum=self.optimum)
        return data


def next_guess(log: FeedbackLog, strategy: str = "minimax", guesses: str = "all", seed=None,
               symmetry=None) -> Advice:
    """Best next guess for ``log`` (see :mod:`cbsolve.strategy.heuristics` for the rules;
    ``"optimal"``: :func:`optimal_next_guess`)."""
    if strategy == OPTIMAL:
        return optimal_next_guess(log, guesses)
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


def optimal_next_guess(log: FeedbackLog, guesses: str = "all") -> Advice:
    """The optimal move from the position ``log`` leaves: solved exactly while the remaining set
    is within the budget of :mod:`cbsolve.strategy.exact`, else the certified tree in models/
    while the log follows it, else the :data:`FALLBACK` heuristic; ``source`` and ``note`` say
    which."""
    from ..play.assistant import follow_tree, shipped_tree
    from ..scoring import score_against
    from .exact import exact_move

    check_guesses(guesses)
    require_enumerable(log.variant, "next-guess advice")
    move, why = exact_move(log, guesses)
    optimum = None
    if move is not None:
        guess, source, note, optimum = move.guess, "exact", move.describe(), move.to_json()
    else:
        tree = shipped_tree(log.variant)
        node = follow_tree(tree, log) if tree is not None else None
        if node is None:
            advice = next_guess(log, FALLBACK, guesses)
            advice.strategy, advice.source = OPTIMAL, "heuristic"
            advice.note = f"{why}; no certified tree for this position: advice from {FALLBACK}"
            return advice
        guess, source = node["guess"], "tree"
        note = f"{why}; from the certified tree {Path(tree['_path']).name}"
    cands = consistent_indices(log)
    space = log.space
    replies = score_against(log.variant, space.parse(guess), space.codes[cands])
    determined = cands.size == 1
    return Advice(guess=guess, strategy=OPTIMAL, candidates=int(cands.size),
                  determined=determined, guesses=guesses,
                  partition=partition_summary(log.variant, replies),
                  secret=guess if determined else None, source=source, note=note,
                  optimum=optimum)
