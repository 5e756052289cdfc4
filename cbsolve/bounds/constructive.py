"""A constructive upper bound for games with repeated symbols, for any N and D: the
*count-then-locate* strategy and the proof of its worst case.

Place in the data flow: variant -> here -> :func:`cbsolve.bounds.compute_bounds` (upper end of
the worst case, and worst x secrets for the total) where the space is too large for the
heuristic strategies to be evaluated against every secret.

The strategy uses bulls only, so it works for bulls-and-cows and bulls-only (black-peg) feedback:

1. **Counts.** Guess each one-symbol code ``ss...s`` in alphabet order but the last symbol;
   its bulls are n_s, the number of times s occurs in the secret. Stop as soon as the counts
   sum to N; the last symbol's count is the rest. At most D-1 guesses.
2. **Filler.** A *filler* is a symbol whose bulls are known wherever it is placed. A symbol that
   does not occur (n_z = 0) scores no bull anywhere. If every symbol occurs (then D <= N), pick
   the two symbols a, b first in the order below and scan the positions: guess a at p and b
   everywhere else; bulls - n_b = [x_p = a] - [x_p = b] tells whether p holds a, b or neither.
   The scan stops once every a and b is found, so it costs at most N-1 guesses, after which a
   scores exactly n_a wherever it is placed outside the positions still unknown.
   When a and b occur once each (always so when 2D >= N + 2), a *pair search* replaces the scan
   if cheaper: with L = bit length of N-1, guess a on the positions whose bit t is 1 and b
   elsewhere: bulls - 1 = bit_t(p_a) - bit_t(p_b), so each of the L bits is seen to differ
   (both values read) or to be equal. The positions differ, so the bits that differ (mask M)
   are known on both sides, and p_b = p_a XOR M: what is left is the one common value of the
   equal bits, among the F values v for which both p_a(v) and p_b(v) are positions. Search it
   by thirds, two symbols weighing it at once: guess a at p_a(v) for v in the upper two thirds
   of the candidates, b at p_b(v) for v in the upper third, a and b swapped on the other
   candidate positions of the two sides (where neither can score), so bulls - 1 is 2, 1 or 0:
   ceil(log3 F) guesses. At most L + ceil((L - 1) log3 2) in all (:func:`pair_search_worst`
   plays every pair of positions; 9 for N = 38, where halving the common bits needed 11).
3. **Locate.** For each remaining symbol c present (ascending count; the last one takes the
   positions left, free), find its k positions among the m still unknown ones by weighing
   (:mod:`.weighing`): guess c on the first s positions (filler elsewhere), whose bulls give
   how many of the k are there, and go on in both parts; a part whose count is 0 or its size
   needs no guess, and two parts holding exactly one of them each (or exactly one position
   without c each) are searched together, both weighed by each guess (bit by bit as in step
   2, or by rectangles: :mod:`.cross_search`). Worst case W(m, k) by a recursion over the
   split points (:func:`.weighing.weigh_worst`; W(40, 2) = 8 where halving needs 10).
   Symbols occurring once are located two at a time (consecutive in that order; an odd one
   out alone): the pair search of step 2 (or the scan, whichever is cheaper in the worst case)
   played on the m unknown positions, filler outside them, where locating them one after the
   other can take ceil(log2 m) + ceil(log2 (m - 1)) guesses (9 instead of 12 for m = 38).
4. Guess the secret (one more guess; earlier ones may already have won).

Worst case (proved by the construction, computed by :func:`count_locate_worst`): the maximum,
over the adversary's symbol counts, of the guesses of phases 1-4, by a dynamic programme over
the sorted counts. Tests play the strategy against every secret of small games and random
secrets of large ones, checking each game against this bound.

Not covered (the bound returns None): distinct-symbol games (no one-symbol guesses: see
:mod:`.constructive_distinct`) and no-leading-zero games (the leading position cannot take the
filler freely).
"""
from __future__ import annotations

from collections.abc import Callable
from functools import cache

