"""Referee: two bots speaking the ``cbsolve bot`` protocol play each other.

Each game: ``new`` to both; then rounds. In a round bot A asks ``guess``, the referee asks B to
``check`` it and tells A the ``score``; then the same with the roles swapped. The first bot to
score all bulls wins; if both do so in the same round it is a draw (B always gets the round's
second turn, so moving first is no advantage). The referee validates every guess with the
variant's code space and times every answer; a bot that answers ``error``, names a
malformed code, exceeds the per-answer time limit or stops answering loses the game.

Bots are any objects with ``ask(line) -> str`` (:class:`BotProcess` wraps a subprocess, e.g.
``python -m cbsolve bot --strategy entropy``; :class:`LocalBot` wraps an in-process
:class:`~cbsolve.play.bot.Bot`).
"""
from __future__ import annotations

import queue
import subprocess
import threading
import time
from dataclasses import dataclass, field

from ..game.codes import CodeSpace
from ..errors import CbsolveError
from ..game.variant import Variant
from .commands import PROTOCOL

#: What the referee sends for each action of the bot protocol (the one vocabulary, play/commands.py).
SAY = {act: word for word, act in PROTOCOL.items()}


class BotFailure(CbsolveError):
    """A bot broke the protocol (error answer, bad code, timeout, exit); ``bot`` is the culprit."""

    def __init__(self, message: str, bot=None):
        super().__init__(message)
        self.bot = bot


class BotCannotStart(CbsolveError):
    """A bot that cannot be started, or that never answers its first command: no match can be
    played (the CLI: one line, exit 2)."""


#: Seconds a bot may take to answer its first command (it may precompute its opening: about 1 s
#: for minimax on Bulls & Cows 4/10, much longer on large games); ``--startup-timeout``.
STARTUP_TIMEOUT = 120.0
#: Seconds a bot may take to answer any later command; ``--timeout``.
ANSWER_TIMEOUT = 10.0
#: Seconds a bot has to exit after ``quit`` before it is killed.
CLOSE_SECONDS = 5.0
#: Longest stderr line a fault quotes.
STDERR_SHOWN = 200


