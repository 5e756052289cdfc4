"""What the host reads from a model's reply and what it says back.

A reply names its guess as the LAST square-bracketed token (``... so I try [1 2 3 4]``):
models reason before they answer, and earlier brackets are thoughts. Inside the brackets,
spaces and commas are ignored (``[1 2 3 4]``, ``[1,2,3,4]`` and ``[1234]`` are one guess);
neither can be a symbol of a variant. A reply with no bracketed token is *unparsable*; one
whose token is not a code of the game (length, alphabet, a repeated symbol where symbols are
distinct, a leading first symbol where that is forbidden) is *invalid*, with cbsolve's reason.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..game.codes import CodeSpace
from ..errors import InvalidCode
from ..game.variant import Variant

_BRACKETED = re.compile(r"\[([^\[\]]*)\]")
_SEPARATORS = re.compile(r"[\s,]+")

OK, UNPARSABLE, INVALID = "ok", "unparsable", "invalid"


@dataclass(frozen=True)
class Reading:
    """``kind`` is ok, unparsable or invalid; ``guess`` the code as the alphabet spells it."""

    kind: str
    guess: str | None = None
    code: tuple[int, ...] | None = None
    problem: str | None = None


def read_reply(text: str, space: CodeSpace) -> Reading:
    tokens = _BRACKETED.findall(text if isinstance(text, str) else "")
    if not tokens:
        return Reading(UNPARSABLE, problem="no guess in square brackets, e.g. "
                       f"[{example_code(space.variant)}]")
    written = _SEPARATORS.sub("", tokens[-1])
    try:
        code = space.parse(written)
    except InvalidCode as exc:
        return Reading(INVALID, problem=str(exc))
    return Reading(OK, space.format(code), code)


def example_code(variant: Variant) -> str:
    """A code of the variant to show the format with: its first code in order."""
    space = CodeSpace(variant)
    return space.format(space.code_at(0))


def describe_reply(variant: Variant, bulls: int, cows: int) -> str:
    """The host's words for a reply: pegs for the Mastermind presets, else bulls and cows."""
    def plural(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    if variant.pegs:
        text = plural(bulls, "black peg")
        return text if variant.bulls_only else f"{text}, {plural(cows, 'white peg')}"
    text = plural(bulls, "bull")
    return text if variant.bulls_only else f"{text}, {plural(cows, 'cow')}"


def rules_text(variant: Variant, max_turns: int) -> str:
    """The opening prompt: the rules of ``variant`` and the answer format."""
    n, symbols = variant.length, variant.symbols
    lines = [f"Find the secret code: {n} symbols, each one of {' '.join(symbols)}."]
    lines.append("Symbols may repeat." if variant.repeats else "The symbols are all different.")
    if variant.no_leading_zero:
        lines.append(f"The first symbol is never {symbols[0]}.")
    if variant.pegs:
        what = ("a black peg for each right symbol in the right place"
                + ("" if variant.bulls_only else
                   ", and a white peg for each other symbol of your guess that the code holds "
                   "elsewhere (repeats counted once each)"))
    else:
        what = ("a bull for each right symbol in the right place"
                + ("" if variant.bulls_only else
                   ", and a cow for each other symbol of your guess that the code holds "
                   "elsewhere (repeats counted once each)"))
    if variant.bulls_only:
        what += "; nothing is said about symbols in the wrong place"
    lines.append(f"After each guess you are told {what}.")
    lines.append(f"You have {max_turns} guesses. Think first if you like, then end your reply "
                 f"with your guess in square brackets, e.g. [{example_code(variant)}]; "
                 "the last bracketed token is your guess.")
    return "\n".join(lines)
