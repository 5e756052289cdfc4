"""What a guess costs from a position against the best guess there: the position service's
review (:meth:`cbsolve.advisor.PositionService.review`), which ``cb.regret``, the gym's regret
reward, the coach (``play --coach``, ``assist --coach``) and ``hint`` all ask.

Place in the data flow: a log, a guess, an objective and one
:class:`~cbsolve.runtime.deadline.Deadline` ->

1. a won log: nothing costs anything (0 more guesses, proved, as ``optimal`` says);
2. asked against the advice (a face's ``strategy``): the advice the service gave at this
   position (the one ``hint`` showed; asked now if none was given). The advised guess is never
   reviewed as a cost: its review is "followed", with its own figures;
3. the first guess of a game whose codes are one symmetry class (Bulls & Cows): the atlas's
   proved optimum, regret 0; a move reviewed before up to symmetry, or a table's
   (:mod:`.review_memo`): its kept figures;
4. the one exact engine for the objective (:mod:`.exact_cost`: expected, the guess's total in
   one call of the expected-case core; worst, the worst-case kernel's decisions), while the
   position has at most :data:`cbsolve.strategy.exact.EXACT_SECRETS` secrets and every solve
   ends within its share of the deadline; the position's optimum kept from a symmetric copy
   or the shipped table, else read off the certified tree (:mod:`.tree_optimum`; positions of
   more than ``AdviceOptions.review_tree_from`` candidates), when known, so that only the guess's reply
   classes are solved (then positions beyond that size too);
5. else the heuristic estimate (:mod:`.heuristic_cost`), labelled, with the proved interval
   around it (the counting bound below, the heuristic's strategy above); on a space too large
   for that, the proved bounds alone.

-> :class:`Review`: the guess's cost and the best value (total guesses over the secrets left
for ``expected``, guesses in the worst case for ``worst``, both counted from the position: the
guess itself is one for every secret), a best guess, and how they are known (``known``:
``exact``, ``heuristic`` or ``bounds``; ``complete`` or cut by the deadline).

What is worth keeping between calls lives on the :class:`Reviewer` of one service instance:
the last position and its prepared cores (callers score many guesses at one position: filtering
the whole space again was most of a call), the worst-case kernel, the parsed guesses, the
heuristic's score matrix. The expected-case core itself is the game's
(:func:`cbsolve.strategy.exact.cached_search`), shared with the advice's exact search.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..bounds.known import atlas_ends
from ..runtime import time_policy
from ..game.capacity import total_lower, worst_lower
from ..runtime.deadline import Deadline, stop_requested
from ..errors import CbsolveError, Expired, unknown_name
from ..game.feedback import FeedbackLog
from ..game.rule import possible_responses
from ..search.position import Position
from ..strategy.exact import EXACT_SECRETS, cached_search
from ..strategy.rules import require_enumerable
from .answers import OBJECTIVES
from .exact_cost import OutOfTime, PositionCores, worst_core
from .heuristic_cost import LIMIT, HeuristicCosts
from .review_memo import ReviewMemo
from .tree_optimum import tree_optimum


EXACT, HEURISTIC, BOUNDS = "exact", "heuristic", "bounds"
#: :meth:`Reviewer.prepare` builds the exact search of games of at most this many codes.
PREPARED_CODES = 10_000


@dataclass
class Review:
    """``cost`` against ``best`` over the ``candidates`` secrets of the position: total
    guesses (expected) or the worst case, both counted from the position. ``cost_bounds`` and
    ``best_bounds`` are proved intervals [lower, upper] (None: no bound at that end); ``cost``
    and ``best`` are exact when ``known`` is ``exact``, the heuristic's figures (each the upper
    end of its interval) when ``heuristic``, None when ``bounds``."""

    guess: str
    candidates: int
    objective: str
    cost: int | None
    best: int | None
    best_guess: str | None
    exact: bool
    method: str            # how the numbers were obtained (the label shown to people)
    known: str = EXACT
    cost_bounds: tuple[int | None, int | None] = (None, None)
    best_bounds: tuple[int | None, int | None] = (None, None)
    complete: bool = True  # False: the deadline or Ctrl-C cut the work (``stopped`` says which)
    stopped: str | None = None
    followed: str | None = None    # the advice's source when the guess is the advice itself

    @property
    def regret(self) -> int | None:
        """Extra guesses: summed over the secrets (expected) or in the worst case."""
        return None if self.cost is None or self.best is None else self.cost - self.best

    @property
    def average_regret(self) -> float | None:
        """Extra guesses per secret (the expected objective's regret per game)."""
        if self.regret is None:
            return None
        return self.regret / self.candidates if self.objective == "expected" else float(self.regret)

    def to_json(self) -> dict:
        data = {"guess": self.guess, "candidates": self.candidates, "objective": self.objective,
                "cost": self.cost, "best": self.best, "best_guess": self.best_guess,
                "regret": self.regret, "average_regret": self.average_regret,
                "exact": self.exact, "method": self.method, "known": self.known,
                "cost_bounds": list(self.cost_bounds), "best_bounds": list(self.best_bounds),
                "complete": self.complete}
        if self.stopped is not None:
            data["stopped"] = self.stopped
        if self.followed is not None:
            data["followed"] = self.followed
        return data


#: The public API's name for a review (``cb.Regret``, what ``cb.regret`` returns): its JSON
#: keeps the fields it always had and adds ``known``, the bounds, ``complete``.
Regret = Review


def _exactly(guess, n, objective, cost, best, best_guess, method, **extra) -> Review:
    return Review(guess, n, objective, cost, best, best_guess, True, method, EXACT,
                  (cost, cost), (best, best), **extra)


class Reviewer:
    """The reviews of one :class:`~cbsolve.advisor.PositionService` (its variant and guess
    pool), with what is worth keeping between them (see the module docstring)."""

    def __init__(self, service) -> None:
        self.service = service
        self.variant = service.variant
        self.space = service.space
        self._position: tuple[tuple, Position] | None = None   # (log key, the last one)
        self._cores: PositionCores | None = None    # prepared for that position ...
        self._cores_at: Position | None = None      # ... this one
        self._worst: tuple | None = None   # (expected-case search, its worst-case kernel)
        self._guesses: dict = {}           # guess as typed -> (code index, as printed)
        self._spellings: dict = {}         # (parse / format / index_of, its argument) -> result
        self._heuristic: HeuristicCosts | None = None   # built when first needed
        self._memo = ReviewMemo(self.variant)   # exact reviews by canonical key

    def review(self, log: FeedbackLog, guess: str, objective: str, deadline: Deadline | None,
               strategy: str | None = None) -> Review:
        """The review of ``guess`` played after ``log`` (see the module docstring);
        ``strategy``: review against the service's advice for that strategy (a face's), None:
        against the best guess only. An inconsistent log raises InconsistentLog."""

        if objective not in OBJECTIVES:
            raise unknown_name("objective", objective, OBJECTIVES)
        deadline = Deadline.given(deadline)
        if (won := log.solved_at()) is not None:
            return self._solved(log, guess, objective, won)
        g, text = self._guess(guess)
        advice = None
        if strategy is not None:
            advice = self._advice(log, strategy, objective, deadline)
            if advice is not None and advice.guess == text:
                return self._followed(log, advice, g, objective, deadline)
        if not len(log) and (opening := self._one_orbit_opening(text, objective, deadline)):
            return opening
        memo_key = self._memo.key(log, self._spelled("parse", text), objective)
        if (kept := self._memo.get(memo_key)) is not None:
            n, cost, best, best_code, method = kept
            # the copy's own method, word for word: an answer does not depend on what was
            # asked before it
            return _exactly(text, n, objective, cost, best, self._spelled("format", best_code), method)
        exact_part = deadline.part(time_policy.REVIEW_EXACT_SHARE)
        found = self._exact(log, g, text, objective, exact_part)
        if isinstance(found, Review):
            if found.cost is not None and found.best is not None:   # exact: both are known
                self._memo.put(memo_key, found.candidates, found.cost, found.best,
                               self._spelled("parse", found.best_guess), found.method)
            return found
        return self._estimate(log, g, text, objective, deadline, found, advice)

    def prepare(self, deadline: Deadline | None) -> None:
        """Build what the exact reviews of the game share (its expected-case search with the
        reply matrix, the worst-case kernel) now, so that its set-up (about 0.3 s on Bulls &
        Cows 4/10, more under load) does not come out of the budget of the first move that
        solves; nothing for games of more than :data:`PREPARED_CODES` codes, whose matrix is
        built only if a move needs it."""
        if self.space.size > PREPARED_CODES:
            return
        try:
            search = cached_search(self.variant, deadline=Deadline.given(deadline))
        except Expired:
            raise
        except CbsolveError:              # e.g. a space too large for the exact search
            return
        if search.setup_stopped is None:
            self._worst_of(search)

    # --- the answers -----------------------------------------------------------------------
    def _solved(self, log: FeedbackLog, guess: str, objective: str, won: int) -> Review:
        """A log already won: the game is over, no guess costs anything."""
        self._guess(guess)                                   # a malformed guess is still an error
        winner = log.entries[won - 1].text
        return _exactly(guess, 1, objective, 0, 0, winner,
                        f"solved: entry {won} had every bull; the game is over")

    def _advice(self, log, strategy, objective, deadline):
        """The advice the service gave at this position (the hint's), else asked now; None if
        it cannot give one."""
        try:
            return self.service.advised(log, strategy, objective) or self.service.advise(
                log, strategy=strategy, objective=objective, deadline=deadline)
        except Expired:                    # Ctrl-C (SearchInterrupted): the face reports it
            raise
        except CbsolveError:
            return None

    def _followed(self, log, advice, g, objective, deadline) -> Review:
        """The advised guess: its own figures, no cost against it."""
        opt, n = advice.optimum, int(advice.candidates or 0)
        label = (f"followed the advice ({advice.source}, {objective} objective): no cost against "
                 "it; the figures are the advised guess's own from this position")
        if opt is not None and advice.provenance.honoured and opt["objective"] == objective:
            value = int(opt["worst"] if objective == "worst" else opt["total"])
            return _exactly(advice.guess, n, objective, value, value, advice.guess, label,
                            followed=advice.source)
        found = self._exact(log, g, advice.guess, objective, deadline)
        if not isinstance(found, Review):
            found = self._estimate(log, g, advice.guess, objective, deadline, found, None)
        found.best, found.best_guess, found.best_bounds = found.cost, advice.guess, found.cost_bounds
        found.method, found.followed = label + f" ({found.known})", advice.source
        return found

    def _one_orbit_opening(self, text: str, objective: str, deadline: Deadline) -> Review | None:
        """The first guess of a game whose codes are all one symmetry class (Bulls & Cows:
        permuting positions and digits maps any code onto any other): every first guess
        costs the same, so its regret is 0, and its cost is the game's optimum when the atlas
        proves it (lower end = upper end). None otherwise: the position's own review."""
        known = atlas_ends(self.variant, objective)
        if known is None or known.upper is None or known.lower != known.upper:
            return None
        reps = self.service.classes.of((), deadline.part(0.1))
        if reps is None or len(reps) != 1:
            return None
        value = int(known.upper)
        return _exactly(text, int(self.space.size), objective, value, value, text,
                        f"the opening: every code is one symmetry class, so every first guess "
                        f"costs the optimum, {value} ({known.upper_method}, the atlas)")

    def _exact(self, log, g: int, text: str, objective: str, deadline: Deadline) -> Review | str:
        """The exact review (:mod:`.exact_cost`), else why not."""
        position = self._position_of(log)
        n = int(position.members.size)
        position_key = self._memo.position_key(log, objective)
        known = None
        if (kept := self._memo.get_optimum(position_key)) is not None:
            known = kept[0], self._spelled("format", kept[1]), None      # as if solved here
        elif n > self.service.options.review_tree_from:
            known = self._from_tree(log, objective)
        if n > EXACT_SECRETS and known is None:
            return f"{n} candidates, more than the {EXACT_SECRETS} solved exactly"
        try:
            cores = self._cores_of(position)
        except Expired:
            raise
        except CbsolveError as exc:        # e.g. a space too large for the exact search
            return f"no exact search here: {exc}"
        if known is not None:              # the optimum is the tree's: only the guess is solved
            value, best_text, note = known
            best = value, self._spelled("index_of", self._spelled("parse", best_text))
            if objective == "expected":
                cores.expected_best = best
            else:
                cores.worst_best = best
        try:
            if objective == "expected":
                best, best_guess = cores.expected_optimum(deadline)
                cost = cores.expected_total(g, deadline)
                method = (f"exact optimum from this position ({n} candidates): the guess then "
                          "expected-optimal play in each reply class, vs the optimal strategy")
            else:
                best, best_guess = cores.worst_optimum(deadline)
                cost = cores.worst_cost(g, deadline)
                method = (f"exact minimax optimum from this position ({n} candidates): the "
                          "guess then minimax-optimal play in each reply class, vs the "
                          "minimax-optimal strategy")
        except OutOfTime:
            solved = cores.expected_best if objective == "expected" else cores.worst_best
            if known is None and solved is not None:    # the optimum is kept all the same
                self._memo.put_optimum(position_key, solved[0], self.space.codes[solved[1]])
            return ("the exact review was stopped" if stop_requested() else
                    "the exact solve did not end within the deadline")
        if known is not None and known[2] is not None:
            method += f"; the position's optimum {known[2]}"
        elif known is None:
            self._memo.put_optimum(position_key, best, self.space.codes[best_guess])
        return _exactly(text, n, objective, cost, best,
                        self._spelled("format", tuple(map(int, self.space.codes[best_guess]))),
                        method)

    def _from_tree(self, log, objective):
        """The position's optimum from the certified tree (:mod:`.tree_optimum`), or None."""

        try:
            return tree_optimum(self.service, log, objective)
        except CbsolveError:
            return None

    def _estimate(self, log, g, text, objective, deadline, why, advice) -> Review:
        """The heuristic estimate with its proved interval (:mod:`.heuristic_cost`), or the
        proved bounds alone on a space too large for it; labelled."""

        position = self._position_of(log)
        n = int(position.members.size)
        low = self._counting(objective, n)
        if self.space.size > LIMIT:
            return Review(text, n, objective, None, None, None, False,
                          f"bounds: the counting bound only; the heuristic estimate is limited "
                          f"to {LIMIT} codes; not exact: {why}", BOUNDS, (low, None), (low, None))
        if self._heuristic is None:
            self._heuristic = HeuristicCosts(self.variant)
        est = self._heuristic.estimate([e.guess for e in log], position.members, g, deadline)
        cost, (best, b) = ((est.total, est.best_total) if objective == "expected"
                           else (est.worst, est.best_worst))
        best_guess, best_low = self.space.format(self.space.codes[b]), low
        opt = None if advice is None else advice.optimum
        if opt is not None and advice.provenance.honoured and opt["objective"] == objective:
            value = int(opt["worst"] if objective == "worst" else opt["total"])
            best_low = value                          # the advice proved the optimum
            if value <= best:                         # on a tie, the guess the player was advised
                best, best_guess = value, advice.guess
        scope = ("every guess up to symmetry" if est.complete else
                 f"best of {est.compared} guesses (smallest expected class size first)")
        stopped = None
        if est.cut:
            stopped = "interrupted" if stop_requested() else "time"
            scope += f" ({'interrupted' if stopped == 'interrupted' else 'cut by the deadline'})"
        method = (f"heuristic: each guess followed by Irving's expected-size heuristic, evaluated "
                  f"exactly over the {n} candidates; {scope}; not exact: {why}")
        return Review(text, n, objective, cost, best, best_guess, False, method, HEURISTIC,
                      (best_low, cost), (best_low, best), complete=not est.cut, stopped=stopped)

    # --- what is kept ----------------------------------------------------------------------
    def _guess(self, guess: str) -> tuple[int, str]:
        """(code index, as printed): parsing and ranking a code was a third of a call whose
        answer the core's table already held."""
        if guess not in self._guesses:
            if len(self._guesses) >= 1 << 16:
                self._guesses.clear()
            g = self.space.index_of(self.space.parse(guess))
            self._guesses[guess] = g, self.space.format(self.space.codes[g])
        return self._guesses[guess]

    def _spelled(self, how: str, item):
        """The code space's ``parse``, ``format`` or ``index_of`` of ``item`` (text, or a code
        as a tuple), kept: a new guess's review turned the best guess from code to text and
        back three times, a fifth of its Python."""
        key = how, item
        if (found := self._spellings.get(key)) is None:
            if len(self._spellings) >= 1 << 16:
                self._spellings.clear()
            found = self._spellings[key] = getattr(self.space, how)(item)
        return found

    def _position_of(self, log: FeedbackLog):

        key = tuple(log.tokens())
        if self._position is None or self._position[0] != key:
            require_enumerable(self.variant, "a guess's cost")
            self._position = key, Position.from_log(log)
        return self._position[1]

    def _cores_of(self, position):
        search = cached_search(self.variant)
        cores = self._cores
        if cores is None or cores.search is not search or self._cores_at is not position:
            cores = self._cores = PositionCores(search, lambda: self._worst_of(search), position)
            self._cores_at = position
        return cores

    def _worst_of(self, search):

        if self._worst is None or self._worst[0] is not search:
            self._worst = search, worst_core(search)
        return self._worst[1]

    def _counting(self, objective: str, n: int) -> int:

        r = len(possible_responses(self.variant))
        return worst_lower(n, r) if objective == "worst" else total_lower(n, r)
