"""The Bulls & Cows JSON tree of kunigami's blog post and its tree-walking web app.

A node is ``[GUESS, {"(b, c)": NODE, ...}]`` where GUESS is a list of symbol indices
(``[0, 1, 2, 3]``: Bulls & Cows digits are their own indices) and the keys are the reply as
the text of a Python tuple. A node with an empty map is a leaf: its guess is the secret. Under
the all-bulls reply a node may hold a *confirmation leaf*, ``"(4, 0)": [GUESS, {}]`` repeating
its own guess: it marks the game as won, it is not another guess.

The app ships the tree as a script, ``const decisionTree = [...];`` with single-quoted keys;
the reader accepts that too (the part after ``=`` is read as a Python literal, never run).
"""
from __future__ import annotations

import ast
import json
import re

from ..game.variant import Variant
from .common import Alphabet, FormatError, children_of, key_of, reply_from_key

NAME = "kunigami-json"


def read(text: str, variant: Variant, alphabet: Alphabet) -> dict:
    data = _load(text)
    win = (variant.length, 0)

    def code(value, where: str) -> str:
        if isinstance(value, str):
            return alphabet.read(value, where)
        if not (isinstance(value, list) and all(isinstance(x, int) and not isinstance(x, bool)
                                                for x in value)):
            raise FormatError(f"{where}: a guess must be a list of symbol indices, got {value!r}")
        if any(not 0 <= x < variant.n_symbols for x in value):
            raise FormatError(f"{where}: guess {value} has a symbol index outside "
                              f"0..{variant.n_symbols - 1}")
        return "".join(variant.symbols[x] for x in value)

    def expand(value, where: str) -> dict:
        if not (isinstance(value, list) and len(value) == 2 and isinstance(value[1], dict)):
            raise FormatError(f"{where}: expected [guess, {{\"(b, c)\": node}}], got {str(value)[:60]}")
        guess = code(value[0], where)
        node = {"guess": guess}
        kids = {}
        for key, child in value[1].items():
            reply = _reply(key, where)
            sub = f"{where}/{key}"
            if reply == win:
                if not (isinstance(child, list) and len(child) == 2 and child[1] == {}
                        and code(child[0], sub) == guess):
                    raise FormatError(f"{sub}: the all-bulls entry must be the confirmation "
                                      "leaf [GUESS, {}] repeating the guess")
                continue
            kids[key_of(variant, *reply)] = expand(child, sub)
        if kids:
            node["children"] = kids
        return node

    return expand(data, "(root)")


def _load(text: str):
    try:
        return json.loads(text)
    except ValueError:
        pass
    body = re.sub(r"^\s*(?:const|let|var)\s+\w+\s*=\s*", "", text).strip().rstrip(";")
    try:
        return ast.literal_eval(body)
    except (ValueError, SyntaxError, MemoryError, RecursionError) as exc:
        raise FormatError(f"neither JSON nor a literal tree: {type(exc).__name__}: "
                          f"{str(exc).splitlines()[0] if str(exc) else ''}") from None


def _reply(key, where: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)\s*", key) if isinstance(key, str) else None
    if not m:
        raise FormatError(f"{where}: reply key {key!r} is not of the form \"(b, c)\"")
    return int(m.group(1)), int(m.group(2))


def write(variant: Variant, root: dict, alphabet: Alphabet, candidates: set[int]) -> str:
    """JSON text; ``candidates`` are the ids of the nodes whose guess can be the secret
    there (they get a confirmation leaf when they have other children)."""
    del alphabet   # guesses are written as symbol indices, whatever the alphabet
    index = {s: i for i, s in enumerate(variant.symbols)}
    win = f"({variant.length}, 0)"

    def node_of(node: dict):
        guess = [index[c] for c in node["guess"]]
        kids = children_of(node)
        out = {}
        for key in sorted(kids, key=lambda k: reply_from_key(variant, k)):
            b, c = reply_from_key(variant, key)
            out[f"({b}, {c})"] = node_of(kids[key])
        if kids and id(node) in candidates:
            out[win] = [guess, {}]
        return [guess, out]

    return json.dumps(node_of(root)) + "\n"
