"""Symbols a certificate node's secrets cannot tell apart, so the verifier scores fewer guesses.

Place in the data flow: :mod:`cbsolve.certificates.certify` -> **this module** -> the scorer. It is part of
the verifier and derives everything from the node's secrets alone (never from the certificate
or a search).

If swapping two symbols a, b maps the secret set S onto itself, then for any guess g the
secrets' replies to g and to the swapped guess are the same multiset (score(σg, σs) =
score(g, s)), and σg is a secret exactly when g is. The counting rules of a certificate
(a reply class larger than cap(k-1), a useless guess) depend on nothing else, so one guess per
orbit of the group the swaps generate settles the whole orbit. Swaps that keep S compose, so
the symbols fall into classes that can be permuted freely; two guesses are in one orbit exactly
when relabelling each class's symbols in order of first use makes them equal.
"""
from __future__ import annotations

import numpy as np


def _keys(codes: np.ndarray, n_symbols: int) -> np.ndarray:
    """Each code as one integer (base n_symbols), sorted: a set of codes, comparable."""
    weights = n_symbols ** np.arange(codes.shape[1], dtype=np.int64)
    return np.sort(codes.astype(np.int64) @ weights)


def symbol_classes(secrets: np.ndarray, n_symbols: int) -> np.ndarray:
    """Class label per symbol: symbols in one class can be permuted without changing the set
    ``secrets`` (an (n, N) array of symbol indices). Each swap is checked on the whole set."""
    n, length = secrets.shape
    # A swap that keeps the set keeps each symbol's count at every position: a cheap filter
    # (symbols grouped by an integer digest of those counts; each swap is then checked).
    cells = (secrets.astype(np.int64) * length + np.arange(length)).ravel()
    profile = np.bincount(cells, minlength=n_symbols * length).reshape(n_symbols, length)
    digest = (profile @ (n + 1) ** np.arange(length, dtype=np.int64)).tolist()
    groups: dict[int, list[int]] = {}
    for symbol, value in enumerate(digest):
        groups.setdefault(value, []).append(symbol)
    label = list(range(n_symbols))
    keys = None
    for members in groups.values():
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                if label[b] != b:        # b already joined an earlier symbol's class
                    continue
                if keys is None:
                    keys = _keys(secrets, n_symbols)
                swapped = np.where(secrets == a, b, np.where(secrets == b, a, secrets))
                if np.array_equal(_keys(swapped, n_symbols), keys):
                    label[b] = label[a]
    return np.array(label)


def canonical_keys(codes: np.ndarray, label: np.ndarray) -> np.ndarray:
    """One integer per code, equal for two codes exactly when a permutation of the symbols
    within their classes maps one onto the other (each class's symbols renamed in order of
    first use)."""
    n, length = codes.shape
    n_symbols = len(label)
    rename = np.full((n, n_symbols), -1, dtype=np.int64)
    used = np.zeros((n, n_symbols), dtype=np.int64)     # per code and class: symbols named
    rows = np.arange(n)
    key = np.zeros(n, dtype=np.int64)
    for p in range(length):
        x = codes[:, p].astype(np.int64)
        fresh = rename[rows, x] < 0
        cls = label[x]
        rename[rows[fresh], x[fresh]] = used[rows[fresh], cls[fresh]]
        used[rows[fresh], cls[fresh]] += 1
        # (class, rank within the class) names the symbol up to the class's permutations
        key = key * (n_symbols * n_symbols) + cls * n_symbols + rename[rows, x]
    return key


class GuessOrbits:
    """Orbit representatives of a fixed guess pool, cached per class structure (many nodes
    of a refutation tree share one)."""

    def __init__(self, pool_codes: np.ndarray, n_symbols: int, prepare=lambda codes: codes):
        self.codes = pool_codes
        self.n_symbols = n_symbols
        self.prepare = prepare          # applied once to each set of representatives (packing)
        self._cache: dict[bytes, tuple] = {}

    def of(self, secrets: np.ndarray) -> tuple | None:
        """(the representatives' codes, prepared; each guess's orbit as an index into them) for
        the secret codes ``secrets``, or None when no two symbols are interchangeable."""
        label = symbol_classes(secrets, self.n_symbols)
        if len(np.unique(label)) == self.n_symbols:
            return None
        tag = label.tobytes()
        if tag not in self._cache:
            _, first, inverse = np.unique(canonical_keys(self.codes, label), return_index=True,
                                          return_inverse=True)
            self._cache[tag] = (self.prepare(self.codes[first]), inverse.ravel())
        return self._cache[tag]
