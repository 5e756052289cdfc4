"""First-guess partitions in closed form: class sizes as functions of N and D, never enumerated.

Place in the data flow: Variant -> here -> :mod:`cbsolve.bounds.adaptive` turns the partition of
the whole code space by the first guess into adaptive lower bounds (Knuth 1977 looked at the
same first-guess partitions of Mastermind by hand). The native scorer
(:func:`cbsolve.game.scoring.partition_counts`) is the cross-check, in the tests, for all small N, D.

Up to symbol and position permutations a guess is described by its *pattern*
(:mod:`cbsolve.game.patterns`): the multiset of its symbol multiplicities (a partition of N into at
most D parts). Distinct-symbol games have one
pattern, ``(1,)*N``. Both cases are closed forms:

* **distinct** (secret and guess have N distinct symbols out of D). Choose the ``b`` bull
  positions, the ``c`` guess symbols that reappear elsewhere, place those with none on its own
  position (inclusion-exclusion: partial derangements) and fill the rest with unused symbols::

      |class(b, c)| = C(N,b) C(N-b,c) sum_i (-1)^i C(c,i) (N-b-i)!/(N-b-c)!  *  (D-N)_(N-b-c)

  with ``(x)_r`` the falling factorial. :func:`distinct_expr` is the same formula in SymPy with
  N, D, b, c symbolic.
* **repeats** (secrets are any strings). Give every secret position a *label*: one of the guess's
  k symbols, or "unused". The reply only depends on the labelling, and each labelling stands for
  ``(D-k)**u`` secrets, u the number of "unused" positions. So for a fixed pattern::

      |class(b, c)| = sum_u A[b, b+c, u] * (D-k)**u

  a polynomial in D whose integer coefficients A do not depend on D. A is computed once per
  pattern by a dynamic programme over the guess's symbol groups (state: each label's count,
  capped at its multiplicity -- only ``min(count_in_guess, count_in_secret)`` matters -- plus bulls
  and u). :func:`repeats_poly` returns the SymPy polynomials in D.

Bulls-only feedback merges the classes of equal bulls. No-leading-zero variants break the symbol
symmetry and have no closed form here (the scorer handles them when the space is small).

>>> sorted(first_guess_partition(Variant.preset("bulls-cows"), (1, 1, 1, 1)).values())[-1]
1440
>>> max(first_guess_partition(Variant.preset("mastermind"), (2, 2)).values())   # Knuth: 1122
256
"""
from __future__ import annotations

from functools import lru_cache
from math import comb, factorial, perm

from ..game.variant import Variant
from .cutoff import check


# --- distinct: closed form in N and D ---------------------------------------------------------
def distinct_class_size(n: int, d: int, b: int, c: int) -> int:
    """Secrets (N distinct of D) answering (b, c) to a fixed guess; the closed form, in ints."""
    k = n - b  # non-bull positions
    if b < 0 or c < 0 or c > k or k - c > d - n:
        return 0
    placements = sum((-1) ** i * comb(c, i) * perm(k - i, c - i) for i in range(c + 1))
    return comb(n, b) * comb(k, c) * placements * perm(d - n, k - c)


def distinct_expr():
    """The distinct-case class size as a SymPy expression in symbols N, D, b, c (and sum index i)."""
    import sympy as sp

    n, d, b, c, i = sp.symbols("N D b c i", integer=True, nonnegative=True)
    k = n - b
    placements = sp.Sum((-1) ** i * sp.binomial(c, i) * sp.ff(k - i, c - i), (i, 0, c))
    return sp.binomial(n, b) * sp.binomial(k, c) * placements * sp.ff(d - n, k - c), (n, d, b, c)


