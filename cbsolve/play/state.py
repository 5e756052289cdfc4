"""One game of play/, declared once (the shape of OpenSpiel's ``State``): who holds a secret,
whose move it is, applying a move, taking it back, and the game's record. Every face plays
through it: ``play`` (:mod:`.terminal`: guess, host or both), ``assist`` (:mod:`.assistant`:
the entries of a game played elsewhere) and ``bot`` (:mod:`.bot`, the referee's protocol); a
face only reads lines (:mod:`.commands`, the one vocabulary), prints and makes the turn's one
Deadline in the loop (:mod:`.loop`).

The two sides: the computer as code-maker (``maker``: :class:`~.engine.Host`, or a
:class:`~.hosts.ShiftingHost` that never fixes its secret) scores your guesses; the computer
as code-breaker (``breaker``: :class:`~.engine.Guesser`, through the position service) moves
and records the replies it is given. Which exist is the mode's:

======  ==================  ======================================================
mode    sides               moves
======  ==================  ======================================================
guess   maker               you guess, the maker scores
host    breaker             the breaker guesses, you score
both    maker, breaker      turn by turn, you first; a round ends before a winner
assist  breaker             you type the entries of a game played elsewhere
bot     maker, breaker      in the order the referee asks
======  ==================  ======================================================
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..advisor import PositionService
from ..errors import CbsolveError
from ..game.feedback import Feedback, FeedbackLog
from ..game.variant import Variant
from ..runtime.deadline import Deadline
from .engine import Guesser, Host, Suggestion
from .hosts import ShiftingHost, check_host
from .inputs import read_fix

MODES = ("guess", "host", "both", "assist", "bot")


@dataclass
class GameResult:
    """The record of one game (``play --json``)."""

    mode: str
    winner: str | None                    # "you", "computer", "draw", or None (quit)
    your_guesses: list[dict] = field(default_factory=list)
    computer_guesses: list[dict] = field(default_factory=list)
    secret: str | None = None             # the computer's secret (guess and both modes)
    your_secret: str | None = None        # yours, once the computer found it
    quit: bool = False
    #: Games abandoned with ``again`` before this one (their records, oldest first).
    earlier: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        data = {"mode": self.mode, "winner": self.winner, "quit": self.quit,
                "your_guesses": self.your_guesses, "computer_guesses": self.computer_guesses,
                "secret": self.secret, "your_secret": self.your_secret}
        if self.earlier:
            data["earlier"] = self.earlier
        return data


class GameState:
    """The sides of one game, its moves so far (``history``: "you" / "me", for ``undo``) and
    its record (``result``)."""

    def __init__(self, variant: Variant, mode: str, strategy: str = "minimax",
                 guesses: str = "all", objective: str = "worst", seed=None,
                 secret: str | None = None, host: str = "honest", seeds=None,
                 tree: dict | None = None):
        """``seeds``: the maker's and the breaker's seeds when they differ (else ``seed``
        for both); ``host``: the maker, honest or a shifting one; ``tree``: a strategy tree
        the breaker follows."""
        maker_seed, breaker_seed = seeds if seeds is not None else (seed, seed)
        self.variant, self.mode = variant, mode
        self.strategy, self.guesses, self.objective = strategy, guesses, objective
        self.maker = (_maker(variant, host, mode, maker_seed, secret)
                      if mode in ("guess", "both", "bot") else None)
        self.breaker = (Guesser(variant, strategy=strategy, guesses=guesses, seed=breaker_seed,
                                objective=objective, tree=tree)
                        if mode != "guess" else None)
        self.result = GameResult(mode, None)
        self.history: list[str] = []        # "you" / "me": the moves, for undo
        #: the advisor of your guesses: ``hint`` and the coach ask this one service, for the
        #: same strategy and objective, so the hinted guess is the coach's advice
        self.yours = PositionService(variant, guesses) if mode in ("guess", "both") else None
        self._hinter: Guesser | None = None

    # --- whose move ----------------------------------------------------------------------
    @property
    def you_done(self) -> bool:
        if self.mode == "host":
            return True
        yours = self.result.your_guesses
        return bool(yours) and yours[-1]["bulls"] == self.variant.length

    @property
    def me_done(self) -> bool:
        if self.mode == "guess":
            return True
        g = self.breaker
        return (g.inconsistent is None and len(g.log) > 0
                and g.log[-1].bulls == self.variant.length)

    def turn(self) -> str | None:
        """"you", "me", or None when the game is over (both: after a complete round)."""
        if self.mode == "guess":
            return None if self.you_done else "you"
        if self.mode == "host":
            return None if self.me_done else "me"
        yours, mine = len(self.result.your_guesses), len(self.result.computer_guesses)
        if yours == mine:
            return None if (self.you_done or self.me_done) else "you"
        return "me"

    def legal(self, actions: frozenset[str]) -> frozenset[str]:
        """Of a face's ``actions`` (:mod:`.commands`), those this game allows: a reply to fix
        needs the computer as code-breaker (not ``play --mode guess``)."""
        return actions if self.breaker is not None else actions - {"fix"}

    # --- moves ---------------------------------------------------------------------------
    def score_yours(self, line: str, deadline: Deadline) -> dict:
        """Your guess scored by the maker within the turn's ``deadline`` (not yet kept:
        :meth:`keep_yours`); InvalidCode when it is no code of the game."""
        bulls, cows = self.maker.check(line, deadline)
        code = self.maker.space.format(self.maker.space.parse(line))
        return {"guess": code, "bulls": bulls, "cows": cows}

    def keep_yours(self, entry: dict) -> None:
        self.result.your_guesses.append(entry)
        self.history.append("you")

    def your_log(self) -> FeedbackLog:
        log = FeedbackLog(self.variant)
        for e in self.result.your_guesses:
            log.add(e["guess"], e["bulls"], None if self.variant.bulls_only else e["cows"])
        return log

    def my_move(self, deadline: Deadline) -> Suggestion:
        """The breaker's next guess within the turn's ``deadline`` (InconsistentLog when the
        replies cannot all be right)."""
        return self.breaker.suggest(deadline)

    def record(self, guess: str, bulls: int, cows: int, notation: str | None = None) -> None:
        """The reply to a guess of the breaker's (or, in ``assist``, an entry typed); the entry
        stays when it makes the log inconsistent (InconsistentLog), for undo or fix."""
        self.result.computer_guesses.append({"guess": guess, "bulls": bulls, "cows": cows})
        self.history.append("me")
        self.breaker.record(guess, bulls, cows, advise=False, notation=notation)

    def undo(self) -> tuple[str, dict | Feedback] | None:
        """Take back the last move: ("you", your guess's entry) or ("me", the reply taken
        back), or None when there is none."""
        if not self.history:
            return None
        who = self.history.pop()
        if who == "you":
            self.maker.guesses -= 1
            return who, self.result.your_guesses.pop()
        self.result.computer_guesses.pop()
        self.result.your_secret = None
        return who, self.breaker.undo()

    def fix(self, line: str) -> int:
        """``fix K SCORE`` or ``confirm K`` applied to the breaker's replies; the entry's number
        (from 1). InvalidFeedback when the line or the number is wrong."""
        g = self.breaker
        k, typed = read_fix(self.variant, line, len(g.log))
        if typed is None:
            g.confirm(k)
        else:
            g.fix(k, typed[0], typed[1], notation=typed[2])
        e = g.log[k - 1]
        if k <= len(self.result.computer_guesses):
            self.result.computer_guesses[k - 1].update(bulls=e.bulls, cows=e.cows)
        return k

    def new(self) -> GameResult:
        """A new game (``again``, the bot's ``new``): a fresh secret, no moves; returns the
        record of the game left (the computer's secret in it)."""
        left = self.result
        if self.maker:
            left.secret = self.maker.secret_text
            self.maker.new()
        if self.breaker:
            self.breaker.reset()
        self.result = GameResult(self.mode, None)
        self.history.clear()
        self._hinter = None
        return left

    # --- what a player may ask -----------------------------------------------------------
    def your_advice(self, deadline: Deadline, shown: int = 6) -> tuple[Suggestion, list[str]]:
        """The advice after your guesses (the same call as the breaker's own moves, on the
        service the coach asks) and the first ``shown`` secrets they leave."""
        if self._hinter is None or len(self._hinter.log) != len(self.result.your_guesses):
            self._hinter = Guesser(self.variant, strategy=self.strategy, guesses=self.guesses,
                                   log=self.your_log(), objective=self.objective,
                                   service=self.yours)
        advice = self._hinter.suggest(deadline)
        codes = (self._hinter.candidate_codes(limit=shown, deadline=deadline)
                 if advice.candidates is not None else [])
        return advice, codes

    def finish(self) -> GameResult:
        """The record with its winner (None after a quit) and the computer's secret."""
        r = self.result
        if self.maker:
            r.secret = self.maker.secret_text
        if r.quit:
            return r
        if self.mode == "both":
            r.winner = ("draw" if self.you_done and self.me_done else
                        "you" if self.you_done else "computer")
        else:
            r.winner = "you" if self.mode == "guess" else "computer"
        return r


def _maker(variant, host, mode, seed, secret):
    """The code-maker: honest (a secret drawn or given) or shifting (cbsolve/play/hosts.py)."""
    if host == "honest":
        return Host(variant, seed=seed, secret=secret)
    check_host(host)
    shifting = ShiftingHost(variant, host)
    shifting.new(secret)
    return shifting


def check_play(mode: str, host: str, coach: bool) -> None:
    """What ``play`` refuses before a game starts (one line, exit 2)."""
    if coach and mode == "host":
        raise CbsolveError("the coach reviews your guesses: use --mode guess or both")
    if host != "honest":
        check_host(host)
        if mode == "host":
            raise CbsolveError(f"--host {host} is the computer as code-maker: use --mode guess "
                               "or both")
