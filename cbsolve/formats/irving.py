"""Irving's text notation for strategy trees (Irving 1979; used by Knuth 1977, Koyama-Lai 1993
and fancidev/mastermind's strategy files).

A situation is the number of secrets left, then how it is played::

    1296 (1122: 4 (1213), 16 (1213: ...), 96A, ...; ...; 1)

* ``n (GUESS: e, e, ...; e, ...; ...; w)``: play GUESS; one entry per reply in a fixed order,
  bulls 0..N, and within a bulls count cows from most to fewest, ``,`` between entries of a
  bulls count and ``;`` between counts. The impossible reply (N-1 bulls, 1 cow) is left out
  (Knuth's papers keep it as a ``0``; both are read). The last entry, all bulls, is 1 when
  GUESS can be the secret, else 0.
* ``n (GUESS)``: GUESS splits the n secrets into single ones, each guessed next; ``GUESS*``
  adds that GUESS itself cannot be the secret; ``GUESSx`` that the classes hold at most 2.
* ``n`` alone: nothing to play (0), the secret itself (1), or two secrets guessed in turn (2).
* ``nA``: the situation is written out below as ``A = (GUESS: ...)`` (hoisted sub-trees).

Every count is a claim: the reader stores it as the node's ``count`` and ``cbsolve verify``
compares it with the secrets that reach the node. The writer hoists the root's large children
into labels, as fancidev/mastermind does.
"""
from __future__ import annotations

import re

import numpy as np

from ..game.variant import Variant
from .common import Alphabet, FormatError, Secrets, children_of, irving_replies, key_of

NAME = "irving"
WIDTH = 96


def _check_variant(variant: Variant) -> None:
    if variant.bulls_only:
        raise FormatError("Irving's notation lists bulls-and-cows replies; this variant "
                          "scores bulls only")


# --- reading --------------------------------------------------------------------------------
def read(text: str, variant: Variant, alphabet: Alphabet) -> dict:
    """The root node (cbsolve tree) of an Irving-format text, counts kept as ``count``."""
    _check_variant(variant)
    return _Parser(text, Secrets(variant), alphabet).parse()


class _Parser:
    def __init__(self, text: str, secrets: Secrets, alphabet: Alphabet):
        self.s, self.i = text, 0
        self.secrets, self.alphabet = secrets, alphabet
        self.variant = secrets.variant
        self.order = irving_replies(self.variant)
        self.pending: dict[str, tuple[dict, np.ndarray, str]] = {}

    def error(self, message: str) -> FormatError:
        line = self.s.count("\n", 0, self.i) + 1
        return FormatError(f"Irving text, line {line}: {message}")

    def peek(self) -> str:
        while self.i < len(self.s) and self.s[self.i].isspace():
            self.i += 1
        return self.s[self.i] if self.i < len(self.s) else ""

    def expect(self, char: str) -> None:
        got = self.peek()
        if got != char:
            raise self.error(f"expected {char!r}, got {got or 'the end'!r}")
        self.i += 1

    def number(self) -> int:
        self.peek()
        m = re.compile(r"\d+").match(self.s, self.i)
        if not m:
            raise self.error(f"expected a count of secrets, got {self.s[self.i:self.i + 8]!r}")
        self.i = m.end()
        return int(m.group())

    def code(self) -> str:
        self.peek()
        text = self.s[self.i:self.i + self.variant.length]
        if len(text) < self.variant.length or any(c.isspace() for c in text):
            raise self.error(f"expected a code of {self.variant.length} symbols, got {text!r}")
        self.i += len(text)
        return text

    def parse(self) -> dict:
        root = self.situation(self.secrets.all, "(root)")
        if root is None:
            raise self.error("the root situation plays no guess")
        while self.peek():
            label = self.s[self.i]
            self.i += 1
            self.expect("=")
            if label not in self.pending:
                raise self.error(f"label {label} is defined but not used (or defined twice)")
            node, idx, path = self.pending.pop(label)
            self.expect("(")
            node.update(self.body(idx, path))
        if self.pending:
            raise self.error(f"labels used but never defined: {', '.join(sorted(self.pending))}")
        return root

    def situation(self, idx: np.ndarray, path: str) -> dict | None:
        n = self.number()
        c = self.peek()
        if "A" <= c <= "Z" and c:
            self.i += 1
            if c in self.pending:
                raise self.error(f"label {c} is used twice")
            if len(idx) == 0:
                raise self.error(f"label {c} at reply path {path}: no secret gives this reply")
            node = {"count": n}
            self.pending[c] = (node, idx, path)
            return node
        if c == "(":
            self.i += 1
            if len(idx) == 0:
                raise self.error(f"reply path {path}: a guess is given, but no secret gives this reply")
            return {"count": n, **self.body(idx, path)}
        if n == 0 or len(idx) == 0:   # a wrong 0 leaves secrets unsolved: verify names them
            if n:
                raise self.error(f"reply path {path}: count {n}, but no secret gives this reply")
            return None
        return {"count": n, **self.secrets.implicit(idx, f"reply path {path}")}

    def body(self, idx: np.ndarray, path: str) -> dict:
        """After '(': GUESS [*|x] then ')' (short form) or ':' and one entry per reply."""
        where = f"reply path {path}"
        guess = self.alphabet.read(self.code(), where)
        parts = self.secrets.split(guess, idx, where)
        node = {"guess": guess}
        if self.peek() in ("*", "x"):
            self.i += 1
        if self.peek() == ")":
            self.i += 1
            kids = {key_of(self.variant, *r): self.secrets.implicit(m, f"{where}, reply {r}")
                    for r, m in parts.items() if not self.secrets.is_win(r)}
            if kids:
                node["children"] = kids
            return node
        self.expect(":")
        kids = {}
        empty = idx[:0]
        n = self.variant.length
        for j, reply in enumerate(self.order):
            if reply == (n - 1, 0):   # Knuth writes the impossible (N-1, 1) as "0," first
                m = re.compile(r"\s*0\s*,").match(self.s, self.i)
                if m:
                    self.i = m.end()
            members = parts.get(reply, empty)
            key = key_of(self.variant, *reply)
            sub = key if path == "(root)" else f"{path}/{key}"
            if self.secrets.is_win(reply):
                wins = self.number()
                if wins != len(members):
                    raise self.error(f"{where}: all-bulls entry {wins}, but {guess} "
                                     f"{'is' if len(members) else 'is not'} a remaining secret")
            else:
                child = self.situation(members, sub)
                if child is not None:
                    kids[key] = child
            last = j + 1 == len(self.order)
            self.expect(")" if last else "," if self.order[j + 1][0] == reply[0] else ";")
        if kids:
            node["children"] = kids
        return node


