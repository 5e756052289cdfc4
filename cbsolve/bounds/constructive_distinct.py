"""A constructive upper bound for distinct-symbol games (Bulls & Cows, letter games) with
D >= 2N - 1: the *set-then-place* strategy and the proof of its worst case.

Place in the data flow: variant -> here -> :mod:`cbsolve.bounds.constructive` (dispatch) ->
:func:`cbsolve.bounds.compute_bounds`.

Every guess is a valid code (N distinct symbols). Bulls + cows = |guess symbols & secret symbols|.

1. **Which symbols.** Guess the base block B = the first N symbols; its total t is how many of
   them occur. The other M = D - N symbols hold N - t. Unless that is 0 or M, swap each outside
   symbol x for the first base symbol y: total - t = [x in S] - [y in S]. The first nonzero
   difference tells y's membership (and x's); the earlier x share y's, later ones are read
   directly. At most M guesses (all M zero is impossible when 0 < N - t < M); stops early when
   the outside count is reached either way. Then the base symbols (t', minus y when known) are
   split (parts of :func:`.constructive.split_point` size), swapping a part H for |H| outside
   symbols of known membership:
   |H & S| = t' - (total - known). Worst case locate_worst(m, t') as in count-then-locate.
2. **Where.** With the N secret symbols s_0..s_{N-1} known, round r (r < N-1) places s_i at
   position (i + r) mod N for every symbol not yet placed whose position there is still free,
   and absent symbols elsewhere (D - N >= N - 1 of them, enough for any guess); the bulls are the
   hits of that matching, found by halving sub-matchings (absent symbols filling the rest). Each
   symbol's true position lies in exactly one round, so the last round needs no guess.
3. Guess the secret.

Worst case (:func:`set_place_worst`): phase 1 maximised over t and the base symbol's membership;
the total (:func:`set_place_total`) charges each secret the worst case for its t instead;
phase 2 by a dynamic programme over the hits per round, charging each round 1 + the halving
worst case of its hits among at most the unplaced symbols.
"""
from __future__ import annotations

from functools import cache
from math import comb, factorial

from ..game.variant import Variant
from .constructive import Won, locate_worst, split_point

METHOD = "constructive strategy (set-then-place, worst case proved by construction)"


def supported(variant: Variant) -> tuple[bool, str]:
    n, d = variant.length, variant.n_symbols
    if variant.repeats:
        return False, "set-then-place is for distinct-symbol games"
    if variant.bulls_only:
        return False, "set-then-place needs cows (bulls + cows counts the common symbols)"
    if variant.no_leading_zero:
        return False, "set-then-place does not handle no-leading-zero games"
    if d < 2 * n - 1:
        return False, f"set-then-place needs D >= 2N - 1 absent fillers (D={d}, N={n})"
    return True, ""


@cache
def _halving_at_most(m: int, k: int) -> int:
    """Worst halving cost of k hits among at most m candidates (at least k)."""
    return max(locate_worst(j, k) for j in range(k, m + 1))


@cache
def _rounds_worst(r: int, unplaced: int, n: int) -> int:
    if unplaced == 0 or r == n - 1:
        return 0
    return max(1 + _halving_at_most(unplaced, h) + _rounds_worst(r + 1, unplaced - h, n)
               for h in range(unplaced + 1))


def set_place_worst(variant: Variant) -> int | None:
    """Proved worst case (guesses, final one included) of set-then-place, or None."""
    if not supported(variant)[0]:
        return None
    n, d = variant.length, variant.n_symbols
    m = d - n
    which = 1 + max(_which_worst(n, m, t) for t in range(max(0, n - m), n + 1))
    return which + _rounds_worst(0, n, n) + 1


def set_place_total(variant: Variant) -> int | None:
    """Proved upper bound on the total guesses over all secrets: each secret is charged the
    worst case for its number t of base symbols (phase 1 depends on t only through that worst
    case), C(N, t) C(D - N, N - t) N! secrets having t of them."""
    if not supported(variant)[0]:
        return None
    n, d = variant.length, variant.n_symbols
    m = d - n
    rest = _rounds_worst(0, n, n) + 1
    return sum(comb(n, t) * comb(m, n - t) * factorial(n) * (1 + _which_worst(n, m, t) + rest)
               for t in range(max(0, n - m), n + 1))


def _which_worst(n: int, m: int, t: int) -> int:
    outside = n - t
    if outside in (0, m):
        return locate_worst(n, t)
    # y's membership is learnt by the scan; the other n - 1 base symbols hold t - [y in S].
    return m + max(locate_worst(n - 1, t - y) for y in (0, 1) if 0 <= t - y <= n - 1)


