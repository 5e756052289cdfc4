"""Solving a small region by a searched decision tree: the in-place search that count, split
into regions, locate (:mod:`.regions`) plays on regions of at most :data:`MAX_POSITIONS`
positions that have a filler, and its worst case.

Place in the data flow: :mod:`.regions` (the strategy and its worst-case recursion) -> here.

**Why.** Inside a region of m positions whose symbol counts are known and which lacks some
symbol (the filler), a guess may put any of the region's q symbols, or the filler, on each of
its positions (the filler everywhere else); its bulls minus the filler's known count are the
region's matches, a reading in 0..m. Locating the symbols one at a time reads one symbol's
count per guess; a guess mixing all of them reads up to m + 1 values. For m <= 7 the secrets
of a region (the arrangements of its count vector, at most 5 040) are few enough to search a
decision tree that identifies each of them: 7 distinct symbols on 7 positions take 7 guesses
where locating them (singletons two at a time) takes 10.

**The tree** (:func:`region_tree`), for a count vector sorted ascending (labels 0..q-1 in that
order, q = the filler): iterative deepening from the counting bound; at each node the guesses
over labels and filler are ranked by their largest class (then by more classes), guesses
splitting the node's arrangements alike are tried once, and the best :data:`CANDIDATES` are
tried in that order. Only the tree found matters for the bound: its depth is what the strategy
plays (it need not be optimal), and :func:`tree_depth` reads it off the tree, which the tests
check by playing every arrangement.

**Worst case** (:func:`small_region_worst`): the deepest tree over the count vectors of m
positions with exactly q symbols.
"""
from __future__ import annotations

import itertools
from functools import cache

import numpy as np

#: Largest region solved by a searched tree (its guesses number (q + 1)^m).
MAX_POSITIONS = 7
#: Guesses tried at each node of the search, best ranked first.
CANDIDATES = 24
#: Nodes with more arrangements than this try only their best two guesses (cost).
WIDE = 40
#: Up to this many codes over a region's labels and filler, every one is ranked at each node;
#: above it, the region's arrangements and SAMPLE codes spread evenly over all of them.
ALL_GUESSES = 20_000
SAMPLE = 4_000
#: Nodes of at most FEW arrangements rank only the first FEW_GUESSES guesses (cost).
FEW, FEW_GUESSES = 12, 2_000

Tree = tuple  # (guess labels, {reading: Tree}) or ("leaf", arrangement)


def searched(m: int, q: int) -> bool:
    """Whether regions of m positions holding q symbols are solved by a searched tree."""
    return m <= MAX_POSITIONS


