"""Drawing one puzzle: a secret, clues until it is alone, the clue set made minimal and put in
the reference solver's order (cbsolve/puzzles/puzzle.py builds on it; docs/contract.md,
``puzzle``).

Speed (thousands of puzzles a second from one process). Every clue is a row of the
reply matrix: ``row[c]`` is the reply code ``c`` gives the guess. A process's first puzzles
score the rows they need; from the :data:`WARM_UP`-th on (and in a stream at once), up to
:data:`MATRIX_LIMIT` codes, the whole matrix is scored once (Bulls & Cows 4/10: 25 MB,
~0.1 s) and the native kernel draws over it. Both give the same puzzles (the same words).

Each code's *fail set* is the bit set of clues it contradicts (bit j: clue j). The secret's is
empty and, once the clues leave it alone, every other code's is not. So the whole puzzle is a
handful of distinct fail sets with their multiplicities: dropping clues D leaves the secret
alone iff no other fail set lies inside D, and the candidates left by the clues P are the codes
whose fail set misses P. Minimising and measuring then work on those few sets, not on codes.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..game.codes import CodeSpace
from ..game.scoring import pack, score_matrix
from ..game.variant import Variant

#: Largest code space whose whole reply matrix is kept (size^2 bytes: 67 MB at the limit).
MATRIX_LIMIT = 8192
#: Puzzles a process draws row by row before it scores the whole matrix (one puzzle from the
#: command line does not pay for 25 million scores).
WARM_UP = 8
#: Random guesses each clue is chosen from, and which one is kept, per recipe: ``easy`` the
#: strongest (fewest candidates left), ``hard`` the weakest that still removes one. The recipe
#: only proposes; the label is decided on the measure (cbsolve/puzzles/difficulty.py).
CHOICES = {"easy": 4, "medium": 1, "hard": 8}
#: Clues a draw holds at most (fail sets are 64-bit words); past it each clue is the strongest.
MAX_CLUES = 60


@lru_cache(maxsize=2)
def _matrix(variant: Variant) -> np.ndarray:
    codes = CodeSpace(variant).codes
    out = score_matrix(variant, codes, codes)
    out.flags.writeable = False
    return out


class Replies:
    """Reply rows of one variant: slices of the whole matrix once it is built
    (:meth:`whole`), else scored one by one."""

    def __init__(self, variant: Variant, space: CodeSpace):
        self.variant, self.space = variant, space
        self.size = int(space.size)
        self.full: np.ndarray | None = None
        self.packed = pack(variant, space.codes)

    def whole(self) -> None:
        """Score the whole matrix (when it fits): worth it for more than a few puzzles."""
        if self.full is None and self.size <= MATRIX_LIMIT:
            self.full = _matrix(self.variant)

    def row(self, guess: int) -> np.ndarray:
        if self.full is not None:
            return self.full[guess]
        codes = self.space.codes
        return score_matrix(self.variant, codes[guess:guess + 1], self.packed)[0]


@dataclass
class Draw:
    """A secret and its minimal clues in the reference solver's order (strongest first)."""

    secret: int
    guesses: list[int]            # code indices, in the listed order
    candidates_after: list[int]   # codes consistent with the first i+1 clues (the last is 1)


