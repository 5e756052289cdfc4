"""``cbsolve bot``: a line protocol on stdin/stdout for referee matches.

One command a line, exactly one answer line each (answers are flushed at once):

==================  ====================================================================
``new``             ``ok`` — a new game: the bot draws a fresh secret and forgets its guesses
``guess``           the bot's next guess, e.g. ``0123`` (asked again before a score: the same)
``score B C``       ``ok`` — the score of its last guess (bulls-only variants: ``score B``);
                    ``inconsistent N M`` when the scores so far cannot all be right, naming
                    a minimal set of conflicting entries (numbered from 1)
``check GUESS``     ``B C`` — the opponent's guess scored against the bot's secret
                    (bulls-only variants: ``B``)
``quit``            ``ok``, then the bot exits
==================  ====================================================================

Anything wrong (unknown command, malformed score, invalid code, a score before any guess, a
guess after the game was won) is answered with one ``error <reason>`` line; the bot never
crashes on input. A game is ready at start-up, so ``new`` is optional before the first one.

The opening guess of the deterministic strategies is computed at start-up and reused by every
``new``, so ``guess`` answers quickly from the first turn on (50 ms is a common referee limit).
"""
from __future__ import annotations

import sys

from . import loop
from ..runtime import time_policy
from ..runtime.deadline import Deadline, Turns
from ..errors import CbsolveError, Expired, InconsistentLog
from ..inputs import MAX_LINE_BYTES, read_line
from ..game.variant import Variant
from .commands import PROTOCOL, PROTOCOL_HELP
from .inputs import input_stream, parse_reply
from .state import GameState

COMMANDS = PROTOCOL_HELP
#: Largest space whose replies to the opening are all answered at start-up (Bulls & Cows 4/10,
#: 5,040 codes: 14 positions in about a second).
PRECOMPUTE_CODES = 10_000
#: Share of the first answer's budget left after start-up that precomputing those replies may
#: take (the first ``guess`` waits for it).
PRECOMPUTE_SHARE = 0.5


