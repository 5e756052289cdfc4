"""Two-guess partition lower bounds in closed form for bulls-only (black-peg) games with
repeats, for any N and D.

Place in the data flow: variant -> here -> :func:`cbsolve.bounds.compute_bounds` (lower ends),
where the pattern-by-pattern closed forms (:mod:`.partition`) stop for size.

**Class sizes.** With bulls only, a secret x answers a guess g by the number of positions where
they agree, and positions are independent. So for *any* first guess g1 the secrets with b1
bulls number C(N, b1) (D-1)^(N-b1), and for any two guesses g1, g2 that agree on e positions
the secrets answering (b1, b2) number

    n(b1, b2; e) = sum_i C(e, i) (D-1)^(e-i) * C(N-e, b1-i) C(N-e-b1+i, b2-i) (D-2)^(N-e-b1-b2+2i)

(i bulls on the e positions where g1 = g2, each hitting both guesses; on the N - e others x
matches g1, matches g2, or is one of the D-2 other symbols). These depend on e only.

**Soundness.** Any strategy makes some first guess g1 (all give the same classes); after a
non-winning reply b1 it makes some second guess g2, agreeing with g1 on some e positions, and
each class of secrets answering (b1, b2) with b2 < N still needs a whole sub-strategy, which the
counting bound (:mod:`cbsolve.game.capacity`) limits: at least worst_lower(size) further guesses in the worst
case, and at least total_lower(size) summed over the class. The reply b2 = N is the win (the
secret is g2). Hence, for every b1 < N,

    worst >= min_e max_{b2} (2 if b2 = N else 2 + worst_lower(n(b1, b2; e)))
    total >= |S| + sum_{b1 < N} min_e (|C(b1)| + sum_{b2 < N} total_lower(n(b1, b2; e)))

and any b1 may be left at its one-guess bound (1 + worst_lower(|C(b1)|), total_lower(|C(b1)|))
without losing soundness, which bounds the work: only the largest classes are refined.

The tests check the two-level values against the scorer's two-level partition bound (which
tries every second guess) and against exact optima on small games.
"""
from __future__ import annotations

from math import comb

from ..game.capacity import total_lower, worst_lower
from ..game.variant import Variant
from .adaptive import PartitionBound

METHOD = "partition (two guesses deep, closed form, bulls only)"
#: First replies refined two levels deep (the largest classes); the others keep one level.
REFINED = 4


def supported(variant: Variant) -> bool:
    return (variant.bulls_only and variant.repeats and not variant.no_leading_zero
            and variant.n_symbols >= 2 and variant.length >= 1)


def first_class(n: int, d: int, b1: int) -> int:
    """Secrets giving b1 bulls to any first guess."""
    return comb(n, b1) * (d - 1) ** (n - b1)


def pair_class(n: int, d: int, e: int, b1: int, b2: int) -> int:
    """Secrets giving (b1, b2) bulls to two guesses that agree on e positions."""
    total = 0
    for i in range(max(0, b1 + b2 - n), min(e, b1, b2) + 1):
        r1, r2 = b1 - i, b2 - i
        rest = n - e - r1 - r2
        if rest < 0:
            continue
        total += (comb(e, i) * (d - 1) ** (e - i) * comb(n - e, r1) * comb(n - e - r1, r2)
                  * (d - 2) ** rest)
    return total


def _after_second(n: int, d: int, b1: int, responses: int) -> tuple[int, int]:
    """(worst, total of further guesses) lower bounds for the class C(b1), best second guess."""
    best_w = best_t = None
    for e in range(n + 1):
        worst, total = 2, first_class(n, d, b1)
        for b2 in range(n):                       # b2 = N is the win: 2 guesses, nothing more
            size = pair_class(n, d, e, b1, b2)
            if size:
                worst = max(worst, 2 + worst_lower(size, responses))
                total += total_lower(size, responses)
        best_w = worst if best_w is None else min(best_w, worst)
        best_t = total if best_t is None else min(best_t, total)
    assert best_w is not None and best_t is not None
    return best_w, best_t


def two_level_bound(variant: Variant, responses: int, refined: int = REFINED) -> PartitionBound | None:
    """The bound of the module doc, refining the ``refined`` largest first-reply classes."""
    if not supported(variant):
        return None
    n, d = variant.length, variant.n_symbols
    sizes = {b1: first_class(n, d, b1) for b1 in range(n)}
    worst, total = 1, d ** n
    for size in sizes.values():                  # one level for every class first
        worst = max(worst, 1 + worst_lower(size, responses))
        total += total_lower(size, responses)
    for b1 in sorted(sizes, key=lambda b: -sizes[b])[:refined]:
        w, t = _after_second(n, d, b1, responses)
        worst = max(worst, w)
        total += max(0, t - total_lower(sizes[b1], responses))   # never below one level
    label = "any first guess"
    return PartitionBound(worst, total, METHOD, label, label)


__all__ = ["METHOD", "first_class", "pair_class", "raise_lower_bounds", "supported",
           "two_level_bound"]


def raise_lower_bounds(worst, expected, variant: Variant, responses: int) -> None:
    """Raise the worst and expected intervals' lower ends with :func:`two_level_bound`."""
    pb = two_level_bound(variant, responses)
    if pb is not None:
        worst.raise_lower(pb.worst, f"{pb.method}, {pb.best_worst}")
        expected.raise_lower(pb.total, f"{pb.method}, {pb.best_total}")
