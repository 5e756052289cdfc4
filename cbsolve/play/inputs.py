"""Reading what a person types: codes, scores and small commands, with messages that say what
is allowed (the interactive loops print them and ask again).

>>> from cbsolve.game.variant import Variant
>>> v = Variant.preset("bulls-cows")
>>> parse_reply(v, "1 2"), parse_reply(v, "1,2"), parse_reply(v, "1A2B"), parse_reply(v, "undo")
((1, 2), (1, 2), (1, 2), None)
>>> parse_reply(v, "3 1")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cbsolve.errors.InvalidFeedback: 3 bulls, 1 cow is impossible with 4 positions ...
>>> m = Variant.preset("mastermind")
>>> parse_reply(m, "1B2W"), parse_reply(m, "2 black 1 white"), parse_reply(m, "2 black")
((1, 2), (2, 1), (2, 0))
"""
from __future__ import annotations

import io
import re
import sys

from ..errors import InvalidCode, InvalidFeedback
from ..game.feedback import describe_reply, read_reply, reply_count
from ..inputs import read_line
from ..game.variant import Variant
from ..game.codes import CodeSpace

_PAIR = re.compile(r"^\s*(\d+)\s*(?:[\s/]\s*)(\d+)\s*$", re.ASCII)   # B C, B/C (play only)


def reply_syntax(variant: Variant) -> str:
    """How to type a score, in the variant's own words."""
    if variant.pegs:
        return ("B (black pegs) or '2 black'" if variant.bulls_only else
                "B W, B,W, xByW (1B2W) or '1 black 2 white' (black pegs then white pegs)")
    return "B (bulls)" if variant.bulls_only else "B C, B,C or xAyB (bulls then cows)"


def parse_reply(variant: Variant, text: str) -> tuple[int, int] | None:
    """(bulls, cows) from ``B C``, ``B,C``, ``xAyB``, ``xByW`` or words (bulls-only: ``B``).

    Returns None when the text is not a score at all (the caller may try a command); raises
    :class:`InvalidFeedback` when it is a score that cannot occur in this variant.
    """
    read = read_score(variant, text)
    return None if read is None else read[:2]


def looks_like_score(variant: Variant, text: str) -> bool:
    """Whether ``text`` is written as a score (valid or not), rather than a code or command."""
    try:
        return bool(_PAIR.match(text)) or read_reply(text, variant.length) is not None
    except InvalidFeedback:            # a count too long to be one: still meant as a score
        return True


def read_score(variant: Variant, text: str) -> tuple[int, int, str] | None:
    """:func:`parse_reply` with the notation it was typed in (to echo it that way)."""
    n = variant.length
    m = _PAIR.match(text)
    if m:
        bulls, cows, notation = reply_count(m.group(1), n), reply_count(m.group(2), n), "space"
    else:
        read = read_reply(text, n)
        if read is None:
            return None
        bulls, cows, notation = read
        if cows is None and notation == "words":
            cows = 0                                  # "2 black": no white pegs
    if variant.bulls_only and cows:
        raise InvalidFeedback(f"this variant reports {_bulls(variant)} only; "
                              f"type {reply_syntax(variant)}")
    if cows is None:
        if not variant.bulls_only:
            raise InvalidFeedback(f"score {text.strip()!r} has no {_cows(variant)}; type "
                                  f"{reply_syntax(variant)}")
        cows = 0
    if bulls + cows > n:
        raise InvalidFeedback(f"{_bulls(variant)} + {_cows(variant)} = {bulls + cows} exceeds "
                              f"the length {n}; allowed totals 0..{n}")
    if not variant.bulls_only and bulls == n - 1 and cows == 1:
        raise InvalidFeedback(f"{describe_reply(variant, n - 1, 1)} is impossible with {n} "
                              f"positions (the last symbol would be a {_bull(variant)})")
    return bulls, cows, notation


def command_word(variant: Variant, line: str) -> str:
    """The command a line starts with, lower-cased ('' for none). A first word typed with
    capitals that is also a code (HINT, UNDO with --letters 26) is a guess, not a command:
    codes are read in either case, so the lower-case word stays the command."""
    words = line.split()
    if not words:
        return ""
    word = words[0]
    if word != word.lower():
        try:
            CodeSpace(variant).parse(word)
            return "-"                  # a code: no command is spelled so
        except InvalidCode:
            pass
    return word.lower()


def read_fix(variant: Variant, line: str, entries: int) -> tuple[int, tuple[int, int, str] | None]:
    """``fix K SCORE`` -> (K, the score read) or ``confirm K`` / ``ok K`` -> (K, None); the
    entry number is checked by the caller's log. Raises :class:`InvalidFeedback`."""
    parts = line.split(None, 2)
    fix = parts[0].lower() == "fix"
    if len(parts) < 2 or not parts[1].isdigit() or (fix and len(parts) < 3):
        raise InvalidFeedback(f"type fix K {reply_syntax(variant)}, or confirm K, "
                              f"with K in 1..{entries}")
    if not fix:
        return int(parts[1]), None
    typed = read_score(variant, parts[2])
    if typed is None:
        raise InvalidFeedback(f"{parts[2]!r} is not a score; type {reply_syntax(variant)}")
    return int(parts[1]), typed


def _bulls(variant: Variant) -> str:
    return "black pegs" if variant.pegs else "bulls"


def _bull(variant: Variant) -> str:
    return "black peg" if variant.pegs else "bull"


def _cows(variant: Variant) -> str:
    return "white pegs" if variant.pegs else "cows"


def format_reply(variant: Variant, bulls: int, cows: int) -> str:
    """A reply in words (``1 bull, 2 cows``; Mastermind: ``1 black, 2 white``)."""
    return describe_reply(variant, bulls, cows)


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
