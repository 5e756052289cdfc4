"""``cbsolve play``: you against the computer in the terminal, like the pencil-and-paper game.

Modes: ``guess`` (you break the computer's secret), ``host`` (the computer breaks yours: you
type its score), ``both`` (turn by turn, you first; a round is finished before a winner is
declared, so equal guess counts are a draw). Every input is checked and asked again on error
(wrong length, symbol outside the alphabet, repeated symbol, malformed or impossible score).
When your scores contradict each other the computer names the conflicting replies, suggests a
correction, and lets you ``fix K B C`` a reply or ``undo`` the last one. With ``coach``,
each of your guesses is reviewed against the best from the same position (:mod:`.coach`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..advisor import PositionService
from ..runtime.deadline import Deadline, Turns
from ..errors import CbsolveError, InconsistentLog, InvalidCode, InvalidFeedback
from ..game.feedback import FeedbackLog
from ..runtime.time_policy import ASSIST_SECONDS
from ..game.variant import Variant
from .engine import Guesser, Host
from .inputs import Console, apply_fix, command_word, format_reply, read_score, reply_syntax

MODES = ("both", "guess", "host")


class Quit(Exception):
    """The player typed ``quit`` (or input ended)."""


class Rewind(Exception):
    """``undo`` took back the last move: the loop picks whose turn it is again."""


class Again(Exception):
    """The player typed ``again``: a new game."""


@dataclass
class GameResult:
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


def help_text(variant: Variant, mode: str) -> list[str]:
    """Every command, at every prompt."""
    short = "B" if variant.bulls_only else ("B W" if variant.pegs else "B C")
    lines = ["Commands (at any prompt):"]
    if mode != "host":
        lines.append("  CODE          guess my secret (at 'Your guess')")
    if mode != "guess":
        lines.append(f"  {short:<13} score my guess: {reply_syntax(variant)} (at 'Score for')")
        lines.append(f"  fix K {short:<7} correct your score number K")
        lines.append("  confirm K     your score number K is right: look for the mistake elsewhere")
    lines += ["  undo          take back the last move (again and again, to any depth)",
              "  hint          what your replies leave, and the best next guess",
              "  again         abandon this game and start a new one",
              "  help          this list",
              "  quit          end the game (I reveal my secret)"]
    return lines


class Game:
    """One game; drive it with :meth:`run`. The console is the only I/O."""

    def __init__(self, variant: Variant, mode: str = "both", console: Console | None = None,
                 strategy: str = "minimax", seed: int | None = None, secret: str | None = None,
                 guesses: str = "all", coach: bool = False, objective: str = "worst",
                 time_limit: float | None = ASSIST_SECONDS, turns: Turns | None = None,
                 host: str = "honest"):
        """``turns``: one Deadline a turn, made by the session loop (else ``time_limit``
        seconds a turn), shared by the advice, ``hint`` and the coach's review."""
        if mode not in MODES:
            from ..errors import unknown_name

            raise unknown_name("mode", mode, MODES)
        if coach and mode == "host":
            raise CbsolveError("the coach reviews your guesses: use --mode guess or both")
        self.variant = variant
        self.mode = mode
        self.strategy, self.guesses = strategy, guesses
        self.objective = objective
        self.turns = turns if turns is not None else Turns(time_limit)
        self.console = console or Console()
        self.host = _host(variant, host, mode, seed, secret)
        self.guesser = (Guesser(variant, strategy=strategy, seed=seed, guesses=guesses,
                                objective=objective)
                        if mode != "guess" else None)
        self.result = GameResult(mode, None, secret=None)
        self.history: list[str] = []        # "you" / "me": the moves, for undo
        self._hinter = None                 # advice on your own guesses (hint)
        #: the advisor of your guesses: ``hint`` and the coach ask this one service, for the
        #: same strategy and objective, so the hinted guess is the coach's advice
        self.yours = None if mode == "host" else PositionService(variant, guesses)
        self.coach = None
        if coach:
            from .coach import Coach

            self.coach = Coach(self.yours, objective=objective, strategy=strategy)

    # --- whose turn ----------------------------------------------------------------------
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
        g = self.guesser
        return (g.inconsistent is None and len(g.log) > 0
                and g.log[-1].bulls == self.variant.length)

    def _turn(self) -> str | None:
        """"you", "me", or None when the game is over (both: after a complete round)."""
        if self.mode == "guess":
            return None if self.you_done else "you"
        if self.mode == "host":
            return None if self.me_done else "me"
        yours, mine = len(self.result.your_guesses), len(self.result.computer_guesses)
        if yours == mine:
            return None if (self.you_done or self.me_done) else "you"
        return "me"

    # --- the loop ------------------------------------------------------------------------
    def run(self) -> GameResult:
        c, v = self.console, self.variant
        c.say(f"cbsolve play ({self.mode}): {v.describe()}. Type help for the commands.")
        while True:
            self._welcome()
            try:
                while (turn := self._turn()) is not None:
                    try:
                        self._your_turn() if turn == "you" else self._my_turn()
                    except Rewind:
                        continue
            except Again:
                self._new_game()
                continue
            except (Quit, EOFError):
                self.result.quit = True
                c.say("Game abandoned.")
            break
        self._finish()
        return self.result

    def _welcome(self) -> None:
        c, v = self.console, self.variant
        if self.host:
            example = self.host.space.format(self.host.space.code_at(0))
            chosen = ("I have chosen a secret" if isinstance(self.host, Host) else
                      f"I play the {self.host.host} host: I keep every secret my replies allow")
            c.say(f"{chosen}. Codes look like {example}.")
        if self.guesser:
            c.say(f"Think of a secret; I will guess it. Score my guesses as {reply_syntax(v)}.")

    def _new_game(self) -> None:
        r = self.result
        if self.host:
            r.secret = self.host.secret_text
        r.quit = True
        self.console.say("New game." + (f" My secret was {r.secret}." if self.host else ""))
        self.result = GameResult(self.mode, None, earlier=[*r.earlier, r.to_json()])
        if self.host:
            self.host.new()
        if self.guesser:
            self.guesser.reset()
        self.history.clear()
        self._hinter = None

    def _your_turn(self) -> None:
        c = self.console
        k = len(self.result.your_guesses) + 1
        while True:
            line, deadline = self._ask(f"Your guess #{k}: ")
            if self._command(line, deadline):
                continue
            try:
                bulls, cows = self.host.check(line, deadline)
            except InvalidCode as exc:
                c.say(f"  {exc}; try again (help lists the commands).")
                continue
            break
        code = self.host.space.format(self.host.space.parse(line))
        entry = {"guess": code, "bulls": bulls, "cows": cows}
        review = self._review(code, deadline)
        self.result.your_guesses.append(entry)
        self.history.append("you")
        c.say(f"  {code}: {format_reply(self.variant, bulls, cows)}")
        if review is not None:
            from .coach import describe, record

            entry["coach"] = record(review)
            c.say(f"  {describe(review)}")
            c.say(f"    ({review.method})")
        if bulls == self.variant.length:
            c.say(f"  You found my secret in {k} guess{'es' if k != 1 else ''}!")

    def _your_log(self) -> FeedbackLog:
        log = FeedbackLog(self.variant)
        for e in self.result.your_guesses:
            log.add(e["guess"], e["bulls"], None if self.variant.bulls_only else e["cows"])
        return log

    def _review(self, guess: str, deadline: Deadline):
        """The coach's review of ``guess`` from the position your earlier guesses left."""
        if self.coach is None:
            return None
        return self.coach.review(self._your_log(), guess, deadline)

    def _ask(self, prompt: str) -> tuple[str, Deadline]:
        """A line typed at ``prompt`` and the Deadline of the turn it starts (the session's
        one place, with the computer's move, where a turn's Deadline is made)."""
        line = self.console.ask(prompt).strip()
        return line, self.turns.start()

    def _my_turn(self) -> None:
        """Ask for the score of my guess until one is recorded and all scores are consistent."""
        c, g = self.console, self.guesser
        while True:
            if g.inconsistent is not None:  # an undo left an earlier mistake in place
                self._repair()
            try:                            # my move is a turn: its one Deadline
                advice = g.suggest(self.turns.start())  # the solver may find a conflict
                break
            except InconsistentLog:
                continue
        if advice.guess is None:    # beyond the filter the search may find none in time
            c.say(f"  I found no code that fits your scores in time ({advice.note}); type undo "
                  "if a score was wrong, quit to stop, or press Enter and I try again.")
            line, deadline = self._ask("> ")
            if line and not self._command(line, deadline):
                c.say(f"  {line!r} is not a command here (help lists them).")
            g.forget_suggestion()
            return
        k = len(g.log) + 1
        left = "" if advice.candidates is None else \
            (f" ({'' if advice.exact else 'at least '}{advice.candidates} "
             f"secret{'s' if advice.candidates != 1 else ''} possible)")
        c.say(f"My guess #{k}: {advice.guess}{left}")
        bulls, cows, notation = self._ask_score(advice.guess)
        self.result.computer_guesses.append({"guess": advice.guess, "bulls": bulls,
                                             "cows": cows})
        self.history.append("me")
        try:
            g.record(advice.guess, bulls, cows, advise=False, notation=notation)
        except InconsistentLog:
            self._repair()
        if self.me_done:
            last = g.log[-1]
            self.result.your_secret = last.text
            n = len(g.log)
            c.say(f"  I found your secret {last.text} in {n} guess{'es' if n != 1 else ''}.")

    def _ask_score(self, guess: str) -> tuple[int, int, str]:
        c = self.console
        while True:
            line, deadline = self._ask(f"Score for {guess}: ")
            try:
                reply = read_score(self.variant, line)
            except InvalidFeedback as exc:
                c.say(f"  {exc}; try again.")
                continue
            if reply is not None:
                return reply
            if not self._command(line, deadline):
                c.say(f"  {line!r} is not a score; type {reply_syntax(self.variant)} "
                      "(help lists the commands).")

    # --- commands ------------------------------------------------------------------------
    def _command(self, line: str, deadline: Deadline) -> bool:
        """Handle a command typed at any prompt; True if it was one. ``undo`` raises
        :class:`Rewind`, ``again`` :class:`Again`, ``quit`` :class:`Quit`."""
        c = self.console
        word = command_word(self.variant, line)
        if word in ("quit", "q", "exit"):
            raise Quit
        if word in ("help", "?", "h") or not word:
            for text in help_text(self.variant, self.mode):
                c.say(text)
            return True
        if word == "again":
            raise Again
        if word == "hint":
            self._hint(deadline)
            return True
        if word == "undo":
            self._undo()
            raise Rewind
        if word in ("fix", "confirm", "ok") and self.guesser is not None:
            self._fix(line)
            return True
        return False

    def _undo(self) -> None:
        c, g = self.console, self.guesser
        if not self.history:
            c.say("  nothing to undo.")
            return
        who = self.history.pop()
        if who == "you":
            e = self.result.your_guesses.pop()
            self.host.guesses -= 1
            c.say(f"  took back your guess {e['guess']}.")
        else:
            self.result.computer_guesses.pop()
            e = g.undo()
            c.say(f"  took back your score for {e.text}.")
            self.result.your_secret = None

    def _fix(self, line: str) -> None:
        c, g, v = self.console, self.guesser, self.variant
        k = apply_fix(g, v, line, c)
        if k is None:
            return
        e = g.log[k - 1]
        self.result.computer_guesses[k - 1].update(bulls=e.bulls, cows=e.cows)
        if k in g.confirmed:
            c.say(f"  score #{k} for {e.text} stays {e.reply(v)}: I will look elsewhere.")
        else:
            c.say(f"  score #{k} for {e.text} is now {format_reply(v, e.bulls, e.cows)}.")

    def _hint(self, deadline: Deadline) -> None:
        """What your replies leave and the best next guess (the same advice call as my own
        guesses), or, in host mode, how many secrets your scores leave me."""
        c = self.console
        if self.mode == "host":
            g = self.guesser
            n = g.candidates
            c.say("  your scores contradict each other." if g.inconsistent is not None else
                  f"  your scores leave {n} possible secret{'s' if n != 1 else ''}.")
            return
        if self._hinter is None or len(self._hinter.log) != len(self.result.your_guesses):
            self._hinter = Guesser(self.variant, strategy=self.strategy, guesses=self.guesses,
                                   log=self._your_log(), objective=self.objective,
                                   service=self.yours)
        advice = self._hinter.suggest(deadline)
        n = advice.candidates
        codes = self._hinter.candidate_codes(limit=6, deadline=deadline) if n is not None else []
        shown = " ".join(codes) + (" ..." if n is not None and n > len(codes) else "")
        count = "?" if n is None else str(n)
        c.say(f"  your guesses leave {count} possible secret{'s' if n != 1 else ''}: {shown}")
        c.say(f"  best next guess: {advice.guess} ({advice.strategy})")

    def _repair(self) -> None:
        """Stay here until the scores are consistent again (fix, confirm, undo) or the player
        quits."""
        c, g = self.console, self.guesser
        short = "B" if self.variant.bulls_only else ("B W" if self.variant.pegs else "B C")
        while g.inconsistent is not None:
            for line in g.inconsistent.describe(g.log):
                c.say(line)
            c.say(f"  Type fix K {short} to correct score K, confirm K if score K is right, "
                  "or undo to take back your last move.")
            version = g.version
            while g.version == version:
                line, deadline = self._ask("Correction: ")
                if not self._command(line, deadline):
                    c.say("  type fix K followed by the score, confirm K, undo, or quit.")
        c.say("  Thanks, your scores are consistent again.")

    def _finish(self) -> None:
        c, r = self.console, self.result
        if self.host:
            r.secret = self.host.secret_text
        if r.quit:
            if self.host:
                c.say(f"My secret was {r.secret}.")
            return
        if self.mode == "both":
            if self.you_done and self.me_done:
                r.winner = "draw"
                n = len(r.your_guesses)
                c.say(f"A draw: we both needed {n} guess{'es' if n != 1 else ''}.")
            elif self.you_done:
                r.winner = "you"
                c.say("You win!")
            else:
                r.winner = "computer"
                c.say(f"I win! My secret was {r.secret}.")
        else:
            r.winner = "you" if self.mode == "guess" else "computer"


def _host(variant, host, mode, seed, secret):
    """The code-maker: honest (a secret drawn or given) or shifting (cbsolve/play/hosts.py)."""
    if host == "honest":
        return Host(variant, seed=seed, secret=secret) if mode != "host" else None
    from .hosts import ShiftingHost, check_host

    check_host(host)
    if mode == "host":
        raise CbsolveError(f"--host {host} is the computer as code-maker: use --mode guess or "
                           "both")
    shifting = ShiftingHost(variant, host)
    shifting.new(secret)
    return shifting


def play(variant: Variant, mode: str = "both", console: Console | None = None,
         **kwargs) -> GameResult:
    """Play one game on ``console`` (stdin/stdout by default); returns its record."""
    return Game(variant, mode, console, **kwargs).run()


__all__ = ["CbsolveError", "Game", "GameResult", "MODES", "play"]
