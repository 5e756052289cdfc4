"""A heuristic's guess as the position service's advice (step 4 of :mod:`.service`), anytime:
the strategy layer's choice where it is cheap (``first``, ``random``, two secrets or fewer),
one guess per symmetry class scored on every candidate (:mod:`.choose`), and on spaces over a
million codes the guesses ranked on a sample of the secrets, then scored exactly in that order
(:mod:`.sampled`). The choosers (Knuth 1977's minimax, Irving 1979's expected size, Neuwirth
1982's entropy, Kooi 2005's most parts) are kept for the game.

Place in the data flow: the secrets a log leaves and a deadline -> the NumPy choosers of
:mod:`cbsolve.strategy.heuristics` -> the advice, labelled heuristic, complete or cut. This
module is one of NumPy's edges: the service loads it when a guess is scored on arrays.
"""
from __future__ import annotations

import numpy as np

from ..game.symmetry import _orbits
from ..runtime import time_policy
from ..runtime.deadline import Deadline, stop_requested
from ..strategy.advice import choose_next
from ..strategy.heuristics import Chooser
from . import answers as A
from .advice_form import AdviceForm
from .choose import SYMMETRY_DEPTH, choose, guess_rows
from .classes import GuessClasses
from .options import ADVICE, AdviceOptions
from .sampled import choose_sampled

OPTIMAL = "optimal"


class HeuristicAdvice:
    """The heuristics' guesses for one variant and guess pool, their choosers kept."""

    def __init__(self, form: AdviceForm, classes: GuessClasses, seed: int | None = None,
                 options: AdviceOptions = ADVICE):
        self.form = form
        self.space = form.space
        self.classes = classes
        self.seed = seed
        self.options = options
        self._choosers: dict[str, Chooser] = {}

    def chooser(self, strategy: str) -> Chooser:
        if strategy not in self._choosers:
            self._choosers[strategy] = Chooser(self.form.variant, strategy, self.form.guesses,
                                               seed=self.seed)
        return self._choosers[strategy]

    def advise(self, log, cands, strategy, heuristic, objective, remaining, deadline: Deadline,
               why: str) -> A.Advice:
        """``heuristic``'s guess over the secrets ``cands``; ``why``: why no surer source
        answered (said in the note when ``strategy`` is the optimal one)."""
        chooser = self.chooser(heuristic)
        history = tuple(self.space.index_of(e.guess) for e in log)
        if heuristic in ("first", "random") or cands.size <= 2:
            # the strategy layer's choice, every guess at once (cheap here), wrapped below
            choice = choose_next(log, heuristic, self.form.guesses, chooser=chooser, cands=cands)
            g, complete, scope = choice.index, True, ""
        elif self.space.size > self.options.sampled.codes:
            g, complete, scope = self._sampled(log, chooser, cands, deadline)
        else:
            rows, sym = guess_rows(chooser, self.classes, history, cands,
                                   deadline.part(time_policy.ADVICE_SYMMETRY_SHARE))
            found = choose(chooser, cands, rows, deadline)
            complete, g = found.complete, found.index
            scope = ("" if found.complete else
                     f"best of {found.scored} of {found.total} guesses scored")
            scope = (scope + ("; " if scope else "") +
                     ("one guess per symmetry class" if sym else "every guess"))
        if g is None:           # nothing scored in time: a consistent code
            g = int(cands[0])
            scope = "no guess scored in time: the first consistent code"
        stopped = None if complete else ("interrupted" if stop_requested() else "time")
        if strategy == OPTIMAL:
            note = (f"{why}; " if why else "") + (f"heuristic {heuristic} stands in for the "
                                                  f"{objective} objective")
        else:
            note = f"heuristic {heuristic}"
        note += f" ({scope})" if scope else ""
        guess = self.space.format(self.space.codes_at(g))
        return self.form.advice(guess, strategy, remaining, cands, objective,
                                A.Provenance(A.HEURISTIC, objective, False, complete, stopped,
                                             note))

    def _sampled(self, log, chooser, cands: np.ndarray, deadline: Deadline):
        """(guess index or None, complete, scope) on a space over a million codes."""
        classes, why_not = self.symmetry_classes(
            log, deadline.part(time_policy.ADVICE_SYMMETRY_SHARE))
        found = choose_sampled(chooser, cands, deadline.reserving(time_policy.ADVICE_RESERVE),
                               classes, self.options.sampled)
        scope = (f"best of {found.scored} of {found.total} guesses scored on every "
                 f"candidate, in the order of {found.ranked} guesses ranked on a sample of "
                 f"{found.sample}; " + ("one guess per symmetry class" if found.symmetry
                                        else why_not))
        return found.index, found.complete, scope

    def symmetry_classes(self, log, deadline: Deadline) -> tuple[np.ndarray | None, str]:
        """(one guess per symmetry class of a large space's position, "") or (None, why not):
        computed when the history is short, the classes are few enough to score and their
        cost (:attr:`.options.AdviceOptions.classes_seconds_per_code`) fits
        ``deadline``."""
        history = tuple(self.space.index_of(e.guess) for e in log)
        reps = self.classes.known(history)
        if reps is None:
            left = deadline.left()
            cost = self.space.size * self.options.classes_seconds_per_code
            if len(history) >= SYMMETRY_DEPTH or _orbits() is None:
                return None, "codes spread over the space (no symmetry classes this deep)"
            if left is not None and left < cost:
                return None, (f"codes spread over the space (the symmetry classes would take "
                              f"about {cost:.1f} s)")
            reps = self.classes.of(history, deadline)
            if reps is None:
                return None, "codes spread over the space (the symmetry classes were cut)"
        shape = self.options.sampled
        if reps.size > shape.pool_candidates + shape.pool_spread:
            return None, f"codes spread over the space ({reps.size} symmetry classes)"
        return reps, ""