class Bot:
    """The protocol state machine over one :class:`~.state.GameState` (both sides: the bot's
    secret and its guesses); :meth:`handle` maps one command line to one answer line."""

    def __init__(self, variant: Variant, strategy: str = "minimax", seed: int | None = None,
                 guesses: str = "all", objective: str = "worst",
                 time_limit: float | None = time_policy.ASSIST_SECONDS, first_deadline=None,
                 turns: Turns | None = None):
        """``turns``: one Deadline a turn (a command line), made by the session loop
        (:func:`serve`); else ``time_limit`` seconds a turn, the first one ``first_deadline``
        when a face made it already (``cbsolve bot``: from the process's start, so the
        start-up and the warm-up below count against the first request's limit)."""
        import numpy as np

        self.variant = variant
        self.state = GameState(variant, "bot", strategy=strategy, guesses=guesses,
                               objective=objective, seeds=np.random.SeedSequence(seed).spawn(2))
        self.turns = turns if turns is not None else Turns(time_limit, first_deadline)
        self.pending: str | None = None   # last guess, waiting for its score
        self.solved = False
        self.done = False
        try:  # warm up: the opening (instant, in closed form) and, on small games, the
            # reply to every answer to it (cached across games) within a share of the first
            # answer's budget; on large ones that would hold the first answer for seconds
            # (Bulls & Cows 6/10: 24 replies); the first turn's Deadline
            deadline = self.turns.start()
            if self.guesser.space.size <= PRECOMPUTE_CODES:
                self.guesser.precompute(depth=1, deadline=deadline.part(PRECOMPUTE_SHARE))
            self.guesser.suggest(deadline)
        except Expired:
            raise
        except CbsolveError:
            pass

    @property
    def host(self):
        """The bot's secret's keeper (the game's code-maker)."""
        return self.state.maker

    @property
    def guesser(self):
        """The bot's guesses (the game's code-breaker)."""
        return self.state.breaker

    def new(self) -> str:
        self.state.new()
        self.pending, self.solved = None, False
        return "ok"

    def guess(self, deadline: Deadline | None = None) -> str:
        if self.solved:
            return "error game over: your last score was all bulls; send new"
        if self.pending is None:
            try:
                advice = self.state.my_move(deadline)
            except InconsistentLog as exc:
                return "error inconsistent " + " ".join(map(str, exc.conflict or []))
            if advice.guess is None:
                return "error no guess found within the time limit"
            self.pending = advice.guess
        return self.pending

    def score(self, args: str) -> str:
        if self.pending is None:
            return "error no guess to score; send guess first"
        reply = parse_reply(self.variant, args)
        if reply is None:
            syntax = "score B" if self.variant.bulls_only else "score B C"
            return f"error malformed score {args!r}; expected {syntax}"
        guess, self.pending = self.pending, None
        try:
            self.state.record(guess, *reply)  # think at the next guess
        except InconsistentLog as exc:
            return "inconsistent " + " ".join(map(str, exc.conflict or []))
        if reply[0] == self.variant.length:
            self.solved = True
        return "ok"

    def check(self, args: str) -> str:
        entry = self.state.score_yours(args, None)      # an honest host: no time to spend
        return f"{entry['bulls']}" if self.variant.bulls_only else \
            f"{entry['bulls']} {entry['cows']}"

    def handle(self, line: str, deadline: Deadline | None = None) -> str:
        """One answer line for one command line, within ``deadline`` (its turn's; None: a turn
        starts now); never raises for bad input."""
        deadline = deadline if deadline is not None else self.turns.start()
        word, _, args = line.strip().partition(" ")
        args = args.strip()
        act = PROTOCOL.get(word)
        try:
            if act == "again" and not args:
                return self.new()
            if act == "move" and not args:
                return self.guess(deadline)
            if act == "score":
                return self.score(args)
            if act == "check":
                if not args:
                    return "error check needs a code: check GUESS"
                return self.check(args)
            if act == "quit":
                self.done = True
                return "ok"
            if not word:
                return f"error empty command; expected one of: {COMMANDS}"
            return f"error unknown command {line.strip()!r}; expected one of: {COMMANDS}"
        except KeyboardInterrupt:        # Ctrl-C, a search's SearchInterrupted too: the end
            raise
        except Expired as exc:           # a stop no command reported: a bug, said as one
            return f"error internal {type(exc).__name__}: {_one_line(str(exc))}"
        except CbsolveError as exc:
            return f"error {_one_line(str(exc))}"
        except Exception as exc:  # never crash under a referee; say what happened
            return f"error internal {type(exc).__name__}: {_one_line(str(exc))}"


def _one_line(text: str) -> str:
    return " ".join(text.split())


class _Protocol:
    """The bot as a face of the one game loop (:mod:`.loop`): no prompt, one answer line a
    command line, flushed at once."""

    def __init__(self, bot: Bot, stdin, stdout):
        self.bot, self.stdin, self.stdout = bot, input_stream(stdin), stdout or sys.stdout
        self.commands = 0

    def read(self, prompt: str) -> str | None:
        try:
            line = read_line(self.stdin)
        except CbsolveError as exc:      # an overlong line: answered, and its rest skipped
            self._answer(f"error {_one_line(str(exc))}")
            while line_rest := self.stdin.readline(MAX_LINE_BYTES):
                if line_rest.endswith("\n"):
                    break
            return None
        if not line:
            raise EOFError
        return line

    def _answer(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def begin(self, turns: Turns) -> None:
        pass                             # the warm-up took the first turn's Deadline

    def to_move(self) -> bool:
        return False                     # the bot moves when the referee asks

    def prompt(self) -> str | None:
        return None if self.bot.done else ""

    def step(self, line: str, deadline: Deadline) -> bool:
        self._answer(self.bot.handle(line, deadline))
        self.commands += 1
        return not self.bot.done

    def end_of_input(self) -> None:
        pass


def serve(bot: Bot, stdin=None, stdout=None) -> int:
    """Answer commands until ``quit`` or end of input; returns the number of commands."""
    face = _Protocol(bot, stdin, stdout)
    loop.run(face, face.read, bot.turns)
    return face.commands
