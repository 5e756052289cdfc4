"""Feedback entries and logs: parsing (command-line tokens, text files, JSON) and validation.

Entry syntax: ``GUESS:B,C`` (``0123:1,2``), ``GUESS:xAyB`` (``0123:1A2B``), Mastermind's
``GUESS:xByW`` (``1122:1B1W``: black then white pegs), or in words (``2 black 1 white``,
``1 bull 2 cows``); bulls-only ``GUESS:B``. A reply is echoed in the notation it was typed
in. Text log files hold one entry a line as ``GUESS B C`` (``GUESS B`` in bulls-only mode)
or the same tokens as on the command line; ``#`` starts a comment; blank lines are ignored.
JSON logs are a list of ``{"guess": "0123", "bulls": 1, "cows": 2}``. Entries are numbered
from 1 in every message.

>>> from cbsolve.game.variant import Variant
>>> log = FeedbackLog.parse(Variant.preset("bulls-cows"), ["0123:1,2", "4567:0A2B"])
>>> [(e.text, e.bulls, e.cows) for e in log]
[('0123', 1, 2), ('4567', 0, 2)]
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from .codes import CodeSpace
from ..errors import InvalidCode, InvalidFeedback
from .variant import Variant

# ASCII digits only: str patterns' \d also matches other scripts' digits (full-width, Arabic).
_BC = re.compile(r"^(\d+)\s*,\s*(\d+)$", re.ASCII)
_AB = re.compile(r"^(\d+)\s*[Aa]\s*(\d+)\s*[Bb]$", re.ASCII)
_BW = re.compile(r"^(\d+)\s*[Bb]\s*(\d+)\s*[Ww]$", re.ASCII)
_B = re.compile(r"^(\d+)$", re.ASCII)
#: The notations of a reply with both counts, by the name it is echoed in.
NOTATIONS = (("comma", _BC), ("AB", _AB), ("BW", _BW))
_WORD = re.compile(r"(\d+)\s*(blacks?|whites?|bulls?|cows?)(?![a-z])", re.ASCII | re.IGNORECASE)
_WORD_GAP = re.compile(r"^[\s,;]*(?:and[\s,;]*)?$", re.IGNORECASE)


def read_words(text: str):
    """(bulls digits or None, cows digits or None) from ``2 black 1 white``, ``1 bull, 2 cows``
    (either part may be missing: ``2 black``); None when ``text`` is not such a phrase."""
    found: dict[str, str] = {}
    at = 0
    for m in _WORD.finditer(text):
        if not _WORD_GAP.match(text[at:m.start()]):
            return None
        kind = "bulls" if m.group(2).lower().startswith(("black", "bull")) else "cows"
        if kind in found:
            return None
        found[kind] = m.group(1)
        at = m.end()
    if not found or not _WORD_GAP.match(text[at:]):
        return None
    return found.get("bulls"), found.get("cows")


def read_reply(text: str, length: int):
    """(bulls, cows or None, notation) from any reply notation (``B,C``, ``xAyB``, ``xByW``,
    words, a bare ``B``), or None when ``text`` is none of them. Counts are not checked
    against a variant here (see :meth:`FeedbackLog.make_entry`)."""
    text = text.strip()
    for notation, pattern in NOTATIONS:
        m = pattern.match(text)
        if m:
            return reply_count(m.group(1), length), reply_count(m.group(2), length), notation
    m = _B.match(text)
    if m:
        return reply_count(m.group(1), length), None, "bulls"
    words = read_words(text)
    if words is None:
        return None
    bulls, cows = words
    return (reply_count(bulls or "0", length), None if cows is None else reply_count(cows, length),
            "words")


def describe_reply(variant: Variant, bulls: int, cows: int) -> str:
    """A reply in words, singular and plural right: ``1 bull, 2 cows``; Mastermind variants in
    pegs: ``1 black, 2 white``; bulls-only: ``1 bull`` / ``1 black``."""
    if variant.pegs:
        b = f"{bulls} black"
        return b if variant.bulls_only else f"{b}, {cows} white"
    b = f"{bulls} bull{'s' if bulls != 1 else ''}"
    return b if variant.bulls_only else f"{b}, {cows} cow{'s' if cows != 1 else ''}"


def spell_reply(variant: Variant, bulls: int, cows: int, notation: str | None = None) -> str:
    """A reply in the notation it was typed in (``2A2B`` stays ``2A2B``); ``B,C`` by default."""
    if variant.bulls_only:
        return f"{bulls}"
    if notation == "AB":
        return f"{bulls}A{cows}B"
    if notation == "BW":
        return f"{bulls}B{cows}W"
    if notation == "space":
        return f"{bulls} {cows}"
    if notation == "words":
        return describe_reply(variant, bulls, cows)
    return f"{bulls},{cows}"


def reply_count(digits: str, length: int) -> int:
    """A bulls or cows count from its digits; one longer than any code is refused here (Python
    will not even convert more than 4300 digits)."""
    if len(digits.lstrip("0")) > 9:
        raise InvalidFeedback(f"a count of {len(digits)} digits exceeds the length {length}")
    return int(digits)


@dataclass(frozen=True)
class Feedback:
    """One reply: the guess (symbol indices and text) and its bulls/cows (cows 0 if bulls-only)."""

    guess: tuple[int, ...]
    text: str
    bulls: int
    cows: int
    #: How the reply was typed (``comma``, ``AB``, ``BW``, ``space``, ``words``; None: B,C),
    #: so messages echo it that way; not part of the reply's value.
    notation: str | None = field(default=None, compare=False)

    def to_dict(self, variant: Variant) -> dict:
        d = {"guess": self.text, "bulls": self.bulls}
        if not variant.bulls_only:
            d["cows"] = self.cows
        return d

    def token(self, variant: Variant) -> str:
        return f"{self.text}:{self.bulls}" if variant.bulls_only else f"{self.text}:{self.bulls},{self.cows}"

    def reply(self, variant: Variant) -> str:
        """The reply as it was typed (``2A2B`` stays ``2A2B``)."""
        return spell_reply(variant, self.bulls, self.cows, self.notation)

    def shown(self, variant: Variant) -> str:
        """``GUESS:REPLY`` for messages, the reply in the notation it was typed in
        (``GUESS -> B C`` when that has spaces)."""
        reply = self.reply(variant)
        return f"{self.text} -> {reply}" if " " in reply else f"{self.text}:{reply}"


class FeedbackLog:
    """An ordered, validated list of :class:`Feedback` entries for one variant."""

    def __init__(self, variant: Variant, entries=()):
        self.variant = variant
        self.space = CodeSpace(variant)
        self.entries: list[Feedback] = list(entries)

    def __iter__(self):
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __getitem__(self, i):
        return self.entries[i]

    # --- building ------------------------------------------------------------------------
    def make_entry(self, guess: str, bulls: int, cows: int | None, number: int,
                   shown: str | None = None, notation: str | None = None) -> Feedback:
        """Validate one reply against the variant; ``number`` (from 1) names it in errors."""
        shown = shown if shown is not None else f"{guess}:{bulls},{cows}"
        where = f"entry {number} ({shown!r})"
        try:
            code = self.space.parse(guess)
        except InvalidCode as exc:
            raise InvalidFeedback(f"{where}: {exc}") from None
        n = self.variant.length
        if self.variant.bulls_only:
            if cows is not None:
                raise InvalidFeedback(f"{where}: cows given, but this variant reports bulls only "
                                      "(write GUESS:B)")
            cows = 0
        elif cows is None:
            raise InvalidFeedback(f"{where}: missing cows; write GUESS:B,C or GUESS:xAyB")
        for label, value in (("bulls", bulls), ("cows", cows)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidFeedback(f"{where}: {label} must be a non-negative integer, got {value!r}")
        if bulls + cows > n:
            raise InvalidFeedback(f"{where}: bulls + cows = {bulls + cows} exceeds the length {n}")
        if bulls == n - 1 and cows == 1:
            raise InvalidFeedback(f"{where}: {n - 1} bulls and 1 cow is impossible "
                                  "(the last symbol would be a bull)")
        return Feedback(code, self.space.format(code), bulls, cows, notation)

    def add(self, guess: str, bulls: int, cows: int | None = None,
            notation: str | None = None) -> Feedback:
        entry = self.make_entry(guess, bulls, cows, len(self.entries) + 1, notation=notation)
        self.entries.append(entry)
        return entry

    def _count(self, digits: str, number: int, shown: str) -> int:
        try:
            return reply_count(digits, self.variant.length)
        except InvalidFeedback as exc:
            raise InvalidFeedback(f"entry {number} ({shown!r}): {exc}") from None

    def parse_token(self, token: str, number: int) -> Feedback:
        """Parse ``GUESS:B,C``, ``GUESS:xAyB`` or ``GUESS:B``."""
        guess, sep, reply = token.strip().partition(":")
        if not sep or not guess or not reply:
            raise InvalidFeedback(f"entry {number} ({token!r}): malformed; expected GUESS:B,C, "
                                  "GUESS:xAyB or (bulls only) GUESS:B")
        reply = reply.strip()
        try:
            read = read_reply(reply, self.variant.length)
        except InvalidFeedback as exc:
            raise InvalidFeedback(f"entry {number} ({token!r}): {exc}") from None
        if read is None:
            raise InvalidFeedback(f"entry {number} ({token!r}): malformed reply {reply!r}; "
                                  "expected B,C, xAyB, xByW or words like '2 black 1 white' "
                                  "(bulls only: B)")
        bulls, cows, notation = read
        if notation == "words" and cows is None and not self.variant.bulls_only:
            cows = 0                       # "2 black": no white pegs
        if cows is None and not self.variant.bulls_only:
            raise InvalidFeedback(f"entry {number} ({token!r}): reply {reply!r} has no cows; "
                                  "write GUESS:B,C, GUESS:xAyB or GUESS:xByW")
        if self.variant.bulls_only and notation == "words" and not cows:
            cows = None                    # "2 black" in black-peg: bulls only
        return self.make_entry(guess, bulls, cows, number, token, notation)

    @classmethod
    def parse(cls, variant: Variant, tokens) -> FeedbackLog:
        log = cls(variant)
        for token in tokens:
            log.entries.append(log.parse_token(token, len(log.entries) + 1))
        return log

    @classmethod
    def from_file(cls, variant: Variant, path, start: int = 1) -> FeedbackLog:
        """Read a text or JSON log; unreadable or malformed files raise InvalidFeedback."""
        from ..inputs import read_text

        try:
            text = read_text(path, f"log file {str(path)!r}")
        except (OSError, UnicodeDecodeError) as exc:
            raise InvalidFeedback(f"cannot read log file {str(path)!r}: "
                                  f"{getattr(exc, 'strerror', None) or exc}") from None
        log = cls(variant)
        if text.lstrip().startswith(("[", "{")):
            log._read_json(text, path, start)
        else:
            log._read_text(text, start)
        return log

    def extend_tokens(self, tokens) -> None:
        for token in tokens:
            self.entries.append(self.parse_token(token, len(self.entries) + 1))

    def _read_text(self, text: str, start: int) -> None:
        for line in text.splitlines():
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            number = start + len(self.entries)
            parts = line.split()
            if len(parts) == 1:
                self.entries.append(self.parse_token(parts[0], number))
                continue
            want = 2 if self.variant.bulls_only else 3
            if len(parts) != want or not all(p.isascii() and p.isdigit() for p in parts[1:]):
                raise InvalidFeedback(f"entry {number} ({line!r}): malformed line; expected "
                                      + ("GUESS B" if self.variant.bulls_only else "GUESS B C"))
            cows = self._count(parts[2], number, line) if len(parts) > 2 else None
            self.entries.append(self.make_entry(parts[0], self._count(parts[1], number, line),
                                                cows, number, line))

    def _read_json(self, text: str, path, start: int) -> None:
        from .. import inputs

        inputs.check_json_depth(text, f"log file {str(path)!r}")
        try:
            data = json.loads(text, parse_int=inputs.number)
        except json.JSONDecodeError as exc:
            raise InvalidFeedback(f"log file {str(path)!r} is not valid JSON: {exc.msg} "
                                  f"(line {exc.lineno})") from None
        if not isinstance(data, list):
            raise InvalidFeedback(f"log file {str(path)!r}: expected a JSON list of "
                                  '{"guess", "bulls", "cows"} objects')
        for item in data:
            self.entries.append(self.json_entry(item, start + len(self.entries)))

    def json_entry(self, item, number: int) -> Feedback:
        """Entry ``number`` of the JSON log form, ``{"guess", "bulls", "cows"}`` (InvalidFeedback
        names a malformed one)."""
        if not isinstance(item, dict) or not isinstance(item.get("guess"), str) \
                or "bulls" not in item:
            raise InvalidFeedback(f"entry {number} ({json.dumps(item)}): expected an object "
                                  'with "guess" (string), "bulls" and "cows"')
        return self.make_entry(item["guess"], item["bulls"], item.get("cows"), number,
                               json.dumps(item))

    # --- views ---------------------------------------------------------------------------
    def guesses_array(self):
        import numpy as np

        return np.array([e.guess for e in self.entries], dtype=np.uint8).reshape(-1, self.variant.length)

    def responses(self) -> list[int]:
        return [self.variant.response_index(e.bulls, e.cows) for e in self.entries]

    def tokens(self) -> list[str]:
        return [e.token(self.variant) for e in self.entries]

    def solved_at(self) -> int | None:
        """The 1-based number of the first entry scored with every bull (the game ended
        there: its guess is the secret), or None."""
        return next((k for k, e in enumerate(self.entries, 1)
                     if e.bulls == self.variant.length), None)

    def to_json(self) -> list[dict]:
        return [e.to_dict(self.variant) for e in self.entries]

    def subset(self, numbers) -> FeedbackLog:
        """The log restricted to the given 1-based entry numbers (order kept)."""
        keep = set(numbers)
        return FeedbackLog(self.variant, [e for i, e in enumerate(self.entries, 1) if i in keep])


def random_log(variant: Variant, n_guesses: int, seed) -> tuple[FeedbackLog, tuple]:
    """A log of ``n_guesses`` random guesses scored against a hidden random secret (``seed``:
    an int, or a NumPy Generator to draw several logs from one stream; benchmarks and tests
    draw their instances here). Returns (log, secret)."""
    import numpy as np

    from .rule import score

    rng = np.random.default_rng(seed)
    space = CodeSpace(variant)
    secret, *guesses = space.random_codes(n_guesses + 1, rng)
    log = FeedbackLog(variant)
    for g in guesses:
        bulls, cows = score(variant, secret, g)
        log.add(space.format(g), bulls, None if variant.bulls_only else cows)
    return log, secret
