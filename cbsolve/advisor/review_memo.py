"""Exact reviews kept under symmetry: a guess after a log costs what its image costs after the
image of the log, for any permutation of the positions and renaming of the symbols (replies
do not change), so one exact review answers every symmetric copy of it.

The key is canonical: over every permutation of the positions (codes of at most
:data:`MAX_LENGTH` symbols), the log's guesses and the reviewed guess read in that order with
their symbols renamed by first appearance; the least such sequence, with the replies and the
objective. A kept best guess is stored in the key's symbols and mapped back by the same
permutation and renaming. A kept answer carries the method of the review it copies, word for
word, so an answer does not depend on what was asked before it. Games with a forbidden first symbol have a smaller symmetry group:
nothing is kept for them.

A position's optimum is kept the same way (its key: the log alone), so a symmetric copy of a
position solves only the reviewed guess's reply classes. Random players' games of Bulls & Cows
4/10 meet few positions after one or two replies up to symmetry (the first guess is one orbit,
its reply one of 14, the consistent second guesses 19 orbits), so a run of many games solves
each of them once; :func:`load_table` adds reviews computed ahead of time
(``scripts/models/review_table.py``, ``models/review/``): for Bulls & Cows 4/10 every
consistent second and third guess up to symmetry (1,281 classes, both objectives) and the
optima of the positions after one and two replies (19 KB gzipped).
"""
from __future__ import annotations

import gzip
import itertools
import json
from pathlib import Path
from ..data import models_dir
from ..game.variant import Variant

#: Longest code kept (its n! position permutations are tried per key).
MAX_LENGTH = 5
#: Refinement states kept (one per log head) before they are cleared.
MAX_STATES = 64
#: Reviews kept per game before the memo is cleared.
MAX_KEPT = 1 << 16
TABLES = models_dir() / "review"