def count_vectors(m: int, q: int, smallest: int = 1):
    """Ascending count vectors of q positive counts summing to m."""
    if q == 1:
        if m >= smallest:
            yield (m,)
        return
    for k in range(smallest, m // q + 1):
        for rest in count_vectors(m - k, q - 1, k):
            yield (k,) + rest


def _candidates(m: int, q: int, secrets: np.ndarray) -> np.ndarray:
    """Guesses ranked at every node: every code over labels and filler when there are at most
    :data:`ALL_GUESSES`, else the secrets themselves and :data:`SAMPLE` codes spread evenly
    over all of them (any guesses will do: the tree found is what is played and what the bound
    charges; the choice is a fixed rule, so the tree is the same on every machine)."""
    total = (q + 1) ** m
    if total <= ALL_GUESSES:
        return _all_guesses(m, q)
    index = np.arange(SAMPLE, dtype=np.int64) * (total // SAMPLE) + 1
    digits = (index[:, None] // (q + 1) ** np.arange(m, dtype=np.int64)) % (q + 1)
    return np.concatenate([secrets, digits.astype(np.int8)])


@cache
def _all_guesses(m: int, q: int) -> np.ndarray:
    return np.array(list(itertools.product(range(q + 1), repeat=m)), dtype=np.int8)


@cache
def arrangements(counts: tuple[int, ...]) -> np.ndarray:
    """Every arrangement of the labels 0..q-1, label i counts[i] times, lexicographic."""
    cells = [label for label, k in enumerate(counts) for _ in range(k)]
    return np.array(sorted(set(itertools.permutations(cells))), dtype=np.int8)


@cache
def region_tree(counts: tuple[int, ...]) -> Tree:
    """A decision tree identifying every arrangement of ``counts`` (module doc)."""
    m, q = sum(counts), len(counts)
    secrets = arrangements(counts)
    guesses = _candidates(m, q, secrets)
    # matches[secret, guess]: rows gathered per node are contiguous
    matches = (secrets[:, None, :] == guesses[None, :, :]).sum(axis=2, dtype=np.int8)
    offsets = (m + 1) * np.arange(len(guesses), dtype=np.int32)
    failed: set[tuple[bytes, int]] = set()

    def solve(node: np.ndarray, depth: int) -> Tree | None:
        if len(node) == 1:
            return ("leaf", tuple(int(x) for x in secrets[node[0]]))
        if depth == 0 or len(node) > (m + 1) ** depth or (node.tobytes(), depth) in failed:
            return None
        width = len(guesses) if len(node) > FEW else min(len(guesses), FEW_GUESSES)
        rows = matches[node, :width]
        sizes = np.bincount((rows + offsets[:width]).ravel(), minlength=width * (m + 1))
        sizes = sizes.reshape(width, m + 1)
        largest, parts = sizes.max(axis=1), (sizes > 0).sum(axis=1)
        order = np.lexsort((-parts, largest))
        seen: set[bytes] = set()
        for g in order:
            if parts[g] < 2 or largest[g] > (m + 1) ** (depth - 1):
                break
            key = rows[:, g].tobytes()
            if key in seen:
                continue
            seen.add(key)
            children = {}
            for r in np.unique(rows[:, g]):
                child = solve(node[rows[:, g] == r], depth - 1)
                if child is None:
                    break
                children[int(r)] = child
            else:
                return (tuple(int(x) for x in guesses[g]), children)
            if len(seen) >= (CANDIDATES if len(node) <= WIDE else 2):
                break
        failed.add((node.tobytes(), depth))
        return None

    every = np.arange(len(secrets))
    depth = 0
    while (m + 1) ** depth < len(secrets):
        depth += 1
    while True:
        tree = solve(every, depth)
        if tree is not None:
            return tree
        depth += 1


def tree_depth(tree: Tree) -> int:
    """Guesses the tree asks in the worst case (a leaf: none)."""
    if tree[0] == "leaf":
        return 0
    return 1 + max(tree_depth(child) for child in tree[1].values())


#: tree_depth(region_tree(counts)) for every count vector of at most MAX_POSITIONS positions:
#: the search takes ~15 s (2-core shared AMD EPYC), too long for ``cbsolve bounds``, so the
#: depths are tabulated; the strategy builds each tree when it first plays it and checks its
#: depth against this table, and the tests rebuild every tree and play every arrangement.
TREE_DEPTHS: dict[tuple[int, ...], int] = {
    (1,): 0,
    (2,): 0, (1, 1): 1,
    (3,): 0, (1, 2): 1, (1, 1, 1): 2,
    (4,): 0, (1, 3): 2, (2, 2): 2, (1, 1, 2): 2, (1, 1, 1, 1): 3,
    (5,): 0, (1, 4): 2, (2, 3): 2, (1, 1, 3): 3, (1, 2, 2): 3, (1, 1, 1, 2): 4,
    (1, 1, 1, 1, 1): 4,
    (6,): 0, (1, 5): 2, (2, 4): 2, (3, 3): 3, (1, 1, 4): 3, (1, 2, 3): 3, (2, 2, 2): 4,
    (1, 1, 1, 3): 4, (1, 1, 2, 2): 4, (1, 1, 1, 1, 2): 5, (1, 1, 1, 1, 1, 1): 6,
    (7,): 0, (1, 6): 2, (2, 5): 3, (3, 4): 3, (1, 1, 5): 3, (1, 2, 4): 4, (1, 3, 3): 4,
    (2, 2, 3): 4, (1, 1, 1, 4): 4, (1, 1, 2, 3): 5, (1, 2, 2, 2): 5, (1, 1, 1, 1, 3): 5,
    (1, 1, 1, 2, 2): 6, (1, 1, 1, 1, 1, 2): 6, (1, 1, 1, 1, 1, 1, 1): 7,
}


def played_tree(counts: tuple[int, ...]) -> Tree:
    """The tree the strategy plays, checked against the tabulated depth the bound charges."""
    tree = region_tree(counts)
    if tree_depth(tree) > TREE_DEPTHS[counts]:
        raise AssertionError(f"searched tree for {counts} deeper than tabulated")
    return tree


def small_region_worst(m: int, q: int) -> int:
    """Worst case of the tree search on a region of m <= MAX_POSITIONS positions holding
    exactly q symbols (-1: impossible)."""
    if q == 0:
        return 0 if m == 0 else -1
    return max((TREE_DEPTHS[c] for c in count_vectors(m, q)), default=-1)


__all__ = ["CANDIDATES", "MAX_POSITIONS", "TREE_DEPTHS", "arrangements", "count_vectors", "played_tree",
           "region_tree", "searched",
           "small_region_worst", "tree_depth"]
