"""Size caps on everything cbsolve reads: files (gzip members after decompression), lines of
stdin, and the nesting depth of JSON documents.

Every reader goes through this module, so ``/dev/zero``, a gzip bomb or a line without end is
refused with one clear error naming the cap and how to raise it, instead of growing until the
machine kills the process. The caps are far above any real input (the largest shipped model,
a strategy tree for every Bulls & Cows secret, is 1.5 MB unpacked) and can be raised with
environment variables.
"""
from __future__ import annotations

import os
import zlib

from .errors import CbsolveError

#: Largest file (after gzip decompression) any command reads, bytes.
MAX_INPUT_BYTES = 64 * 2**20
MAX_INPUT_ENV = "CBSOLVE_MAX_INPUT_BYTES"
#: The file name that means standard input (``--log -``).
STDIN = "-"
#: Longest line read from stdin (play, assist, bot), bytes.
MAX_LINE_BYTES = 64 * 2**10
MAX_LINE_ENV = "CBSOLVE_MAX_LINE_BYTES"
#: Deepest nesting of a JSON document (a strategy tree nests two levels per guess).
MAX_JSON_DEPTH = 400
MAX_JSON_DEPTH_ENV = "CBSOLVE_MAX_JSON_DEPTH"


#: Most digits of a number in a JSON document or a typed reply (Python refuses to convert
#: more than 4300; the largest real count, 26^40 secrets, has 57).
MAX_NUMBER_DIGITS = 1000


class InputTooLarge(CbsolveError, ValueError):
    """An input is over one of the caps; the message names the cap and how to raise it."""


class UnreadableInput(CbsolveError, ValueError):
    """An input that cannot be decoded (a broken gzip file)."""


def number(digits: str, what: str = "a number") -> int:
    """``int(digits)`` for a string of digits, refused past MAX_NUMBER_DIGITS digits."""
    if len(digits.lstrip("+-")) > MAX_NUMBER_DIGITS:
        raise InputTooLarge(f"{what} has {len(digits)} digits; at most {MAX_NUMBER_DIGITS} "
                            "are accepted")
    return int(digits)


def _cap(default: int, env: str) -> int:
    value = os.environ.get(env)
    if value is None:
        return default
    try:
        cap = int(value)
    except ValueError:
        raise CbsolveError(f"{env}={value[:40]!r} is not a whole number") from None
    if cap <= 0:
        raise CbsolveError(f"{env} must be a positive whole number, got {cap}")
    return cap


def _size(n: int) -> str:
    return f"{n / 2**20:g} MiB" if n >= 2**20 else f"{n} bytes"


def _too_large(what: str, cap: int, env: str) -> InputTooLarge:
    return InputTooLarge(f"{what} is larger than the input cap of {_size(cap)} "
                         f"(set {env} to raise it)")


def read_bytes(path, what: str) -> bytes:
    """The bytes of ``path`` (gzip members decompressed when the name ends in ``.gz``), at most
    the input cap. ``what`` names the file in messages ("log file 'x.txt'"). OSError passes
    through for the caller's own message; a missing file or a directory is UnreadableInput
    ("no such file"). ``-`` reads stdin."""
    cap = _cap(MAX_INPUT_BYTES, MAX_INPUT_ENV)
    if str(path) == STDIN:
        raw = _stdin().read(cap + 1)
    else:
        try:
            with open(path, "rb") as fh:
                raw = fh.read(cap + 1)
        except FileNotFoundError:
            raise UnreadableInput(f"{what}: no such file") from None
        except IsADirectoryError:
            raise UnreadableInput(f"{what} is a directory, not a file") from None
    if len(raw) > cap:
        raise _too_large(what, cap, MAX_INPUT_ENV)
    if str(path).endswith(".gz"):
        raw = _gunzip(raw, what, cap)
    return raw


def _gunzip(raw: bytes, what: str, cap: int) -> bytes:
    """Every gzip member of ``raw``, at most ``cap`` bytes in all (a bomb stops at the cap)."""
    out = bytearray()
    while raw:
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            out += d.decompress(raw, cap + 1 - len(out))
        except zlib.error as exc:
            raise UnreadableInput(f"{what} is not a valid gzip file ({exc})") from None
        if len(out) > cap:
            raise _too_large(f"{what} (unpacked)", cap, MAX_INPUT_ENV)
        if not d.eof:
            if d.unconsumed_tail:       # more output than the cap allowed
                raise _too_large(f"{what} (unpacked)", cap, MAX_INPUT_ENV)
            raise UnreadableInput(f"{what} is not a valid gzip file (truncated)")
        raw = d.unused_data.lstrip(b"\0")
    return bytes(out)


def _stdin():
    import sys

    if sys.stdin is None:          # started with stdin closed
        raise UnreadableInput("'-' names stdin, and stdin is closed")
    return getattr(sys.stdin, "buffer", sys.stdin)


def read_text(path, what: str) -> str:
    """:func:`read_bytes` as UTF-8 text, without a byte-order mark (as Notepad writes)."""
    raw = read_bytes(path, what)
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise UnreadableInput(f"{what} is not a UTF-8 text file (byte {exc.start} is "
                              f"{raw[exc.start]:#04x})") from None


def check_json_depth(text: str | bytes, what: str) -> None:
    """Refuse a JSON document nested deeper than the cap, before parsing it (the parser
    recurses once per level). Brackets inside strings are not counted."""
    cap = _cap(MAX_JSON_DEPTH, MAX_JSON_DEPTH_ENV)
    import numpy as np

    data = np.frombuffer(text.encode("utf-8") if isinstance(text, str) else text, np.uint8)
    where = np.flatnonzero(np.isin(data, np.frombuffer(b'[]{}"\\', np.uint8)))
    if where.size == 0:
        return
    chars = data[where]
    # A quote escaped by a backslash just before it is part of a string, not its end.
    escaped = np.zeros(where.size, bool)
    escaped[1:] = (chars[:-1] == ord("\\")) & (where[:-1] == where[1:] - 1)
    quote = (chars == ord('"')) & ~escaped
    inside = (np.cumsum(quote) - quote) % 2 == 1
    step = np.where(np.isin(chars, np.frombuffer(b"[{", np.uint8)), 1,
                    np.where(np.isin(chars, np.frombuffer(b"]}", np.uint8)), -1, 0))
    step[inside] = 0
    if step.size and int(np.cumsum(step).max()) > cap:
        raise InputTooLarge(f"{what} is nested too deeply: more than the cap of {cap} levels "
                            f"(set {MAX_JSON_DEPTH_ENV} to raise it)")


def load_json(path, what: str):
    """A JSON document from ``path`` (``.gz`` unpacked), with the size and depth caps."""
    import json

    text = read_text(path, what)
    check_json_depth(text, what)
    return json.loads(text, parse_int=number)


def read_line(stream):
    """One line of ``stream`` (text, or bytes for a binary stream), at most the line cap; empty
    at the end of input."""
    cap = _cap(MAX_LINE_BYTES, MAX_LINE_ENV)
    line = stream.readline(cap + 1)
    if len(line) > cap and not line.endswith(b"\n" if isinstance(line, bytes) else "\n"):
        raise _too_large("an input line", cap, MAX_LINE_ENV)
    return line


__all__ = ["InputTooLarge", "UnreadableInput", "number", "MAX_INPUT_BYTES", "MAX_INPUT_ENV", "MAX_JSON_DEPTH",
           "MAX_LINE_BYTES", "check_json_depth", "load_json", "read_bytes", "read_line",
           "read_text"]
