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

from ..runtime import time_policy
from ..game.capacity import total_lower, worst_lower
from ..game.codes import CodeSpace
from ..runtime.deadline import Deadline, stop_requested
from ..errors import InconsistentLog, unknown_name
from ..game.feedback import FeedbackLog
from ..game.guess_pool import GUESS_POOLS as GUESS_MODES
from ..game.rule import possible_responses, score
from ..runtime.status import Status
from ..game.variant import Variant
from . import answers as A
from .classes import GuessClasses
from .exact_advice import EXACT_SECRETS, exact_advice  # noqa: F401  (its home was here)

# NumPy and the heuristics are imported where a guess is chosen: a small game's partition needs
# neither.
if TYPE_CHECKING:
    import numpy as np

    from ..strategy.heuristics import Chooser

OPTIMAL = "optimal"
#: The heuristic aiming at each objective, for positions no tree or exact search covers.
STAND_IN = {"worst": "minimax", "expected": "expected"}


def check_objective(objective: str) -> str:
    if objective not in A.OBJECTIVES:
        raise unknown_name("objective", objective, A.OBJECTIVES)
    return objective


def check_strategy(strategy: str) -> str:
    from ..strategy.rules import STRATEGIES

    if strategy != OPTIMAL and strategy not in STRATEGIES:
        raise unknown_name("strategy", strategy, (*STRATEGIES, OPTIMAL))
    return strategy


