"""Block composition: an upper bound for games with repeats from strategies for small blocks of
positions, each evaluated exactly, joined by a filler symbol of known count.

Place in the data flow: variant -> here -> :func:`cbsolve.bounds.constructions.constructive_worst`
(beside count, split into regions, locate; the smaller worst case is used).

**The strategy.** Guess symbol c (the first) everywhere: its count n_c. Then cut the N positions
into blocks and solve them one after the other. While block B is solved, every guess puts a
block guess g on B, the known symbols on the blocks already solved, and c on the blocks still
unsolved; its bulls are bulls_B(g) + |solved| + n_c - #c(solved) - #c(s_B), so the reading
bulls_B(g) - #c(s_B) is known: the *shifted* block game, the same for every block but the last,
which has nothing unsolved beside it and reads bulls_B(g), the plain black-peg game. Once every
block is identified the secret is guessed. Bulls only are read, so the bound holds with bulls
and cows too (the cows are ignored).

**The blocks' strategies** (:func:`block_tree`): the minimax heuristic (Knuth 1977) over every
block code, ranked by the largest class, then more classes, then the lowest index; a node of
more than :data:`LOOK_SIZE` codes builds the subtrees of its :data:`LOOK` best ranked guesses
(one per multiset of class sizes) and keeps the shallowest, and a node of at most :data:`SMALL`
codes takes the first of its codes that splits it into singletons, when one does. The tree is
played until one code is left. Its *identification depth* (guesses until one code is left) is
tabulated in :data:`DEPTHS` (building the larger trees takes a minute); the tests rebuild the
trees, compare the depths, and play composed games against every secret of small games and
random ones of large.

**Worst case** (:func:`block_worst`): 1 + (identification depths of the shifted blocks) + (that
of the plain last block) + 1, minimised over the block sizes by a dynamic programme; one block
alone is the plain game's tree (depth + 1). Pays for few symbols: 17 x 3 in 16 guesses where
counting then locating takes 19, 12 x 4 in 15 (19); for D = 10 a block of 3 positions already
takes 11 guesses to identify.
"""
from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from ..game.variant import Variant

METHOD = "constructive strategy (block composition; block strategies evaluated exactly)"
#: Identification depths {(block length, symbols): (plain, shifted)} of :func:`block_tree`.
DEPTHS: dict[tuple[int, int], tuple[int, int]] = {
    (1, 2): (1, 1), (2, 2): (2, 2), (3, 2): (3, 3), (4, 2): (4, 4), (5, 2): (4, 4),
    (6, 2): (5, 5), (7, 2): (6, 5), (8, 2): (6, 6), (9, 2): (7, 6), (10, 2): (7, 7),
    (11, 2): (7, 7), (12, 2): (7, 7),
    (1, 3): (2, 1), (2, 3): (3, 2), (3, 3): (4, 3), (4, 3): (4, 4), (5, 3): (5, 4),
    (6, 3): (5, 5), (7, 3): (6, 5),
    (1, 4): (3, 2), (2, 4): (4, 3), (3, 4): (5, 4), (4, 4): (6, 5), (5, 4): (6, 6),
    (6, 4): (7, 6),
    (1, 5): (4, 3), (2, 5): (5, 4), (3, 5): (6, 5), (4, 5): (7, 6), (5, 5): (8, 7),
    (1, 6): (5, 4), (2, 6): (6, 5), (3, 6): (7, 6), (4, 6): (8, 7),
    (1, 7): (6, 5), (2, 7): (7, 6), (3, 7): (8, 8), (4, 7): (9, 8),
    (1, 8): (7, 6), (2, 8): (8, 7), (3, 8): (9, 8), (4, 8): (11, 10),
    (1, 9): (8, 7), (2, 9): (9, 8), (3, 9): (10, 9),
    (1, 10): (9, 8), (2, 10): (10, 9), (3, 10): (11, 10),
}
#: Nodes of more than LOOK_SIZE codes build the trees of their LOOK best ranked guesses and keep
#: the shallowest (the others take the best ranked guess).
LOOK, LOOK_SIZE = 3, 100
#: Nodes of at most this many codes first look for a candidate that splits them into singletons.
SMALL = 12
#: Largest block code space a tree is built for.
MAX_CODES = 4096

Tree = tuple  # ("leaf", code index) or (guess index, {reading: Tree})


def block_codes(b: int, d: int) -> np.ndarray:
    return np.array(list(itertools.product(range(d), repeat=b)), dtype=np.int8).reshape(-1, b)


def readings(b: int, d: int, shifted: bool) -> np.ndarray:
    """[guess, secret] reading of the block game, offset by b in the shifted one (>= 0)."""
    codes = block_codes(b, d)
    out = (codes[:, None, :] == codes[None, :, :]).sum(axis=2)
    if shifted:
        out = out - (codes == 0).sum(axis=1)[None, :] + b
    return out.astype(np.int16)


