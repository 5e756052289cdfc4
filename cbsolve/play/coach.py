"""The coach (``play --coach``, ``assist --coach``): what a person's guess costs against the
best guess from the same position, in guesses on average and in the worst case.

Same source, same objective: the coach first asks the position service
(:mod:`cbsolve.advisor`) for the advice the game's own suggestion gives (the certified tree,
the exact search or the heuristic, for the game's objective). A guess equal to that advice is
never blamed: its review is "followed the advice", with the figures of that source. Any other
guess is reviewed as below, and an optimum the advice proved (a certified tree, an exact
search) is the "best" it is compared with wherever the review's own comparison finds less.

Exact where the remaining set is small: :mod:`.coach_exact` compares the guess with the proved
optimum from the position (within :data:`cbsolve.strategy.exact.EXACT_SECRETS` secrets and
:data:`cbsolve.time_policy.REVIEW_SECONDS`). Otherwise, the heuristic review below, labelled so.

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
    compared: int | None       # guesses compared (up to symmetry); None: the exact search
    complete: bool             # every guess up to symmetry was compared
    exact: bool = False        # against the proved optimum (coach_exact), not the heuristic
    why: str = ""              # why the review is not exact
    objective: str = "worst"   # the game's objective: its delta is the one that counts
    followed: str | None = None  # the advice's source when the guess is the advice itself

    @property
    def delta_expected(self) -> float:
        return (self.total - self.best_total) / self.candidates

    @property
    def delta_worst(self) -> int:
        return self.worst - self.best_worst

    @property
    def label(self) -> str:
        if self.followed is not None:
            return (f"followed the advice ({self.followed}, {self.objective} objective): no cost "
                    "against it; the figures are that source's from this position")
        if self.exact:
            return (f"exact optimum from this position ({self.candidates} candidates): the guess "
                    "then optimal play in each reply class, vs the optimal strategy; average "
                    "from the expected optimum, worst case from the minimax optimum")
        scope = ("every guess up to symmetry" if self.complete
                 else f"best of {self.compared} guesses (smallest expected class size first)")
        return (f"heuristic: each guess followed by Irving's expected-size heuristic, evaluated "
                f"exactly over the {self.candidates} candidates; {scope}"
                + (f"; not exact: {self.why}" if self.why else ""))

    def describe(self) -> str:
        n = self.candidates
        if self.followed is not None:
            return (f"coach: {self.guess} is the advice ({self.followed}): {self.worst} more "
                    f"guess{'es' if self.worst != 1 else ''} at worst, {self.total / n:.3f} on "
                    "average from here")
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
                "compared": self.compared, "complete": self.complete, "method": self.label,
                "exact": self.exact, **({"not_exact": self.why} if self.why else {}),
                "objective": self.objective,
                **({"followed": self.followed} if self.followed is not None else {})}


class Coach:
    """Reviews guesses of one variant (the continuation's score matrix is built once)."""

    def __init__(self, variant: Variant, top: int = TOP, exact_secrets: int | None = None,
                 exact_seconds: float | None = None, objective: str = "worst", service=None,
                 strategy: str = "optimal", time_limit: float | None = None):
        from ..codes import CodeSpace
        from ..errors import SpaceTooLarge

        size = CodeSpace(variant).size
        if size > LIMIT:
            raise SpaceTooLarge(f"the coach evaluates every guess exactly and is limited to "
                                f"{LIMIT} codes; {variant.describe()} has {size}")
        from ..advisor import PositionService, check_objective
        from ..strategy.exact import EXACT_SECRETS
        from ..time_policy import REVIEW_SECONDS

        self.variant = variant
        self.objective = check_objective(objective)
        #: the game's own advisor (the suggestion's source): a guess equal to its advice is
        #: reviewed as "followed"
        self.service = service if service is not None else PositionService(variant)
        self.strategy = strategy
        self.time_limit = time_limit
        self.top = top
        self.exact_secrets = EXACT_SECRETS if exact_secrets is None else exact_secrets
        self.exact_seconds = REVIEW_SECONDS if exact_seconds is None else exact_seconds
        self._capped = None       # the depth-capped core of the exact review, built when needed
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

    def review(self, log: FeedbackLog, guess: str, against_advice: bool = True) -> Review | None:
        """The review of ``guess`` played after ``log``; None when no candidate is left.
        ``against_advice=False`` (regret) measures the guess against the best guess only,
        without asking the game's advice (so the advice itself gets no "followed" pass)."""
        cands = consistent_indices(log)
        if cands.size == 0:
            return None
        g = self.space.index_of(self.space.parse(guess))
        fmt = self.space.format
        advice = self._advice(log, cands) if against_advice else None
        if advice is not None and advice.guess == fmt(self.space.codes[g]):
            return self._followed(advice, cands, g)
        review = self._review(log, cands, g)
        if advice is not None and advice.optimum is not None and advice.provenance.honoured:
            _best_of_advice(review, advice)
        review.objective = self.objective
        return review

    def _advice(self, log: FeedbackLog, cands: np.ndarray):
        """The game's own advice at this position (None if the service cannot give one)."""
        from ..deadline import Deadline
        from ..errors import CbsolveError

        try:
            return self.service.advise(log, strategy=self.strategy, objective=self.objective,
                                       deadline=Deadline.from_limit(self.time_limit), cands=cands)
        except CbsolveError:
            return None

    def _followed(self, advice, cands: np.ndarray, g: int) -> Review:
        """The review of the advice itself: that source's figures, no cost against it."""
        n = int(cands.size)
        opt = advice.optimum
        if opt is not None:
            total, worst = int(opt["total"]), int(opt["worst"])
        else:
            total, worst = self.cost(g, cands)
        return Review(guess=advice.guess, candidates=n, total=total, worst=worst,
                      best_total=total, best_worst=worst, best_expected_guess=advice.guess,
                      best_worst_guess=advice.guess, compared=None, complete=True,
                      exact=advice.provenance.honoured, objective=self.objective,
                      followed=advice.source)

    def _review(self, log: FeedbackLog, cands: np.ndarray, g: int) -> Review:
        fmt = self.space.format
        exact, why = self.exact_review(log, g, int(cands.size))
        if exact is not None:
            return Review(guess=fmt(self.space.codes[g]), candidates=int(cands.size),
                          total=exact.total, worst=exact.worst, best_total=exact.best_total,
                          best_worst=exact.best_worst,
                          best_expected_guess=exact.best_expected_guess,
                          best_worst_guess=exact.best_worst_guess, compared=None,
                          complete=True, exact=True)
        total, worst = self.cost(g, cands)
        best_t, best_w = (total, g), (worst, g)
        compared, complete = self.compared_guesses(log, cands)
        for h in compared:
            t, w = self.cost(int(h), cands)
            best_t = min(best_t, (t, int(h)))
            best_w = min(best_w, (w, int(h)))
        return Review(guess=fmt(self.space.codes[g]), candidates=int(cands.size), total=total,
                      worst=worst, best_total=best_t[0], best_worst=best_w[0],
                      best_expected_guess=fmt(self.space.codes[best_t[1]]),
                      best_worst_guess=fmt(self.space.codes[best_w[1]]),
                      compared=int(len(compared)), complete=complete, why=why)

    def exact_review(self, log: FeedbackLog, guess: int, n: int):
        """(ExactCosts, "") when the exact review ends within its budget, else (None, why)."""
        from ..deadline import Deadline
        from ..errors import CbsolveError
        from ..search.position import Position
        from ..strategy.exact import cached_search
        from .coach_exact import OutOfTime, capped_search, exact_costs

        if n > self.exact_secrets:
            return None, f"{n} candidates, more than the {self.exact_secrets} solved exactly"
        try:
            search = cached_search(self.variant)
            if self._capped is None:
                self._capped = capped_search(self.variant)
        except CbsolveError as exc:        # e.g. a space too large for the exact search
            return None, f"no exact search here: {exc}"
        try:
            return exact_costs(search, self._capped, self.space, Position.from_log(log), guess,
                               Deadline.from_limit(self.exact_seconds)), ""
        except OutOfTime:
            from ..deadline import stop_requested

            if stop_requested():
                return None, "the exact review was stopped"
            return None, f"the exact review did not end within {self.exact_seconds:g} s"


def _best_of_advice(review: Review, advice) -> None:
    """Let the optimum the advice proved stand as the best where the review found no better
    (a heuristic review's "best" is only the best under its continuation; on a tie the guess
    named is the one the player was advised)."""
    opt = advice.optimum
    if opt["objective"] == "worst" and opt["worst"] <= review.best_worst:
        review.best_worst, review.best_worst_guess = int(opt["worst"]), advice.guess
    if opt["objective"] == "expected" and opt["total"] <= review.best_total:
        review.best_total, review.best_expected_guess = int(opt["total"]), advice.guess
