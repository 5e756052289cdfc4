"""One game between a host that knows the secret and a model that guesses, framework-free.

Every adapter (verifiers, TextArena) is a thin shell around :class:`GameSession`: it hands the
session each model reply (:meth:`GameSession.play`) and sends back the text of the returned
:class:`Turn`; at the end it reads :meth:`GameSession.rewards` and :meth:`GameSession.record`.

**Turns.** A game allows ``max_turns`` guesses: by default the certified worst case of the
variant (``cb.bounds``'s upper end: an optimal player never needs more) plus ``slack``.

**Bad replies** (see :mod:`.replies`): every unparsable or invalid reply costs
``invalid_penalty`` off the total reward and lowers the format reward. What happens to the turn
is ``on_invalid``: ``"reprompt"`` (default) asks again without using a guess, up to
``max_reprompts`` times in a row, after which the turn is lost; ``"lose-turn"`` uses the guess
at once. A repeated guess is a legal guess: it is scored and uses a turn (its regret shows the
waste), and the metric ``repeated_guesses`` counts it. The game never raises on a reply.

**Per move**, under one :class:`~cbsolve.runtime.deadline.Deadline` of ``turn_budget`` seconds made
when the move's work starts (concurrent games take turns at cbsolve's per-process caches):
the reply from cbsolve's rule, the candidates left (:mod:`.oracle`: exact, or bounds labelled
so) and the move's regret (exact, or labelled not computed).

**Rewards** (each in the record with its weight; ``total`` is the weighted sum less the
penalties):

- ``solved``: 1 when the secret was guessed within the limit;
- ``efficiency``: 1 when solved within the certified worst case W, falling linearly to
  1/(slack+1) at the limit, 0 unsolved;
- ``information``: log(S / C) / log(S), S the code space, C the candidates left at the end
  (its upper bound when the count is not exact): 1 when the secret is pinned down;
- ``regret``: minus the mean regret of the moves whose regret is exact (0 when none is);
- ``format``: the share of replies that named a code of the game.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from ..game.codes import CodeSpace
from ..runtime.deadline import Deadline
from ..errors import CbsolveError, unknown_name
from ..game.feedback import FeedbackLog
from ..game.rule import score
from ..game.variant import Variant
from . import oracle
from .replies import OK, describe_reply, read_reply, rules_text

ON_INVALID = ("reprompt", "lose-turn")
OBJECTIVES = ("expected", "worst")
DEFAULT_WEIGHTS = {"solved": 1.0, "efficiency": 0.5, "information": 0.25, "regret": 0.25,
                   "format": 0.25}
VARIANT_KEYS = ("variant", "length", "digits", "letters", "symbols", "repeats",
                "no_leading_zero", "feedback")


@dataclass(frozen=True)
class GameOptions:
    """How a game is hosted; :meth:`from_options` takes the CLI's variant options too."""

    variant: Variant = field(default_factory=lambda: Variant.preset("bulls-cows"))
    slack: int = 2
    max_turns: int | None = None          # None: certified worst case + slack
    on_invalid: str = "reprompt"
    max_reprompts: int = 2
    invalid_penalty: float = 0.1
    turn_budget: float | None = 1.0       # seconds a move's count and regret may take
    regret_objective: str = "expected"
    bounds_budget: float | None = 60.0    # seconds for cb.bounds the first time a variant is met
    weights: dict = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))

    def __post_init__(self) -> None:
        if self.on_invalid not in ON_INVALID:
            raise unknown_name("invalid-reply policy", self.on_invalid, ON_INVALID)
        if self.regret_objective not in OBJECTIVES:
            raise unknown_name("regret objective", self.regret_objective, OBJECTIVES)
        if self.slack < 0 or self.max_reprompts < 0:
            raise CbsolveError("slack and max_reprompts must be at least 0")
        if self.max_turns is not None and self.max_turns < 1:
            raise CbsolveError(f"max_turns must be at least 1, got {self.max_turns}")
        unknown = set(self.weights) - set(DEFAULT_WEIGHTS)
        if unknown:
            raise unknown_name("reward", sorted(unknown)[0], DEFAULT_WEIGHTS)

    @classmethod
    def from_options(cls, variant: str | Variant | None = None, **options: Any) -> GameOptions:
        """Variant options as :meth:`cbsolve.game.variant.Variant.from_options` (``length``,
        ``digits``, ``letters``, ``symbols``, ``repeats``, ``no_leading_zero``, ``feedback``)
        and the game's own; ``None`` values are left at their defaults."""
        options = {k: v for k, v in options.items() if v is not None}
        shape = {k: options.pop(k) for k in VARIANT_KEYS[1:] if k in options}
        if isinstance(variant, Variant):
            if shape:
                raise CbsolveError("give variant options with a preset name, not a Variant")
            the_variant = variant
        else:
            the_variant = Variant.from_options(variant, **shape)
        if "weights" in options:
            options["weights"] = {**DEFAULT_WEIGHTS, **options["weights"]}
        return cls(variant=the_variant, **options)

    def certified(self) -> tuple[int, bool, str]:
        """The certified worst case (upper, exact, method) of the variant."""
        return oracle.certified_worst(self.variant, Deadline(self.bounds_budget))

    def turn_limit(self) -> int:
        return self.max_turns if self.max_turns is not None else self.certified()[0] + self.slack


