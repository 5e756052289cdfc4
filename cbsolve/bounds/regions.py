"""Count, split into regions, locate: count-then-locate (:mod:`.constructive`) that first cuts
the board into regions whose symbol counts it learns, and its worst case.

Place in the data flow: variant -> here (-> :mod:`.constructive` for the searches inside a
region) -> :func:`cbsolve.bounds.compute_bounds` (upper end of the worst case).

**Splitting a region** R whose counts are known, q symbols present: guess each present symbol s
but one, z, on the first h positions H of R and z everywhere else. z scores all its occurrences
outside H, so the bulls minus n_z are h_s - h_z (h_s: the occurrences of s in H); the h_s of
the q present symbols add up to |H|, which gives h_z and so every h_s: q - 1 guesses, no
filler needed. Both parts are then regions of known counts.

**Why.** A symbol absent from a region is a filler for it (it scores all its occurrences,
known, wherever it is put), so the regions need no global filler: when every symbol occurs
(D <= N) the board is split until a part lacks one, instead of scanning for the two rarest
symbols (N - 1 guesses). And each region ends with its own last symbol free and its own last
pair located by the balance (:mod:`.balance`), which pays for the split also when a symbol is
absent.

**Worst case** (:func:`split_locate_worst`), by recursions over (positions, symbols present):

* a region with a filler and q symbols: A(m, q) = min(L(m, q), S(m, q)), with L the worst
  case of locating in place over every count vector (:func:`.constructive` 's dynamic
  programme) and S(m, q) = q - 1 + min_h (Â(h, q) + Â(m - h, q)), Â(x, q) the largest
  A(x, q') for q' <= q (the adversary chooses how the symbols fall into the parts);
* a region where all D symbols occur: for each count pair (k_a, k_b) of its two rarest
  symbols, the cheaper of count-then-locate's pair search or scan followed by locating the
  rest, and the split (its parts may again hold all D symbols);
* the count phase (D - 1 guesses), the worse of the two kinds of board, and the final guess.

The strategy takes the choice the recursion takes (split point or locate in place) from the
same numbers, so it meets the bound's terms; the bound can exceed its real worst case, as the
parts' worst cases are added though the adversary may not reach both at once. Tests play every
secret of small games and random and adversarial secrets up to N = 64.
"""
from __future__ import annotations

from functools import cache
from math import comb

from ..game.variant import Variant
from .constructive import (
    CountThenLocate,
    _locate_exact,
    count_locate_worst,
    pair_search_worst,
    supported,
)
from .cutoff import check
from .small_regions import played_tree, searched, small_region_worst

METHOD = ("constructive strategy (count, split into regions, locate; worst case proved by "
          "construction)")


def split_locate_worst(variant: Variant) -> int | None:
    """Proved worst case (guesses, final one included) of :class:`SplitThenLocate`, or None."""
    if not supported(variant)[0]:
        return None
    n, d = variant.length, variant.n_symbols
    if d == 1:
        return 1
    worst = _any_region(n, min(d - 1, n))
    if d <= n:
        worst = max(worst, _crowded(n, d)[0])
    bound = d - 1 + worst + 1
    # Sanity: splitting is an option on top of count-then-locate, never a cost.
    assert bound <= count_locate_worst(variant)
    return bound


def split_locate_total(variant: Variant) -> int | None:
    """Proved upper bound on the total guesses of :class:`SplitThenLocate` over all secrets, or
    None: each secret charged the worst case of its kind of board. After the count phase the
    strategy knows which q symbols occur and takes the recursion's choice for a board of q
    symbols (:func:`_with_filler` while some symbol is absent, :func:`_crowded` when all D
    occur), so the worst case of that recursion bounds every secret holding exactly q symbols;
    C(D, q) x surjections(N, q) secrets do."""
    if not supported(variant)[0]:
        return None
    n, d = variant.length, variant.n_symbols
    if d == 1:
        return 1
    kinds = [(comb(d, q) * _surjections(n, q), _with_filler(n, q)[0])
             for q in range(1, min(d - 1, n) + 1)]
    if d <= n:
        kinds.append((_surjections(n, d), _crowded(n, d)[0]))
    assert sum(count for count, _ in kinds) == d ** n, "every secret is of one kind"
    return sum(count * (d - 1 + worst + 1) for count, worst in kinds)


def _surjections(n: int, q: int) -> int:
    """Boards of n positions using each of q given symbols at least once (inclusion-exclusion)."""
    return sum((-1) ** j * comb(q, j) * (q - j) ** n for j in range(q + 1))