# --- repeats: a polynomial in D per pattern ---------------------------------------------------
@lru_cache(maxsize=512)
def repeats_coefficients(pattern: tuple[int, ...]) -> dict[tuple[int, int], tuple[int, ...]]:
    """``{(bulls, bulls+cows): (A_0, A_1, ...)}`` with class size ``sum_u A_u (D-k)**u``."""
    k, n = len(pattern), sum(pattern)
    # A state is the labels' capped counts; bulls and unused positions only add up, so each
    # state carries its labelling counts by (bulls, unused) packed into one integer, a cell of
    # `width` bits each (a cell never exceeds the (k+1)**n labellings): a move shifts the whole
    # grid at once (8x8's 22 patterns: 0.05 s, where a state per (counts, bulls, unused) took
    # 0.14 s of CPU).
    width = ((k + 1) ** n).bit_length() + 1
    # Labels of equal multiplicity are interchangeable while both are already processed, or both
    # not yet: sorting their counts inside such runs merges symmetric states (for the pattern
    # (1,)*N this turns 2**N count vectors into O(N**2)).
    runs = [(s, e) for s, e in _runs(pattern)]
    states: dict[tuple, int] = {tuple([0] * k): 1}
    for group, m in enumerate(pattern):
        check()            # a deadline stops it between groups (0.25 s a pattern on 13 x 4)
        moves = list(_compositions(m, k + 1))
        # (its weight, its shift: cell (bulls, unused) is bit width * (bulls * (n+1) + unused))
        shifts = [(_multinomial(m, parts), width * (parts[group] * (n + 1) + parts[k]))
                  for parts in moves]
        cuts = [(s, e, min(e, group + 1)) for s, e in runs]
        nxt: dict[tuple, int] = {}
        for counts, grid in states.items():
            for parts, (weight, shift) in zip(moves, shifts, strict=True):
                new = [min(pattern[lab], counts[lab] + parts[lab]) for lab in range(k)]
                for s, e, cut in cuts:
                    if cut - s > 1:
                        new[s:cut] = sorted(new[s:cut])
                    if e - max(s, cut) > 1:
                        new[max(s, cut):e] = sorted(new[max(s, cut):e])
                key = tuple(new)
                nxt[key] = nxt.get(key, 0) + (grid << shift) * weight
        states = nxt
    table: dict[tuple[int, int], list[int]] = {}
    mask = (1 << width) - 1
    for counts, grid in states.items():
        total = sum(counts)
        for bulls in range(n + 1):
            row = [(grid >> (width * (bulls * (n + 1) + u))) & mask for u in range(n + 1)]
            if any(row):
                coeffs = table.setdefault((bulls, total), [0] * (n + 1))
                for u, a in enumerate(row):
                    coeffs[u] += a
    return {key: tuple(v) for key, v in table.items()}


def repeats_class_sizes(pattern: tuple[int, ...], d: int) -> dict[tuple[int, int], int]:
    """``{(bulls, cows): size}`` for a guess of this pattern among all D**N secrets."""
    k = len(pattern)
    if d < k:
        raise ValueError(f"pattern {pattern} needs at least {k} symbols, got D={d}")
    out = {}
    for (bulls, total), coeffs in repeats_coefficients(pattern).items():
        size = 0
        for a in reversed(coeffs):  # Horner in (D - k)
            size = size * (d - k) + a
        if size:
            out[(bulls, total - bulls)] = size
    return out


def repeats_poly(pattern: tuple[int, ...]):
    """``{(bulls, cows): sympy.Poly in D}`` -- the closed forms for this pattern."""
    import sympy as sp

    dsym = sp.Symbol("D", integer=True, positive=True)
    k = len(pattern)
    out = {}
    for (bulls, total), coeffs in repeats_coefficients(pattern).items():
        expr = sum(a * (dsym - k) ** u for u, a in enumerate(coeffs) if a)
        if expr != 0:
            out[(bulls, total - bulls)] = sp.Poly(sp.expand(expr), dsym)
    return out


def repeats_work(pattern: tuple[int, ...]) -> int:
    """Rough size of the dynamic programme for a pattern (states x moves), to decide if it's cheap."""
    k, states = len(pattern), 1
    for m in pattern:
        states *= m + 1
    n = sum(pattern)
    return states * (n + 1) * n * max(comb(m + k, k) for m in pattern)


# --- the partition the bounds use ------------------------------------------------------------
def first_guess_partition(variant: Variant, pattern: tuple[int, ...]) -> dict[tuple[int, int], int]:
    """Class sizes ``{(bulls, cows): size}`` of the whole space under one guess of ``pattern``.

    Closed forms only; bulls-only variants report ``(bulls, 0)`` keys.
    """
    if variant.no_leading_zero:
        raise ValueError("no closed form for no-leading-zero variants")
    n, d = variant.length, variant.n_symbols
    if variant.repeats:
        sizes = repeats_class_sizes(pattern, d)
    else:
        sizes = {}
        for b in range(n + 1):
            for c in range(n - b + 1):
                size = distinct_class_size(n, d, b, c)
                if size:
                    sizes[(b, c)] = size
    if variant.bulls_only:
        merged: dict[tuple[int, int], int] = {}
        for (b, _), size in sizes.items():
            merged[(b, 0)] = merged.get((b, 0), 0) + size
        return merged
    return sizes


# --- helpers ----------------------------------------------------------------------------------
def _runs(pattern):
    """(start, end) of each run of equal multiplicities in a sorted pattern."""
    start = 0
    for i in range(1, len(pattern) + 1):
        if i == len(pattern) or pattern[i] != pattern[start]:
            yield start, i
            start = i


def _compositions(total: int, parts: int):
    """All tuples of ``parts`` non-negative ints summing to ``total``."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first,) + rest


def _multinomial(total: int, parts) -> int:
    out = factorial(total)
    for p in parts:
        out //= factorial(p)
    return out
