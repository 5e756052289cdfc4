"""A first-guess partition lower bound for bulls-and-cows games with repeats, any N and D, from
the bulls classes alone: what stands where the pattern-by-pattern closed forms
(:mod:`.partition`, at most 2 000 guess patterns) stop.

Place in the data flow: variant -> here -> :func:`cbsolve.bounds.compute_bounds` (lower ends).

**Argument.** With repeats, positions are independent, so *every* first guess g leaves
C(N, b) (D-1)^(N-b) secrets answering b bulls. The cows split that class into at most c_b
classes, c_b the number of cows values some reply with b bulls can take
(:func:`cbsolve.game.scoring.possible_responses`), so one of them holds at least
ceil(C(N, b) (D-1)^(N-b) / c_b) secrets, and that class needs a whole sub-strategy, which the
counting bound (:mod:`cbsolve.game.capacity`) limits. Hence, for any strategy,

    worst >= 1 + max_{b < N} worst_lower(ceil(C(N, b) (D-1)^(N-b) / c_b))
    total >= D^N + sum_{b < N} (least sum of total_lower over c_b parts of that class)

and the least sum is reached by parts as equal as possible: total_lower is convex (the level
fill charges each further secret a depth at least as large as the last one's) and zero at 0.
This is never above the exact one-level partition bound (which uses the real class sizes of
each guess pattern); it matters where that one is out of reach. 20 x 26 letters: worst >= 14,
average >= 13.68 (counting: 13 and 13.00); 40 x 26: average >= 20.96 (20.86).
"""
from __future__ import annotations

from math import comb

from ..game.capacity import total_lower, worst_lower
from ..game.scoring import possible_responses
from ..game.variant import Variant
from .adaptive import PartitionBound

METHOD = "partition (first guess, bulls classes split by cows, closed form)"


def supported(variant: Variant) -> bool:
    return (variant.repeats and not variant.bulls_only and not variant.no_leading_zero
            and variant.n_symbols >= 2)


def cows_values(variant: Variant) -> dict[int, int]:
    """b -> how many cows values the replies with b bulls can take."""
    counts: dict[int, int] = {}
    for b, _ in possible_responses(variant):
        counts[b] = counts.get(b, 0) + 1
    return counts


def bulls_class_bound(variant: Variant, responses: int) -> PartitionBound | None:
    """The bound of the module doc (None where it does not apply)."""
    if not supported(variant):
        return None
    n, d = variant.length, variant.n_symbols
    parts = cows_values(variant)
    worst, total = 1, d ** n
    for b in range(n):
        size = comb(n, b) * (d - 1) ** (n - b)
        if size == 0 or b not in parts:
            continue
        q, r = divmod(size, parts[b])
        worst = max(worst, 1 + worst_lower(q + (r > 0), responses))
        total += r * total_lower(q + 1, responses) + (parts[b] - r) * total_lower(q, responses)
    label = "any first guess"
    return PartitionBound(worst, total, METHOD, label, label)


def raise_lower_bounds(worst, expected, variant: Variant, responses: int) -> None:
    """Raise the worst and expected intervals' lower ends with :func:`bulls_class_bound`."""
    pb = bulls_class_bound(variant, responses)
    if pb is not None:
        worst.raise_lower(pb.worst, f"{pb.method}, {pb.best_worst}")
        expected.raise_lower(pb.total, f"{pb.method}, {pb.best_total}")


__all__ = ["METHOD", "bulls_class_bound", "cows_values", "raise_lower_bounds", "supported"]
