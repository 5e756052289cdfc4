"""What every tree-format reader and writer shares: the file's alphabet, the secrets that reach
a node while a file is read, and the leaves a format leaves implicit.

Readers build a cbsolve tree (docs/tree-format.md) in the variant's own symbols; writers take
one. A file's alphabet may differ from the variant's: arfst23's files number colours 0..k-1
where the Mastermind preset says 1..k, so codes are translated symbol by symbol, by position
in the two alphabets.
"""
from __future__ import annotations

import numpy as np

from ..game.codes import CodeSpace
from ..errors import CbsolveError
from ..game.scoring import score_against
from ..game.variant import Variant


class FormatError(CbsolveError, ValueError):
    """A tree file cannot be read in the format named (bad input: CLI exit 2)."""


class Alphabet:
    """Translate codes between a file's symbols and the variant's (same position = same symbol)."""

    def __init__(self, variant: Variant, file_symbols: str | None = None):
        self.variant = variant
        self.file = variant.symbols if file_symbols is None else file_symbols
        if len(self.file) < variant.n_symbols or len(set(self.file)) != len(self.file):
            raise FormatError(f"file alphabet {self.file!r} must have {variant.n_symbols} distinct "
                              f"symbols, one for each of the variant's {variant.symbols!r}")
        self._in = dict(zip(self.file[:variant.n_symbols], variant.symbols, strict=True))
        self._out = {v: f for f, v in self._in.items()}

    def read(self, text: str, where: str) -> str:
        """A code of the file -> the variant's code text."""
        try:
            return "".join(self._in[c] for c in text)
        except KeyError as exc:
            raise FormatError(f"{where}: code {text!r} has symbol {exc.args[0]!r}, not in the "
                              f"file's alphabet {self.file[:self.variant.n_symbols]!r} (name the "
                              "game with the variant options, e.g. --digits, or the file's "
                              "alphabet with --file-symbols)") from None

    def write(self, code: str) -> str:
        return "".join(self._out[c] for c in code)


def file_digits(variant: Variant, first: int = 0) -> str:
    """Digits first, first+1, ... as a file alphabet (arfst23: colours 0..k-1)."""
    if first + variant.n_symbols > 10:
        raise FormatError(f"this format writes colours as digits {first}..; the variant has "
                          f"{variant.n_symbols} symbols")
    return "0123456789"[first:first + variant.n_symbols]


def irving_replies(variant: Variant) -> list[tuple[int, int]]:
    """Every (bulls, cows) with bulls + cows <= N except (N-1, 1), bulls ascending and cows
    descending: the fixed order of Irving's notation and the columns of arfst23's text files."""
    n = variant.length
    return [(b, c) for b in range(n + 1) for c in range(n - b, -1, -1) if (b, c) != (n - 1, 1)]


def key_of(variant: Variant, bulls: int, cows: int) -> str:
    """The cbsolve reply key ("B,C", or "B" bulls-only) of a reply."""
    return variant.format_response(variant.response_index(bulls, cows))


def reply_from_key(variant: Variant, key: str) -> tuple[int, int]:
    """(bulls, cows) of a cbsolve reply key ("B,C", or "B" bulls-only)."""
    b, _, c = key.partition(",")
    return int(b), int(c or 0)


class Secrets:
    """The code space, and the secrets that reach a node while a file is read."""

    def __init__(self, variant: Variant):
        self.variant = variant
        self.space = CodeSpace(variant)
        self.codes = self.space.codes
        self.all = np.arange(self.codes.shape[0])

    def parse(self, text: str, where: str) -> tuple[int, ...]:
        try:
            return self.space.parse(text)
        except CbsolveError as exc:
            raise FormatError(f"{where}: {exc}") from None

    def split(self, guess: str, idx: np.ndarray, where: str) -> dict[tuple[int, int], np.ndarray]:
        """The secrets of ``idx`` by the reply (bulls, cows) they give ``guess``."""
        replies = score_against(self.variant, self.parse(guess, where), self.codes[idx])
        return {self.variant.response_of(int(r)): idx[replies == r] for r in np.unique(replies)}

    def text(self, i) -> str:
        return self.space.format(self.codes[int(i)])

    def is_win(self, reply: tuple[int, int]) -> bool:
        return reply == (self.variant.length, 0)

    def implicit(self, idx: np.ndarray, where: str) -> dict:
        """A leaf the file leaves implicit: one secret is guessed; of two, either is guessed
        first, then the other (both orders cost the same: 1 + 2 guesses)."""
        if len(idx) == 1:
            return {"guess": self.text(idx[0])}
        if len(idx) == 2:
            first, second = self.text(idx[0]), self.text(idx[1])
            (reply,) = [r for r in self.split(first, idx[1:], where)]
            return {"guess": first, "children": {key_of(self.variant, *reply): {"guess": second}}}
        raise FormatError(f"{where}: {len(idx)} secrets reach this node and the file names no "
                          "guess for them (an implicit leaf holds at most 2)")


def children_of(node: dict) -> dict:
    return node.get("children") or {}


def candidate_nodes(variant: Variant, root: dict) -> set[int]:
    """ids of the nodes whose guess can be the secret where it is played (writers that spell
    out the all-bulls reply need them)."""
    secrets = Secrets(variant)
    out = set()
    stack = [(root, secrets.all)]
    while stack:
        node, idx = stack.pop()
        parts = secrets.split(node["guess"], idx, "tree")
        if any(secrets.is_win(r) for r in parts):
            out.add(id(node))
        kids = children_of(node)
        stack.extend((kids[key_of(variant, *r)], m) for r, m in parts.items()
                     if key_of(variant, *r) in kids)
    return out
