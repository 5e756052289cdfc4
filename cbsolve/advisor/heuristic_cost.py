"""A guess's cost estimated by a heuristic continuation, where the exact engine does not reach.

Place in the data flow: a position's candidates -> each compared guess is played, then the
game is finished with Irving's expected-size heuristic (Irving 1979) on every reply class,
evaluated exactly over the candidates -> (total, worst) for each guess, for :mod:`.review`.
Such a continuation is a real strategy, so its figures are proved upper ends (a guess then
optimal play costs at most that much); "best" is the best compared guess *under that
continuation*, not the proved optimum. The compared guesses are every guess up to symmetry of
the position (:mod:`cbsolve.game.symmetry`), or, when there are more than :data:`TOP`, the
:data:`TOP` with the smallest expected class size plus the heuristic's own choice.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..game import scoring
from ..runtime.deadline import Deadline
from ..strategy.heuristics import Chooser
from ..strategy.partition import scores_of
from ..game.symmetry import Symmetry
from ..game.variant import Variant

CONTINUATION = "expected"
#: Most guesses compared at one position (each costs one exact evaluation over the candidates).
TOP = 24
#: Largest code space estimated: the continuation keeps the full score matrix (10^4 codes:
#: 100 MB).
LIMIT = 10_000


@dataclass
class Estimate:
    """The heuristic figures of one guess and of the best compared guess, both objectives."""

    total: int                 # guesses summed over the candidates: the guess, then the heuristic
    worst: int
    best_total: tuple[int, int]   # (total, code index) of the best compared guess
    best_worst: tuple[int, int]
    compared: int              # guesses compared (up to symmetry)
    complete: bool             # every guess up to symmetry was compared (and none cut)
    cut: bool = False          # the deadline stopped the comparison


class HeuristicCosts:
    """Estimates for one variant (the continuation's score matrix is built once)."""

    def __init__(self, variant: Variant, top: int = TOP):
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

    def compared_guesses(self, history: list, cands: np.ndarray) -> tuple[np.ndarray, bool]:
        """(the guesses compared, whether that is every guess up to symmetry)."""
        reps = np.asarray(self.symmetry.guess_representatives(history))
        if reps.size <= self.top:
            return reps, True
        v = self.variant
        counts = scoring.partition_counts(v, scoring.pack(v, self.space.codes[reps]),
                                          scoring.pack(v, self.space.codes[cands]))
        ranked = reps[np.argsort(scores_of(counts)["expected"], kind="stable")[:self.top]]
        return np.union1d(ranked, [self.chooser.choose(cands)]), False

    def estimate(self, history: list, cands: np.ndarray, guess: int,
                 deadline: Deadline) -> Estimate:
        """The guess's figures and the best compared guess's; the comparison stops when
        ``deadline`` expires (each comparison is one evaluation: no stop flag inside)."""
        total, worst = self.cost(guess, cands)
        best_t, best_w = (total, guess), (worst, guess)
        compared, complete = self.compared_guesses(history, cands)
        done = 0
        for h in compared:
            if deadline.expired():
                break
            t, w = self.cost(int(h), cands)
            best_t, best_w = min(best_t, (t, int(h))), min(best_w, (w, int(h)))
            done += 1
        cut = done < len(compared)
        return Estimate(total, worst, best_t, best_w, done, complete and not cut, cut)
