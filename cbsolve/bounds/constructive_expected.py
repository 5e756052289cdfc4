"""The expected case of count-then-locate (:mod:`.constructive`): the total number of guesses
over all D^N secrets as an exact integer, for any N <= 64 and D, without enumerating secrets.

Place in the data flow: variant -> here -> :func:`cbsolve.bounds.compute_bounds` (upper end of
the expected total where the strategies cannot be evaluated against every secret).

**What is counted.** For a secret with symbol counts n_0..n_{D-1}, the strategy asks

* min(D-1, M+1) one-symbol guesses, M the largest symbol present (it stops once the counts
  reach N);
* when every symbol is present, the pair scan: min(q+1, N-1) guesses, q the last position
  holding either of the two rarest symbols a, b (it stops once all of them are found), or,
  when a and b occur once each and the pair search is used, its guesses for their positions
  (:func:`.weighing.two_unknowns_cost`);
* for each further present symbol in ascending count order, the weighing guesses that locate
  its k positions among the m still unknown (:mod:`.weighing`; the last symbol has k = m:
  none), except that
  symbols occurring once are located in consecutive pairs by the pair search (or the scan)
  over the m unknown positions, charged as above with N replaced by m;
* the final guess.

A guess that happens to equal the secret ends the game earlier, so this count is an *upper
bound* on the strategy's total (it is exact for ``CountThenLocate.play(..., stop_early=False)``,
which the tests check on every secret of small games).

**Summing without enumerating.** Fix the counts. Over all secrets with these counts, the
positions of the i-th located symbol are a uniform k_i-subset of the m_i positions left by the
earlier ones, independently of what happens to it, so the weighing totals factor:
H(m, k) = sum over k-subsets of the weighing guesses (:func:`.weighing.weigh_total`) is charged
H(m_i, k_i) x (secrets) / C(m_i, k_i). The scan's positions a u b form a uniform K-subset
(K = n_a + n_b), whose last element q is t for C(t, K-1) of them; the pair search is
played on each of the N(N-1) ordered pairs (p_a, p_b) of positions. The count phase depends
only on which ℓ symbols are present, a uniform ℓ-subset of the D symbols. A dynamic programme over
the counts in ascending order (state: positions used, symbols used; a group of r symbols of
equal count chooses its labels in C(D - used symbols, r) ways) accumulates the number of
secrets and the guesses charged, all exact integers.
"""
from __future__ import annotations

from math import comb

from ..game.variant import Variant
from .balance import balance_total
from .constructive import METHOD, pair_search_worst, supported
from .constructive_distinct import METHOD as DISTINCT_METHOD, set_place_total
from .cutoff import check
from .regions import METHOD as SPLIT_METHOD, split_locate_total
from .weighing import two_unknowns_total, weigh_total


def _scan_total(n: int, size: int) -> int:
    """Pair-scan guesses summed over the size-subsets of n positions holding a or b."""
    return sum(comb(t, size - 1) * min(t + 1, n - 1) for t in range(size - 1, n))


def _find_pair_total(n: int, size: int, secrets: int) -> int:
    """Guesses finding the two rarest symbols (size = their positions together), summed over
    ``secrets`` secrets whose pair positions are spread evenly over the possible ones."""
    if size == 2 and pair_search_worst(n) < n - 1:
        return secrets // (n * (n - 1)) * two_unknowns_total(n, n, distinct=True)
    return secrets // comb(n, size) * _scan_total(n, size)


def _count_phase_total(d: int, present: int) -> int:
    """One-symbol guesses summed over the ways to choose which ``present`` symbols occur."""
    return sum(comb(top, present - 1) * min(d - 1, top + 1) for top in range(present - 1, d))