def _ranked(reads: np.ndarray, n_read: int, k: int) -> list[int]:
    """The first ``k`` guesses by (largest class, then more classes, then index) that split the
    node, one per multiset of class sizes."""
    g = reads.shape[0]
    counts = np.bincount((np.arange(g)[:, None] * n_read + reads).ravel(),
                         minlength=g * n_read).reshape(g, n_read)
    largest = counts.max(axis=1)
    key = largest.astype(np.int64) * (n_read + 1) - (counts > 0).sum(axis=1)
    out: list[int] = []
    seen: set[tuple[int, ...]] = set()
    for guess in np.argsort(key, kind="stable"):
        if largest[guess] == reads.shape[1]:
            break                                  # the rest split nothing either
        sizes = tuple(sorted(counts[guess]))
        if sizes not in seen:
            seen.add(sizes)
            out.append(int(guess))
            if len(out) == k:
                break
    return out


def _perfect_candidate(reads: np.ndarray, cand: np.ndarray, n_read: int) -> int | None:
    """The first candidate code that leaves every other alone (the minimax choice then, as no
    class can be smaller), or None (cost: the small nodes are most of the tree)."""
    for code in cand:
        if len(np.unique(reads[code])) == len(cand):
            return int(code)
    return None


@cache
def block_tree(b: int, d: int, shifted: bool) -> Tree:
    """The tree of the block game (module doc)."""
    table = readings(b, d, shifted)
    n_read = 2 * b + 1

    def build(cand: np.ndarray, bound: int | None) -> tuple[Tree, int] | None:
        """(tree, depth) for ``cand``, or None when it cannot be shallower than ``bound``."""
        if len(cand) == 1:
            return ("leaf", int(cand[0])), 0
        reads = table[:, cand]
        perfect = _perfect_candidate(reads, cand, n_read) if len(cand) <= SMALL else None
        options = [perfect] if perfect is not None else \
            _ranked(reads, n_read, LOOK if len(cand) > LOOK_SIZE else 1)
        if not options:
            raise AssertionError("no block guess splits the node")
        best = None
        for guess in options:
            row, children, depth = reads[guess], {}, 1
            limit = bound if best is None else best[1]
            for r in np.unique(row):
                sub = build(cand[row == r], None if limit is None else limit - 1)
                if sub is None or (limit is not None and sub[1] + 1 >= limit):
                    break
                children[int(r)], depth = sub[0], max(depth, sub[1] + 1)
            else:
                best = ((guess, children), depth)
        return best

    found = build(np.arange(d ** b), None)
    assert found is not None
    return found[0]


def tree_depth(tree: Tree) -> int:
    """Guesses until one code is left, on the worst path."""
    if tree[0] == "leaf":
        return 0
    return 1 + max(tree_depth(child) for child in tree[1].values())


def _depth(b: int, d: int, shifted: bool) -> int | None:
    known = DEPTHS.get((b, d))
    return None if known is None else known[1 if shifted else 0]


def block_plan(n: int, d: int) -> tuple[int, tuple[int, ...]] | None:
    """(worst case, block lengths, the plain last block last) of the cheapest composition."""
    plain = {b: _depth(b, d, False) for b in range(1, n + 1) if _depth(b, d, False) is not None}
    if not plain:
        return None
    best = [(0, ())] + [None] * n               # shifted blocks covering m positions
    for m in range(1, n + 1):
        for b in range(1, m + 1):
            cost = _depth(b, d, True)
            if cost is not None and best[m - b] is not None:
                cand = (best[m - b][0] + cost, best[m - b][1] + (b,))
                best[m] = cand if best[m] is None or cand[0] < best[m][0] else best[m]
    options = [(plain[n] + 1, (n,))] if n in plain else []
    for b, cost in plain.items():
        if b < n and best[n - b] is not None:
            options.append((1 + best[n - b][0] + cost + 1, best[n - b][1] + (b,)))
    return min(options) if options else None


def supported(variant: Variant) -> bool:
    return variant.repeats and not variant.no_leading_zero and variant.n_symbols >= 2


def block_worst(variant: Variant) -> int | None:
    """Proved worst case of the block composition (final guess included), or None."""
    if not supported(variant):
        return None
    plan = block_plan(variant.length, variant.n_symbols)
    return None if plan is None else plan[0]


def play(n: int, d: int, respond) -> list[tuple[int, ...]]:
    """The composed strategy against ``respond`` (guess -> bulls); returns its guesses, the last
    one the secret (or the guess that won earlier)."""
    plan = block_plan(n, d)
    if plan is None:
        raise ValueError(f"no block composition for N={n}, D={d}")
    lengths = plan[1]
    guesses: list[tuple[int, ...]] = []

    def ask(code: list[int]) -> int:
        guesses.append(tuple(code))
        return respond(tuple(code))

    known: list[int] = []                      # the solved prefix, block after block
    n_c = ask([0] * n) if len(lengths) > 1 else 0
    for i, b in enumerate(lengths):
        shifted = i < len(lengths) - 1
        codes, tree = block_codes(b, d), block_tree(b, d, shifted)
        rest = n - len(known) - b
        offset = len(known) + (n_c - known.count(0) - b if shifted else 0)
        while tree[0] != "leaf":
            guess, children = tree
            bulls = ask(known + [int(x) for x in codes[guess]] + [0] * rest)
            if bulls == n:
                return guesses
            tree = children[bulls - offset]
        known += [int(x) for x in codes[tree[1]]]
    if not guesses or list(guesses[-1]) != known:
        ask(known)
    return guesses


__all__ = ["DEPTHS", "METHOD", "block_plan", "block_tree", "block_worst", "play", "readings",
           "tree_depth"]
