"""The position service: the one way a face asks about a position of a game.

Place in the data flow: a variant, a feedback log, an objective, a guess pool and one
:class:`~cbsolve.runtime.deadline.Deadline` -> what the project knows, cheapest and surest first:

1. the opening in closed form, one guess per symmetry class (:mod:`.opening`: no code
   enumerated, milliseconds on any game);
2. a certified tree in ``models/`` for the objective, while the log follows it (:mod:`.trees`);
3. the exact search from the position for the objective (:mod:`cbsolve.search.position`:
   worst case; :mod:`cbsolve.strategy.exact`: expected case), with a share of the deadline;
4. a heuristic over one guess per symmetry class, anytime (:mod:`.choose`); on spaces over a
   million codes the secrets are listed in chunks under the deadline and the guesses ranked
   on a sample of them, then scored exactly in that order (:mod:`.sampled`); on spaces too
   large to list, one consistent code (``consistent``);

-> :class:`~.answers.Advice` with its :class:`~.answers.Provenance` (which of these answered,
whether the objective was honoured, whether the deadline or Ctrl-C cut the work), the
secrets left (:class:`~.answers.Remaining`) and the proved interval of guesses still needed
(:class:`~.answers.Needed`). An inconsistent log raises
:class:`~cbsolve.errors.InconsistentLog` with the diagnosis of :mod:`cbsolve.consistency`
(a minimal conflict, the corrections).

The optimum of the game or of a position (:meth:`PositionService.optimum`, :mod:`.optimum`),
the game's proved bounds and every guess's partition (:mod:`.every_guess`) come from here too.

The objective is never switched silently: the heuristic that stands in for it is the one
that aims at it (minimax for the worst case, Knuth 1977; expected size for the average,
Irving 1979) and the answer says ``honoured: false`` and why.
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from ..errors import InconsistentLog, unknown_name
from ..game.codes import CodeSpace
from ..game.feedback import FeedbackLog
from ..game.guess_pool import GUESS_POOLS as GUESS_MODES
from ..game.rule import score
from ..game.variant import Variant
from ..runtime import time_policy
from ..runtime.deadline import Deadline
from . import answers as A
from .advice_form import AdviceForm
from .classes import GuessClasses
from .exact_advice import EXACT_SECRETS, exact_advice  # noqa: F401  (its home was here)
from .options import ADVICE, AdviceOptions

# Imported where used: NumPy and the heuristics where a guess is scored on arrays, the
# certified trees, the opening's closed forms, the counted partition and the bounds where they
# answer: a small game's partition and a listed heuristic's choice need none of them (`next`
# starts in a fifth of a second).
if TYPE_CHECKING:
    import numpy as np

    from .heuristic_advice import HeuristicAdvice
    from .listing import SecretsLeft
    from .tree_advice import CertifiedTrees

OPTIMAL = "optimal"
#: The heuristic aiming at each objective, for positions no tree or exact search covers.
STAND_IN = {"worst": "minimax", "expected": "expected"}


def check_objective(objective: str) -> str:
    if objective not in A.OBJECTIVES:
        raise unknown_name("objective", objective, A.OBJECTIVES)
    return objective


def check_strategy(strategy: str) -> str:
    from ..strategy.rules import STRATEGIES     # the strategy layer: where a name is checked

    if strategy != OPTIMAL and strategy not in STRATEGIES:
        raise unknown_name("strategy", strategy, (*STRATEGIES, OPTIMAL))
    return strategy


class PositionService:
    """Answers about the positions of one variant with one guess pool; keeps what is worth
    keeping between questions of one game, each concern in its collaborator: the secrets left
    (:class:`~.listing.SecretsLeft`), the certified trees and their subtrees' costs
    (:class:`~.tree_advice.CertifiedTrees`), the heuristics' choosers
    (:class:`~.heuristic_advice.HeuristicAdvice`), the symmetry classes, the reviewer."""

    def __init__(self, variant: Variant, guesses: str = "all", seed: int | None = None,
                 tree: dict | None = None, options: AdviceOptions = ADVICE):
        if guesses not in GUESS_MODES:
            raise unknown_name("guess set", guesses, GUESS_MODES)
        self.variant = variant
        self.guesses = guesses
        self.space = CodeSpace(variant)
        self.seed = seed
        self.tree = tree              # a tree file to follow instead of the certified ones
        self.options = options        # sizes and shares (:mod:`.options`)
        self.form = AdviceForm(variant, self.space, guesses)
        self._secrets: SecretsLeft | None = None    # the secrets left (:attr:`secrets`)
        self._trees: CertifiedTrees | None = None   # the trees followed (:attr:`trees`)
        # one guess per symmetry class, per history
        self.classes = GuessClasses(self.space, options.native_orbits_from)
        self._heuristics: HeuristicAdvice | None = None     # made when first needed (NumPy)
        self._advised: dict = {}      # (log, strategy, objective) -> the advice given there
        self._reviewer = None         # .review.Reviewer: a guess's cost, its caches

    # --- what remains ----------------------------------------------------------------------
    def candidates(self, log: FeedbackLog) -> np.ndarray:
        """The consistent secrets (sorted code indices); InconsistentLog with the diagnosis
        when there is none."""
        return self.secrets.candidates(log)

    def diagnose(self, log: FeedbackLog, deadline: Deadline | None = None) -> InconsistentLog:
        """The diagnosis of an inconsistent log, as the error a face reports."""
        return self.secrets.diagnose(log, deadline)

    def remaining(self, log: FeedbackLog, deadline: Deadline | None = None) -> A.Remaining:
        """How many secrets the log leaves (:meth:`.listing.SecretsLeft.remaining`)."""
        return self.secrets.remaining(log, deadline)

    def counted(self, log: FeedbackLog, deadline: Deadline,
                backend: str = "auto") -> tuple[int | None, bool]:
        """(how many secrets ``log`` leaves, exact) by the constraint backends
        (:meth:`.listing.SecretsLeft.counted`)."""
        return self.secrets.counted(log, deadline, backend)

    # --- the next guess --------------------------------------------------------------------
    def advise(self, log: FeedbackLog, *, strategy: str = OPTIMAL,
               objective: str = A.DEFAULT_OBJECTIVE, deadline: Deadline | None = None,
               cands: np.ndarray | None = None) -> A.Advice:
        """The next guess after ``log`` (see the module docstring for the order), remembered
        for :meth:`review` (what ``hint`` said is what the coach compares with)."""
        advice = self._advise(log, strategy, objective, Deadline.given(deadline), cands)
        if len(self._advised) >= 256:
            self._advised.clear()
        self._advised[(tuple(log.tokens()), strategy, objective)] = advice
        return advice

    def advised(self, log: FeedbackLog, strategy: str, objective: str) -> A.Advice | None:
        """The advice this service last gave after ``log`` for that strategy and objective."""
        return self._advised.get((tuple(log.tokens()), strategy, objective))

    def review(self, log: FeedbackLog, guess: str, objective: str = "expected",
               deadline: Deadline | None = None, strategy: str | None = None):
        """What ``guess`` costs after ``log`` against the best guess there, and how that is
        known (:mod:`.review`); ``strategy``: against this service's advice for it (the
        advised guess is "followed", never a cost)."""
        return self.reviewer().review(log, guess, objective, deadline, strategy)

    def reviewer(self):
        """This service's reviewer (:mod:`.review`; its memo: ``reviewer()._memo``), made once."""
        from .review import Reviewer    # NumPy's edge: the review scores arrays

        self._reviewer = self._reviewer or Reviewer(self)
        return self._reviewer

    @property
    def secrets(self) -> SecretsLeft:
        """The listing, counting and diagnosis of the secrets a log leaves, made once."""
        if self._secrets is None:
            from .listing import SecretsLeft

            self._secrets = SecretsLeft(self.form, self.options.filter_chunk)
        return self._secrets

    @property
    def trees(self) -> CertifiedTrees:
        """The certified trees (or the tree file) this service follows, made once."""
        if self._trees is None:
            from .tree_advice import CertifiedTrees

            self._trees = CertifiedTrees(self.form, self.tree)
        return self._trees

    def heuristics(self) -> HeuristicAdvice:
        """This service's heuristics (:mod:`.heuristic_advice`, NumPy's edge), made once."""
        if self._heuristics is None:
            from .heuristic_advice import HeuristicAdvice

            self._heuristics = HeuristicAdvice(self.form, self.classes, self.seed, self.options)
        return self._heuristics

    def _advise(self, log, strategy, objective, deadline, cands) -> A.Advice:
        check_strategy(strategy)
        check_objective(objective)
        heuristic = STAND_IN[objective] if strategy == OPTIMAL else strategy
        if log.solved_at() is not None:
            return self._solved(log, strategy, objective, deadline)
        if not len(log):
            start = self._start(strategy, objective, heuristic)
            if start is not None:
                return start
        if cands is None and not self.space.enumerable:
            return self.secrets.consistent_only(log, strategy, objective, deadline)
        if cands is None and strategy != OPTIMAL and self.tree is None and not deadline.expired():
            found = self._small(log, strategy, objective)
            if found is not None:
                return found
        if cands is None:
            cands, listed = self.secrets.listed(log, deadline)
            if not listed:
                return self.secrets.unlisted(strategy, objective, cands)
        remaining = A.Remaining(int(cands.size), True)
        if cands.size == 1:
            guess = self.space.format(self.space.codes_at(cands[0]))
            return self.form.advice(guess, strategy, remaining, cands, objective, A.Provenance(
                A.DETERMINED, objective, True, note="one secret left: play it"), needed=(1, 1))
        why = ""
        if strategy == OPTIMAL or self.tree is not None:   # a tree file: followed while on it
            found = self.trees.follow(log, cands, strategy, objective, remaining)
            if found is not None:
                return found
        if strategy == OPTIMAL:
            found, why = exact_advice(self, log, cands, objective, remaining, deadline)
            where = self.trees.off_tree(log, objective)
            if found is not None:
                found.provenance.note = f"{where}; {found.provenance.note}"
                return found
            why = f"{where}; {why}"
        return self.heuristics().advise(log, cands, strategy, heuristic, objective, remaining,
                                        deadline, why)

    def _solved(self, log, strategy, objective, deadline) -> A.Advice:
        """A reply had every bull: its guess is the secret and no guess is needed, once the
        rule confirms every other reply (else the log's diagnosis)."""
        k = log.solved_at()
        won = log[k - 1]
        if any(score(self.variant, won.guess, e.guess) != (e.bulls, e.cows) for e in log):
            raise self.diagnose(log, deadline)
        needed = A.Needed(objective, 0, 0, "solved", "solved")
        return A.Advice(won.text, strategy, A.Remaining(1, True), A.Provenance(
            A.DETERMINED, objective, True, note=f"solved: entry {k} ({won.text}) had every "
            "bull; no guess is needed"), self.guesses, {}, needed, solved=k)

    def _small(self, log, strategy, objective) -> A.Advice | None:
        """A heuristic's answer on a small position through the list-based data path (no
        NumPy: :func:`~cbsolve.strategy.listed.listed_choice`, the choice
        :class:`~.heuristic_advice.HeuristicAdvice` makes, in one kernel call), or None where
        that path does not apply."""
        from ..strategy.listed import listed_choice

        choice = listed_choice(log, strategy, self.guesses)
        if choice is None:
            return None
        needed, provenance = (None, None), A.Provenance(A.HEURISTIC, objective, False,
                                                        note=f"heuristic {strategy}")
        if choice.determined:
            needed, provenance = (1, 1), A.Provenance(A.DETERMINED, objective, True,
                                                      note="one secret left: play it")
        elif strategy not in ("first", "random") and choice.candidates > 2:
            provenance.note += " (every guess)"
        return A.Advice(choice.guess, strategy, A.Remaining(choice.candidates, True), provenance,
                        self.guesses, choice.partition,
                        self.form.needed(objective, choice.candidates, needed))

    def _start(self, strategy, objective, heuristic) -> A.Advice | None:
        """The opening: the tree's first guess, else the heuristic's in closed form."""
        from ..bounds.known import atlas_ends
        from ..certificates.certified import best_shipped_tree, shipped_method
        from ..strategy.partition import class_summary
        from .opening import opening, rule_opening, rule_summary

        remaining = A.Remaining(self.space.size, True)
        if strategy == OPTIMAL or self.tree is not None:
            tree = self.trees.tree(objective)
            if tree is not None and self.space.enumerable:
                return self.trees.follow(FeedbackLog(self.variant), None, strategy, objective,
                                         remaining)
        if heuristic not in ("minimax", "expected", "entropy", "parts"):
            return None
        if self.variant.no_leading_zero:
            return None         # no closed form: the position's own path (small spaces)
        found = opening(self.variant, heuristic)
        needed = self.form.needed(objective, self.space.size)
        shipped = best_shipped_tree(self.variant, objective)     # as `bounds` reads it
        if shipped is not None:
            needed.lower_upper(shipped[0], shipped_method(shipped[1]))
        atlas = atlas_ends(self.variant, objective)      # the atlas's cell, as `bounds` answers
        if atlas is not None:
            needed.raise_lower(atlas.lower, atlas.lower_method)
            needed.lower_upper(atlas.upper, atlas.upper_method)
        if found is not None:
            code, sizes, (worst_low, total_low) = found
            note = f"{heuristic}'s opening, one guess per symmetry class scored in closed form"
            part = class_summary(sizes)
            needed.raise_lower(worst_low if objective == "worst" else total_low,
                               "partition (first guess, closed form)")
        else:
            code = rule_opening(self.variant)
            part = rule_summary(self.variant, code)
            note = ("opening by rule (symbols in pairs): scoring every symmetry class in closed "
                    f"form would take too long here; {heuristic} not applied")
        if strategy == OPTIMAL:
            note += " (no certified tree for this objective)"
        return A.Advice(self.space.format(code), strategy, remaining,
                        A.Provenance(A.OPENING, objective, False, note=note), self.guesses,
                        part, needed)

    # --- the optimum and the bounds --------------------------------------------------------
    def optimum(self, log: FeedbackLog, objective: str, deadline: Deadline, **search):
        """The proved optimum from where ``log`` leaves the game, with its tree and
        certificate (:mod:`.optimum`: what :meth:`bounds` gives in the same time first, then
        the exact search; ``search``: the options of :func:`cbsolve.api.optimal`)."""
        from .optimum import solve      # the search wing's edge: NumPy and the kernels

        return solve(log, objective=objective, guesses=self.guesses, deadline=deadline,
                     **search)

    def bounds(self, deadline: Deadline, **work):
        """Proved intervals on the whole game's worst case and total, each end naming its
        proof (:func:`cbsolve.bounds.compute_bounds`; ``work``: which of its steps run)."""
        from ..bounds.compute import compute_bounds

        return compute_bounds(self.variant, deadline=deadline, **work)

    # --- a guess's partition ---------------------------------------------------------------
    def partition(self, log: FeedbackLog, guess: str, deadline: Deadline | None = None,
                  members: bool = False):
        """The reply classes of ``guess`` over the secrets ``log`` leaves, with the heuristics'
        scores beside the best any guess reaches (over one guess per symmetry class; None
        when the deadline cut that comparison: ``best_complete`` says so). ``members``: the
        classes' secrets are wanted (the opening's closed form has only their counts). A small
        game's partition without members goes through the kernel's list-based entries
        (:func:`~cbsolve.strategy.partition.listed_partition`: the best over every guess, no
        NumPy); the rest compares one guess per symmetry class. On a space too large to list,
        each class is counted instead (:mod:`.counted`, exact or bounded, no comparison)."""
        deadline = Deadline.given(deadline)
        if not len(log) and not members:
            from .opening import opening_partition

            found = opening_partition(self.variant, self.space.parse(guess))
            if found is not None:
                return found
        if not members and not self.space.enumerable:     # too large to list: counted
            from .counted import counted_partition

            # the classes' counts by the depth-first search: their shares are hundredths of a
            # second, where ``auto``'s probe hands a count to SAT (2.2 s to start, measured)
            found = counted_partition(log, guess, functools.partial(self.counted, backend="native"),
                                      deadline)
            if found is None:
                raise self.diagnose(log, deadline)
            return found
        if not members and len(log):
            from ..strategy.partition import listed_partition

            found = listed_partition(log, guess, deadline)
            if found is not None:
                return found
        return self._scored_partition(log, guess, deadline, members)

    def _scored_partition(self, log, guess, deadline: Deadline, members: bool):
        """The partition over the listed secrets, compared over one guess per symmetry class."""
        import numpy as np      # NumPy's edge: the secrets as an array

        from ..strategy.partition import partition
        from ..strategy.rules import require_enumerable

        require_enumerable(self.variant, "a partition")
        cands = np.arange(self.space.size, dtype=np.int64)
        if len(log):    # every secret is needed: only Ctrl-C cuts the listing
            cands, listed = self.secrets.listed(log, Deadline(None))
            if not listed:
                raise KeyboardInterrupt
        history = tuple(self.space.index_of(self.space.parse(e.text)) for e in log)
        reps = self.classes.of(history, deadline.part(time_policy.ADVICE_SYMMETRY_SHARE))
        return partition(log, guess, cands=cands, rows=reps, deadline=deadline, members=members)

    def partition_table(self, log: FeedbackLog, sort: str = "minimax",
                        deadline: Deadline | None = None) -> A.PartitionTable:
        """Every guess up to symmetry with the heuristics' scores, best first by ``sort``
        (:mod:`.every_guess`); cut by the deadline or Ctrl-C, the best scored so far."""
        from .every_guess import partition_table

        return partition_table(log, sort, Deadline.given(deadline))