def _sweep(n: int, d: int, scan: bool) -> dict[tuple[int, int], tuple[int, int]]:
    """Terminal states (N, symbols used) -> (secrets, guesses charged for locating and scan).

    Counts are added in ascending order, one group of equal counts at a time. With ``scan`` the
    first two symbols are the scanned pair (no weighing; the scan is charged when the second one
    is added) and only terminals using all D symbols matter. A located symbol is charged the
    plain weighing when added; if the next symbol turns out to be the last one, the two share
    the positions left and the balance is played instead: each state also carries that
    difference for the symbol located last (linear in the secrets, so states merge), charged
    when the last symbol is added."""
    states = {(0, 0): (1, 0, 0)}
    for j in range(1, n + 1):
        nxt: dict[tuple[int, int], tuple[int, int, int]] = {}
        for (used, syms), (secrets, cost, if_last) in states.items():
            check()
            _add(nxt, (used, syms), secrets, cost, if_last)   # no symbol of count j
            alone = 0      # a located singleton not (yet) paired: its search, if it stays so
            for r in range(1, min(d - syms, (n - used) // j) + 1):
                u, s = used + (r - 1) * j, syms + r - 1        # before the r-th symbol
                m = n - u
                ways = comb(m, j)
                secrets, cost, if_last = secrets * ways, cost * ways, if_last * ways
                if m == j:                                     # the last symbol
                    cost += if_last
                if_last = 0
                if scan and s == 1:
                    cost += _find_pair_total(n, u + j, secrets)
                elif scan and s == 0:
                    pass
                elif j == 1 and (s - 2 * scan) % 2:            # second of a located pair
                    cost += _find_pair_total(m + 1, 2, secrets)
                    alone = 0
                elif j == 1:
                    alone = secrets // m * weigh_total(m, 1)
                    if_last = secrets // m * _balance_gain(m, 1)
                else:
                    cost += secrets // ways * weigh_total(m, j)
                    if_last = secrets // ways * _balance_gain(m, j)
                labels = comb(d - syms, r)
                _add(nxt, (u + j, s + 1), secrets * labels, (cost + alone) * labels,
                     if_last * labels)
        states = nxt
    return {k: v[:2] for k, v in states.items() if k[0] == n and (k[1] == d) == scan}


def _balance_gain(m: int, k: int) -> int:
    """The balance's total minus the plain weighing's, over the C(m, k) sets of marks."""
    return balance_total(m, k) - weigh_total(m, k)


def _add(states: dict, key, *values: int) -> None:
    old = states.get(key, (0,) * len(values))
    states[key] = tuple(x + y for x, y in zip(old, values, strict=True))


def count_locate_total(variant: Variant) -> int | None:
    """Proved upper bound on the total guesses of count-then-locate over all secrets, or None."""
    if not supported(variant)[0]:
        return None
    n, d = variant.length, variant.n_symbols
    if d == 1:
        return 1
    terminal = dict(_sweep(n, d, scan=False))
    if d <= n:
        terminal.update(_sweep(n, d, scan=True))
    total = secrets = 0
    for (_, present), (count, cost) in terminal.items():
        # count = C(D, present) x (label arrangements) x secrets each; the count phase depends
        # on the chosen label set only.
        total += cost + count + count // comb(d, present) * _count_phase_total(d, present)
        secrets += count
    assert secrets == d ** n, "the sweep must cover every secret"
    return total


TOTAL_METHOD = METHOD.replace("worst case proved by construction",
                              "total summed over every secret in closed form")


def constructive_total(variant: Variant) -> tuple[int, str] | None:
    """(proved upper bound on the total guesses, method) of a construction, or None:
    count-then-locate's total, or set-then-place's per number of base symbols."""
    total = count_locate_total(variant)
    if total is not None:
        # The region splits have no closed-form total; charging each secret the worst case of
        # its number of symbols can still beat count-then-locate's exact sum (40 x 10).
        split = split_locate_total(variant)
        if split < total:
            return split, SPLIT_METHOD.replace(
                "worst case proved by construction",
                "total: each secret charged the worst case for its number of symbols")
        return total, TOTAL_METHOD
    total = set_place_total(variant)
    if total is not None:
        return total, DISTINCT_METHOD.replace("worst case proved by construction",
                                              "total: each secret charged the worst case for "
                                              "its number of base symbols")
    return None


__all__ = ["TOTAL_METHOD", "constructive_total", "count_locate_total"]
