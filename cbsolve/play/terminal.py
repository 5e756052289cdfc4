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

from ..errors import CbsolveError, InconsistentLog, InvalidCode, InvalidFeedback
from ..feedback import FeedbackLog
from ..variant import Variant
from ..time_policy import ASSIST_SECONDS
from .engine import Guesser, Host
from .inputs import Console, format_reply, parse_reply, reply_syntax

MODES = ("both", "guess", "host")


class Quit(Exception):
    """The player typed ``quit`` (or input ended)."""


@dataclass
class GameResult:
    mode: str
    winner: str | None                    # "you", "computer", "draw", or None (quit)
    your_guesses: list[dict] = field(default_factory=list)
    computer_guesses: list[dict] = field(default_factory=list)
    secret: str | None = None             # the computer's secret (guess and both modes)
    your_secret: str | None = None        # yours, once the computer found it
    quit: bool = False

    def to_json(self) -> dict:
        return {"mode": self.mode, "winner": self.winner, "quit": self.quit,
                "your_guesses": self.your_guesses, "computer_guesses": self.computer_guesses,
                "secret": self.secret, "your_secret": self.your_secret}


HELP_GUESS = "Type a code to guess, or: quit."
HELP_HOST = ("Type my score as {syntax}; or: undo (take back your last score), "
             "fix K {short} (correct score K), quit.")


