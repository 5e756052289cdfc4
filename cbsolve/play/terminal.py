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

from . import loop
from ..errors import CbsolveError, InconsistentLog, InvalidCode, InvalidFeedback, unknown_name
from ..game.variant import Variant
from ..runtime.deadline import Deadline, Turns
from ..runtime.time_policy import ASSIST_SECONDS
from .coach import Coach, describe, record
from .commands import PLAY, action, play_help, short_reply
from .engine import Host
from .inputs import Console, format_reply, read_score, reply_syntax
from .state import GameResult, GameState, check_play

MODES = ("both", "guess", "host")


def help_text(variant: Variant, mode: str) -> list[str]:
    """Every command, at every prompt."""
    return play_help(variant, mode)


def welcome(state: GameState) -> list[str]:
    """What a new game says: the computer's secret chosen (or the shifting host's rule), and
    what to type for the computer's guesses."""
    lines, maker = [], state.maker
    if maker:
        example = maker.space.format(maker.space.code_at(0))
        chosen = ("I have chosen a secret" if isinstance(maker, Host) else
                  f"I play the {maker.host} host: I keep every secret my replies allow")
        lines.append(f"{chosen}. Codes look like {example}.")
    if state.breaker:
        lines.append("Think of a secret; I will guess it. Score my guesses as "
                     f"{reply_syntax(state.variant)}.")
    return lines


def ending(state: GameState) -> str | None:
    """The last line of a finished game (:meth:`GameState.finish`): the secret after a quit,
    the result of a game both ways; None when there is nothing more to say."""
    r = state.result
    if r.quit:
        return f"My secret was {r.secret}." if state.maker else None
    if r.winner == "draw":
        n = len(r.your_guesses)
        return f"A draw: we both needed {n} guess{'es' if n != 1 else ''}."
    if state.mode == "both":
        return "You win!" if r.winner == "you" else f"I win! My secret was {r.secret}."
    return None