@dataclass
class Turn:
    """What one reply did: ``kind`` ok / unparsable / invalid; ``message`` the host's answer
    (the reply, or the re-prompt); ``counted`` whether it used a guess."""

    kind: str
    message: str
    counted: bool
    guess: str | None = None
    bulls: int | None = None
    cows: int | None = None
    candidates: oracle.Count | None = None
    regret: oracle.MoveRegret | None = None
    repeated: bool = False
    problem: str | None = None

    def to_json(self) -> dict:
        data: dict[str, Any] = {"kind": self.kind, "counted": self.counted}
        if self.kind == OK:
            data.update(guess=self.guess, bulls=self.bulls, cows=self.cows,
                        repeated=self.repeated, candidates=self.candidates.to_json()
                        if self.candidates else None,
                        regret=self.regret.to_json() if self.regret else None)
        else:
            data["problem"] = self.problem
        return data


class GameSession:
    """One game: the secret is ``secret`` when given, else drawn from the code space with
    ``seed`` (uniform, without listing the codes)."""

    def __init__(self, options: GameOptions, *, secret: str | None = None,
                 seed: int | None = None):
        self.options = options
        self.variant = options.variant
        self.space = CodeSpace(self.variant)
        if secret is None:
            secret = self.space.format(self.space.random_codes(1, _rng(seed))[0])
        self.secret_code = self.space.parse(secret)
        self.secret = self.space.format(self.secret_code)
        self.max_turns = options.turn_limit()
        self.log = FeedbackLog(self.variant)
        self.turns: list[Turn] = []
        self.used = 0                 # guesses used (scored guesses and lost turns)
        self.solved = False
        self._strikes = 0             # bad replies in a row on the current turn
        self._count = oracle.Count(self.space.size, self.space.size, True, "the code space")
        self._seen: set[str] = set()

    # --- the game -------------------------------------------------------------------------
    @property
    def done(self) -> bool:
        return self.solved or self.used >= self.max_turns

    def prompt(self) -> str:
        return rules_text(self.variant, self.max_turns)

    def play(self, reply: str) -> Turn:
        """Read one model reply and answer it (a finished game answers that it is over)."""
        if self.done:
            return Turn("over", "The game is over.", False, problem="the game is over")
        reading = read_reply(reply, self.space)
        if reading.kind != OK:
            turn = self._bad(reading.kind, str(reading.problem))
        else:
            with oracle.ORACLE_LOCK:     # the turn's budget starts when its work can
                turn = self._guess(str(reading.guess), Deadline(self.options.turn_budget))
        self.turns.append(turn)
        return turn

    def _bad(self, kind: str, problem: str) -> Turn:
        self._strikes += 1
        lose = self.options.on_invalid == "lose-turn" or self._strikes > self.options.max_reprompts
        if lose:
            self.used += 1
            self._strikes = 0
            message = (f"Your reply gave no valid guess ({problem}); that guess is lost. "
                       f"{self._status()}")
        else:
            message = f"Your reply gave no valid guess ({problem}). Please answer again."
        return Turn(kind, message, lose, problem=problem)

    def _guess(self, guess: str, deadline: Deadline) -> Turn:
        before = self._count
        log_before = FeedbackLog(self.variant, list(self.log.entries))
        bulls, cows = score(self.variant, self.secret_code, self.space.parse(guess))
        self.log.add(guess, bulls, None if self.variant.bulls_only else cows)
        self.used += 1
        self._strikes = 0
        repeated = guess in self._seen
        self._seen.add(guess)
        self.solved = bulls == self.variant.length
        count = oracle.Count(1, 1, True, "the secret was guessed") if self.solved else \
            oracle.candidates_after(self.log, before.upper, deadline.part(0.5))
        self._count = count
        regret = oracle.move_regret(guess, log_before, before, self.options.regret_objective,
                                    deadline)
        said = describe_reply(self.variant, bulls, cows)
        if self.solved:
            message = f"[{guess}]: {said}. You found the secret in {_guesses(self.used)}."
        else:
            message = f"[{guess}]: {said}. {self._status()}"
        return Turn(OK, message, True, guess, bulls, cows, count, regret, repeated)

    def _status(self) -> str:
        if self.used >= self.max_turns:
            return f"No guesses left: the secret was [{self.secret}]."
        left = self.max_turns - self.used
        return f"{_guesses(left)} left."

    # --- the outcome -------------------------------------------------------------------------
    def rewards(self) -> dict[str, float]:
        """Each reward (module docstring) and ``total``."""
        worst, _, _ = self.options.certified()
        limit, slack = self.max_turns, max(self.max_turns - worst, 0)
        if not self.solved:
            efficiency = 0.0
        elif self.used <= worst:
            efficiency = 1.0
        else:
            efficiency = (limit - self.used + 1) / (slack + 1)
        size = self.space.size
        left = self._count.upper
        information = 1.0 if size <= 1 else math.log(size / left) / math.log(size)
        exact = [t.regret.value for t in self.turns if t.regret and t.regret.value is not None]
        replies = [t for t in self.turns if t.kind != "over"]
        good = sum(t.kind == OK for t in replies)
        values = {"solved": float(self.solved), "efficiency": efficiency,
                  "information": information, "regret": -sum(exact) / len(exact) if any(exact) else 0.0,
                  "format": good / len(replies) if replies else 0.0}
        weights = self.options.weights
        total = sum(weights.get(k, 0.0) * v for k, v in values.items())
        total -= self.options.invalid_penalty * (len(replies) - good)
        return {**values, "total": total}

    def metrics(self) -> dict[str, float]:
        worst, exact, _ = self.options.certified()
        replies = [t for t in self.turns if t.kind != "over"]
        regrets = [t.regret for t in self.turns if t.regret is not None]
        return {"turns": float(self.used), "max_turns": float(self.max_turns),
                "certified_worst": float(worst), "certified_worst_exact": float(exact),
                "turns_over_optimum": float(self.used - worst) if self.solved else math.nan,
                "invalid_replies": float(sum(t.kind != OK for t in replies)),
                "lost_turns": float(sum(t.kind != OK and t.counted for t in replies)),
                "repeated_guesses": float(sum(t.repeated for t in replies)),
                "regret_exact_moves": float(sum(r.value is not None for r in regrets)),
                "moves": float(len(regrets))}

    def record(self) -> dict:
        """The game as JSON: the variant, the secret, the log in ``puzzle --json``'s entry
        form, each reply's turn, the rewards and metrics (what ``review`` can read back)."""
        worst, exact, method = self.options.certified()
        return {"variant": self.variant.to_dict(), "secret": self.secret,
                "entries": self.log.to_json(), "max_turns": self.max_turns,
                "certified_worst": {"value": worst, "exact": exact, "method": method},
                "solved": self.solved, "turns": [t.to_json() for t in self.turns],
                "rewards": self.rewards(), "weights": dict(self.options.weights),
                "metrics": self.metrics()}


def _guesses(n: int) -> str:
    return f"{n} guess{'' if n == 1 else 'es'}"


def _rng(seed: int | None):
    import numpy as np

    return np.random.default_rng(random.getrandbits(64) if seed is None else seed)