from ..game.variant import Variant
from . import cross_search
from .balance import balance_plan, balance_worst, outcomes
from .weighing import (
    by_rectangles,
    common_candidates,
    joint,
    minimise_split,
    signed_bits,
    thirds,
    two_unknowns_worst,
    weigh_split,
    weigh_worst,
)

#: Largest code length handled (the dynamic programmes are O(N^3 D)).
MAX_LENGTH = 64
METHOD = "constructive strategy (count-then-locate, worst case proved by construction)"


def supported(variant: Variant) -> tuple[bool, str]:
    if not variant.repeats:
        return False, "count-then-locate needs repeated symbols (one-symbol guesses)"
    if variant.no_leading_zero:
        return False, "count-then-locate does not handle no-leading-zero games"
    if variant.length > MAX_LENGTH:
        return False, f"count-then-locate is tabulated up to N={MAX_LENGTH}"
    return True, ""


def locate_worst(m: int, k: int) -> int:
    """Worst-case guesses to find the k positions of a symbol among m by splitting alone (what
    set-then-place plays; count-then-locate weighs two parts at once: :mod:`.weighing`)."""
    return _best_split(m, k)[0]


def split_point(m: int, k: int) -> int:
    """How many of the m positions the next splitting guess covers (0 < k < m)."""
    return _best_split(m, k)[1]


@cache
def _best_split(m: int, k: int) -> tuple[int, int]:
    """(worst case, first part size) of locating k marked positions among m: guess a first part
    of s positions, read how many marks it holds, recurse on both parts (one at a time)."""
    return minimise_split(m, k, lambda s, j, rest, left: locate_worst(s, j) + locate_worst(rest, left),
                          _best_split)


