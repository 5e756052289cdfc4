"""Solving a small region by a searched decision tree: the in-place search that count, split
into regions, locate (:mod:`.regions`) plays on regions of at most :data:`MAX_POSITIONS`
positions that have a filler, and its worst case.

Place in the data flow: :mod:`.regions` (the strategy and its worst-case recursion) -> here.

**Why.** Inside a region of m positions whose symbol counts are known and which lacks some
symbol (the filler), a guess may put any of the region's q symbols, or the filler, on each of
its positions (the filler everywhere else); its bulls minus the filler's known count are the
region's matches, a reading in 0..m. Locating the symbols one at a time reads one symbol's
count per guess; a guess mixing all of them reads up to m + 1 values. For m <= 6 the secrets
of a region (the arrangements of its count vector, at most 720) are few enough to search a
decision tree that identifies each of them.

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
MAX_POSITIONS = 5
#: Guesses tried at each node of the search, best ranked first.
CANDIDATES = 24

Tree = tuple  # (guess labels, {reading: Tree}) or ("leaf", arrangement)


def count_vectors(m: int, q: int, smallest: int = 1):
    """Ascending count vectors of q positive counts summing to m."""
    if q == 1:
        if m >= smallest:
            yield (m,)
        return
    for k in range(smallest, m // q + 1):
        for rest in count_vectors(m - k, q - 1, k):
            yield (k,) + rest


@cache
def _guesses(m: int, q: int) -> np.ndarray:
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
    guesses = _guesses(m, q)
    matches = (guesses[:, None, :] == secrets[None, :, :]).sum(axis=2, dtype=np.int8)
    readings = np.arange(m + 1, dtype=np.int8)
    failed: set[tuple[bytes, int]] = set()

    def solve(node: np.ndarray, depth: int) -> Tree | None:
        if len(node) == 1:
            return ("leaf", tuple(int(x) for x in secrets[node[0]]))
        if depth == 0 or len(node) > (m + 1) ** depth or (node.tobytes(), depth) in failed:
            return None
        rows = matches[:, node]
        sizes = (rows[:, :, None] == readings).sum(axis=1)
        largest, parts = sizes.max(axis=1), (sizes > 0).sum(axis=1)
        order = np.lexsort((-parts, largest))
        seen: set[bytes] = set()
        for g in order:
            if parts[g] < 2 or largest[g] > (m + 1) ** (depth - 1):
                break
            key = rows[g].tobytes()
            if key in seen:
                continue
            seen.add(key)
            children = {}
            for r in np.unique(rows[g]):
                child = solve(node[rows[g] == r], depth - 1)
                if child is None:
                    break
                children[int(r)] = child
            else:
                return (tuple(int(x) for x in guesses[g]), children)
            if len(seen) >= CANDIDATES:
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


@cache
def small_region_worst(m: int, q: int) -> int:
    """Worst case of the tree search on a region of m <= MAX_POSITIONS positions holding
    exactly q symbols (-1: impossible)."""
    depths = [tree_depth(region_tree(c)) for c in count_vectors(m, q)] if q else [0] * (m == 0)
    return max(depths, default=-1)


__all__ = ["CANDIDATES", "MAX_POSITIONS", "arrangements", "count_vectors", "region_tree",
           "small_region_worst", "tree_depth"]
