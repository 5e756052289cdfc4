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
   (both values read) or to be equal. The positions differ, so some bit t* differs; for each
   equal bit s, guess a on the positions on p_a's side of bit t* whose bit s is 1 (b elsewhere,
   scoring its one bull since p_b is on the other side): bulls - 1 = bit_s(p_a) = bit_s(p_b).
   At most L + (L - 1) guesses.
3. **Locate.** For each remaining symbol c present (ascending count; the last one takes the
   positions left, free), find its k positions among the m still unknown ones by splitting:
   guess c on the first s positions (filler elsewhere), whose bulls give how many of the k are
   there, and recurse on both parts; a part whose count is 0 or its size needs no guess. Its
   worst case is L(m, k) = 1 + min_s max_j [L(s, j) + L(m - s, k - j)], L = 0 when k in {0, m};
   the s attaining the minimum (:func:`split_point`) is the one played. Halving (s = m/2) is
   not always best: L(40, 4) is 16 with the best s, 19 with halves.
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

from ..variant import Variant

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
    """Worst-case guesses to find the k positions of a symbol among m by splitting."""
    return _best_split(m, k)[0]


def split_point(m: int, k: int) -> int:
    """How many of the m positions the next splitting guess covers (0 < k < m)."""
    return _best_split(m, k)[1]


@cache
def _best_split(m: int, k: int) -> tuple[int, int]:
    """(worst case, first part size) of locating k marked positions among m: guess a first part
    of s positions, read how many marks it holds, recurse on both parts; s minimises the worst
    case (ties: the most even split). Complements have the same cost, so k <= m/2 suffices."""
    if k == 0 or k == m:
        return 0, 0
    if 2 * k > m:
        return _best_split(m, m - k)
    best = None
    for s in range(m // 2, 0, -1):
        worst = 1 + max(locate_worst(s, j) + locate_worst(m - s, k - j)
                        for j in range(max(0, k - (m - s)), min(k, s) + 1))
        if best is None or worst < best[0]:
            best = (worst, s)
    assert best is not None
    return best


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
    """Guesses to find two symbols occurring once each among n positions: the pair search
    (2L - 1, L the bit length of n - 1) or the scan (n - 1), whichever is smaller."""
    return min(n - 1, 2 * (n - 1).bit_length() - 1)


@cache
def _locate_exact(m: int, smallest: int, symbols: int) -> int:
    """Worst case of phase 3 when exactly ``symbols`` symbols, each present ``smallest`` times
    or more, share the m unknown positions (-1: impossible); the last one is free."""
    if symbols == 0:
        return 0 if m == 0 else -1
    if symbols == 1:
        return 0 if m >= smallest else -1
    worst = -1
    for k in range(smallest, m // symbols + 1):
        rest = _locate_exact(m - k, k, symbols - 1)
        if rest >= 0:
            worst = max(worst, locate_worst(m, k) + rest)
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
        secret: list[int | None] = [None] * n
        present = sorted((s for s in range(d) if counts[s]), key=lambda s: (counts[s], s))
        if len(present) == 1:
            return present * n
        if len(present) < d:
            self.filler = next(s for s in range(d) if counts[s] == 0)
            self.filler_bulls = 0
        else:
            a, b = present[0], present[1]
            if counts[a] == counts[b] == 1 and pair_search_worst(n) < n - 1:
                self._pair_search(a, b, secret)
            else:
                self._scan_pair(a, b, counts, secret)
            present = present[2:]
            self.filler, self.filler_bulls = a, counts[a]
        for c in present[:-1]:
            unknown = [p for p in range(n) if secret[p] is None]
            for p in self._locate(c, unknown, counts[c]):
                secret[p] = c
        for p in range(n):
            if secret[p] is None:
                secret[p] = present[-1] if present else None
        return secret

    def _pair_search(self, a: int, b: int, secret: list) -> None:
        """a and b occur once each: read the bits of their positions (see the module doc)."""
        n = self.n
        bits = (n - 1).bit_length()

        def ask_a_on(on) -> int:          # bulls minus b's one bull outside ``on``
            return self._ask(tuple(a if on(p) else b for p in range(n))) - 1

        diff = [ask_a_on(lambda p, t=t: p >> t & 1) for t in range(bits)]
        split = next(t for t in range(bits) if diff[t])
        side = 1 if diff[split] > 0 else 0                # bit ``split`` of p_a
        pa = pb = 0
        for t in range(bits):
            if diff[t]:
                va, vb = (1, 0) if diff[t] > 0 else (0, 1)
            else:
                va = vb = ask_a_on(lambda p, t=t: (p >> split & 1) == side and p >> t & 1)
            pa, pb = pa | va << t, pb | vb << t
        secret[pa], secret[pb] = a, b

    def _scan_pair(self, a: int, b: int, counts: list[int], secret: list) -> None:
        left = {a: counts[a], b: counts[b]}
        for p in range(self.n):
            if left[a] == 0 and left[b] == 0:
                return
            if p == self.n - 1:                       # the last position holds what is left
                secret[p] = a if left[a] else b
                left[secret[p]] -= 1
                return
            code = tuple(a if q == p else b for q in range(self.n))
            diff = self._ask(code) - counts[b]
            if diff == 1 or diff == -1:
                secret[p] = a if diff == 1 else b
                left[secret[p]] -= 1

    def _locate(self, c: int, positions: list[int], k: int) -> list[int]:
        if k == 0:
            return []
        if k == len(positions):
            return positions
        half = positions[:split_point(len(positions), k)]
        on = set(half)
        code = tuple(c if p in on else self.filler for p in range(self.n))
        # The filler scores exactly at its own located positions, none of which is in ``on``.
        j = self._ask(code) - self.filler_bulls
        return self._locate(c, half, j) + self._locate(c, positions[len(half):], k - j)


class Won(Exception):
    """The last guess was the secret: the game is over."""


__all__ = ["CountThenLocate", "METHOD", "Won", "count_locate_worst", "locate_worst",
           "pair_search_worst", "split_point", "supported"]