class Game:
    """One game on a console (the only I/O), driven by the one game loop (:mod:`.loop`):
    :meth:`run`. The game itself is a :class:`~.state.GameState`; this face reads the lines
    and says what happened. Where it waits: a guess of yours, a score for my guess, a
    correction of your scores (``repairing``), or a line after I found no guess in time
    (``retry``)."""

    def __init__(self, variant: Variant, mode: str = "both", console: Console | None = None,
                 strategy: str = "minimax", seed: int | None = None, secret: str | None = None,
                 guesses: str = "all", coach: bool = False, objective: str = "worst",
                 time_limit: float | None = ASSIST_SECONDS, turns: Turns | None = None,
                 host: str = "honest"):
        """``turns``: one Deadline a turn, made by the session loop (else ``time_limit``
        seconds a turn), shared by the advice, ``hint`` and the coach's review."""
        if mode not in MODES:
            raise unknown_name("mode", mode, MODES)
        check_play(mode, host, coach)
        self.variant, self.mode = variant, mode
        self.turns = turns if turns is not None else Turns(time_limit)
        self.console = console or Console()
        self.state = GameState(variant, mode, strategy=strategy, guesses=guesses,
                               objective=objective, seed=seed, secret=secret, host=host)
        self.coach = (Coach(self.state.yours, objective=objective, strategy=strategy)
                      if coach else None)
        self.allowed = self.state.legal(PLAY)
        self.pending: str | None = None     # my guess, waiting for its score
        self.repairing: str | None = None   # "record" / "move": your scores being corrected
        self.retry = False                  # I found no guess in time: waiting for a line
        self.version = 0                    # the log's version the correction was asked at

    @property
    def result(self) -> GameResult:
        return self.state.result

    def run(self) -> GameResult:
        loop.run(self, lambda prompt: self.console.ask(prompt).strip(), self.turns)
        return self._finish()

    # --- the loop's questions ------------------------------------------------------------
    def begin(self, turns: Turns) -> None:
        self.console.say(f"cbsolve play ({self.mode}): {self.variant.describe()}. "
                         "Type help for the commands.")
        self._welcome()

    def to_move(self) -> bool:
        return (self.pending is None and self.repairing is None and not self.retry
                and self.state.turn() == "me")

    def prompt(self) -> str | None:
        if self.repairing:
            return "Correction: "
        if self.retry:
            return "> "
        if self.pending is not None:
            return f"Score for {self.pending}: "
        if self.state.turn() == "you":
            return f"Your guess #{len(self.result.your_guesses) + 1}: "
        return None

    def step(self, line: str, deadline: Deadline) -> bool:
        if self.repairing:
            return self._correction(line, deadline)
        if self.retry:
            return self._retried(line, deadline)
        if self.pending is not None:
            return self._scored(line, deadline)
        return self._guessed(line, deadline)

    def end_of_input(self) -> None:
        self._abandon()

    # --- your guesses --------------------------------------------------------------------
    def _welcome(self) -> None:
        for line in welcome(self.state):
            self.console.say(line)

    def _guessed(self, line: str, deadline: Deadline) -> bool:
        c = self.console
        handled = self._command(line, deadline)
        if handled is not None:
            return handled
        try:
            entry = self.state.score_yours(line, deadline)
        except InvalidCode as exc:
            c.say(f"  {exc}; try again (help lists the commands).")
            return True
        review = (self.coach.review(self.state.your_log(), entry["guess"], deadline)
                  if self.coach is not None else None)
        self.state.keep_yours(entry)
        k = len(self.result.your_guesses)
        c.say(f"  {entry['guess']}: {format_reply(self.variant, entry['bulls'], entry['cows'])}")
        if review is not None:
            entry["coach"] = record(review)
            c.say(f"  {describe(review)}")
            c.say(f"    ({review.method})")
        if entry["bulls"] == self.variant.length:
            c.say(f"  You found my secret in {k} guess{'es' if k != 1 else ''}!")
        return True

    # --- my guesses ----------------------------------------------------------------------
    def move(self, deadline: Deadline) -> None:
        """My guess, within the turn's ``deadline``; a correction first when your scores
        cannot all be right."""
        c, g = self.console, self.state.breaker
        if g.inconsistent is not None:      # an undo left an earlier mistake in place
            self._repair("move")
            return
        try:
            advice = self.state.my_move(deadline)
        except InconsistentLog:             # the solver found the conflict
            if g.inconsistent is not None:
                self._repair("move")
            return
        if advice.guess is None:    # beyond the filter the search may find none in time
            c.say(f"  I found no code that fits your scores in time ({advice.note}); type undo "
                  "if a score was wrong, quit to stop, or press Enter and I try again.")
            self.retry = True
            return
        left = "" if advice.candidates is None else \
            (f" ({'' if advice.exact else 'at least '}{advice.candidates} "
             f"secret{'s' if advice.candidates != 1 else ''} possible)")
        c.say(f"My guess #{len(g.log) + 1}: {advice.guess}{left}")
        self.pending = advice.guess

    def _retried(self, line: str, deadline: Deadline) -> bool:
        self.retry = False
        if line:
            handled = self._command(line, deadline)
            if handled is False:
                return False
            if handled is None:
                self.console.say(f"  {line!r} is not a command here (help lists them).")
        self.state.breaker.forget_suggestion()
        return True

    def _scored(self, line: str, deadline: Deadline) -> bool:
        try:
            reply = read_score(self.variant, line)
        except InvalidFeedback as exc:
            self.console.say(f"  {exc}; try again.")
            return True
        if reply is None:
            handled = self._command(line, deadline)
            if handled is None:
                self.console.say(f"  {line!r} is not a score; type {reply_syntax(self.variant)} "
                                 "(help lists the commands).")
            return handled is not False
        guess, self.pending = self.pending, None
        try:
            self.state.record(guess, *reply)
        except InconsistentLog:
            self._repair("record")
            return True
        self._found()
        return True

    def _found(self) -> None:
        g = self.state.breaker
        if self.state.me_done:
            last = g.log[-1]
            self.result.your_secret = last.text
            n = len(g.log)
            self.console.say(f"  I found your secret {last.text} in {n} "
                             f"guess{'es' if n != 1 else ''}.")

    def _repair(self, kind: str) -> None:
        """Ask for corrections until the scores are consistent again (fix, confirm, undo) or
        the player quits; ``kind``: after a score was recorded, or before my move."""
        self.repairing = kind
        self._conflict()

    def _conflict(self) -> None:
        c, g = self.console, self.state.breaker
        for line in g.inconsistent.describe(g.log):
            c.say(line)
        c.say(f"  Type fix K {short_reply(self.variant)} to correct score K, confirm K if "
              "score K is right, or undo to take back your last move.")
        self.version = g.version

    def _correction(self, line: str, deadline: Deadline) -> bool:
        handled = self._command(line, deadline)
        if handled is False:
            return False
        if handled is None:
            self.console.say("  type fix K followed by the score, confirm K, undo, or quit.")
        g = self.state.breaker
        if self.repairing is None or g.version == self.version:   # undo, again: no longer
            return True
        if g.inconsistent is not None:
            self._conflict()
            return True
        kind, self.repairing = self.repairing, None
        self.console.say("  Thanks, your scores are consistent again.")
        if kind == "record":
            self._found()
        return True

    # --- commands ------------------------------------------------------------------------
    def _command(self, line: str, deadline: Deadline) -> bool | None:
        """A command typed at any prompt: True when handled, False when it ends the session
        (quit), None when the line is no command."""
        c = self.console
        act = action(self.variant, line, self.allowed)
        if act is None:
            return None
        if act == "quit":
            self._abandon()
            return False
        if act in ("help", "blank"):
            for text in help_text(self.variant, self.mode):
                c.say(text)
        elif act == "again":
            self._new_game()
        elif act == "hint":
            self._hint(deadline)
        elif act == "undo":
            self._undo()
            self._rewind()
        else:
            self._fix(line)
        return True

    def _rewind(self) -> None:
        """After undo or again: whose turn it is is asked again."""
        self.pending, self.repairing, self.retry = None, None, False

    def _abandon(self) -> None:
        self.result.quit = True
        self.console.say("Game abandoned.")

    def _new_game(self) -> None:
        left = self.state.new()
        left.quit = True
        self.console.say("New game." + (f" My secret was {left.secret}." if self.state.maker
                                        else ""))
        self.result.earlier = [*left.earlier, left.to_json()]
        self._rewind()
        self._welcome()

    def _undo(self) -> None:
        taken = self.state.undo()
        if taken is None:
            self.console.say("  nothing to undo.")
        elif taken[0] == "you":
            self.console.say(f"  took back your guess {taken[1]['guess']}.")
        else:
            self.console.say(f"  took back your score for {taken[1].text}.")

    def _fix(self, line: str) -> None:
        c, g, v = self.console, self.state.breaker, self.variant
        try:
            k = self.state.fix(line)
        except InvalidFeedback as exc:
            c.say(f"  {exc}; try again.")
            return
        e = g.log[k - 1]
        if k in g.confirmed:
            c.say(f"  score #{k} for {e.text} stays {e.reply(v)}: I will look elsewhere.")
        else:
            c.say(f"  score #{k} for {e.text} is now {format_reply(v, e.bulls, e.cows)}.")

    def _hint(self, deadline: Deadline) -> None:
        """What your replies leave and the best next guess (the same advice call as my own
        guesses), or, in host mode, how many secrets your scores leave me."""
        c = self.console
        if self.mode == "host":
            g = self.state.breaker
            n = g.candidates
            c.say("  your scores contradict each other." if g.inconsistent is not None else
                  f"  your scores leave {n} possible secret{'s' if n != 1 else ''}.")
            return
        advice, codes = self.state.your_advice(deadline)
        n = advice.candidates
        shown = " ".join(codes) + (" ..." if n is not None and n > len(codes) else "")
        count = "?" if n is None else str(n)
        c.say(f"  your guesses leave {count} possible secret{'s' if n != 1 else ''}: {shown}")
        c.say(f"  best next guess: {advice.guess} ({advice.strategy})")

    def _finish(self) -> GameResult:
        r = self.state.finish()
        said = ending(self.state)
        if said:
            self.console.say(said)
        return r


def play(variant: Variant, mode: str = "both", console: Console | None = None,
         **kwargs) -> GameResult:
    """Play one game on ``console`` (stdin/stdout by default); returns its record."""
    return Game(variant, mode, console, **kwargs).run()


__all__ = ["CbsolveError", "Game", "GameResult", "MODES", "play"]