@cache
def _with_filler(m: int, q: int) -> tuple[int, int]:
    """(worst case, split point or 0) of a region of m positions holding exactly q symbols,
    some symbol absent from it; -1 if impossible."""
    if q == 0:
        return (0 if m == 0 else -1), 0
    if m < q:
        return -1, 0
    best = (_in_place(m, q), 0)
    if q > 1:
        for h in range(m // 2, 0, -1):
            cost = q - 1 + _any_region(h, q) + _any_region(m - h, q)
            if cost < best[0]:
                best = (cost, h)
    return best


def _in_place(m: int, q: int) -> int:
    """Worst case of solving a region with a filler without splitting it: a searched tree
    when it is small (:mod:`.small_regions`), else locating one symbol after another."""
    return small_region_worst(m, q) if searched(m, q) else _locate_exact(m, 1, q)


@cache
def _any_region(m: int, q: int) -> int:
    """Worst case of a region of m positions holding at most q symbols, with a filler."""
    check()
    return max(_with_filler(m, r)[0] for r in range(min(q, m) + 1))


def _filler_part(x: int, d: int) -> int:
    return _any_region(x, d - 1)


def _crowded_part(x: int, d: int) -> int:
    return _crowded(x, d)[0] if x >= d else -1


@cache
def _split_crowded(m: int, d: int, singleton: bool) -> tuple[int, int]:
    """(worst case, split point) of splitting a region where all d symbols occur. With a
    symbol occurring once (``singleton``) at most one part can again hold all d."""
    best = None
    for h in range(m // 2, 0, -1):
        f1, f2 = _filler_part(h, d), _filler_part(m - h, d)
        c1, c2 = _crowded_part(h, d), _crowded_part(m - h, d)
        if singleton:
            parts = max(f1 + f2, c1 + f2, f1 + c2)
        else:
            parts = max(f1, c1) + max(f2, c2)
        if best is None or d - 1 + parts < best[0]:
            best = (d - 1 + parts, h)
    assert best is not None
    return best


@cache
def _crowded(m: int, d: int) -> tuple[int, int]:
    """(worst case, 0) of a region of m >= d positions where all d symbols occur: for the
    counts ka <= kb of its two rarest symbols, the pair search or scan, or the split when
    cheaper (:func:`crowded_split`)."""
    worst = max(min(_pair_first(m, d, ka, kb), _split_crowded(m, d, ka == 1)[0])
                for ka, kb in _rarest_pairs(m, d))
    return worst, 0


def _rarest_pairs(m: int, d: int):
    for ka in range(1, m // d + 1):
        for kb in range(ka, (m - ka) // (d - 1) + 1):
            if _locate_exact(m - ka - kb, kb, d - 2) >= 0:
                yield ka, kb


def _pair_first(m: int, d: int, ka: int, kb: int) -> int:
    """Count-then-locate in a region where all d symbols occur, the rarest ka and kb times."""
    find = pair_search_worst(m) if ka == kb == 1 else m - 1
    return find + _locate_exact(m - ka - kb, kb, d - 2)


def crowded_split(m: int, d: int, ka: int, kb: int) -> int:
    """Where a region of m positions holding all d symbols is split (0: pair search or scan)."""
    cost, h = _split_crowded(m, d, ka == 1)
    return 0 if _pair_first(m, d, ka, kb) <= cost else h


class SplitThenLocate(CountThenLocate):
    """Count-then-locate that splits regions where :func:`split_locate_worst` does."""

    def _split_at(self, m: int, present: list[int], counts: list[int]) -> int:
        if len(present) < self.d:
            return _with_filler(m, len(present))[1]
        return crowded_split(m, self.d, counts[present[0]], counts[present[1]])

    def _solve_in_place(self, region: list[int], present: list[int], counts: list[int],
                        secret: list) -> bool:
        """A small region is solved by its searched tree (:mod:`.small_regions`): label i is
        the i-th present symbol (ascending count), label q the filler."""
        if not searched(len(region), len(present)):
            return False
        q = len(present)
        node = played_tree(tuple(counts[s] for s in present))
        while node[0] != "leaf":
            guess, children = node
            on = {p: present[label] for p, label in zip(region, guess, strict=True) if label < q}
            node = children[self._ask(self._code(on)) - self.filler_bulls]
        for p, label in zip(region, node[1], strict=True):
            secret[p] = present[label]
        return True


__all__ = ["METHOD", "SplitThenLocate", "crowded_split", "split_locate_total", "split_locate_worst"]