# --- writing --------------------------------------------------------------------------------
def write(variant: Variant, root: dict, alphabet: Alphabet, hoist: bool = True) -> str:
    """Irving text of a (verified) tree; the root's children of at least N(N+3)/2 secrets are
    hoisted into labels A, B, ... when ``hoist``."""
    _check_variant(variant)
    secrets = Secrets(variant)
    order = irving_replies(variant)
    labels: list[tuple[str, str]] = []
    n = variant.length

    def situation(node, idx: np.ndarray, depth: int, path: str) -> str:
        count = len(idx)
        if count == 0:
            return "0"
        if node is None:
            raise FormatError(f"reply path {path}: {count} secrets reach no guess")
        guess = node["guess"]
        code = alphabet.write(guess)
        parts = secrets.split(guess, idx, path)
        kids = children_of(node)
        if count == 1 and guess == secrets.text(idx[0]):
            return "1"
        if all(len(m) == 1 and kids.get(key_of(variant, *r), {}).get("guess") == secrets.text(m[0])
               for r, m in parts.items() if not secrets.is_win(r)):
            win = any(secrets.is_win(r) for r in parts)
            return f"{count} ({code}{'' if win else '*'})"
        entries = []
        for b, c in order:
            members = parts.get((b, c), idx[:0])
            if secrets.is_win((b, c)):
                entries.append(str(len(members)))
                continue
            key = key_of(variant, b, c)
            entries.append(situation(kids.get(key), members, depth + 1,
                                     key if path == "(root)" else f"{path}/{key}"))
        text = ""
        for j, entry in enumerate(entries):
            text += entry
            if j + 1 < len(entries):
                text += ", " if order[j + 1][0] == order[j][0] else "; "
        body = f"({code}: {text})"
        if hoist and depth == 2 and count >= n * (n + 3) // 2 and len(labels) < 26:
            label = chr(ord("A") + len(labels))
            labels.append((label, body))
            return f"{count}{label}"
        return f"{count} {body}"

    out = [_wrap(situation(root, secrets.all, 1, "(root)"))]
    out += [_wrap(f"{label} = {body}") for label, body in labels]
    return "\n\n".join(out) + "\n"


def _wrap(text: str) -> str:
    """Break long lines after a separator (readers ignore whitespace)."""
    lines, line = [], ""
    for piece in re.split(r"(?<=[,;]) ", text):
        if line and len(line) + 1 + len(piece) > WIDTH:
            lines.append(line)
            line = "    " + piece
        else:
            line = f"{line} {piece}" if line else piece
    lines.append(line)
    return "\n".join(lines)
