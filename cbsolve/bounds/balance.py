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

from .cutoff import check
from .weighing import weigh_total, weigh_worst

#: Largest number of marks (of the rarer symbol) for which pans are tried.
MAX_MARKS = 12

#: How much smaller than the first pan the second may be.
PAN_SLACK = 6

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


@cache
def _best(m: int, k: int) -> tuple[int, Plan]:
    check()
    if k == 0 or k == m:
        return 0, (0, 0)
    if 2 * k > m:
        return _best(m, m - k)
    best: tuple[int, Plan] = (weigh_worst(m, k), (0, 0))
    if k > MAX_MARKS:
        return best
    floor = _readings_floor(comb(m, k), 2 * k + 1)
    rows = [[balance_worst(x, y) for y in range(min(x, k) + 1)] for x in range(m)]
    for s in sorted(range(1, m), key=lambda s: abs(3 * s - m)):   # s = m, t = 0: no news
        for t in _second_pans(s, m):
            worst = _pans_worst(rows[s], rows[t], rows[m - s - t], k, s, t, m - s - t,
                                best[0] - 1)
            if 1 + worst < best[0]:
                best = (1 + worst, (s, t))
                if best[0] == floor:          # no guess does better: 2k + 1 readings at most
                    return best
    return best


def _pans_worst(ws: list[int], wt: list[int], wu: list[int], k: int, s: int, t: int, u: int,
                enough: int) -> int:
    """Worst case after the pans' reading (``ws[a]``: the parts' own worst cases), stopping
    early once it reaches ``enough``. The triples of reading r are a - b = r, so a alone
    ranges over an interval."""
    worst = 0
    for r in range(-min(t, k), min(s, k) + 1):
        low, high = max(0, r, -((u - k - r) // 2)), min(s, t + r, (k + r) // 2)
        if low > high:
            continue
        cost = (high > low) + max(ws[a] + wt[a - r] + wu[k - 2 * a + r]
                                  for a in range(low, high + 1))
        if cost > worst:
            worst = cost
            if worst >= enough:
                break
    return worst


def _readings_floor(sets: int, readings: int) -> int:
    """Least w with readings^w >= sets (a lower bound for any search of this kind)."""
    w, reach = 0, 1
    while reach < sets:
        w, reach = w + 1, reach * readings
    return w


def _second_pans(s: int, m: int) -> list[int]:
    """Sizes t tried for the second pan: none, or nearly the first pan's (a cheap rule: the
    worst case is that of the search this rule defines)."""
    top = min(s, m - s)
    return [0] + list(range(max(1, top - PAN_SLACK), top + 1))


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
