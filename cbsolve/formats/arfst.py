"""arfst23/Mastermind's two strategy formats: YAML and the fixed-column text ("punch card").

Both write colours as digits 0..k-1 (the Mastermind preset's 1..k are translated by position)
and a reply as a peg string: one ``X`` per bull (black peg), one ``O`` per cow (white peg),
``-`` for the rest (``XO--`` = 1 bull, 1 cow).

YAML: a node is a two-item list, the guess and a map from reply to either a code (the secret,
guessed next; under the all-bulls reply, the guess itself) or a node::

    - 0012
    - ----:
        - 3345
        - OO--: 5553

Codes must be read as strings: a YAML 1.1 reader turns ``0012`` into the octal number 10 and
``5553`` into an integer, so the reader uses PyYAML's BaseLoader (every scalar a string).

Text: a header line with the reply columns, then one line a node: line number, the guess's
number in the game (its depth), the guess, and one cell a reply (lines that do not start with a
line number are notes): ``>NNN`` (continue on line
NNN), a code (the secret), or dashes (no secret gives this reply)::

               ---- O--- ... XXXX
    000 1 0012 >001 >002 ... 0012
"""
from __future__ import annotations

from ..extras import require
from ..game.variant import Variant
from .common import (
    Alphabet,
    FormatError,
    candidate_nodes,
    children_of,
    irving_replies,
    key_of,
    reply_from_key,
)

YAML, TEXT = "arfst-yaml", "arfst-text"


def pegs(variant: Variant, bulls: int, cows: int) -> str:
    return "X" * bulls + "O" * cows + "-" * (variant.length - bulls - cows)


def reply_of(variant: Variant, text: str, where: str) -> tuple[int, int]:
    b, c = text.count("X"), text.count("O")
    if len(text) != variant.length or b + c + text.count("-") != len(text):
        raise FormatError(f"{where}: {text!r} is not a reply of {variant.length} pegs "
                          "(X = bull, O = cow, - = none)")
    return b, c


def columns(variant: Variant) -> list[tuple[int, int]]:
    """The reply columns in arfst23's order (peg strings sorted: - < O < X)."""
    return sorted(irving_replies(variant), key=lambda r: pegs(variant, *r))


class _Builder:
    """Turns (guess, {reply: code | node}) pairs into cbsolve nodes, checking each reply."""

    def __init__(self, variant: Variant, alphabet: Alphabet):
        self.variant, self.alphabet = variant, alphabet
        self.win = (variant.length, 0)

    def node(self, guess_text: str, replies: dict, where: str, expand) -> dict:
        guess = self.alphabet.read(guess_text, where)
        node = {"guess": guess}
        kids = {}
        for reply_text, value in replies.items():
            reply = reply_of(self.variant, reply_text, where)
            sub = f"{where}/{reply_text}"
            if reply == self.win:
                if value != guess_text:
                    raise FormatError(f"{sub}: the all-bulls entry must repeat the guess "
                                      f"{guess_text}, got {value!r}")
                continue
            kids[key_of(self.variant, *reply)] = expand(value, sub)
        if kids:
            node["children"] = kids
        return node


# --- YAML -----------------------------------------------------------------------------------
def read_yaml(text: str, variant: Variant, alphabet: Alphabet) -> dict:
    yaml = require("yaml", "reading YAML strategy trees")

    try:
        data = yaml.load(text, Loader=yaml.BaseLoader)   # noqa: S506 - BaseLoader builds no objects
    except yaml.YAMLError as exc:
        raise FormatError(f"not YAML: {str(exc).splitlines()[0]}") from None
    builder = _Builder(variant, alphabet)

    def expand(value, where: str) -> dict:
        if isinstance(value, str):
            return {"guess": alphabet.read(value, where)}
        if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str)
                and isinstance(value[1], dict)):
            raise FormatError(f"{where}: expected [guess, {{reply: code or node}}], got "
                              f"{str(value)[:60]}")
        return builder.node(value[0], value[1], where, expand)

    return expand(data, "(root)")


