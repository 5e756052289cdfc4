"""The partition lower bound three guesses deep, in closed form, for bulls-only (black-peg)
games with repeats.

Place in the data flow: variant -> here -> :func:`cbsolve.bounds.bulls_only.raise_lower_bounds`
(one level deeper than :mod:`.bulls_only`'s two-guess bound, whose argument this extends).

**Class sizes.** Positions are independent. Two guesses g1, g2 agree on e positions; a third
guess g3 relates to them, position by position, in one of five ways: where g1 = g2 = a it is a
(``x`` positions) or another symbol b (``e - x``); where g1 = a differs from g2 = b it is a
(``y``), b (``z``) or a third symbol (``w = N - e - y - z``, possible when D >= 3). At one
position the secret's symbol adds (m1, m2, m3) in {0, 1}^3 to the three bull counts, and the
number of symbols giving each vector depends on the position's kind only:

    aaa: (1,1,1) once, (0,0,0) D-1 times     aab: (1,1,0), (0,0,1) once, (0,0,0) D-2 times
    aba: (1,0,1), (0,1,0) once, (0,0,0) D-2  abb: (1,0,0), (0,1,1) once, (0,0,0) D-2
    abc: (1,0,0), (0,1,0), (0,0,1) once, (0,0,0) D-3 times

so the secrets answering (b1, b2, b3) number the coefficient of u^b1 v^b2 t^b3 in the product
of the positions' polynomials ((D-1) + uvt)^x ((D-2) + uv + t)^(e-x) ... , for every g1, g2, g3
with these counts. The coefficients are computed in floating point (every term is positive,
so the relative error is below 1e-12 for N <= 24); a size s is read as ceil(s * (1 - 1e-9)),
the least integer the true size can be, and the counting bound grows with the size, so every value below
stays a lower bound.

**The bound.** Any strategy's first guess leaves, for each non-winning b1, a class its second
guess (agreeing with the first on some e positions) splits by b2, and each non-winning class
(b1, b2) a third guess (some x, y, z) splits by b3; a non-winning class (b1, b2, b3) still needs
worst_lower(size) guesses (:mod:`cbsolve.game.capacity`). Hence

    worst >= max_{b1 < N} min_e max_{b2} [2 if b2 = N else min_{x,y,z} max_{b3}
                                          (3 if b3 = N else 3 + worst_lower(size))]

over non-empty classes. The tests compare the sizes with enumeration, the bound with one that
tries every second and third code on small games, and with exact optima.
"""
from __future__ import annotations

import numpy as np

from ..game.capacity import capacity
from ..game.variant import Variant
from ..runtime.deadline import Deadline
from .bulls_only import first_class, pair_class, supported
from .bulls_only import raise_lower_bounds as raise_two_level

METHOD = "partition (three guesses deep, closed form, bulls only)"
#: Longest code the bound is computed for: its work grows like N^7 (N = 20: seconds).
MAX_LENGTH = 24
#: Share of the time left the bound may take (it is whole or not used).
TIME_SHARE = 0.5
#: Sizes are read this much low, more than the floating-point error of the coefficients.
SAFETY = 1e-9


def _times(poly: np.ndarray, terms: list[tuple[int, tuple[int, int, int]]]) -> np.ndarray:
    """``poly`` (coefficients indexed [b1, b2, b3]) times one position's polynomial."""
    out = np.zeros_like(poly)
    n = poly.shape[0]
    for coef, (a, b, c) in terms:
        if coef:
            out[a:, b:, c:] += coef * poly[:n - a, :n - b, :n - c]
    return out


def kinds(d: int) -> dict[str, list[tuple[int, tuple[int, int, int]]]]:
    """Each kind of position: the number of secret symbols giving each bull vector."""
    return {"aaa": [(d - 1, (0, 0, 0)), (1, (1, 1, 1))],
            "aab": [(d - 2, (0, 0, 0)), (1, (1, 1, 0)), (1, (0, 0, 1))],
            "aba": [(d - 2, (0, 0, 0)), (1, (1, 0, 1)), (1, (0, 1, 0))],
            "abb": [(d - 2, (0, 0, 0)), (1, (1, 0, 0)), (1, (0, 1, 1))],
            "abc": [(d - 3, (0, 0, 0)), (1, (1, 0, 0)), (1, (0, 1, 0)), (1, (0, 0, 1))]}


