"""Game state shared by every face: the computer as code-breaker (:class:`Guesser`) and as
code-maker (:class:`Host`).

Place in the data flow: last stop before the user. A :class:`Guesser` owns a
:class:`~cbsolve.game.feedback.FeedbackLog`, keeps the consistent candidates up to date after each
reply (one scoring pass over the survivors) and asks :mod:`cbsolve.strategy` for the next guess
(Knuth 1977 minimax, Irving 1979 expected size, Neuwirth 1982 entropy, Kooi 2005 most parts,
first/random consistent) through the position service (:mod:`cbsolve.advisor`), which also
plays ``optimal`` for one objective through the whole game. When the replies become inconsistent it asks
:mod:`cbsolve.consistency` for a minimal conflicting set of replies and suggests corrections.

Spaces too large to enumerate (e.g. 40 positions of 26 letters) are played through the
constraint backends: the guess is a consistent code found by the solver (the service's
depth-first search; a random one for ``random``) and the remaining count is exact only when
the backend proves it.

>>> from cbsolve.game.variant import Variant
>>> g = Guesser(Variant(3, "0123", repeats=False), strategy="first")
>>> g.suggest().guess
'012'
>>> g.record("012", 0, 2).candidates
9
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..runtime import time_policy
from ..game.codes import CodeSpace
from ..runtime.deadline import Deadline
from ..errors import InconsistentLog, InvalidCode, InvalidFeedback, unknown_name
from ..game.feedback import Feedback, FeedbackLog
from ..game.guess_pool import guess_pool
from ..runtime.status import Status
from ..game.variant import Variant
from .. import consistency
from ..advisor import OPTIMAL, PositionService, check_objective
from ..consistency import native
from ..game import rule
from ..lazy import lazy_module
from ..strategy import STRATEGIES

#: Loaded on first use (cbsolve/lazy.py): they bring NumPy, which naming a strategy
#: (check_strategy) does not need.
repairs = lazy_module("cbsolve.consistency.repairs")
scoring = lazy_module("cbsolve.game.scoring")
diagnose = lazy_module("cbsolve.consistency.diagnose")

#: Above this many codes the engine keeps no candidate list of its own (filtering 16.7 M codes
#: after every reply is seconds outside any deadline): the service lists them under each
#: answer's deadline and ranks guesses on a sample (:mod:`cbsolve.advisor.sampled`); beyond
#: listing, the guess is a consistent code.
HEURISTIC_LIMIT = 1_000_000


def strategy_names() -> tuple[str, ...]:
    return (*STRATEGIES, OPTIMAL)


def check_strategy(name: str) -> str:
    names = strategy_names()
    if name not in names:
        raise unknown_name("strategy", name, names)
    return name


@dataclass
class Suggestion:
    """What the code-breaker plays next and what it knows."""

    guess: str | None
    strategy: str
    candidates: int | None          # remaining consistent secrets (a lower bound if not exact)
    exact: bool = True
    determined: bool = False
    note: str | None = None
    provenance: object = None       # cbsolve.advisor.Provenance, when the service answered
    solved: int | None = None       # the entry whose reply had every bull: the game is over

    def to_json(self) -> dict:
        data = {"guess": self.guess, "strategy": self.strategy, "candidates": self.candidates,
                "exact": self.exact, "determined": self.determined, "note": self.note}
        if self.provenance is not None:
            data.update(self.provenance.to_json())
            data["note"] = self.note
        if self.solved is not None:
            data["solved"] = self.solved
        return data


@dataclass
class Diagnosis:
    """Why a log is inconsistent: ``conflict`` holds 1-based entry numbers that cannot all hold."""

    conflict: list[int] | None
    corrections: list[dict] = field(default_factory=list)

    def describe(self, log: FeedbackLog) -> list[str]:
        """Human-readable lines naming the conflicting replies and every reply that alone
        could be wrong, with the scores that would fit (or the fewest replies to change)."""
        lines = ["These replies are inconsistent: no secret gives all of them."]
        if self.conflict:
            shown = "; ".join(f"#{k} {log[k - 1].text} -> {log[k - 1].reply(log.variant)}"
                              for k in self.conflict)
            if len(self.conflict) == 1:
                lines.append(f"  reply {shown} is impossible on its own")
            else:
                lines.append(f"  replies {shown} cannot all be right")
        lines.extend(f"  {line}" for line in repairs.describe_corrections(log, self.corrections))
        if not self.corrections:
            lines.append("  the replies you confirmed cannot all be right")
        return lines

    def to_json(self) -> dict:
        return {"conflict": self.conflict, "corrections": self.corrections}


class Guesser:
    """The computer as code-breaker: suggests guesses, records replies, detects inconsistency.

    ``record`` raises :class:`InconsistentLog` (with ``conflict`` and ``corrections``) when the
    new reply leaves no secret; the entry stays in the log so the caller can ``undo`` it or
    ``fix`` an earlier one.
    """

    def __init__(self, variant: Variant, strategy: str = "minimax", guesses: str = "all",
                 seed: int | None = None, log: FeedbackLog | None = None,
                 objective: str = "worst", tree: dict | None = None, service=None):
        """``service``: the position service to ask (a face's, shared with its coach), else
        one of its own. Every answer takes the caller's Deadline (a face's turn); a call
        without one gets :data:`cbsolve.runtime.time_policy.ASSIST_SECONDS` from when it is made."""
        import numpy as np

        self.variant = variant
        self.strategy = check_strategy(strategy)
        self.guesses = guess_pool(guesses)
        self.objective = check_objective(objective)
        self.space = CodeSpace(variant)
        self.rng = np.random.default_rng(seed)
        seed = int(self.rng.integers(2**31))
        self.service = (service if service is not None else
                        PositionService(variant, guesses, seed=seed, tree=tree))
        self.large = not self.space.enumerable or self.space.size > HEURISTIC_LIMIT
        self.log = log if log is not None else FeedbackLog(variant)
        self._cand = None            # indices into space.codes (enumerable spaces only)
        self._advice: Suggestion | None = None
        self._inconsistent: Diagnosis | None = None
        #: Entry numbers the player said are right: never proposed as the wrong reply.
        self.confirmed: set[int] = set()
        self.version = 0             # bumped on every change of the log
        self._refresh()

    # --- state ---------------------------------------------------------------------------
    def reset(self) -> None:
        self.log = FeedbackLog(self.variant)
        self.confirmed = set()
        self._refresh()

    def confirm(self, number: int) -> None:
        """The player says reply ``number`` (1-based) is right: the diagnosis looks elsewhere."""
        if not 1 <= number <= len(self.log):
            raise InvalidFeedback(f"entry {number} does not exist; allowed 1..{len(self.log)}")
        self.confirmed.add(number)
        self._refresh()

    def _refresh(self) -> None:
        """Recompute the candidates from the whole log (after reset, undo or fix)."""
        self.version += 1
        self._advice = None
        self._inconsistent = None
        if not self.large:
            self._cand = native.consistent_indices(self.log)
            if self._cand.size == 0:
                self._inconsistent = self._diagnose()

    @property
    def candidates(self) -> int | None:
        """Exact number of remaining secrets (None for non-enumerable spaces)."""
        return None if self._cand is None else int(self._cand.size)

    def candidate_codes(self, limit: int | None = 20, deadline=None) -> list[str]:
        if self._cand is None:
            return consistency.consistent(self.log, consistency.Query(limit=limit),
                                          deadline=_answer(deadline)).secrets
        shown = self._cand if limit is None else self._cand[:limit]
        return self.space.format_many(self.space.codes[shown])

    @property
    def inconsistent(self) -> Diagnosis | None:
        return self._inconsistent

    # --- moves ---------------------------------------------------------------------------
    def record(self, guess: str, bulls: int, cows: int | None = None,
               advise: bool = True, notation: str | None = None,
               deadline=None) -> Suggestion | None:
        """Add one reply (``notation``: how it was typed, to echo it so); returns the new
        suggestion (None if not ``advise``: it is then computed on the next :meth:`suggest`),
        or raises :class:`InconsistentLog`."""
        entry = self.log.add(guess, bulls, _cows(self.variant, cows), notation)
        self.version += 1
        self._advice = None
        if self._inconsistent is None and self._cand is not None:
            codes = self.space.codes[self._cand]
            resp = scoring.score_against(self.variant, entry.guess, codes)
            self._cand = self._cand[resp == self.variant.response_index(entry.bulls, entry.cows)]
            if self._cand.size == 0:
                self._inconsistent = self._diagnose()
        if self._inconsistent is not None:
            raise self.inconsistency_error()
        # Not even for large spaces: a replayed log (assist --log) would solve after each entry.
        return self.suggest(deadline) if advise else None

    def undo(self) -> Feedback | None:
        """Take back the last reply; returns it (None if the log was empty)."""
        if not len(self.log):
            return None
        entry = self.log.entries.pop()
        self.confirmed.discard(len(self.log) + 1)
        self._refresh()
        return entry

    def fix(self, number: int, bulls: int, cows: int | None = None,
            notation: str | None = None) -> None:
        """Replace the reply of entry ``number`` (1-based)."""
        if not 1 <= number <= len(self.log):
            raise InvalidFeedback(f"entry {number} does not exist; allowed 1..{len(self.log)}")
        old = self.log[number - 1]
        if (old.bulls, old.cows) == (bulls, 0 if cows is None else cows):
            self.confirm(number)         # the same score again: the player confirms it
            return
        self.confirmed.discard(number)
        self.log.entries[number - 1] = self.log.make_entry(old.text, bulls,
                                                           _cows(self.variant, cows), number,
                                                           notation=notation or old.notation)
        self._refresh()

    def suggest(self, deadline=None) -> Suggestion:
        """The next guess (cached until the log changes), computed within ``deadline`` (the
        face's turn; None: :data:`cbsolve.runtime.time_policy.ASSIST_SECONDS` from now)."""
        if self._inconsistent is not None:
            raise self.inconsistency_error()
        if self._advice is None:
            deadline = _answer(deadline)
            if self.log.solved_at() is not None:                        # the service says so
                self._advice = self._ask_service(None if self.large else self._cand, deadline)
            else:
                self._advice = (self._suggest_large(deadline) if self.large
                                else self._suggest_enumerable(deadline))
        return self._advice

    def forget_suggestion(self) -> None:
        """Compute the next suggestion afresh (a search that ran out of time may succeed)."""
        self._advice = None

    def inconsistency_error(self) -> InconsistentLog:
        d = self._inconsistent
        nums = ", ".join(map(str, d.conflict or [])) or "unknown"
        return InconsistentLog(f"inconsistent replies (conflicting entries: {nums})",
                               d.conflict, d.corrections)

    # --- internals -----------------------------------------------------------------------
    def _suggest_enumerable(self, deadline) -> Suggestion:
        n = int(self._cand.size)
        if n == 1:  # nothing to think about: play the secret
            return Suggestion(self.space.format(self.space.codes[self._cand[0]]), self.strategy,
                              1, True, True)
        cacheable = self.strategy != "random" and len(self.log) <= CACHE_DEPTH
        key = (self.variant, self.strategy, self.objective, self.guesses,
               self.service.tree is not None, tuple(self.log.tokens()))
        if cacheable and key in _ADVICE_CACHE:
            return _ADVICE_CACHE[key]
        # the position service (same rules and tie-breaks as ``cbsolve next``), kept for the
        # whole game so its choosers and symmetry classes are built once
        advice = self._ask_service(self._cand, deadline)
        if cacheable and advice.provenance.complete:
            _ADVICE_CACHE[key] = advice
        return advice

    def _ask_service(self, cands, deadline) -> Suggestion:
        try:
            a = self.service.advise(self.log, strategy=self.strategy, objective=self.objective,
                                    deadline=deadline, cands=cands)
        except InconsistentLog as exc:
            # beyond the filter the service finds the conflict: kept as the filter's would be,
            # so the face repairs the log instead of asking again (it looped asking)
            self._inconsistent = self._diagnosis(exc.conflict, exc.corrections)
            raise self.inconsistency_error() from None
        return Suggestion(a.guess, a.strategy, a.candidates, a.remaining.exact, a.determined,
                          note=a.note, provenance=a.provenance, solved=a.solved)

    def precompute(self, depth: int = 1, deadline=None) -> int:
        """Fill the advice cache for the opening and every reply to it (``depth`` 1), so the
        first two turns of every later game cost a lookup; returns the number of positions.
        ``deadline``: the replies are computed while it lasts, each within what is left of it
        (a cut answer is not cached: that position is computed again when it is played).

        Only for deterministic strategies on enumerable spaces (``random`` draws anew)."""
        if self.large or self.strategy == "random" or len(self.log):
            return 0

        opening = self.suggest(deadline)
        if depth < 1 or opening.guess is None:
            return 1
        code = self.space.parse(opening.guess)
        resp = scoring.score_against(self.variant, code, self.space.codes)
        count = 1
        for r in sorted(set(resp.tolist()) - {self.variant.win_response}):
            if deadline is not None and deadline.expired():
                break
            b, c = self.variant.response_of(r)
            self.record(opening.guess, b, c, deadline=deadline)
            count += 1
            self.undo()
        return count

    def _suggest_large(self, deadline) -> Suggestion:
        seed = int(self.rng.integers(2**31))
        if self.strategy not in ("first", "random") and (self.space.enumerable or len(self.log)):
            # the service under the answer's deadline: Mastermind 8x8's consistent secrets
            # listed in chunks and guesses ranked on a sample first; beyond listing (10x10)
            # one consistent code from the depth-first search, as ``next`` answers
            return self._ask_service(None, deadline)
        if not len(self.log):
            if self.strategy not in ("first", "random"):
                # the closed-form opening: no code listed (cbsolve.advisor.opening)
                advice = self._ask_service(None, deadline)
                if advice.guess is not None:
                    return advice
            code = self.space.format(self.space.random_codes(1, self.rng)[0])
            return Suggestion(code, "random-consistent", self.space.size, True, False,
                              note="space too large for the heuristics; playing a random code")
        res = consistency.consistent(self.log, consistency.Query(sample=1, seed=seed, count=True),
                                     deadline=deadline.part(SAMPLE_SHARE))
        if not res.secrets and res.status != Status.INFEASIBLE:
            # the count can take the sample's time (the draw then has none): any consistent
            # code is still a guess, and the search finds one in milliseconds on most logs
            one = consistency.consistent(self.log, consistency.Query(limit=1, determined=False),
                                         deadline=deadline)
            if one.secrets or one.status == Status.INFEASIBLE:
                one.count = res.count if res.count is not None else one.count
                one.exact = res.exact and res.count is not None
                res = one
        if res.status == Status.INFEASIBLE:
            # beyond the filter each option changes one reply of the conflict (or is the one
            # joint fix): those of confirmed replies are left out
            self._inconsistent = self._diagnosis(res.conflict, res.corrections)
            raise self.inconsistency_error()
        if not res.secrets:
            return Suggestion(None, "consistent", res.count, False, False,
                              note="the solver found no secret within the time limit")
        return Suggestion(res.secrets[0], "consistent", res.count, bool(res.exact),
                          bool(res.determined),
                          note="space too large for the heuristics; playing a consistent code "
                               f"found by the {res.backend} backend")

    def _diagnosis(self, conflict, corrections) -> Diagnosis:
        """The diagnosis kept for the face: the options that change a reply the player
        confirmed are left out."""
        fixes = [f for f in corrections or [] if f["entry"] not in self.confirmed]
        return Diagnosis(conflict, fixes)

    def _diagnose(self) -> Diagnosis:
        res = consistency.consistent(self.log, consistency.Query(limit=1), backend="native")
        if self.confirmed and res.corrections is not None:
            res.notes, res.corrections = [], None
            diagnose.diagnose(self.log, res, backend="native", confirmed=self.confirmed)
        return Diagnosis(res.conflict, list(res.corrections or []))


def _answer(deadline):
    """The answer's Deadline: the caller's (a face's turn), else one made now, as at an edge."""
    return deadline if deadline is not None else Deadline.from_limit(time_policy.ASSIST_SECONDS)


#: Beyond the filter a suggestion draws a uniform secret (and counts them) with this share of
#: its time; a find-one takes the rest when the draw found none.
SAMPLE_SHARE = 0.7


#: Advice by (variant, strategy, guess set, log tokens) for the first turns of deterministic
#: strategies: every game starts with the same few positions.
_ADVICE_CACHE: dict = {}
CACHE_DEPTH = 1


def _cows(variant: Variant, cows: int | None) -> int | None:
    """Bulls-only logs take no cows (the faces pass 0 for "no cows")."""
    return None if variant.bulls_only and not cows else cows




class Host:
    """The computer as code-maker: draws a secret and scores guesses against it."""

    def __init__(self, variant: Variant, seed: int | None = None, secret: str | None = None):
        import numpy as np

        self.variant = variant
        self.space = CodeSpace(variant)
        self.rng = np.random.default_rng(seed)
        self.new(secret)

    def new(self, secret: str | None = None) -> None:
        self.secret = (self.space.parse(secret) if secret is not None
                       else self.space.random_codes(1, self.rng)[0])
        self.guesses = 0

    @property
    def secret_text(self) -> str:
        return self.space.format(self.secret)

    def check(self, guess: str, deadline=None) -> tuple[int, int]:
        """Score a guess (text) against the secret; raises :class:`InvalidCode` when invalid.
        (``deadline``: unused; a shifting host's reply takes the turn's.)"""
        code = self.space.parse(guess.strip())
        self.guesses += 1
        return rule.score(self.variant, self.secret, code)

    def is_win(self, reply: tuple[int, int]) -> bool:
        return reply[0] == self.variant.length


__all__ = ["Diagnosis", "Guesser", "Host", "InvalidCode", "Suggestion", "check_strategy",
           "strategy_names"]
