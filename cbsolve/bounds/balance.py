"""Locating the last two symbols by *balance* weighings: the search count-then-locate
(:mod:`.constructive`) plays when the m positions still unknown hold only two symbols c and d,
and its exact costs.

Place in the data flow: :mod:`.constructive` (the strategy and its worst case) and
:mod:`.constructive_expected` (its total) -> here -> :mod:`.weighing` (the plain search, one of
the choices).

**Why two symbols help.** Every unknown position holds c or d, so a guess with c on a set S, d
on a disjoint set T and the filler elsewhere scores |S n C| + |T| - |T n C|: the marks of c
(k of the m positions) are weighed with +1 on S and -1 on T, a balance where the other
searches have a spring scale. One mark among m is found in ceil(log3 m) guesses (pans of a
third each) instead of ceil(log2 m).

**The search** (:func:`balance_worst`). Either the plain weighing of :mod:`.weighing` (its
worst case W(m, k)), or *pans*: c on the first s positions, d on the next t, reading r = a - b
with a, b the marks in the two pans and the k - a - b others in the u = m - s - t positions
left. The triples (a, b, k - a - b) with a - b = r are the outcomes; when there are several,
one more guess (c on the first pan alone) reads a. Then the three parts, each holding only c
and d, are searched one after the other by the same rule. The worst case is the recursion

    B(m, k) = min(W(m, k), 1 + min_{s >= t} max_r ([r ambiguous] + max_{a - b = r}
              B(s, a) + B(t, b) + B(u, k - a - b)))

with B(m, k) = B(m, m - k) (c and d exchange roles). Pans are tried for k up to
:data:`MAX_MARKS` (the outcomes grow like k^2); above it the plain weighing is played. The
tests play the search on every set of marks of blocks up to 12 positions.
"""
from __future__ import annotations

from functools import cache
from math import comb

from .weighing import weigh_total, weigh_worst

#: Largest number of marks (of the rarer symbol) for which pans are tried.
MAX_MARKS = 12

Plan = tuple[int, int]      # (s, t): pan sizes; (0, 0) means the plain weighing


def balance_worst(m: int, k: int) -> int:
    """Worst-case guesses to locate c's k marks among m positions holding only c and d."""
    return _best(m, k)[0]


def balance_plan(m: int, k: int) -> Plan:
    """The first guess played: pans (s, t), or (0, 0) for the plain weighing."""
    return _best(m, k)[1]


def outcomes(m: int, k: int, s: int, t: int) -> dict[int, list[tuple[int, int, int]]]:
    """Reading a - b -> the triples (a, b, rest) of marks in the pans and outside them."""
    u = m - s - t
    out: dict[int, list[tuple[int, int, int]]] = {}
    for a in range(min(s, k) + 1):
        for b in range(min(t, k - a) + 1):
            if k - a - b <= u:
                out.setdefault(a - b, []).append((a, b, k - a - b))
    return out


def _parts_worst(s: int, t: int, u: int, triple: tuple[int, int, int]) -> int:
    a, b, c = triple
    return balance_worst(s, a) + balance_worst(t, b) + balance_worst(u, c)


@cache
def _best(m: int, k: int) -> tuple[int, Plan]:
    if k == 0 or k == m:
        return 0, (0, 0)
    if 2 * k > m:
        return _best(m, m - k)
    best: tuple[int, Plan] = (weigh_worst(m, k), (0, 0))
    if k > MAX_MARKS:
        return best
    for s in range(1, m):            # s = m, t = 0 would learn nothing
        for t in range(0, min(s, m - s) + 1):
            worst = 0
            for triples in outcomes(m, k, s, t).values():
                cost = (len(triples) > 1) + max(_parts_worst(s, t, m - s - t, tr) for tr in triples)
                worst = max(worst, cost)
                if 1 + worst >= best[0]:
                    break
            if 1 + worst < best[0]:
                best = (1 + worst, (s, t))
    return best


@cache
def balance_total(m: int, k: int) -> int:
    """Guesses of the search of :func:`balance_worst` summed over all C(m, k) sets of marks."""
    if k == 0 or k == m:
        return 0
    if 2 * k > m:
        return balance_total(m, m - k)
    s, t = balance_plan(m, k)
    if s == 0:
        return weigh_total(m, k)
    u = m - s - t
    total = 0
    for triples in outcomes(m, k, s, t).values():
        for a, b, c in triples:
            sets = comb(s, a) * comb(t, b) * comb(u, c)
            total += sets * (1 + (len(triples) > 1))
            total += (balance_total(s, a) * comb(t, b) * comb(u, c)
                      + comb(s, a) * balance_total(t, b) * comb(u, c)
                      + comb(s, a) * comb(t, b) * balance_total(u, c))
    return total


__all__ = ["MAX_MARKS", "balance_plan", "balance_total", "balance_worst", "outcomes"]