class Stream:
    """The puzzle's random words: SplitMix64 (Steele, Lea and Flood 2014) from one 64-bit
    state, seeded with the puzzle's seed. The native kernel steps the same state, so both give
    the same words; an index below n is ``word % n`` (bias below n / 2^64)."""

    MASK = (1 << 64) - 1

    def __init__(self, seed: int):
        self.state = seed & self.MASK

    def next(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & self.MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self.MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self.MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next() % n

    def permutation(self, k: int) -> list[int]:
        """0..k-1 shuffled (Fisher-Yates from the top)."""
        perm = list(range(k))
        for i in range(k - 1, 0, -1):
            j = self.below(i + 1)
            perm[i], perm[j] = perm[j], perm[i]
        return perm


def draw(replies: Replies, stream: Stream, recipe: str, native: bool = True) -> Draw:
    """One puzzle from ``stream`` (the native kernel over the whole matrix, else
    :func:`reference`: the same words in the same order, the same puzzle)."""
    choices = CHOICES[recipe]
    core = _native() if native and replies.full is not None else None
    if core is not None:
        order, after, stream.state = core.draw(replies.full, stream.state, choices,
                                               recipe == "hard")
        return Draw(order[0], order[1:], after)
    return reference(replies, stream, choices, recipe == "hard")


@lru_cache(maxsize=1)
def _native():
    """The kernel module, or None in a build made before it existed (the twin then draws the
    same puzzles, slower)."""
    try:
        from .._native import puzzle
    except ImportError:
        return None
    return puzzle


def reference(replies: Replies, stream: Stream, choices: int, weakest: bool) -> Draw:
    """The draw in NumPy and Python (spaces too large for the whole matrix, and the twin the
    tests compare the native kernel with)."""
    n = replies.size
    secret = stream.below(n)
    rows: dict[int, np.ndarray] = {}
    clues = _clues(replies, stream, secret, choices, weakest, rows)
    sets, counts = _fail_sets(replies, clues, rows, secret)
    sets, counts = sets.tolist(), counts.tolist()
    k = len(clues)
    kept = _minimal(sets[1:], k, stream.permutation(k))   # sets[0] == 0: the secret, alone
    merged: dict[int, int] = {}
    for s, c in zip(sets, counts):       # each code's fail set restricted to the kept clues
        merged[s & kept] = merged.get(s & kept, 0) + c
    order, after = _strongest_first(sorted(merged.items()), kept)
    return Draw(secret, [clues[j] for j in order], after)


def _clues(replies, stream, secret, choices, weakest, rows) -> list[int]:
    """Guesses drawn until the secret is the only code consistent with their replies."""
    n = replies.size
    left = None                      # code indices still consistent (None: all)
    clues: list[int] = []
    while left is None or left.size > 1:
        size = n if left is None else left.size
        capped = len(clues) >= MAX_CLUES
        tries = max(choices, 4) if capped else choices
        pick_weakest = weakest and not capped
        best = None
        for _ in range(tries):
            g = stream.below(n)
            if g == secret:
                continue             # the winning guess would end the game, not narrow it
            row = rows.get(g)
            if row is None:
                row = rows[g] = replies.row(g)
            keep = (row if left is None else row[left]) == row[secret]
            after = int(np.count_nonzero(keep))
            if after < size and (best is None or (after > best[0] if pick_weakest
                                                   else after < best[0])):
                best = (after, g, keep)
        if best is None:
            continue                 # no guess drawn removed a candidate: draw again
        _, g, keep = best
        left = np.flatnonzero(keep) if left is None else left[keep]
        clues.append(g)
    return clues


def _fail_sets(replies, clues, rows, secret) -> tuple[np.ndarray, np.ndarray]:
    """The distinct fail sets (bit j: the code contradicts clue j), ascending (the secret's
    empty one first), and how many codes have each."""
    block = np.stack([rows[g] for g in clues])
    wrong = (block != block[:, secret:secret + 1]).astype(np.uint64)   # (k, n) 0/1
    fails = np.zeros(block.shape[1], dtype=np.uint64)
    for j in range(len(clues)):
        fails |= wrong[j] << np.uint64(j)
    return np.unique(fails, return_counts=True)


def _minimal(others: list[int], k: int, perm: list[int]) -> int:
    """The clues kept (a bit set) after dropping each clue, in the order ``perm``, whenever
    the secret stays alone: no other code's fail set lies inside the dropped ones."""
    kept = (1 << k) - 1
    for i in perm:
        trial = kept & ~(1 << i)
        if all(s & trial for s in others):
            kept = trial
    return kept


def _strongest_first(pairs: list[tuple[int, int]], kept: int) -> tuple[list[int], list[int]]:
    """The kept clues in the reference solver's order: at each step the clue that leaves the
    fewest candidates with those before it (ties: the clue drawn first). ``pairs``: (fail
    set, codes). Returns the order and the candidates left after each clue."""
    rest = [j for j in range(kept.bit_length()) if kept >> j & 1]
    order, after, prefix = [], [], 0
    while rest:
        best = None
        for j in rest:
            mask = prefix | (1 << j)
            left = sum(c for s, c in pairs if not s & mask)
            if best is None or left < best[0]:
                best = (left, j)
        left, j = best
        rest.remove(j)
        order.append(j)
        after.append(left)
        prefix |= 1 << j
        pairs = [(s, c) for s, c in pairs if not s & prefix]    # only these can still count
    return order, after