class ReviewMemo:
    """Exact reviews of one variant by canonical key (see the module docstring)."""

    def __init__(self, variant) -> None:
        self.variant = variant
        self.usable = not variant.no_leading_zero and variant.length <= MAX_LENGTH
        self._perms = list(itertools.permutations(range(variant.length)))
        self._kept: dict[str, tuple] = {}
        self._loaded = False
        # a log's codes -> its refinement state, which canonical() reuses: a review asks for
        # the key of log + guess and of the log alone (its optimum), whose heads differ, so
        # one kept state was refined from scratch on every call
        self._states: dict[tuple, tuple] = {}
        self._positions: dict[tuple, tuple] = {}   # (codes, replies, objective) -> its key

    def canonical(self, codes: list[tuple[int, ...]]) -> tuple[tuple[int, ...], tuple, dict]:
        """(the least renamed sequence, its position permutation, its renaming): the first
        permutation, in order, that gives the least sequence.

        Refined code by code (the sequence compares code by code, each code's part of equal
        length): only the permutations whose part so far is the least go on, so after the
        first codes a handful are left, not n!. The states after a log's codes are kept, so a
        further guess after the same log refines only its survivors."""
        codes = [tuple(c) for c in codes]
        head = tuple(codes[:-1])
        state = self._states.get(head)
        if state is None:
            if len(self._states) >= MAX_STATES:
                self._states.clear()
            state = self._states[head] = self._refine(((), [(p, {}) for p in self._perms]), head)
        seq, alive = self._refine(state, codes[-1:])
        perm, names = alive[0]
        return seq, perm, names

    @staticmethod
    def _refine(state, codes):
        """``state`` (the least sequence so far, the permutations that give it with their
        renamings) after ``codes`` more; the renamings are copied, never changed in place."""
        seq, alive = state
        for code in codes:
            best, kept = None, []
            for perm, names in alive:
                names = dict(names)
                part = tuple(names.setdefault(code[i], len(names)) for i in perm)
                if best is None or part < best:
                    best, kept = part, [(perm, names)]
                elif part == best:
                    kept.append((perm, names))
            seq, alive = seq + best, kept
        return seq, alive

    def key(self, log, guess: tuple[int, ...], objective: str):
        """(the key, the permutation, the renaming) of ``guess`` after ``log``; None when
        nothing is kept for this game."""
        if not self.usable:
            return None
        seq, perm, names = self.canonical([*(e.guess for e in log), tuple(guess)])
        replies = ",".join(f"{e.bulls}.{e.cows}" for e in log)
        return f"{objective}|{''.join(map(chr, (48 + s for s in seq)))}|{replies}", perm, names

    def position_key(self, log, objective: str):
        """(the key, the permutation, the renaming) of the position ``log`` leaves, for its
        optimum; None when nothing is kept."""
        if not self.usable or not len(log):
            return None
        codes = tuple(tuple(e.guess) for e in log)
        replies = ",".join(f"{e.bulls}.{e.cows}" for e in log)
        if (kept := self._positions.get((codes, replies, objective))) is not None:
            return kept        # each new guess at a position asks for its key again
        seq, perm, names = self.canonical(list(codes))
        found = (f"optimum|{objective}|{''.join(map(chr, (48 + s for s in seq)))}|{replies}",
                 perm, names)
        if len(self._positions) >= MAX_STATES:
            self._positions.clear()
        self._positions[codes, replies, objective] = found
        return found

    def get_optimum(self, found) -> tuple[int, tuple[int, ...]] | None:
        """(the position's optimum, an optimal guess as symbol indices) or None."""
        if found is None:
            return None
        self._load()
        kept = self._kept.get(found[0])
        return None if kept is None else (kept[0], self._back(kept[1], found[1], found[2]))

    def put_optimum(self, found, best: int, best_code) -> None:
        if found is not None:
            self._keep(found[0], (best, self._forth(best_code, found[1], found[2])))

    def _keep(self, key: str, value: tuple) -> None:
        if len(self._kept) >= MAX_KEPT:
            self._kept.clear()
            self._loaded = False
        self._kept[key] = value

    def get(self, found) -> tuple | None:
        """(secrets, cost, best, the best guess as symbol indices, method) or None."""
        if found is None:
            return None
        self._load()
        kept = self._kept.get(found[0])
        if kept is None:
            return None
        n, cost, best, canon_best, method = kept
        return n, cost, best, self._back(canon_best, found[1], found[2]), method

    def put(self, found, n: int, cost: int, best: int, best_code, method: str) -> None:
        if found is not None:
            self._keep(found[0], (n, cost, best, self._forth(best_code, found[1], found[2]),
                                  method))

    def _renaming(self, names: dict[int, int]) -> dict[int, int]:
        """``names`` extended to every symbol: the unused ones in order after the used."""
        full = dict(names)
        for s in range(self.variant.n_symbols):
            full.setdefault(s, len(full))
        return full

    def _forth(self, code, perm, names) -> list[int]:
        full = self._renaming(names)
        return [full[code[i]] for i in perm]

    def _back(self, canon, perm, names) -> tuple[int, ...]:
        inverse = {v: k for k, v in self._renaming(names).items()}
        code = [0] * len(perm)
        for j, i in enumerate(perm):
            code[i] = inverse[canon[j]]
        return tuple(code)

    def _load(self) -> None:
        if not self._loaded:
            self._loaded = True
            for key, value in load_table(self.variant).items():
                self._kept.setdefault(key, value)

    def fold(self, data: dict) -> None:
        """Add a table file's reviews (as :meth:`encoded` writes them) to what is kept."""
        self._load()
        for key, value in decoded(data).items():
            self._kept.setdefault(key, value)

    def encoded(self) -> dict:
        """What is kept, as a table file holds it: ``{"methods": [text, ...], "reviews": {key:
        value}}``, a review's value ``[secrets, cost, best, best guess, method number]`` and an
        optimum's ``[value, best guess]``, each best guess in the key's symbols written as
        the key writes them (one character a symbol)."""
        self._load()
        methods: dict[str, int] = {}
        reviews = {}
        for key, value in self._kept.items():
            if len(value) == 2:
                reviews[key] = [value[0], _chars(value[1])]
            else:
                n, cost, best, code, method = value
                reviews[key] = [n, cost, best, _chars(code), methods.setdefault(method,
                                                                                len(methods))]
        return {"methods": list(methods), "reviews": reviews}


def _chars(code) -> str:
    return "".join(chr(48 + int(s)) for s in code)


def _symbols(text: str) -> tuple[int, ...]:
    return tuple(ord(c) - 48 for c in text)


def decoded(data: dict) -> dict[str, tuple]:
    """A table file's reviews as the memo keeps them (see :meth:`ReviewMemo.encoded`)."""
    methods = data.get("methods", [])
    out = {}
    for key, value in data.get("reviews", {}).items():
        if len(value) == 2:
            out[key] = (value[0], _symbols(value[1]))
        else:
            n, cost, best, code, method = value
            out[key] = (n, cost, best, _symbols(code), methods[method])
    return out


def table_path(variant) -> Path:
    return TABLES / f"review-{variant.length}-{variant.symbols}-{'r' if variant.repeats else 'd'}-" \
                    f"{variant.feedback}.json.gz"


def load_table(variant) -> dict:
    """Reviews computed ahead of time for ``variant`` (none when no table ships for it)."""
    path = table_path(variant)
    try:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError, EOFError):
        return {}

    try:
        if Variant.from_dict(data["variant"]) != variant:
            return {}
        return decoded(data)
    except (KeyError, TypeError, ValueError, IndexError):
        return {}
