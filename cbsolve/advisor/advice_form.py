"""How the position service words an answer: the proved interval on the guesses still needed
(the counting bound below, a tree's or an exact search's value) and the advice around a chosen
guess, its partition of the secrets left included.

Place in the data flow: a chosen guess from one of the service's sources (:mod:`.tree_advice`,
:mod:`.exact_advice`, :mod:`.heuristic_advice`, :mod:`.listing`) -> :class:`AdviceForm` ->
:class:`~.answers.Advice`. The counting bound is Knuth 1977's (each guess splits the secrets
into at most as many classes as there are replies).
"""
from __future__ import annotations

from ..game.capacity import total_lower, worst_lower
from ..game.codes import CodeSpace
from ..game.rule import possible_responses
from ..game.variant import Variant
from . import answers as A


class AdviceForm:
    """The advice and the guesses-needed interval of one variant and guess pool."""

    def __init__(self, variant: Variant, space: CodeSpace, guesses: str):
        self.variant = variant
        self.space = space
        self.guesses = guesses

    def needed(self, objective: str, n: int, value=(None, None), how: str = "") -> A.Needed:
        """The proved interval on the guesses still needed for ``n`` secrets: the counting
        bound below, ``value`` (lower, upper) from a tree or an exact search."""
        r = len(possible_responses(self.variant))
        low = worst_lower(n, r) if objective == "worst" else total_lower(n, r)
        out = A.Needed(objective, low, None, "counting", "")
        out.raise_lower(value[0], how)
        out.lower_upper(value[1], how)
        return out

    def advice(self, guess, strategy, remaining, cands, objective, provenance,
               needed=(None, None), optimum=None, how="") -> A.Advice:
        """The advice to play ``guess`` with its partition of the secrets ``cands``."""
        # NumPy's scorer, imported here: a small game's listed path never scores an array
        from ..game.scoring import score_against
        from ..strategy.heuristics import partition_summary

        replies = score_against(self.variant, self.space.parse(guess), self.space.codes_at(cands))
        return A.Advice(guess, strategy, remaining, provenance, self.guesses,
                        partition_summary(self.variant, replies),
                        self.needed(objective, int(cands.size), needed, how), optimum)