def triple_classes(n: int, d: int, e: int):
    """Yield ((x, y, z), sizes) for every third guess against two agreeing on e positions;
    sizes[b1, b2, b3] is the (floating-point) number of secrets giving those bulls."""
    k = kinds(d)
    base = np.zeros((n + 1,) * 3)
    base[0, 0, 0] = 1.0
    for _ in range(e):
        base = _times(base, k["aab"])
    for x in range(e + 1):
        if x:    # one more aaa position in place of an aab one: rebuild (e multiplications)
            base = np.zeros((n + 1,) * 3)
            base[0, 0, 0] = 1.0
            for _ in range(x):
                base = _times(base, k["aaa"])
            for _ in range(e - x):
                base = _times(base, k["aab"])
        yield from _rest(n, d, e, x, base, k)


def _rest(n: int, d: int, e: int, x: int, base: np.ndarray, k):
    """The positions where the first two guesses differ, layer by layer: every (y, z, w) with
    y + z + w = N - e from the products with one position fewer."""
    layer = {(0, 0, 0): base}
    for size in range(1, n - e + 1):
        nxt = {}
        for (y, z, w), poly in layer.items():
            for kind, key in (("aba", (y + 1, z, w)), ("abb", (y, z + 1, w)),
                              ("abc", (y, z, w + 1))):
                if key not in nxt and (kind != "abc" or d >= 3):
                    nxt[key] = _times(poly, k[kind])
        layer = nxt
    for (y, z, w), poly in layer.items():
        yield (x, y, z), poly


def _third_values(sizes: np.ndarray, n: int, caps: np.ndarray) -> np.ndarray:
    """For every class (b1, b2): max over b3 of the guesses still needed after the third guess
    (3 for the win, 3 + worst_lower(size) otherwise, 0 for no secret)."""
    low = np.ceil(sizes[:, :, :n] * (1.0 - SAFETY))   # integers >= this
    need = np.searchsorted(caps, low, side="left")      # least k with capacity(k) >= size
    values = np.where(low >= 1, 3 + need, 0).max(axis=2)
    return np.maximum(values, np.where(sizes[:, :, n] > 0.5, 3, 0))


def three_level_worst(variant: Variant, responses: int,
                      deadline: Deadline | None = None) -> int | None:
    """The bound of the module doc, or None (not supported, too long a code, or ``deadline``
    expired before it was whole)."""
    if not supported(variant) or variant.length > MAX_LENGTH:
        return None
    n, d = variant.length, variant.n_symbols
    caps = np.array([capacity(k, responses) for k in range(4 * n + 64)], dtype=float)
    by_first = {b1: [] for b1 in range(n) if first_class(n, d, b1)}
    for e in range(n + 1):
        best = np.full((n + 1, n + 1), np.inf)
        for _, sizes in triple_classes(n, d, e):
            if deadline is not None and deadline.expired():
                return None
            best = np.minimum(best, _third_values(sizes, n, caps))
        for b1, values in by_first.items():
            worst = 0
            for b2 in range(n + 1):
                if pair_class(n, d, e, b1, b2):
                    worst = max(worst, 2 if b2 == n else int(best[b1, b2]))
            values.append(worst)
    return max([1] + [min(values) for values in by_first.values()])


def raise_lower_bounds(worst, expected, variant: Variant, responses: int,
                       deadline: Deadline | None = None) -> None:
    """Raise the intervals with the two-guess bounds, then the worst case's lower end with
    :func:`three_level_worst` (within a share of ``deadline``)."""
    raise_two_level(worst, expected, variant, responses)
    share = None if deadline is None else deadline.share(TIME_SHARE)
    bound = three_level_worst(variant, responses, share)
    if bound is not None:
        worst.raise_lower(bound, f"{METHOD}, any first guess")


__all__ = ["MAX_LENGTH", "METHOD", "kinds", "raise_lower_bounds", "three_level_worst",
           "triple_classes"]