class PositionService:
    """Answers about the positions of one variant with one guess pool; keeps what is worth
    keeping between questions of one game (choosers, symmetry classes, trees, searches)."""

    def __init__(self, variant: Variant, guesses: str = "all", seed: int | None = None,
                 tree: dict | None = None):
        if guesses not in GUESS_MODES:
            raise unknown_name("guess set", guesses, GUESS_MODES)
        self.variant = variant
        self.guesses = guesses
        self.space = CodeSpace(variant)
        self.seed = seed
        self.tree = tree              # a tree file to follow instead of the certified ones
        self._choosers: dict[str, Chooser] = {}
        self.classes = GuessClasses(self.space)     # one guess per symmetry class, per history
        self._tree_costs: dict = {}
        self._advised: dict = {}      # (log, strategy, objective) -> the advice given there
        self._reviewer = None         # .review.Reviewer: a guess's cost, its caches

    # --- what remains ----------------------------------------------------------------------
    def candidates(self, log: FeedbackLog) -> np.ndarray:
        """The consistent secrets (sorted code indices); InconsistentLog with the diagnosis
        when there is none."""
        from ..consistency.native import consistent_indices
        from ..strategy.rules import require_enumerable

        require_enumerable(self.variant, "next-guess advice")
        cands = consistent_indices(log)
        if cands.size == 0:
            raise self.diagnose(log)
        return cands

    def _listed(self, log: FeedbackLog, deadline: Deadline) -> tuple[np.ndarray, bool]:
        """(the consistent secrets, True), or those found before the deadline cut the
        listing (Mastermind 8x8: 16.7 M codes filtered in chunks) and False."""
        from ..consistency.native import consistent_within
        from ..strategy.rules import require_enumerable

        require_enumerable(self.variant, "next-guess advice")
        cands, listed = consistent_within(log, deadline.reserving(time_policy.ADVICE_RESERVE))
        if listed and cands.size == 0:
            raise self.diagnose(log)
        return cands, listed

    def _unlisted(self, log, strategy, objective, found) -> A.Advice:
        """The answer when the deadline or Ctrl-C cut the listing of the consistent secrets:
        the first one found (a guess that may win), or none."""
        stopped = "interrupted" if stop_requested() else "time"
        remaining = A.Remaining(int(found.size) or None, False)
        if not found.size:
            return A.Advice(None, strategy, remaining, A.Provenance(
                A.CONSISTENT, objective, False, False, stopped,
                "stopped before any consistent secret was found"), self.guesses)
        return self._advice(self.space.format(self.space.codes_at(found[0])), strategy, remaining,
                            found, objective, A.Provenance(
                                A.CONSISTENT, objective, False, False, stopped,
                                f"a consistent code only: the listing of the consistent secrets"
                                f" was cut ({found.size} found so far)"))

    def _consistent_only(self, log, strategy, objective, deadline) -> A.Advice:
        """A space too large to list (Mastermind 10x10, 8 of 26 letters): no guess can be
        scored against the secrets left, so the answer is one consistent code (it may win),
        found by the depth-first search within the deadline, labelled; InconsistentLog with
        the diagnosis when there is none."""
        from ..consistency import Query, consistent

        res = consistent(log, Query(limit=1, determined=False), backend="native",
                         deadline=deadline)
        if res.status == Status.INFEASIBLE:
            raise self.diagnose(log, deadline)
        stopped = None
        if not res.secrets:
            stopped = "interrupted" if stop_requested() else "time"
        note = ("a consistent code only: the space is too large to list its secrets and score "
                "guesses against them" if res.secrets else
                "stopped before any consistent secret was found")
        remaining = A.Remaining(res.count if res.exact else (res.count or None), res.exact)
        needed = self._needed(objective, res.count) if res.exact and res.count else None
        return A.Advice(res.secrets[0] if res.secrets else None, strategy, remaining,
                        A.Provenance(A.CONSISTENT, objective, False, stopped is None, stopped,
                                     note), self.guesses, {}, needed)

    def diagnose(self, log: FeedbackLog, deadline: Deadline | None = None) -> InconsistentLog:
        """The diagnosis of an inconsistent log (consistency's own: a minimal conflict and the
        corrections), as the error a face reports."""
        from ..strategy.advice import no_secret_left

        return no_secret_left(log, deadline)

    def remaining(self, log: FeedbackLog, deadline: Deadline | None = None) -> A.Remaining:
        """How many secrets the log leaves: exact when the space can be listed, else what the
        constraint backends prove within the deadline."""
        if not len(log):
            return A.Remaining(self.space.size, True)
        if self.space.enumerable:
            return A.Remaining(int(self.candidates(log).size), True)
        count, exact = self.counted(log, Deadline.given(deadline))
        if exact and count == 0:
            raise self.diagnose(log, deadline)
        return A.Remaining(count, exact)

    def counted(self, log: FeedbackLog, deadline: Deadline,
                backend: str = "auto") -> tuple[int | None, bool]:
        """(how many secrets ``log`` leaves, exact): the constraint backends' count within
        ``deadline``, a lower bound when not exact (None: nothing counted). A named backend
        counts alone: an empty set needs no diagnosis here (a partition's empty reply classes
        are most of them; :meth:`remaining` diagnoses its own), and the diagnosis' solver
        fallback imports OR-Tools, about a second, even after a stop."""
        from ..consistency import Query, consistent
        from ..consistency.backends import get_backend

        query = Query(count=True, limit=0)
        res = (consistent(log, query, deadline=deadline, backend=backend) if backend == "auto"
               else get_backend(backend).solve(log, query, deadline=deadline))
        if res.status == Status.INFEASIBLE:
            return 0, True
        return res.count, bool(res.exact)

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
        from .review import Reviewer

        self._reviewer = self._reviewer or Reviewer(self)
        return self._reviewer

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
            return self._consistent_only(log, strategy, objective, deadline)
        if cands is None and strategy != OPTIMAL and self.tree is None and not deadline.expired():
            found = self._small(log, strategy, objective)
            if found is not None:
                return found
        if cands is None:
            cands, listed = self._listed(log, deadline)
            if not listed:
                return self._unlisted(log, strategy, objective, cands)
        remaining = A.Remaining(int(cands.size), True)
        if cands.size == 1:
            guess = self.space.format(self.space.codes_at(cands[0]))
            return self._advice(guess, strategy, remaining, cands, objective, A.Provenance(
                A.DETERMINED, objective, True, note="one secret left: play it"), needed=(1, 1))
        why = ""
        if strategy == OPTIMAL or self.tree is not None:   # a tree file: followed while on it
            found = self._from_tree(log, cands, strategy, objective, remaining)
            if found is not None:
                return found
        if strategy == OPTIMAL:
            found, why = exact_advice(self, log, cands, objective, remaining, deadline)
            where = self._off_tree(log, objective)
            if found is not None:
                found.provenance.note = f"{where}; {found.provenance.note}"
                return found
            why = f"{where}; {why}"
        return self._heuristic(log, cands, strategy, heuristic, objective, remaining, deadline,
                               why)

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
        NumPy: :func:`~cbsolve.strategy.listed.listed_choice`, the choice :meth:`_heuristic`
        makes, in one kernel call), or None where that path does not apply."""
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
                        self._needed(objective, choice.candidates, needed))

    def _start(self, strategy, objective, heuristic) -> A.Advice | None:
        """The opening: the tree's first guess, else the heuristic's in closed form."""
        from ..bounds.known import atlas_ends
        from ..certificates.certified import best_shipped_tree, shipped_method
        from ..strategy.partition import class_summary
        from .opening import opening

        remaining = A.Remaining(self.space.size, True)
        if strategy == OPTIMAL or self.tree is not None:
            tree = self._tree(objective)
            if tree is not None and self.space.enumerable:
                return self._from_tree(FeedbackLog(self.variant), None, strategy, objective,
                                       remaining)
        if heuristic not in ("minimax", "expected", "entropy", "parts"):
            return None
        if self.variant.no_leading_zero:
            return None         # no closed form: the position's own path (small spaces)
        found = opening(self.variant, heuristic)
        needed = self._needed(objective, self.space.size)
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
            from .opening import rule_opening, rule_summary

            code = rule_opening(self.variant)
            part = rule_summary(self.variant, code)
            note = ("opening by rule (symbols in pairs): scoring every symmetry class in closed "
                    f"form would take too long here; {heuristic} not applied")
        if strategy == OPTIMAL:
            note += " (no certified tree for this objective)"
        return A.Advice(self.space.format(code), strategy, remaining,
                        A.Provenance(A.OPENING, objective, False, note=note), self.guesses,
                        part, needed)

    def _tree(self, objective: str) -> dict | None:
        from ..certificates.certified import shipped_tree

        return self.tree if self.tree is not None else shipped_tree(self.variant, objective)

    def _from_tree(self, log, cands, strategy, objective, remaining) -> A.Advice | None:
        from pathlib import Path

        from ..certificates.certified import follow_tree, subtree_cost

        tree = self._tree(objective)
        node = None if tree is None else follow_tree(tree, log)
        if node is None:
            return None
        if cands is None:
            import numpy as np

            cands = np.arange(self.space.size, dtype=np.int64)
        key = (id(tree), tuple(log.tokens()))   # a game replays the same few tree positions
        cost = self._tree_costs.get(key)
        if cost is None:
            cost = self._tree_costs[key] = subtree_cost(self.space, node, cands)
        if cost is None:            # a tree file that misses a secret of this position
            return None
        worst, total = cost
        honoured = (tree.get("strategy") == f"optimal-{objective}"
                    and tree.get("max_depth") is None)
        note = (f"from the {tree['_kind']} {Path(tree['_path']).name}: {worst} more guesses at "
                f"worst, {total / cands.size:.3f} on average from here")
        value = worst if objective == "worst" else total
        return self._advice(node["guess"], strategy, remaining, cands, objective,
                            A.Provenance(A.TREE, objective, honoured, note=note),
                            needed=(value, value) if honoured else (None, value),
                            optimum={"objective": objective, "secrets": int(cands.size),
                                     "worst": worst, "total": total,
                                     "average": total / cands.size} if honoured else None,
                            how="the certified tree" if honoured else "the tree")

    def _off_tree(self, log, objective: str) -> str:
        """Why no certified tree answers here: none for this game and objective, or where the
        game left it."""
        tree = self._tree(objective)
        if tree is None:
            return f"no certified tree in models/ for this game and the {objective} objective"
        from pathlib import Path

        from ..certificates.certified import left_at

        return (f"the game left the {tree['_kind']} {Path(tree['_path']).name} "
                f"({left_at(tree, log)})")

    def _heuristic(self, log, cands, strategy, heuristic, objective, remaining, deadline, why):
        from ..strategy.advice import choose_next
        from .choose import choose, guess_rows
        from .sampled import SAMPLED_CODES, choose_sampled

        chooser = self._chooser(heuristic)
        history = tuple(self.space.index_of(e.guess) for e in log)
        if heuristic in ("first", "random") or cands.size <= 2:
            # the strategy layer's choice, every guess at once (cheap here), wrapped below
            choice = choose_next(log, heuristic, self.guesses, chooser=chooser, cands=cands)
            g, complete, scope = choice.index, True, ""
        elif self.space.size > SAMPLED_CODES:
            classes, why_not = self._classes(log,
                                             deadline.part(time_policy.ADVICE_SYMMETRY_SHARE))
            found = choose_sampled(chooser, cands,
                                   deadline.reserving(time_policy.ADVICE_RESERVE), classes)
            complete, g = found.complete, found.index
            scope = (f"best of {found.scored} of {found.total} guesses scored on every "
                     f"candidate, in the order of {found.ranked} guesses ranked on a sample of "
                     f"{found.sample}; " + ("one guess per symmetry class" if found.symmetry
                                            else why_not))
            if g is None:
                g = int(cands[0])
                scope = "no guess scored in time: the first consistent code"
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
        return self._advice(guess, strategy, remaining, cands, objective,
                            A.Provenance(A.HEURISTIC, objective, False, complete, stopped,
                                         note))

    # --- helpers ---------------------------------------------------------------------------
    def _chooser(self, strategy: str) -> Chooser:
        from ..strategy.heuristics import Chooser

        if strategy not in self._choosers:
            self._choosers[strategy] = Chooser(self.variant, strategy, self.guesses,
                                               seed=self.seed)
        return self._choosers[strategy]

    def _classes(self, log, deadline: Deadline) -> tuple[np.ndarray | None, str]:
        """(one guess per symmetry class of a large space's position, "") or (None, why not):
        computed when the history is short, the classes are few enough to score and their
        cost (:data:`cbsolve.runtime.time_policy.ADVICE_CLASSES_SECONDS_PER_CODE`) fits ``deadline``."""
        from ..game.symmetry import _orbits
        from .choose import SYMMETRY_DEPTH
        from .sampled import POOL_CANDIDATES, POOL_SPREAD

        history = tuple(self.space.index_of(e.guess) for e in log)
        reps = self.classes.known(history)
        if reps is None:
            left = deadline.left()
            cost = self.space.size * time_policy.ADVICE_CLASSES_SECONDS_PER_CODE
            if len(history) >= SYMMETRY_DEPTH or _orbits() is None:
                return None, "codes spread over the space (no symmetry classes this deep)"
            if left is not None and left < cost:
                return None, (f"codes spread over the space (the symmetry classes would take "
                              f"about {cost:.1f} s)")
            reps = self.classes.of(history, deadline)
            if reps is None:
                return None, "codes spread over the space (the symmetry classes were cut)"
        if reps.size > POOL_CANDIDATES + POOL_SPREAD:
            return None, f"codes spread over the space ({reps.size} symmetry classes)"
        return reps, ""

    def _needed(self, objective: str, n: int, value=(None, None), how: str = "") -> A.Needed:
        """The proved interval on the guesses still needed for ``n`` secrets: the counting
        bound below, ``value`` (lower, upper) from a tree or an exact search."""

        r = len(possible_responses(self.variant))
        low = worst_lower(n, r) if objective == "worst" else total_lower(n, r)
        out = A.Needed(objective, low, None, "counting", "")
        out.raise_lower(value[0], how)
        out.lower_upper(value[1], how)
        return out

    def _advice(self, guess, strategy, remaining, cands, objective, provenance,
                needed=(None, None), optimum=None, how="") -> A.Advice:
        from ..game.scoring import score_against
        from ..strategy.heuristics import partition_summary

        replies = score_against(self.variant, self.space.parse(guess), self.space.codes_at(cands))
        return A.Advice(guess, strategy, remaining, provenance, self.guesses,
                        partition_summary(self.variant, replies),
                        self._needed(objective, int(cands.size), needed, how), optimum)

    # --- the optimum and the bounds --------------------------------------------------------
    def optimum(self, log: FeedbackLog, objective: str, deadline: Deadline, **search):
        """The proved optimum from where ``log`` leaves the game, with its tree and
        certificate (:mod:`.optimum`: what :meth:`bounds` gives in the same time first, then
        the exact search; ``search``: the options of :func:`cbsolve.api.optimal`)."""
        from .optimum import solve

        return solve(log, objective=objective, guesses=self.guesses, deadline=deadline,
                     **search)

    def bounds(self, deadline: Deadline, **work):
        """Proved intervals on the whole game's worst case and total, each end naming its
        proof (:func:`cbsolve.bounds.compute_bounds`; ``work``: which of its steps run)."""
        from ..bounds import compute_bounds

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
        import numpy as np

        from ..strategy.partition import partition
        from ..strategy.rules import require_enumerable

        require_enumerable(self.variant, "a partition")
        cands = np.arange(self.space.size, dtype=np.int64)
        if len(log):    # every secret is needed: only Ctrl-C cuts the listing
            cands, listed = self._listed(log, Deadline(None))
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