class BotProcess:
    """A bot in a subprocess; answers are read by a thread so a silent bot cannot hang us, and
    its stderr by another, which keeps the last line for the fault messages."""

    def __init__(self, argv: list[str], name: str | None = None, timeout: float = ANSWER_TIMEOUT,
                 startup_timeout: float = STARTUP_TIMEOUT):
        self.name = name or " ".join(argv)
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self.first = True
        #: Set by a fault (a timeout, an exit, a protocol error): such a bot is not waited for
        #: at the end, it is killed (a silent bot held the referee CLOSE_SECONDS more).
        self.broken = False
        self.stderr_line = ""
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, bufsize=1,
                                         errors="replace")
        except FileNotFoundError:
            raise BotCannotStart(f"{self.name} cannot start: no such program "
                                 f"{argv[0] if argv else ''!r}") from None
        except OSError as exc:
            raise BotCannotStart(f"{self.name} cannot start: {exc.strerror or exc}") from None
        self.lines: queue.Queue = queue.Queue()
        #: Set once the end of its output was read: no answer can come any more, so a later
        #: question fails at once (a question written in the instant before an exiting bot's
        #: input closed had waited the whole answer timeout).
        self.output_closed = False
        threading.Thread(target=self._pump, daemon=True).start()
        self._stderr_done = threading.Event()
        threading.Thread(target=self._pump_stderr, daemon=True).start()

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def _pump_stderr(self) -> None:
        for line in self.proc.stderr:
            if line.strip():
                self.stderr_line = line.strip()[:STDERR_SHOWN]
        self._stderr_done.set()

    def last_stderr(self) -> str:
        """The bot's last non-blank stderr line ('' if none); after it exited, all it wrote."""
        if self.proc.poll() is not None:
            self._stderr_done.wait(1.0)
        return self.stderr_line

    def _failure(self, message: str) -> CbsolveError:
        self.broken = True
        said = self.last_stderr()
        message = f"{self.name}: {message}" + (f" (its stderr: {said})" if said else "")
        if self.first:
            return BotCannotStart(message.replace(f"{self.name}: ", f"{self.name} cannot start: ",
                                                  1))
        return BotFailure(message, self)

    def ask(self, line: str) -> str:
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._failure(f"exited (cannot send {line!r})") from None
        if self.output_closed:
            raise self._failure(f"exited before {line!r} (its output is closed)")
        limit = self.startup_timeout if self.first else self.timeout
        try:
            answer = self.lines.get(timeout=limit)
        except queue.Empty:
            raise self._failure(f"no answer to {line!r} within {limit:g} s") from None
        if answer is None:
            self.output_closed = True
            raise self._failure(f"exited while answering {line!r}")
        self.first = False
        return answer

    def close(self) -> None:
        """:meth:`send_quit`, then :meth:`wait_or_kill` (one bot; :func:`close_all` ends
        several at once)."""
        self.send_quit()
        self.wait_or_kill(time.monotonic() + CLOSE_SECONDS)

    def send_quit(self) -> None:
        """``quit`` and end of input to a bot that kept the protocol; a broken bot (a fault:
        silent, exited, or answering out of protocol, as ``yes`` does) is killed at once, and
        so is one that never answered (still starting up: it has nothing to finish)."""
        if self.broken or self.first:
            self.proc.kill()
            return
        try:
            if self.proc.poll() is None:
                self.proc.stdin.write(SAY["quit"] + "\n")
            self.proc.stdin.close()
        except OSError:
            pass

    def wait_or_kill(self, until: float) -> None:
        """Wait for the bot to exit until ``until`` (``time.monotonic()``), then kill it (one
        still starting up would otherwise hold the referee for its whole start-up)."""
        try:
            self.proc.wait(timeout=max(0.0, until - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def close_all(bots) -> None:
    """End every bot of ``bots`` together: each is told to quit (or killed, if broken), then
    all share one CLOSE_SECONDS wait, so two bots cost one wait, not two in a row."""
    for bot in bots:
        if isinstance(bot, BotProcess):
            bot.send_quit()
        else:
            bot.close()
    until = time.monotonic() + CLOSE_SECONDS
    for bot in bots:
        if isinstance(bot, BotProcess):
            bot.wait_or_kill(until)


class LocalBot:
    """An in-process bot (tests, quick experiments)."""

    def __init__(self, bot, name: str = "local"):
        self.bot, self.name = bot, name

    def ask(self, line: str) -> str:
        return self.bot.handle(line)

    def close(self) -> None:
        self.bot.handle(SAY["quit"])


@dataclass
class Side:
    name: str
    wins: int = 0
    losses: int = 0
    draws: int = 0
    faults: int = 0
    guesses: list[int] = field(default_factory=list)   # guesses used in each game it solved
    guess_seconds: list[float] = field(default_factory=list)
    score_seconds: list[float] = field(default_factory=list)
    fault_messages: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        n = len(self.guesses)
        t = sorted(self.guess_seconds)
        return {"name": self.name, "wins": self.wins, "losses": self.losses, "draws": self.draws,
                "faults": self.faults, "solved": n,
                "average_guesses": round(sum(self.guesses) / n, 4) if n else None,
                "worst_guesses": max(self.guesses) if n else None,
                "guess_ms_median": round(1000 * t[len(t) // 2], 3) if t else None,
                "guess_ms_max": round(1000 * t[-1], 3) if t else None,
                "score_ms_max": (round(1000 * max(self.score_seconds), 3)
                                 if self.score_seconds else None),
                "fault_messages": self.fault_messages[:5]}


def _expect(bot, line: str, want: str | None = None) -> str:
    answer = bot.ask(line)
    if answer.startswith("error"):
        raise BotFailure(f"{bot.name}: {answer!r} to {line!r}", bot)
    if want is not None and answer != want:
        raise BotFailure(f"{bot.name}: answered {answer!r} to {line!r}; expected {want!r}", bot)
    return answer


def _turn(variant: Variant, space: CodeSpace, me, other, side: Side) -> bool:
    """One guess of ``me`` against ``other``'s secret; True if it was all bulls."""
    start = time.perf_counter()
    guess = _expect(me, SAY["move"])
    side.guess_seconds.append(time.perf_counter() - start)
    try:
        space.parse(guess)
    except CbsolveError as exc:
        raise BotFailure(f"{me.name}: invalid guess {guess!r}: {exc}", me) from None
    reply = _expect(other, f"{SAY['check']} {guess}")
    parts = reply.split()
    want = 1 if variant.bulls_only else 2
    if len(parts) != want or not all(p.isdigit() for p in parts):
        raise BotFailure(f"{other.name}: malformed check answer {reply!r}", other)
    start = time.perf_counter()
    answer = _expect(me, f"{SAY['score']} {reply}")
    side.score_seconds.append(time.perf_counter() - start)
    if answer != "ok":  # "inconsistent ...": the checker's replies contradict each other
        raise BotFailure(f"{other.name}: its scores were called {answer!r} by {me.name}", other)
    return int(parts[0]) == variant.length


def play_game(variant: Variant, a, b, sa: Side, sb: Side, max_rounds: int = 100) -> str:
    """One game; returns "a", "b", "draw", or "a-fault"/"b-fault" (the other one wins)."""
    space = CodeSpace(variant)
    try:
        _expect(a, SAY["again"], "ok")
        _expect(b, SAY["again"], "ok")
        for rnd in range(1, max_rounds + 1):
            a_won = _turn(variant, space, a, b, sa)
            b_won = _turn(variant, space, b, a, sb)
            if a_won or b_won:
                if a_won:
                    sa.guesses.append(rnd)
                if b_won:
                    sb.guesses.append(rnd)
                return "draw" if a_won and b_won else ("a" if a_won else "b")
        return "draw"
    except BotFailure as exc:
        if hasattr(exc.bot, "broken"):
            exc.bot.broken = True            # out of protocol: killed at the end, not waited for
        who = "a" if exc.bot is a else "b"
        side = sa if who == "a" else sb
        side.faults += 1
        message = str(exc)
        said = exc.bot.last_stderr() if hasattr(exc.bot, "last_stderr") else ""
        if said and said not in message:     # what the bot said of it, in every fault
            message += f" (its stderr: {said})"
        side.fault_messages.append(message)
        return f"{who}-fault"


@dataclass
class MatchResult:
    games: int
    a: Side
    b: Side
    draws: int
    seconds: float
    faults: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"games": self.games, "a": self.a.to_json(), "b": self.b.to_json(),
                "draws": self.draws, "seconds": round(self.seconds, 3), "faults": self.faults}


def match(variant: Variant, a, b, games: int, progress=None, stop=None) -> MatchResult:
    """Play ``games`` games between bots ``a`` and ``b`` (objects with ``ask``); ``stop()``
    true ends the match between two games (Ctrl-C): ``games`` is then the games played."""
    sa, sb = Side(a.name), Side(b.name)
    draws = 0
    faults = []
    start = time.perf_counter()
    played = 0
    for _ in range(games):
        if stop is not None and stop():
            break
        played += 1
        outcome = play_game(variant, a, b, sa, sb)
        if outcome == "draw":
            draws += 1
            sa.draws += 1
            sb.draws += 1
        elif outcome in ("a", "b-fault"):
            sa.wins += 1
            sb.losses += 1
        else:
            sb.wins += 1
            sa.losses += 1
        if outcome.endswith("fault"):
            faults.append(outcome)
        if progress:
            progress()
    return MatchResult(played, sa, sb, draws, time.perf_counter() - start, faults)


def bot_argv(strategy: str, seed: int | None, variant: Variant) -> list[str]:
    """The command line of a ``cbsolve bot`` playing ``variant`` (this Python, this cbsolve)."""
    import sys

    argv = [sys.executable, "-m", "cbsolve", "bot", "--strategy", strategy,
            *([f"--variant={variant.name}"] if variant.name else []),
            f"--length={variant.length}", f"--symbols={variant.symbols}",
            "--repeats" if variant.repeats else "--distinct",
            "--no-leading-zero" if variant.no_leading_zero else "--leading-zero",
            f"--feedback={variant.feedback}"]
    if seed is not None:
        argv += ["--seed", str(seed)]
    return argv
