"""Locating marked positions by weighing, with two unknown positions weighed at once: the
searches count-then-locate (:mod:`.constructive`) plays, and their exact costs.

Place in the data flow: :mod:`.constructive` (the strategy and its worst case) and
:mod:`.constructive_expected` (its total over all secrets) -> here.

**Two unknowns.** Let one unknown index ip lie in 0..x-1 and another, iq, in 0..y-1, and let
a guess *weigh* any sets A of the first range and B of the second at once, reading
[ip in A] + [iq in B]. Two ways to build such guesses:

* two symbols a, b occurring once each in the same m positions (x = y = m, ip != iq): a on the
  positions of A, b on those of B, A and B disjoint (the pair search of count-then-locate);
* one symbol with exactly one mark in each of two disjoint blocks of positions X and Y (a
  symbol found twice among m positions, split 1 + 1 by a first guess): the symbol on X[A] and
  Y[B], the filler elsewhere. The same works for exactly one position *without* the symbol in
  each block, the bulls then reading |A| + |B| minus the weighing.

The search: with L the bit length of max(x, y) - 1, weigh A = {bit t is 1}, B = {bit t is 0}
for each bit t: the reading minus 1 is bit_t(ip) - bit_t(iq), so the bits where they differ
(mask M) are read on both sides and the others are seen to agree: iq = ip XOR M. Then the one
common value of the agreeing bits remains, among the F candidates for which both indices are
in range; weigh the upper two thirds of them on ip's side and the upper third on iq's side:
the reading is 2, 1 or 0, so ceil(log3 F) more guesses. Charged exactly per pair of indices
(:func:`two_unknowns_cost`): for x = y = 38, 9 guesses in the worst case where locating the
two one after the other by halving takes 12.

On two disjoint blocks a search by rectangles (:mod:`.cross_search`) is often cheaper still
(19 x 19: 7 guesses instead of 8); the cheaper one is played (:func:`blocks_worst`).

**Locating k marks among m** (:func:`weigh_worst`): weigh the first s positions, read how many
marks j they hold, and go on in both parts; when each part holds exactly one mark (or exactly
one unmarked position), the two are weighed at once if that is cheaper. The worst case obeys
W(m, k) = 1 + min_s max_j cost(s, j; m - s, k - j), with cost the two-blocks worst case or
W(s, j) + W(m - s, k - j); the s attaining the minimum is played (:func:`weigh_split`).
W(40, 2) = 8 where halving alone needs 10.
"""
from __future__ import annotations

from functools import cache
from math import comb

import numpy as np

from .cross_search import cross_total, cross_worst
from .cutoff import check


