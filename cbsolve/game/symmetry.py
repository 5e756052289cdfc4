"""Symmetry of a game state: which guesses are equivalent after a history of guesses.

Place in the data flow: Variant -> CodeSpace -> **symmetry** -> strategies / exact search ->
certificates. The score is invariant under permuting positions and relabelling symbols, applied
to guess and secret alike, so two guesses related by such a map that also fixes every guess
already played lead to isomorphic games (the consistent set is mapped onto itself, and the
partition of the one guess is the image of the partition of the other). Searches therefore only
try one guess per orbit (the classic reduction of Knuth 1977 and Koyama–Lai 1993; "symbols never
played are interchangeable" is the canonical first/second guess argument).

A map (an element of the group) is a pair ``perm = (pos_perm, sym_perm)`` acting on a code ``x``
by ``apply_perm(perm, x)[i] = sym_perm[x[pos_perm[i]]]``: position ``i`` of the image takes the
symbol at position ``pos_perm[i]`` of ``x``, relabelled. The group used here is:

* every position permutation, with every symbol permutation, for all variants (repeats or not,
  bulls-and-cows or bulls-only feedback: both scores are invariant);
* with no leading zero, only maps that fix position 0 and symbol 0 (so a valid code stays
  valid). This is a subgroup of the true symmetry group, which is always sound;
* past 8 positions (8! position maps), the subgroup that :mod:`cbsolve.game.stabilizer` builds from
  the history's column classes, never a listing of N! maps (the whole stabiliser for the empty
  history and for one guess).

The *stabiliser* of a history is the subgroup of maps fixing each of its guesses. It is never
enumerated in full: a position permutation determines the symbol map on the symbols that occur
in the history (if it is consistent at all), while the symbols never played form one block that
any permutation may shuffle. The lowest code of an orbit is found by applying each of the (at
most N!) position parts and relabelling the never-played symbols in order of first appearance
(the lexicographically smallest choice, and code indices are lexicographic).

>>> from cbsolve.game.variant import Variant
>>> sym = Symmetry(Variant.preset("bulls-cows"))
>>> len(sym.guess_representatives([])), len(sym.guess_representatives([(0, 1, 2, 3)]))
(1, 20)
>>> len(Symmetry(Variant.preset("mastermind")).guess_representatives([]))
5
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import permutations
from math import factorial

import numpy as np

from .codes import CodeSpace
from .stabilizer import LISTED_POSITION_MAPS, closure, column_generators, fixed_symbols, identity
from .variant import Variant
from . import patterns

Code = tuple[int, ...]


@dataclass(frozen=True)
class Perm:
    """One group element: ``image[i] = sym_perm[code[pos_perm[i]]]``."""

    pos_perm: tuple[int, ...]
    sym_perm: tuple[int, ...]

    def apply(self, code: Sequence[int]) -> Code:
        return apply_perm((self.pos_perm, self.sym_perm), code)

    def to_json(self) -> list[list[int]]:
        return [list(self.pos_perm), list(self.sym_perm)]


def apply_perm(perm, code: Sequence[int]) -> Code:
    """Image of one code under ``perm = (pos_perm, sym_perm)``."""
    pos_perm, sym_perm = perm
    return tuple(int(sym_perm[code[p]]) for p in pos_perm)


def fixes_history(perm, history: Sequence[Sequence[int]]) -> bool:
    """True when ``perm`` maps every guess of ``history`` onto itself."""
    return all(apply_perm(perm, h) == tuple(int(x) for x in h) for h in history)


def is_valid_perm(variant: Variant, perm) -> bool:
    """``perm`` is a bijection of positions and of symbols that maps the code space onto itself."""
    pos_perm, sym_perm = (list(perm[0]), list(perm[1]))
    if sorted(pos_perm) != list(range(variant.length)):
        return False
    if sorted(sym_perm) != list(range(variant.n_symbols)):
        return False
    if variant.no_leading_zero and (pos_perm[0] != 0 or sym_perm[0] != 0):
        return False
    return True


#: Stabilisers with more elements than this get their orbits from generators.
GENERATORS_FROM = 32
#: Elements of the column-class subgroup listed past the listed position maps (a lowest-image
#: search applies each to every code; a prefix of the group is still sound, orbits finer).
ELEMENT_CAP = 5_040
#: Spaces with more codes than this get their guess classes from the native union-find
#: (:meth:`Symmetry.orbit_labels`): the NumPy forms take minutes on 16.7 M codes, and 1.1 s
#: on Mastermind 6x9 (531,441 codes) after 112233, which missed its share of a 5 s answer.
NATIVE_ORBITS_FROM = 100_000
#: Codes joined per native call (about 0.05 s), between two looks at the deadline.
ORBIT_CHUNK = 1 << 21


def _orbits():
    """The native orbit kernel, or None when this build has not compiled it."""
    try:
        from .._native import orbits
    except ImportError:
        return None
    return orbits


def _generators(stabilizer, n_symbols: int) -> list[tuple[tuple[int, ...], dict]]:
    """Elements generating the stabiliser: position parts (each with its forced symbol map,
    identity on the free symbols) until their products give every position part of
    ``stabilizer``, and the swaps of consecutive free symbols."""
    n = len(stabilizer[0][0])
    parts = np.array([p for p, _ in stabilizer], dtype=np.int64)
    weights = n ** np.arange(n, dtype=np.int64)
    keys = parts @ weights
    chosen: list[int] = []
    reached = np.array([np.arange(n) @ weights])
    while True:
        missing = np.flatnonzero(~np.isin(keys, reached))
        if missing.size == 0:
            break
        chosen.append(int(missing[0]))
        reached = _closure(parts[chosen], weights)
    assert len(reached) == len(keys), "the position parts do not form a group"
    return [stabilizer[i] for i in chosen] + _free_swaps(n, n_symbols, set(stabilizer[0][1]))


def _free_swaps(n: int, n_symbols: int, fixed: set[int]) -> list[tuple[tuple[int, ...], dict]]:
    """The swaps of consecutive symbols never played (positions unmoved)."""
    free = [x for x in range(n_symbols) if x not in fixed]
    return [(tuple(range(n)), {a: b, b: a}) for a, b in zip(free, free[1:], strict=False)]


def _closure(generators: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Keys (base-n digits) of the position permutations the rows of ``generators`` generate
    (composition: (p then q)[i] = p[q[i]])."""
    frontier = np.arange(len(weights))[None, :]
    reached = frontier @ weights
    while len(frontier):
        step = np.concatenate([frontier[:, g] for g in generators])
        step_keys, first = np.unique(step @ weights, return_index=True)
        fresh = ~np.isin(step_keys, reached)
        frontier = step[first[fresh]]
        reached = np.concatenate([reached, step_keys[fresh]])
    return reached