def write_yaml(variant: Variant, root: dict, alphabet: Alphabet) -> str:
    win = pegs(variant, variant.length, 0)
    candidates = candidate_nodes(variant, root)
    lines = ["---"]

    def scalar(code: str) -> str:
        text = alphabet.write(code)
        return text if text.isalnum() else "'" + text.replace("'", "''") + "'"

    def emit(node: dict, indent: int) -> None:
        pad = " " * indent
        lines.append(f"{pad}- {scalar(node['guess'])}")
        entries = [(pegs(variant, *reply_from_key(variant, key)), child)
                   for key, child in children_of(node).items()]
        if id(node) in candidates:
            entries.append((win, None))
        entries.sort(key=lambda e: e[0])
        for j, (reply, child) in enumerate(entries):
            prefix = pad + ("- " if j == 0 else "  ")
            if child is None:
                lines.append(f"{prefix}{reply}: {scalar(node['guess'])}")
            elif children_of(child):
                lines.append(f"{prefix}{reply}:")
                emit(child, indent + 4)
            else:
                lines.append(f"{prefix}{reply}: {scalar(child['guess'])}")

    emit(root, 0)
    return "\n".join(lines) + "\n"


# --- text (punch card) ----------------------------------------------------------------------
def read_text(text: str, variant: Variant, alphabet: Alphabet) -> dict:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        raise FormatError("empty file: expected a header of reply columns and one line a node")
    header = lines[0].split()
    cols = [reply_of(variant, h, "header") for h in header]
    rows = {}
    for number, line in enumerate(lines[1:], start=2):
        cells = line.split()
        if not cells[0].isdigit():   # a note (arfst23 ends some files with "cpu=0.0s")
            continue
        if len(cells) != 3 + len(cols):
            raise FormatError(f"line {number}: expected line number, guess number, guess and "
                              f"{len(cols)} reply cells, got {len(cells)} fields")
        rows[cells[0]] = (int(cells[1]) if cells[1].isdigit() else -1, cells[2], cells[3:], number)
    if not rows:
        raise FormatError("no node lines: expected lines starting with a line number")
    first = next(iter(rows))
    builder = _Builder(variant, alphabet)
    seen: set[str] = set()

    def expand(value: str, where: str, depth: int = 1) -> dict:
        if not value.startswith(">"):
            return {"guess": alphabet.read(value, where)}
        ref = value[1:]
        if ref not in rows:
            raise FormatError(f"{where}: refers to line {ref}, which is not in the file")
        if ref in seen:
            raise FormatError(f"{where}: line {ref} is used twice (a tree has one parent a node)")
        seen.add(ref)
        guess_no, guess, cells, number = rows[ref]
        if guess_no != depth:
            raise FormatError(f"line {number}: says guess number {guess_no}, but it is played "
                              f"as guess {depth}")
        replies = {pegs(variant, *r): cell for r, cell in zip(cols, cells, strict=False)
                   if set(cell) != {"-"}}
        return builder.node(guess, replies, where,
                            lambda v, w: expand(v, w, depth + 1) if v.startswith(">")
                            else expand(v, w))

    return expand(">" + first, "(root)")


def write_text(variant: Variant, root: dict, alphabet: Alphabet) -> str:
    cols = columns(variant)
    win = (variant.length, 0)
    nodes: list[tuple[int, dict]] = []

    def number(node: dict, depth: int) -> int:
        nodes.append((depth, node))
        return len(nodes) - 1

    # breadth first, as arfst23 numbers its lines
    order = [(root, 1)]
    index = {id(root): number(root, 1)}
    for node, depth in order:
        for child in children_of(node).values():
            if children_of(child):
                index[id(child)] = number(child, depth + 1)
                order.append((child, depth + 1))
    width = max(3, len(str(len(nodes) - 1)))
    cell = max(variant.length, width + 1)
    candidates = candidate_nodes(variant, root)
    none = "-" * variant.length
    out = [" " * (width + 3 + variant.length) + " "
           + " ".join(pegs(variant, *r).ljust(cell) for r in cols).rstrip()]
    for j, (depth, node) in enumerate(nodes):
        kids = children_of(node)
        cells = []
        for r in cols:
            child = kids.get(key_of(variant, *r))
            if r == win:
                cells.append(alphabet.write(node["guess"]) if id(node) in candidates else none)
            elif child is None:
                cells.append(none)
            elif children_of(child):
                cells.append(f">{index[id(child)]:0{width}d}")
            else:
                cells.append(alphabet.write(child["guess"]))
        out.append(f"{j:0{width}d} {depth} {alphabet.write(node['guess'])} "
                   + " ".join(c.ljust(cell) for c in cells).rstrip())
    return "\n".join(out) + "\n"
