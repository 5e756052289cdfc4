"""Reading what a person types: codes, scores and small commands, with messages that say what
is allowed (the interactive loops print them and ask again).

>>> from cbsolve.variant import Variant
>>> v = Variant.preset("bulls-cows")
>>> parse_reply(v, "1 2"), parse_reply(v, "1,2"), parse_reply(v, "1A2B"), parse_reply(v, "undo")
((1, 2), (1, 2), (1, 2), None)
>>> parse_reply(v, "3 1")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cbsolve.errors.InvalidFeedback: 3 bulls and 1 cow is impossible with 4 positions ...
"""
from __future__ import annotations

import io
import re
import sys

from ..errors import InvalidFeedback
from ..feedback import reply_count
from ..inputs import read_line
from ..variant import Variant

_PAIR = re.compile(r"^\s*(\d+)\s*(?:[,\s/]\s*|[Aa]\s*)(\d+)\s*[Bb]?\s*$")
_ONE = re.compile(r"^\s*(\d+)\s*[Aa]?\s*$")


def reply_syntax(variant: Variant) -> str:
    return "B (bulls)" if variant.bulls_only else "B C, B,C or xAyB (bulls then cows)"


def parse_reply(variant: Variant, text: str) -> tuple[int, int] | None:
    """(bulls, cows) from ``B C``, ``B,C``, ``xAyB`` (bulls-only: ``B``).

    Returns None when the text is not a score at all (the caller may try a command); raises
    :class:`InvalidFeedback` when it is a score that cannot occur in this variant.
    """
    n = variant.length
    m = _PAIR.match(text)
    if m:
        bulls, cows = reply_count(m.group(1), n), reply_count(m.group(2), n)
        if variant.bulls_only and cows:
            raise InvalidFeedback(f"this variant reports bulls only; type {reply_syntax(variant)}")
    else:
        m = _ONE.match(text)
        if not m:
            return None
        if not variant.bulls_only:
            raise InvalidFeedback(f"score {text.strip()!r} has no cows; type "
                                  f"{reply_syntax(variant)}")
        bulls, cows = reply_count(m.group(1), n), 0
    if bulls + cows > n:
        raise InvalidFeedback(f"bulls + cows = {bulls + cows} exceeds the length {n}; "
                              f"allowed totals 0..{n}")
    if not variant.bulls_only and bulls == n - 1 and cows == 1:
        raise InvalidFeedback(f"{n - 1} bulls and 1 cow is impossible with {n} positions "
                              "(the last symbol would be a bull)")
    return bulls, cows


def format_reply(variant: Variant, bulls: int, cows: int) -> str:
    b = f"{bulls} bull{'s' if bulls != 1 else ''}"
    return b if variant.bulls_only else f"{b}, {cows} cow{'s' if cows != 1 else ''}"


class Console:
    """Line-oriented terminal I/O that the loops use, so tests can drive them with scripts.

    ``ask`` raises EOFError at the end of input. When input is not a terminal the typed line is
    echoed after the prompt, so a transcript of a scripted session reads like a real one.
    """

    def __init__(self, stdin=None, stdout=None, echo: bool | None = None):
        self.stdin = input_stream(stdin)
        self.stdout = stdout or sys.stdout
        self.interactive = _isatty(self.stdin) and _isatty(self.stdout)
        self.echo = (not _isatty(self.stdin)) if echo is None else echo

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str:
        if self.interactive and self.stdin is sys.stdin and self.stdout is sys.stdout:
            try:
                return input(prompt)  # line editing through readline when a person types
            except EOFError:          # Ctrl-D: leave the prompt's line before the goodbye
                self.stdout.write("\n")
                self.stdout.flush()
                raise
        self.stdout.write(prompt)
        self.stdout.flush()
        line = read_line(self.stdin)
        if not line:
            self.stdout.write("\n")
            raise EOFError
        line = line.rstrip("\r\n")
        if self.echo:
            self.stdout.write(line + "\n")
            self.stdout.flush()
        return line


def input_stream(stream=None):
    """``stream``, else stdin; an empty stream when the process was started with its stdin
    closed (Python then sets ``sys.stdin`` to None): closed stdin is the end of input, as
    supervisors that start children that way expect."""
    stream = stream if stream is not None else sys.stdin
    return stream if stream is not None else io.StringIO("")


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