class Symmetry:
    """Orbits of guesses under the stabiliser of a history, for one enumerable variant.

    ``enabled=False`` makes every orbit a singleton (the identity group), so a search can be run
    with and without the reduction and the results compared.
    """

    def __init__(self, variant: Variant, enabled: bool = True,
                 native_from: int = NATIVE_ORBITS_FROM, generators_from: int = GENERATORS_FROM,
                 orbit_chunk: int = ORBIT_CHUNK):
        self.variant = variant
        self.enabled = enabled
        self.native_from = native_from      # spaces over this many codes: the native orbits
        self.generators_from = generators_from  # stabilisers larger: orbits from generators
        self.orbit_chunk = orbit_chunk      # codes the union-find joins between deadline looks
        self.space = CodeSpace(variant)
        n, d = variant.length, variant.n_symbols
        self._weights = np.array([d ** (n - 1 - j) for j in range(n)], dtype=np.int64)
        positions = range(1, n) if variant.no_leading_zero else range(n)
        head = (0,) if variant.no_leading_zero else ()
        #: every position permutation, listed while there are few (else None: the stabiliser
        #: comes from the history's column classes, :mod:`cbsolve.game.stabilizer`)
        self._listed = factorial(len(positions)) <= LISTED_POSITION_MAPS
        if self._listed:
            self._pos_perms = [head + p for p in permutations(positions)]
            self._perm_array = np.array(self._pos_perms, dtype=np.int64).reshape(-1, n)

    @cached_property
    def _values(self) -> np.ndarray:
        """Each code's base-d value, ascending (listed when first needed: 6 s on 16.7 M)."""
        return self.space.codes.astype(np.int64) @ self._weights

    # --- the stabiliser -------------------------------------------------------------------
    def _fixed_symbols(self, history: Sequence[Code]) -> set[int]:
        return fixed_symbols(self.variant, history)

    def stabilizer(self, history: Sequence[Sequence[int]], cap: int = ELEMENT_CAP
                   ) -> list[tuple[tuple[int, ...], dict]]:
        """The position parts of the stabiliser, each with its forced map on the played symbols.

        Returns ``[(pos_perm, {symbol: image})]``; the full stabiliser is each of these combined
        with every permutation of the symbols outside the dict's keys. Past
        :data:`~cbsolve.game.stabilizer.LISTED_POSITION_MAPS` position maps, the elements of the
        column-class subgroup instead (:mod:`cbsolve.game.stabilizer`; at most ``cap`` of them).
        """
        history = [tuple(int(x) for x in h) for h in history]
        if not self.enabled:
            return [identity(self.variant, history)]
        if not self._listed:
            return closure(identity(self.variant, history),
                           column_generators(self.variant, history), cap)
        # slot k of the history: guess a, position i; a position part p is in the stabiliser
        # when symbol h_a[p[i]] -> h_a[i] is one bijection over all slots (symbol 0 -> 0 too
        # with no leading zero): slots agree in source exactly when they agree in target
        perms = self._perm_array
        src = [perms[:, :0]]
        dst = []
        for h in history:
            src.append(np.asarray(h, dtype=np.int64)[perms])
            dst.extend(h)
        if self.variant.no_leading_zero:
            src.append(np.zeros((len(perms), 1), dtype=np.int64))
            dst.append(0)
        src = np.concatenate(src, axis=1)
        dst = np.asarray(dst, dtype=np.int64)
        ok = np.ones(len(perms), dtype=bool)
        for k in range(len(dst)):
            for j in range(k + 1, len(dst)):
                ok &= (src[:, k] == src[:, j]) == (dst[k] == dst[j])
        # Python ints once, not a NumPy scalar per symbol (8! maps on Mastermind 8x8: 0.44 s)
        rows, targets = np.flatnonzero(ok).tolist(), dst.tolist()
        return [(self._pos_perms[row], dict(zip(sources, targets, strict=True)))
                for row, sources in zip(rows, src[ok].tolist(), strict=True)]

    # --- orbits -----------------------------------------------------------------------------
    def _images(self, codes: np.ndarray, pos_perm, sigma: dict,
                complete: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Lowest images of ``codes`` under (pos_perm, sigma) x permutations of unfixed symbols.

        Returns (image codes, symbol maps) row by row; the maps are full permutations when
        ``complete`` (symbols absent from a code take the remaining targets in order).
        """
        d = self.variant.n_symbols
        m = codes.shape[0]
        fixed = sorted(sigma)
        free_targets = np.array([s for s in range(d) if s not in sigma], dtype=np.int64)
        moved = codes[:, list(pos_perm)].astype(np.int64)
        sym = np.full((m, d), -1, dtype=np.int64)          # sym[row, source symbol] = image
        for s in fixed:
            sym[:, s] = sigma[s]
        next_free = np.zeros(m, dtype=np.int64)
        rows = np.arange(m)
        if self.enabled:
            for j in range(moved.shape[1]):
                src = moved[:, j]
                new = sym[rows, src] < 0
                if new.any():
                    r = rows[new]
                    sym[r, src[new]] = free_targets[next_free[new]]
                    next_free[new] += 1
        else:  # identity group: unfixed symbols keep their labels
            for s in range(d):
                if s not in sigma:
                    sym[:, s] = s
        images = sym[rows[:, None], moved]
        if not complete:
            return images, sym
        # Complete each row to a bijection: unseen free symbols take the remaining targets in order.
        for s in range(d):
            missing = sym[:, s] < 0
            if missing.any():
                r = rows[missing]
                sym[r, s] = free_targets[next_free[missing]]
                next_free[missing] += 1
        return images, sym  # completing only touches symbols absent from the code

    def _index(self, images: np.ndarray) -> np.ndarray:
        vals = images @ self._weights
        idx = np.searchsorted(self._values, vals)
        assert np.all(self._values[np.minimum(idx, len(self._values) - 1)] == vals), \
            "a symmetry image left the code space"
        return idx

    def orbit_map(self, history: Sequence[Sequence[int]], codes_idx=None, with_perms: bool = True,
                  deadline=None):
        """For each code (all, or the given indices): its orbit's lowest index and the map to it.

        Returns ``(codes_idx, rep_idx, perms)`` where ``perms[k]`` is a :class:`Perm` taking code
        ``codes_idx[k]`` onto ``rep_idx[k]`` and fixing every guess of ``history`` (``perms`` is
        None when ``with_perms`` is False, which is much faster). With a ``deadline``
        (:class:`cbsolve.runtime.deadline.Deadline`) that expires part-way, returns None.
        """
        all_codes = self.space.codes
        if codes_idx is None:
            codes_idx = np.arange(all_codes.shape[0])
        codes_idx = np.asarray(codes_idx, dtype=np.int64)
        codes = all_codes[codes_idx]
        # without maps, only whether the group is small matters (then it is listed whole)
        stabilizer = self.stabilizer(history,
                                     ELEMENT_CAP if with_perms else self.generators_from + 1)
        if not with_perms and len(stabilizer) > self.generators_from:
            best = self._orbit_minima(codes_idx, self.generators(history, stabilizer), deadline)
            return None if best is None else (codes_idx, best, None)
        best = np.full(len(codes_idx), np.iinfo(np.int64).max)
        best_pos = np.zeros((len(codes_idx), self.variant.length), dtype=np.int64)
        best_sym = np.zeros((len(codes_idx), self.variant.n_symbols), dtype=np.int64)
        for pos_perm, sigma in stabilizer:
            if deadline is not None and deadline.expired():
                return None
            images, sym = self._images(codes, pos_perm, sigma, complete=with_perms)
            idx = self._index(images)
            better = idx < best
            best[better] = idx[better]
            if with_perms:
                best_pos[better] = pos_perm
                best_sym[better] = sym[better]
        if not with_perms:
            return codes_idx, best, None
        perms = [Perm(tuple(int(x) for x in p), tuple(int(x) for x in s))
                 for p, s in zip(best_pos, best_sym, strict=False)]
        return codes_idx, best, perms

    def generators(self, history: Sequence[Sequence[int]], stabilizer=None
                   ) -> list[tuple[tuple[int, ...], dict]]:
        """A few elements generating the stabiliser of ``history`` (with listed position maps:
        chosen among ``stabilizer``'s elements; past them: the column-class subgroup's), and
        the swaps of consecutive free symbols."""
        if self._listed or not self.enabled:
            return _generators(stabilizer or self.stabilizer(history), self.variant.n_symbols)
        history = [tuple(int(x) for x in h) for h in history]
        return (column_generators(self.variant, history)
                + _free_swaps(self.variant.length, self.variant.n_symbols,
                              self._fixed_symbols(history)))

    def _orbit_minima(self, codes_idx: np.ndarray, generators, deadline=None) -> np.ndarray | None:
        """Each code's orbit minimum as the least index of its connected component, the codes
        linked by a few generators of the stabiliser (instead of applying all its elements:
        8! of them fix a guess of 8 distinct symbols). ``codes_idx`` must be closed under it."""
        d = self.variant.n_symbols
        images = []
        for pos_perm, sigma in generators:
            if deadline is not None and deadline.expired():
                return None
            sym = np.array([sigma.get(x, x) for x in range(d)], dtype=np.int64)
            image = self._index(sym[self.space.codes[codes_idx][:, list(pos_perm)]])
            where = np.searchsorted(codes_idx, image)
            assert np.array_equal(codes_idx[np.minimum(where, len(codes_idx) - 1)], image), \
                "the codes are not closed under the stabiliser"
            images.append(where)
        label = np.arange(len(codes_idx))
        while True:          # least label over each component: relax along every link, jump
            if deadline is not None and deadline.expired():
                return None
            new = label.copy()
            for image in images:
                np.minimum(new, new[image], out=new)
                new[image] = np.minimum(new[image], new)
            new = new[new]
            if np.array_equal(new, label):
                return codes_idx[label]
            label = new

    def guess_representatives(self, history: Sequence[Sequence[int]], candidates=None,
                              deadline=None) -> np.ndarray | None:
        """Sorted code indices, one per orbit (its lowest index), of the guesses up to symmetry.

        ``candidates`` (code indices) restricts the guesses considered; pass a set closed under
        the stabiliser (e.g. the secrets consistent with ``history``) so that each
        representative is itself one of the candidates. None if ``deadline`` expired first
        (the orbits of a large stabiliser over 10^6 codes take a minute).
        """
        if not history and candidates is None and self.enabled and not self.variant.no_leading_zero:
            return self._pattern_representatives()
        if candidates is None and self.enabled and self.space.size > self.native_from:
            found = self.orbit_labels(history, deadline)
            if found is not None or _orbits() is not None:
                return None if found is None else found[1]
        found = self.orbit_map(history, candidates, with_perms=False, deadline=deadline)
        if found is None:
            return None
        # sorted, then the first of each run: NumPy 2's np.unique without counts hashes, 0.65 s
        # on 604,800 indices against 0.02 s sorted (the partition's deadline overran by that)
        reps = np.sort(found[1])
        return reps[np.concatenate(([True], reps[1:] != reps[:-1]))]

    def guess_classes(self, history: Sequence[Sequence[int]], deadline=None
                      ) -> tuple[np.ndarray, np.ndarray] | None:
        """(each class's lowest code index, increasing; the class's size) of every guess up to
        symmetry, as :meth:`guess_representatives` finds the classes (the native union-find
        above :data:`NATIVE_ORBITS_FROM` codes, which looks at ``deadline`` every chunk); None
        if ``deadline`` expired first."""
        if self.enabled and self.space.size > self.native_from:
            found = self.orbit_labels(history, deadline)
            if found is not None:
                parent, reps = found
                return reps, np.bincount(parent)[reps]
            if _orbits() is not None:
                return None
        found = self.orbit_map(history, with_perms=False, deadline=deadline)
        if found is None:
            return None
        return np.unique(found[1], return_counts=True)   # counts: sorted, not hashed

    def orbit_labels(self, history: Sequence[Sequence[int]], deadline=None
                     ) -> tuple[np.ndarray, np.ndarray] | None:
        """(each code's orbit's lowest index, those indices once each, increasing) over the
        whole space, by the native union-find
        (:mod:`cbsolve._native.orbits`) over a few generators of the stabiliser, in chunks of
        :data:`ORBIT_CHUNK` codes between which ``deadline`` is looked at; None when it
        expired first or the kernel is not built."""
        native = _orbits()
        if native is None:
            return None
        v = self.variant
        plain = v.repeats and not v.no_leading_zero     # every base-d string: index = value
        values = np.empty(0, dtype=np.int64) if plain else self._values
        # every base-d string: the kernel reads each code from its index (nothing listed)
        codes = np.empty((0, v.length), np.uint8) if plain else self.space.codes
        parent = np.arange(self.space.size, dtype=np.int64)
        d = v.n_symbols
        for pos_perm, sigma in self.generators(history):
            sym = np.array([sigma.get(x, x) for x in range(d)], dtype=np.int64)
            pos = np.asarray(pos_perm, dtype=np.int64)
            for start in range(0, parent.size, self.orbit_chunk):
                if deadline is not None and deadline.expired():
                    return None
                native.orbit_union(codes, pos, sym, values, parent, start,
                                   start + self.orbit_chunk)
        return parent, native.orbit_roots(parent)

    def _pattern_representatives(self) -> np.ndarray:
        """Orbit minima of the whole group (empty history), without enumerating N! position maps.

        Under all position and symbol permutations a code's orbit is its pattern (its sorted
        symbol multiplicities), and the lowest code of a pattern lists symbol 0 m_0 times, then
        symbol 1 m_1 times, ... (largest multiplicity first).
        """
        reps = [patterns.pattern_code(p) for p in patterns.guess_patterns(self.variant)]
        return np.unique(self._index(np.array(reps, dtype=np.int64)))

    def mapping(self, history: Sequence[Sequence[int]], guess: Sequence[int]) -> tuple[Perm, Code]:
        """The explicit map taking ``guess`` onto its orbit's representative, and that code."""
        idx = self.space.index_of(guess)
        _, rep, perms = self.orbit_map(history, [idx])
        return perms[0], self.space.code_at(int(rep[0]))
