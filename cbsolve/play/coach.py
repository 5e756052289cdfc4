"""The coach (``play --coach``, ``assist --coach``): what a person's guess costs against the
best guess from the same position, in guesses on average and in the worst case.

Place in the data flow: a live game's log (the position before the guess) -> the candidates
(native filter) -> each guess compared is played, then the game is finished with Irving's
expected-size heuristic (Irving 1979) on every reply class, evaluated exactly over the
candidates -> :class:`Review`. So "best" means the best of the compared guesses *under that
continuation*, not the proved optimum (the exact searches of ``cbsolve optimal`` answer that),
and the label says so. The compared guesses are every guess up to symmetry of the position
(:mod:`cbsolve.symmetry`), or, when there are more than :data:`TOP`, the :data:`TOP` with the
smallest expected class size plus the heuristic's own choice (the label then says "best of K").
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import scoring
from ..consistency.native import consistent_indices
from ..feedback import FeedbackLog
from ..strategy.heuristics import Chooser
from ..strategy.partition import scores_of
from ..symmetry import Symmetry
from ..variant import Variant

CONTINUATION = "expected"
#: Most guesses compared at one position (each costs one exact evaluation over the candidates).
TOP = 24
#: Largest code space coached: the continuation keeps the full score matrix (10^4 codes: 100 MB).
LIMIT = 10_000


@dataclass
class Review:
    guess: str
    candidates: int
    total: int                 # guesses summed over the candidates: this guess, then the heuristic
    worst: int
    best_total: int
    best_worst: int
    best_expected_guess: str
    best_worst_guess: str
    compared: int              # guesses compared (up to symmetry)
    complete: bool             # every guess up to symmetry was compared

    @property
    def delta_expected(self) -> float:
        return (self.total - self.best_total) / self.candidates

    @property
    def delta_worst(self) -> int:
        return self.worst - self.best_worst

    @property
    def label(self) -> str:
        scope = ("every guess up to symmetry" if self.complete
                 else f"best of {self.compared} guesses (smallest expected class size first)")
        return (f"exact over the {self.candidates} candidates, each guess followed by Irving's "
                f"expected-size heuristic; {scope}")

    def describe(self) -> str:
        n = self.candidates
        return (f"coach: {self.guess} costs +{self.delta_expected:.3f} guesses on average "
                f"({self.total / n:.3f} to finish vs {self.best_total / n:.3f} with "
                f"{self.best_expected_guess}) and +{self.delta_worst} in the worst case "
                f"({self.worst} vs {self.best_worst} with {self.best_worst_guess})")

    def to_json(self) -> dict:
        return {"guess": self.guess, "candidates": self.candidates,
                "expected": self.total / self.candidates, "worst": self.worst,
                "best_expected": self.best_total / self.candidates,
                "best_worst": self.best_worst, "best_expected_guess": self.best_expected_guess,
                "best_worst_guess": self.best_worst_guess,
                "delta_expected": self.delta_expected, "delta_worst": self.delta_worst,
                "compared": self.compared, "complete": self.complete, "method": self.label}


class Coach:
    """Reviews guesses of one variant (the continuation's score matrix is built once)."""

    def __init__(self, variant: Variant, top: int = TOP):
        from ..codes import CodeSpace
        from ..errors import SpaceTooLarge

        size = CodeSpace(variant).size
        if size > LIMIT:
            raise SpaceTooLarge(f"the coach evaluates every guess exactly and is limited to "
                                f"{LIMIT} codes; {variant.describe()} has {size}")
        self.variant = variant
        self.top = top
        self.chooser = Chooser(variant, CONTINUATION)
        self.symmetry = Symmetry(variant)
        self.space = self.chooser.space

    def cost(self, guess: int, cands: np.ndarray) -> tuple[int, int]:
        """(total guesses, worst) to find every candidate: ``guess``, then the heuristic."""
        win = self.variant.win_response
        total = worst = 0
        stack = [(guess, cands, 1)]
        while stack:
            g, cs, depth = stack.pop()
            resp = self.chooser.responses(g, cs)
            for r in np.unique(resp):
                members = cs[resp == r]
                if r == win:
                    total += depth
                    worst = max(worst, depth)
                else:
                    stack.append((self.chooser.choose(members), members, depth + 1))
        return total, worst

    def compared_guesses(self, log: FeedbackLog, cands: np.ndarray) -> tuple[np.ndarray, bool]:
        reps = np.asarray(self.symmetry.guess_representatives([e.guess for e in log]))
        if reps.size <= self.top:
            return reps, True
        v = self.variant
        counts = scoring.partition_counts(v, scoring.pack(v, self.space.codes[reps]),
                                          scoring.pack(v, self.space.codes[cands]))
        ranked = reps[np.argsort(scores_of(counts)["expected"], kind="stable")[:self.top]]
        return np.union1d(ranked, [self.chooser.choose(cands)]), False

    def review(self, log: FeedbackLog, guess: str) -> Review | None:
        """The review of ``guess`` played after ``log``; None when no candidate is left."""
        cands = consistent_indices(log)
        if cands.size == 0:
            return None
        g = self.space.index_of(self.space.parse(guess))
        total, worst = self.cost(g, cands)
        best_t, best_w = (total, g), (worst, g)
        compared, complete = self.compared_guesses(log, cands)
        for h in compared:
            t, w = self.cost(int(h), cands)
            best_t = min(best_t, (t, int(h)))
            best_w = min(best_w, (w, int(h)))
        fmt = self.space.format
        return Review(guess=fmt(self.space.codes[g]), candidates=int(cands.size), total=total,
                      worst=worst, best_total=best_t[0], best_worst=best_w[0],
                      best_expected_guess=fmt(self.space.codes[best_t[1]]),
                      best_worst_guess=fmt(self.space.codes[best_w[1]]),
                      compared=int(len(compared)), complete=complete)