def count_locate_worst(variant: Variant) -> int | None:
    """Proved worst case (guesses, final one included) of count-then-locate, or None."""
    if not supported(variant)[0]:
        return None
    n, d = variant.length, variant.n_symbols
    if d == 1:
        return 1
    counts = d - 1
    # Some symbol absent (always when D > N): locate everything with that filler.
    absent = max((_locate_exact(n, 1, s) for s in range(1, min(d - 1, n) + 1)), default=0)
    worst = counts + absent + 1
    if d <= n:
        # Every symbol present: the two rarest a, b (counts ka <= kb) are found by the pair
        # search when both occur once and it is cheaper, else by the scan (<= N-1 guesses); the
        # other d-2 symbols, each at least kb times, then share the N - ka - kb positions left.
        for ka in range(1, n // d + 1):
            for kb in range(ka, (n - ka) // (d - 1) + 1):
                rest = _locate_exact(n - ka - kb, kb, d - 2)
                if rest >= 0:
                    find = pair_search_worst(n) if ka == kb == 1 else n - 1
                    worst = max(worst, counts + find + rest + 1)
    return worst


def pair_search_worst(n: int) -> int:
    """Guesses to find two symbols occurring once each among n positions (the filler, if any,
    elsewhere): the pair search's worst case or the scan's (n - 1), whichever is smaller."""
    return min(n - 1, two_unknowns_worst(n, n, distinct=True)) if n > 1 else 0




@cache
def _locate_exact(m: int, smallest: int, symbols: int) -> int:
    """Worst case of phase 3 when exactly ``symbols`` symbols, each present ``smallest`` times
    or more, share the m unknown positions (-1: impossible); the last one is free."""
    if symbols == 0:
        return 0 if m == 0 else -1
    if symbols == 1:
        return 0 if m >= smallest else -1
    if smallest == 1:
        return _locate_singletons_first(m, symbols)
    worst = -1
    for k in range(smallest, m // symbols + 1):
        rest = _locate_exact(m - k, k, symbols - 1)
        if rest >= 0:
            # The last two symbols alone share the m positions: the balance (:mod:`.balance`).
            cost = balance_worst(m, k) if symbols == 2 else weigh_worst(m, k)
            worst = max(worst, cost + rest)
    return worst


def _locate_singletons_first(m: int, symbols: int) -> int:
    """:func:`_locate_exact` when symbols may occur once: the adversary chooses how many s do
    (they come first), located in pairs by the pair search; the others at least twice each."""
    worst = -1
    for s in range(symbols + 1):
        others = symbols - s
        if others == 0 and m != s or others and m - s < 2 * others:
            continue
        rest = _locate_exact(m - s, 2, others) if others else 0
        if rest < 0:
            continue
        located = s if others else s - 1            # the very last symbol is free
        cost, left = 0, m
        for _ in range(located // 2):
            cost, left = cost + pair_search_worst(left), left - 2
        if located % 2:          # the odd one out; with the last symbol alone: the balance
            cost += balance_worst(left, 1) if others <= 1 else weigh_worst(left, 1)
        worst = max(worst, cost + rest)
    return worst


Respond = Callable[[tuple[int, ...]], int]     # guess -> bulls


class CountThenLocate:
    """Plays count-then-locate against ``respond`` (a guess -> bulls oracle); ``play`` returns
    the guesses made, the last one being the secret."""

    def __init__(self, variant: Variant):
        ok, why = supported(variant)
        if not ok:
            raise ValueError(why)
        self.n, self.d = variant.length, variant.n_symbols

    def play(self, respond: Respond, stop_early: bool = True) -> list[tuple[int, ...]]:
        """``stop_early=False`` plays on after a guess that happened to win, as the expected-case
        bound (:func:`count_locate_total`) counts; the game itself stops (the default)."""
        self.guesses: list[tuple[int, ...]] = []
        self.respond = respond
        self.stop_early = stop_early
        try:
            final = tuple(self._solve())
            self.stop_early = True
            self._ask(final)
        except Won:
            pass
        return self.guesses

    def _ask(self, code: tuple[int, ...]) -> int:
        self.guesses.append(code)
        bulls = self.respond(code)
        if bulls == self.n and self.stop_early:
            raise Won
        return bulls

    def _solve(self) -> list[int]:
        n, d = self.n, self.d
        counts = [0] * d
        for s in range(d - 1):
            if sum(counts) == n:
                break
            counts[s] = self._ask((s,) * n)
        counts[d - 1] = n - sum(counts[:d - 1])
        self.counts = counts
        secret: list[int | None] = [None] * n
        self._region(list(range(n)), counts, secret)
        return secret

    def _split_at(self, m: int, present: list[int], counts: list[int]) -> int:
        """How many of the region's m positions to split off first (0: locate in place). Count-
        then-locate never splits; :class:`.regions.SplitThenLocate` does."""
        return 0

    def _region(self, region: list[int], counts: list[int], secret: list) -> None:
        """Fill ``secret`` on ``region``, whose symbol counts are ``counts`` (every other
        position of the secret is known or in another region of known counts)."""
        present = sorted((s for s in range(self.d) if counts[s]), key=lambda s: (counts[s], s))
        if len(present) == 1:
            for p in region:
                secret[p] = present[0]
            return
        h = self._split_at(len(region), present, counts)
        if h:
            self._split(region, h, present, counts, secret)
            return
        if len(present) < self.d:
            # A symbol absent from the region scores all its occurrences wherever it is put.
            self.filler = next(s for s in range(self.d) if counts[s] == 0)
            self.filler_bulls = self.counts[self.filler]
            if self._solve_in_place(region, present, counts, secret):
                return
        else:
            a, b = present[0], present[1]
            # The pair fills the region; a outside it scores its occurrences there.
            self.filler, self.filler_bulls = a, self.counts[a] - counts[a]
            self._find_pair(a, b, counts, region, secret)
            present = present[2:]
            self.filler, self.filler_bulls = a, self.counts[a]
        to_locate = present[:-1]
        i = 0
        while i < len(to_locate):
            c = to_locate[i]
            unknown = [p for p in region if secret[p] is None]
            if counts[c] == 1 and i + 1 < len(to_locate) and counts[to_locate[i + 1]] == 1:
                self._find_pair(c, to_locate[i + 1], counts, unknown, secret)
                i += 2
                continue
            if i == len(to_locate) - 1:       # c and the last symbol share what is unknown
                found = self._balance(c, present[-1], unknown, counts[c])
            else:
                found = self._locate(c, unknown, counts[c])
            for p in found:
                secret[p] = c
            i += 1
        for p in region:
            if secret[p] is None:
                secret[p] = present[-1]

    def _solve_in_place(self, region: list[int], present: list[int], counts: list[int],
                        secret: list) -> bool:
        """Solve a region with a filler at once, if a subclass knows how (True when done)."""
        return False

    def _split(self, region: list[int], h: int, present: list[int], counts: list[int],
               secret: list) -> None:
        """Weigh every symbol of the region but the last, z, on its first h positions with z
        everywhere else: the bulls minus z's count are h_s - h_z, and the h_s sum to h. Then
        solve both parts as regions (:mod:`.regions`)."""
        z, first = present[-1], region[:h]
        self.filler, self.filler_bulls = z, self.counts[z]
        diff = {s: self._ask(self._code({p: s for p in first})) - self.filler_bulls
                for s in present[:-1]}
        h_z, rest = divmod(h - sum(diff.values()), len(present))
        assert rest == 0, "the weighings must add up"
        inside = [0] * self.d
        for s in present:
            inside[s] = diff.get(s, 0) + h_z
        self._region(first, inside, secret)
        self._region(region[h:], [c - x for c, x in zip(counts, inside, strict=True)], secret)

    def _code(self, on: dict[int, int]) -> tuple[int, ...]:
        """``on`` maps positions to symbols; every other position gets the filler."""
        return tuple(on.get(p, self.filler) for p in range(self.n))

    def _find_pair(self, a: int, b: int, counts: list[int], region: list[int],
                   secret: list) -> None:
        """Locate every a and b among ``region`` (the filler outside it, if any): the pair
        search when both occur once and it is cheaper, else the scan."""
        if counts[a] == counts[b] == 1 and pair_search_worst(len(region)) < len(region) - 1:
            self._pair_search(a, b, region, secret)
        else:
            self._scan_pair(a, b, counts, region, secret)

    def _pair_search(self, a: int, b: int, region: list[int], secret: list) -> None:
        """a and b occur once each in ``region``: read the bits of their indices in it (see
        the module doc)."""
        m = len(region)
        bits = signed_bits(m, m)

        def ask_a_on(on) -> int:          # bulls minus b's one bull outside ``on``
            return self._ask(self._code({p: a if on(i) else b for i, p in enumerate(region)})
                             ) - self.filler_bulls - 1

        diff = [ask_a_on(lambda i, t=t: i >> t & 1) for t in range(bits)]
        mask = sum(1 << t for t in range(bits) if diff[t])
        known = sum(1 << t for t in range(bits) if diff[t] > 0)    # a's differing bits
        candidates = common_candidates(m, m, known, mask)
        while len(candidates) > 1:
            top, middle, bottom = thirds(candidates)
            # a (b) scores only on its own candidates, so b (a) goes there and anywhere else in
            # the region: bulls = [i_a in top + middle] + [i_b in top XOR mask] (+ filler)
            on = {p: a for p in region} | {region[x]: b for x in candidates}
            on |= {region[x]: a for x in top + middle} | {region[x ^ mask]: b for x in top}
            read = self._ask(self._code(on)) - self.filler_bulls
            candidates = (bottom, middle, top)[read]
        ia = candidates[0]
        secret[region[ia]], secret[region[ia ^ mask]] = a, b

    def _scan_pair(self, a: int, b: int, counts: list[int], region: list[int],
                   secret: list) -> None:
        left = {a: counts[a], b: counts[b]}
        for i, p in enumerate(region):
            if left[a] == 0 and left[b] == 0:
                return
            if i == len(region) - 1:                  # the last position holds what is left
                secret[p] = a if left[a] else b
                left[secret[p]] -= 1
                return
            code = self._code({q: a if q == p else b for q in region})
            diff = self._ask(code) - self.filler_bulls - counts[b]
            if diff == 1 or diff == -1:
                secret[p] = a if diff == 1 else b
                left[secret[p]] -= 1

    def _locate(self, c: int, positions: list[int], k: int) -> list[int]:
        """The k positions of c among ``positions`` (:mod:`.weighing`)."""
        if k == 0:
            return []
        if k == len(positions):
            return positions
        first = positions[:weigh_split(len(positions), k)]
        second = positions[len(first):]
        # The filler scores exactly at its own located positions, none of which is weighed.
        j = self._ask(self._code({p: c for p in first})) - self.filler_bulls
        if joint(len(first), j, len(second), k - j):
            return self._two_blocks(c, first, second, marked=j == 1 and k - j == 1)
        return self._locate(c, first, j) + self._locate(c, second, k - j)

    def _balance(self, c: int, d: int, positions: list[int], k: int) -> list[int]:
        """The k positions of c among ``positions``, every one of which holds c or d: c on one
        pan, d on the other, read a - b (:mod:`.balance`)."""
        m = len(positions)
        if k == 0 or k == m:
            return positions[:k]
        if 2 * k > m:
            found = set(self._balance(d, c, positions, m - k))
            return [p for p in positions if p not in found]
        s, t = balance_plan(m, k)
        if s == 0:
            return self._locate(c, positions, k)
        pans = positions[:s], positions[s:s + t], positions[s + t:]
        read = self._ask(self._code({p: c for p in pans[0]} | {p: d for p in pans[1]}))
        triples = outcomes(m, k, s, t)[read - self.filler_bulls - t]
        if len(triples) > 1:                        # weigh the first pan alone: a
            a = self._ask(self._code({p: c for p in pans[0]})) - self.filler_bulls
            triples = [tr for tr in triples if tr[0] == a]
        return [p for part, j in zip(pans, triples[0], strict=True) for p in self._balance(c, d, part, j)]

    def _two_blocks(self, c: int, xs: list[int], ys: list[int], marked: bool) -> list[int]:
        """c's positions when xs and ys each hold exactly one of them (``marked``) or each
        exactly one position without c: both unknowns weighed at once (:mod:`.weighing`)."""
        x, y = len(xs), len(ys)

        def weigh(a_set, b_set) -> int:           # [ip in a_set] + [iq in b_set]
            bulls = self._ask(self._code({xs[i]: c for i in a_set} | {ys[i]: c for i in b_set}))
            bulls -= self.filler_bulls
            return bulls if marked else len(a_set) + len(b_set) - bulls

        if by_rectangles(x, y):
            ip, iq = cross_search.play(range(x), range(y), weigh)
            return _marked_or_not(xs, ip, marked) + _marked_or_not(ys, iq, marked)
        diff = [weigh([i for i in range(x) if i >> t & 1], [i for i in range(y) if not i >> t & 1])
                - 1 for t in range(signed_bits(x, y))]
        mask = sum(1 << t for t, dt in enumerate(diff) if dt)
        known = sum(1 << t for t, dt in enumerate(diff) if dt > 0)
        candidates = common_candidates(x, y, known, mask)
        while len(candidates) > 1:
            top, middle, bottom = thirds(candidates)
            candidates = (bottom, middle, top)[weigh(top + middle, [v ^ mask for v in top])]
        ip = candidates[0]
        return _marked_or_not(xs, ip, marked) + _marked_or_not(ys, ip ^ mask, marked)


def _marked_or_not(block: list[int], index: int, marked: bool) -> list[int]:
    """c's positions in a block whose one marked (or one unmarked) position is block[index]."""
    return [block[index]] if marked else [p for p in block if p != block[index]]


class Won(Exception):
    """The last guess was the secret: the game is over."""


__all__ = ["CountThenLocate", "METHOD", "Won", "count_locate_worst", "locate_worst",
           "pair_search_worst", "split_point", "supported"]
