"""``next --strategy optimal``: the exact optimum, the certified tree, or a heuristic.

Place in the data flow: FeedbackLog -> :mod:`cbsolve.strategy.exact` (the exact move while the
remaining set is within its budget) -> else the certified tree in ``models/``
(:mod:`cbsolve.play.assistant`) while the log follows it -> else the :data:`FALLBACK`
heuristic (:func:`cbsolve.strategy.next_guess`) -> :class:`cbsolve.strategy.advice.Advice`
with ``source`` and ``note`` saying which.
"""
from __future__ import annotations

from pathlib import Path

from ..consistency.native import consistent_indices
from ..feedback import FeedbackLog
from ..scoring import score_against
from ..strategy.advice import Advice, next_guess
from ..strategy.exact import exact_move
from ..strategy.heuristics import check_guesses, partition_summary, require_enumerable
from .assistant import follow_tree, shipped_tree

OPTIMAL = "optimal"
#: The heuristic advising where neither the exact search nor a stored tree applies.
FALLBACK = "minimax"


def optimal_next_guess(log: FeedbackLog, guesses: str = "all") -> Advice:
    """The optimal move from the position ``log`` leaves: solved exactly while the remaining set
    is within the budget of :mod:`cbsolve.strategy.exact`, else the certified tree in models/
    while the log follows it, else the :data:`FALLBACK` heuristic; ``source`` and ``note`` say
    which."""
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