class SetThenPlace:
    """Plays set-then-place against ``respond`` (guess -> (bulls, cows)); ``play`` returns the
    guesses made, the last one being the secret."""

    def __init__(self, variant: Variant):
        ok, why = supported(variant)
        if not ok:
            raise ValueError(why)
        self.n, self.d = variant.length, variant.n_symbols

    def play(self, respond) -> list[tuple[int, ...]]:
        self.guesses: list[tuple[int, ...]] = []
        self.respond = respond
        try:
            present = self._which()
            self._ask(self._place(present))
        except Won:
            pass
        return self.guesses

    def _ask(self, code) -> tuple[int, int]:
        code = tuple(code)
        self.guesses.append(code)
        bulls, cows = self.respond(code)
        if bulls == self.n:
            raise Won
        return bulls, cows

    def _total(self, code) -> int:
        return sum(self._ask(code))

    # -- phase 1 ------------------------------------------------------------------------------
    def _which(self) -> list[int]:
        n, d = self.n, self.d
        base, outside = list(range(n)), list(range(n, d))
        t = self._total(base)
        member: dict[int, bool] = {}
        need = n - t                                     # secret symbols among the outside
        if need in (0, len(outside)):
            member.update((x, need > 0) for x in outside)
        else:
            self._scan_outside(base, outside, t, need, member)
        rest = [s for s in base if s not in member]
        for s in self._halve(rest, t - sum(member.get(s, False) for s in base), t, base, outside,
                             member):
            member[s] = True
        member.update((s, False) for s in rest if s not in member)
        return [s for s in range(d) if member[s]]

    def _scan_outside(self, base, outside, t, need, member) -> None:
        """Swap each outside symbol for y = base[0]: total - t = [x in S] - [y in S]."""
        y, pending = base[0], []
        for x in outside:
            if y in member:
                found = sum(member.get(z, False) for z in outside)
                unknown = [z for z in outside if z not in member]
                if found == need or found + len(unknown) == need:
                    member.update((z, found < need) for z in unknown)
                    return
            diff = self._total([x] + base[1:]) - t
            if y in member:
                member[x] = diff + member[y] == 1
            elif diff == 0:
                pending.append(x)                        # same membership as y, still unknown
            else:
                member[y], member[x] = diff < 0, diff > 0
                member.update((z, member[y]) for z in pending)
                pending = []
        assert y in member and not pending, "an all-zero scan contradicts 0 < need < M"

    def _halve(self, items, k, t, base, fillers, member) -> list[int]:
        """The k members among ``items`` (base symbols): swap a half H out of the base block for
        |H| outside symbols of known membership; |H & S| = t - (total - known)."""
        if k == 0:
            return []
        if k == len(items):
            return items
        half = items[:split_point(len(items), k)]
        swap_in = fillers[:len(half)]
        total = self._total([s for s in base if s not in half] + swap_in)
        in_half = t - (total - sum(member[f] for f in swap_in))
        return self._halve(half, in_half, t, base, fillers, member) + \
            self._halve(items[len(half):], k - in_half, t, base, fillers, member)

    # -- phase 2 ------------------------------------------------------------------------------
    def _place(self, present: list[int]) -> list[int]:
        n = self.n
        absent = [s for s in range(self.d) if s not in present]
        where: dict[int, int] = {}
        taken: set[int] = set()
        for r in range(n - 1):
            pairs = [(s, (i + r) % n) for i, s in enumerate(present)
                     if s not in where and (i + r) % n not in taken]
            if not pairs:
                continue
            hits = self._matching_hits(pairs, absent)
            for s, p in self._locate_pairs(pairs, hits, absent):
                where[s] = p
                taken.add(p)
        for i, s in enumerate(present):
            if s not in where:
                where[s] = (i + n - 1) % n
        code = [0] * n
        for s, p in where.items():
            code[p] = s
        return code

    def _matching_hits(self, pairs, absent) -> int:
        placed = {p: s for s, p in pairs}
        fill = iter(absent)
        code = [placed[p] if p in placed else next(fill) for p in range(self.n)]
        return self._ask(code)[0]

    def _locate_pairs(self, pairs, hits, absent):
        if hits == 0:
            return []
        if hits == len(pairs):
            return pairs
        half = pairs[:split_point(len(pairs), hits)]
        j = self._matching_hits(half, absent)
        return self._locate_pairs(half, j, absent) + \
            self._locate_pairs(pairs[len(half):], hits - j, absent)


__all__ = ["METHOD", "SetThenPlace", "set_place_total", "set_place_worst", "supported"]