def thirds(candidates: list[int]) -> tuple[list[int], list[int], list[int]]:
    """(top, middle, bottom) parts of the candidates, none larger than a third rounded up: ip's
    side weighs top + middle, iq's side top, so the reading is 2, 1 or 0 for them."""
    k = -(-len(candidates) // 3)
    f = len(candidates)
    return candidates[f - k:], candidates[f - 2 * k:f - k], candidates[:max(0, f - 2 * k)]


def common_candidates(x: int, y: int, known: int, mask: int) -> list[int]:
    """The indices ip may still have once the bits in ``mask`` are read (ip's are those of
    ``known``) and the others seen to agree: ip < x and its partner ip XOR mask < y."""
    return [v for v in range(x) if (v ^ known) & mask == 0 and v ^ mask < y]


def signed_bits(x: int, y: int) -> int:
    """The first phase's guesses: one per bit of the larger range."""
    return (max(x, y) - 1).bit_length()


def two_unknowns_cost(x: int, y: int, ip: int, iq: int) -> int:
    """Guesses the two-unknowns search asks for indices ip < x and iq < y."""
    asked = signed_bits(x, y)
    candidates = common_candidates(x, y, ip, ip ^ iq)
    while len(candidates) > 1:
        candidates = next(part for part in thirds(candidates) if ip in part)
        asked += 1
    return asked


@cache
def two_unknowns_worst(x: int, y: int, distinct: bool = False) -> int:
    """Worst case of the search over every pair of indices (ip != iq if ``distinct``: two
    symbols in the same positions): the signed bits, then ceil(log3 F) for the largest set F
    of candidates any outcome of them leaves (the thirds never hold more than a third rounded
    up). The tests check it against :func:`two_unknowns_cost` on every pair."""
    v = np.arange(x)
    largest = 0
    for mask in range(1 if distinct else 0, 1 << signed_bits(x, y)):
        inside = (v ^ mask) < y
        if inside.any():
            largest = max(largest, int(np.bincount(v[inside] & mask).max()))
    return signed_bits(x, y) + _log3_ceil(largest)


def _log3_ceil(f: int) -> int:
    steps = 0
    while f > 1:
        f, steps = -(-f // 3), steps + 1
    return steps


@cache
def two_unknowns_total(x: int, y: int, distinct: bool = False) -> int:
    """Guesses of the search summed over every pair of indices (as in
    :func:`two_unknowns_worst`), each pair played (:func:`two_unknowns_cost`)."""
    return sum(two_unknowns_cost(x, y, ip, iq) for ip in range(x) for iq in range(y)
               if not (distinct and ip == iq))


def by_rectangles(x: int, y: int) -> bool:
    """Whether two unknowns in disjoint blocks of x and y positions are searched by rectangles
    (:mod:`.cross_search`) rather than bit by bit: when that is no worse."""
    return cross_worst(x, y) <= two_unknowns_worst(x, y)


def blocks_worst(x: int, y: int) -> int:
    """Worst case of the two-unknowns search played on disjoint blocks."""
    return cross_worst(x, y) if by_rectangles(x, y) else two_unknowns_worst(x, y)


def blocks_total(x: int, y: int) -> int:
    """Its guesses summed over all x * y pairs."""
    return cross_total(x, y) if by_rectangles(x, y) else two_unknowns_total(x, y)


def joint(x: int, j1: int, y: int, j2: int) -> bool:
    """Whether parts of x and y positions holding j1 and j2 marks are searched together: each
    holds exactly one mark, or each exactly one unmarked position, and that is cheaper."""
    one_each = (j1 == 1 and j2 == 1) or (x - j1 == 1 and y - j2 == 1)
    return one_each and blocks_worst(x, y) < weigh_worst(x, j1) + weigh_worst(y, j2)


def _part_cost(x: int, j1: int, y: int, j2: int) -> int:
    if joint(x, j1, y, j2):
        return blocks_worst(x, y)
    return weigh_worst(x, j1) + weigh_worst(y, j2)


def weigh_worst(m: int, k: int) -> int:
    """Worst-case guesses to locate k marks among m positions (module doc)."""
    return _weigh(m, k)[0]


def weigh_split(m: int, k: int) -> int:
    """How many of the m positions the next weighing covers (0 < k < m)."""
    return _weigh(m, k)[1]


def minimise_split(m: int, k: int, part_cost, again) -> tuple[int, int]:
    """(worst case, first part size) of locating k marks among m by a first weighing of s
    positions: s minimises 1 + max_j part_cost(s, j, m - s, k - j) (ties: the most even split);
    marks and unmarked positions play symmetric roles (``again`` is the cached caller), and so
    do the two parts."""
    if k == 0 or k == m:
        return 0, 0
    if 2 * k > m:
        return again(m, m - k)
    best = None
    for s in range(m // 2, 0, -1):
        worst = 1 + max(part_cost(s, j, m - s, k - j)
                        for j in range(max(0, k - (m - s)), min(k, s) + 1))
        if best is None or worst < best[0]:
            best = (worst, s)
    assert best is not None
    return best


@cache
def _weigh(m: int, k: int) -> tuple[int, int]:
    """(worst case, first part size) with two one-mark parts weighed together."""
    check()
    return minimise_split(m, k, _part_cost, _weigh)


@cache
def weigh_total(m: int, k: int) -> int:
    """Guesses of the search of :func:`weigh_worst` summed over all C(m, k) sets of marks."""
    if k == 0 or k == m:
        return 0
    left = weigh_split(m, k)
    right = m - left
    total = comb(m, k)
    for j in range(max(0, k - right), min(k, left) + 1):
        if joint(left, j, right, k - j):
            total += blocks_total(left, right)
        else:
            total += (weigh_total(left, j) * comb(right, k - j)
                      + comb(left, j) * weigh_total(right, k - j))
    return total


__all__ = ["blocks_total", "blocks_worst", "by_rectangles", "common_candidates", "joint",
           "minimise_split", "signed_bits", "thirds", "two_unknowns_cost", "two_unknowns_total",
           "two_unknowns_worst", "weigh_split", "weigh_total", "weigh_worst"]