class Game:
    """One game; drive it with :meth:`run`. The console is the only I/O."""

    def __init__(self, variant: Variant, mode: str = "both", console: Console | None = None,
                 strategy: str = "minimax", seed: int | None = None, secret: str | None = None,
                 guesses: str = "all", coach: bool = False, objective: str = "worst",
                 time_limit: float | None = ASSIST_SECONDS):
        if mode not in MODES:
            from ..errors import unknown_name

            raise unknown_name("mode", mode, MODES)
        if coach and mode == "host":
            raise CbsolveError("the coach reviews your guesses: use --mode guess or both")
        self.variant = variant
        self.mode = mode
        self.console = console or Console()
        self.host = Host(variant, seed=seed, secret=secret) if mode != "host" else None
        self.guesser = (Guesser(variant, strategy=strategy, seed=seed, guesses=guesses,
                                objective=objective, backend_time_limit=time_limit)
                        if mode != "guess" else None)
        self.result = GameResult(mode, None, secret=None)
        self.coach = None
        if coach:
            from .coach import Coach

            self.coach = Coach(variant, objective=objective, time_limit=time_limit,
                               service=None if self.guesser is None else self.guesser.service)
        self.you_done = mode == "host"
        self.me_done = mode == "guess"

    # --- the loop ------------------------------------------------------------------------
    def run(self) -> GameResult:
        c, v = self.console, self.variant
        c.say(f"cbsolve play ({self.mode}): {v.describe()}.")
        if self.host:
            example = self.host.space.format(self.host.space.code_at(0))
            c.say(f"I have chosen a secret. Codes look like {example}.")
        if self.guesser:
            c.say(f"Think of a secret; I will guess it. Score my guesses as {reply_syntax(v)}.")
        try:
            while True:
                if not self.you_done:
                    self._your_turn()
                if not self.me_done:
                    self._my_turn()
                # both: the round is complete, so equal guess counts are a draw
                if self.you_done and self.me_done or self.mode == "both" and (
                        self.you_done or self.me_done):
                    break
        except (Quit, EOFError):
            self.result.quit = True
            c.say("Game abandoned.")
        self._finish()
        return self.result

    def _your_turn(self) -> None:
        c = self.console
        k = len(self.result.your_guesses) + 1
        while True:
            line = c.ask(f"Your guess #{k}: ").strip()
            if line.lower() in ("quit", "q", "exit"):
                raise Quit
            if line.lower() in ("help", "?", ""):
                c.say(HELP_GUESS)
                continue
            try:
                bulls, cows = self.host.check(line)
            except InvalidCode as exc:
                c.say(f"  {exc}; try again.")
                continue
            break
        entry = {"guess": line, "bulls": bulls, "cows": cows}
        review = self._review(line)
        self.result.your_guesses.append(entry)
        c.say(f"  {line}: {format_reply(self.variant, bulls, cows)}")
        if review is not None:
            entry["coach"] = review.to_json()
            c.say(f"  {review.describe()}")
            c.say(f"    ({review.label})")
        if bulls == self.variant.length:
            self.you_done = True
            c.say(f"  You found my secret in {k} guess{'es' if k != 1 else ''}!")

    def _review(self, guess: str):
        """The coach's review of ``guess`` from the position your earlier guesses left."""
        if self.coach is None:
            return None
        log = FeedbackLog(self.variant)
        for e in self.result.your_guesses:
            log.add(e["guess"], e["bulls"], e["cows"])
        return self.coach.review(log, guess)

    def _my_turn(self) -> None:
        """Ask for the score of my guess until one is recorded and all scores are consistent."""
        c, g = self.console, self.guesser
        while True:
            k = len(g.log) + 1
            version = g.version
            advice = g.suggest()
            left = "" if advice.candidates is None else \
                f" ({advice.candidates} secret{'s' if advice.candidates != 1 else ''} possible)"
            c.say(f"My guess #{k}: {advice.guess}{left}")
            reply = self._ask_score(advice.guess, version)
            if reply is None:  # undo/fix changed the log: think again
                continue
            bulls, cows = reply
            self.result.computer_guesses.append({"guess": advice.guess, "bulls": bulls,
                                                 "cows": cows})
            try:
                g.record(advice.guess, bulls, cows)
            except InconsistentLog:
                self._repair()
            if len(g.log) < k:  # the player took this score back while repairing
                continue
            last = g.log[k - 1]
            if last.bulls == self.variant.length:
                self.me_done = True
                self.result.your_secret = last.text
                c.say(f"  I found your secret {last.text} in {k} guess{'es' if k != 1 else ''}.")
            return

    def _ask_score(self, guess: str, version: int) -> tuple[int, int] | None:
        c, g = self.console, self.guesser
        while True:
            line = c.ask(f"Score for {guess}: ").strip()
            if self._command(line):
                if g.inconsistent is not None:
                    self._repair()
                if g.version != version:
                    return None
                continue
            try:
                reply = parse_reply(self.variant, line)
            except InvalidFeedback as exc:
                c.say(f"  {exc}; try again.")
                continue
            if reply is None:
                c.say(f"  {line!r} is not a score; "
                      + self._help())
                continue
            return reply

    def _command(self, line: str) -> bool:
        """Handle undo / fix / quit / help typed at a score prompt; True if it was one."""
        c, g = self.console, self.guesser
        word = line.split()[0].lower() if line.split() else ""
        if word in ("quit", "q", "exit"):
            raise Quit
        if word in ("help", "?") or not word:
            c.say(self._help())
            return True
        if word == "undo":
            entry = g.undo()
            if entry is None:
                c.say("  nothing to undo.")
            else:
                del self.result.computer_guesses[len(g.log):]
                c.say(f"  took back your score for {entry.text}.")
            return True
        if word == "fix":
            parts = line.split(None, 2)
            try:
                if len(parts) < 3 or not parts[1].isdigit():
                    raise InvalidFeedback(f"type fix K {reply_syntax(self.variant)} "
                                          f"with K in 1..{len(g.log)}")
                reply = parse_reply(self.variant, parts[2])
                if reply is None:
                    raise InvalidFeedback(f"{parts[2]!r} is not a score; type {reply_syntax(self.variant)}")
                g.fix(int(parts[1]), *reply)
            except InvalidFeedback as exc:
                c.say(f"  {exc}; try again.")
                return True
            k = int(parts[1])
            self.result.computer_guesses[k - 1].update(bulls=reply[0], cows=reply[1])
            c.say(f"  score #{k} for {g.log[k - 1].text} is now {format_reply(self.variant, *reply)}.")
            return True
        return False

    def _help(self) -> str:
        short = "B" if self.variant.bulls_only else "B C"
        return HELP_HOST.format(syntax=reply_syntax(self.variant), short=short)

    def _report_inconsistency(self) -> None:
        for line in self.guesser.inconsistent.describe(self.guesser.log):
            self.console.say(line)

    def _repair(self) -> None:
        """Stay here until the scores are consistent again (fix, undo) or the player quits."""
        c, g = self.console, self.guesser
        while g.inconsistent is not None:
            self._report_inconsistency()
            short = "B" if self.variant.bulls_only else "B C"
            c.say(f"  Type fix K {short} to correct score K, or undo to take back your last score.")
            version = g.version
            while g.version == version:
                line = c.ask("Correction: ").strip()
                if not self._command(line):
                    c.say("  type fix K followed by the score, undo, or quit.")
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
                c.say(f"A draw: we both needed {len(r.your_guesses)} guesses.")
            elif self.you_done:
                r.winner = "you"
                c.say("You win!")
            else:
                r.winner = "computer"
                c.say(f"I win! My secret was {r.secret}.")
        else:
            r.winner = "you" if self.mode == "guess" else "computer"


def play(variant: Variant, mode: str = "both", console: Console | None = None,
         **kwargs) -> GameResult:
    """Play one game on ``console`` (stdin/stdout by default); returns its record."""
    return Game(variant, mode, console, **kwargs).run()


__all__ = ["CbsolveError", "Game", "GameResult", "MODES", "play"]
