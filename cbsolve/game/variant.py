"""Variant: the fixed rules of one game, declared once as a frozen, validated value.

First stop of the data flow (Variant -> CodeSpace -> scoring -> FeedbackLog -> ...). A variant is
code length N, an ordered alphabet of D symbols, whether symbols may repeat, whether the first
position may hold the alphabet's first symbol, and the feedback mode (bulls and cows, or bulls
only as in black-peg Mastermind).

>>> v = Variant.preset("bulls-cows"); (v.length, v.symbols, v.repeats)
(4, '0123456789', False)
"""
from __future__ import annotations

import string
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import InvalidVariant, unknown_name

MAX_LENGTH = 64
DIGITS = string.digits
LETTERS = string.ascii_uppercase
FEEDBACK_MODES = ("bulls-cows", "bulls")
# Characters that separate tokens in entries and log files cannot be symbols.
RESERVED = set(":,#[]{}\"'") | set(string.whitespace)


@dataclass(frozen=True)
class Variant:
    """Rules of one game. Construct directly, from a preset, or with :meth:`from_options`."""

    length: int
    symbols: str
    repeats: bool
    no_leading_zero: bool = False
    feedback: str = "bulls-cows"
    name: str | None = field(default=None, compare=False)
    #: Spoken as Mastermind (black and white pegs) rather than bulls and cows; words only,
    #: so not part of the rules (equality, hashing, files).
    pegs: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        for flag in ("repeats", "no_leading_zero"):     # "no" would be true: refused
            value = getattr(self, flag)
            if not isinstance(value, bool):
                if isinstance(value, int) and value in (0, 1):
                    object.__setattr__(self, flag, bool(value))
                else:
                    raise InvalidVariant(f"{flag} must be True or False, got {value!r}")
        if isinstance(self.length, bool) or not isinstance(self.length, int):
            raise InvalidVariant(f"length must be an integer, got {self.length!r}")
        if not 1 <= self.length <= MAX_LENGTH:
            raise InvalidVariant(f"length {self.length} out of range; allowed 1..{MAX_LENGTH}")
        if not isinstance(self.symbols, str) or not self.symbols:
            raise InvalidVariant("the alphabet is empty; give at least one symbol")
        dup = sorted({c for c in self.symbols if self.symbols.count(c) > 1})
        if dup:
            raise InvalidVariant(f"duplicate symbols {''.join(dup)!r} in alphabet {self.symbols!r}")
        bad = sorted({c for c in self.symbols if c in RESERVED or not c.isprintable()})
        if bad:
            raise InvalidVariant(
                f"symbols {bad!r} not allowed in an alphabet (no whitespace or any of : , # [ ] {{ }} \" ')")
        if len(self.symbols) > 255:
            raise InvalidVariant(f"alphabet has {len(self.symbols)} symbols; at most 255 allowed")
        if self.feedback not in FEEDBACK_MODES:
            raise unknown_name("feedback mode", self.feedback, FEEDBACK_MODES)
        if not self.repeats and self.length > len(self.symbols):
            raise InvalidVariant(
                f"distinct symbols need length <= alphabet size; got length {self.length} "
                f"with {len(self.symbols)} symbols (use --repeats or a larger alphabet)")
        if self.no_leading_zero and len(self.symbols) < 2:
            raise InvalidVariant("no-leading-zero with a one-symbol alphabet leaves no codes")

    # --- derived facts -------------------------------------------------------------------
    @property
    def n_symbols(self) -> int:
        """D, the alphabet size."""
        return len(self.symbols)

    @property
    def bulls_only(self) -> bool:
        return self.feedback == "bulls"

    @property
    def response_slots(self) -> int:
        """Number of response indices: (N+1)^2 for bulls-cows, N+1 for bulls only."""
        n1 = self.length + 1
        return n1 if self.bulls_only else n1 * n1

    @property
    def win_response(self) -> int:
        """Response index of the all-bulls answer."""
        return self.response_index(self.length, 0)

    def response_index(self, bulls: int, cows: int) -> int:
        """Encode a reply: ``bulls*(N+1) + cows``, or ``bulls`` in bulls-only mode."""
        return bulls if self.bulls_only else bulls * (self.length + 1) + cows

    def response_of(self, index: int) -> tuple[int, int]:
        """Decode a response index to (bulls, cows); cows is 0 in bulls-only mode."""
        return (int(index), 0) if self.bulls_only else divmod(int(index), self.length + 1)

    def format_response(self, index: int) -> str:
        b, c = self.response_of(index)
        return f"{b}" if self.bulls_only else f"{b},{c}"

    def to_dict(self) -> dict:
        return {"name": self.name, "length": self.length, "symbols": self.symbols,
                "repeats": self.repeats, "no_leading_zero": self.no_leading_zero,
                "feedback": self.feedback}

    @classmethod
    def from_dict(cls, data: dict) -> Variant:
        try:
            return cls(length=data["length"], symbols=data["symbols"], repeats=bool(data["repeats"]),
                       no_leading_zero=bool(data.get("no_leading_zero", False)),
                       feedback=data.get("feedback", "bulls-cows"), name=data.get("name"),
                       pegs=data.get("name") in PEG_PRESETS)
        except (KeyError, TypeError) as exc:
            raise InvalidVariant(f"malformed variant description {data!r}: {exc}") from None

    def describe(self) -> str:
        kind = "repeats" if self.repeats else "distinct"
        extra = ", no leading zero" if self.no_leading_zero else ""
        fb = ", bulls only" if self.bulls_only else ""
        label = f"{self.name}: " if self.name else ""
        return f"{label}{self.length} of {self.n_symbols} symbols {self.symbols!r}, {kind}{extra}{fb}"

    # --- construction --------------------------------------------------------------------
    @classmethod
    def preset(cls, name: str) -> Variant:
        try:
            return PRESETS[name.strip().lower()] if isinstance(name, str) else PRESETS[name]
        except (KeyError, TypeError):
            raise unknown_name("variant", name, PRESETS) from None

    @classmethod
    def from_options(cls, variant: str | None = None, *, length: int | None = None,
                     digits: int | None = None, letters: int | None = None,
                     symbols: str | None = None, repeats: bool | None = None,
                     no_leading_zero: bool | None = None, feedback: str | None = None) -> Variant:
        """A preset (default ``bulls-cows``) with the CLI overrides applied and re-validated."""
        base = cls.preset("bulls-cows" if variant is None else variant)
        for option, size in (("--digits", digits), ("--letters", letters)):
            if size is not None and (isinstance(size, bool) or not isinstance(size, int)):
                raise InvalidVariant(f"{option} must be a whole number, got {size!r}")
        if symbols is not None and not isinstance(symbols, str):
            raise InvalidVariant(f"--symbols must be a string of symbols, got {symbols!r}")
        given = [k for k, v in (("--digits", digits), ("--letters", letters),
                                ("--symbols", symbols)) if v is not None]
        if len(given) > 1:
            raise InvalidVariant(f"give only one of --digits, --letters, --symbols (got {', '.join(given)})")
        alphabet = base.symbols
        if digits is not None:
            alphabet = _digit_alphabet(digits, base.symbols)
        elif letters is not None:
            if not 1 <= letters <= len(LETTERS):
                raise InvalidVariant(f"--letters {letters} out of range; allowed 1..26")
            alphabet = LETTERS[:letters]
        elif symbols is not None:
            alphabet = symbols
        changes: dict[str, Any] = {"symbols": alphabet}
        for key, value in (("length", length), ("repeats", repeats),
                           ("no_leading_zero", no_leading_zero), ("feedback", feedback)):
            if value is not None:
                changes[key] = value
        if any(v != getattr(base, k) for k, v in changes.items()):
            changes["name"] = None
        return replace(base, **changes)


def _digit_alphabet(d: int, preset_symbols: str) -> str:
    """D digits; a preset whose alphabet starts at '1' (Mastermind) keeps that start if it fits."""
    if not 1 <= d <= 10:
        raise InvalidVariant(f"--digits {d} out of range; allowed 1..10")
    if preset_symbols[0] == "1" and d <= 9:
        return DIGITS[1:1 + d]
    return DIGITS[:d]


#: Presets spoken in black and white pegs.
PEG_PRESETS = ("mastermind", "black-peg")

PRESETS: dict[str, Variant] = {
    str(v.name): v for v in (   # every preset is named
        Variant(4, DIGITS, repeats=False, name="bulls-cows"),
        Variant(4, DIGITS, repeats=False, no_leading_zero=True, name="bulls-cows-no-leading-zero"),
        Variant(4, "123456", repeats=True, name="mastermind", pegs=True),
        Variant(4, "123456", repeats=True, feedback="bulls", name="black-peg", pegs=True),
        Variant(4, DIGITS, repeats=True, no_leading_zero=True, name="numbers"),
        Variant(4, "ABCD", repeats=True, name="cowbull"),
    )
}
