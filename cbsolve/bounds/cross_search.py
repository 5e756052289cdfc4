"""Two unknown indices in disjoint ranges, searched by rectangles: ip in A, iq in B, each guess
weighing a set of each range and reading [ip in A'] + [iq in B'] (:mod:`.weighing` says which
guesses do this; here: one symbol with exactly one mark in each of two blocks).

Place in the data flow: :mod:`.weighing` (the cheaper of this and the bit-by-bit search) ->
here.

**States.** The pairs still possible form a *product* A x B or a *cross* A1 x B1 u A2 x B2 with
A1, A2 disjoint and B1, B2 disjoint. A product's guess weighs the first alpha of A and the
first beta of B: reading 2 or 0 leaves a product, 1 the cross (A' x (B - B')) u ((A - A') x B').
A cross's guess weighs one rectangle's A side whole (ip cannot be there in the other one) and
parts u and v of B1 and B2: reading 2 leaves A1 x B1[:u], 0 leaves A2 x B2[v:], and 1 the
cross A1 x B1[u:] u A2 x B2[:v] (or the same with the roles of A and B, or of the two
rectangles, exchanged). So a cross can be cut in thirds of its pairs, where a product loses at
most half of them to the cross: about 1.3 bits a guess instead of one.

**Choices and cost.** Each state plays the candidate guess (alpha, beta near a half or a
product's or cross's thirds; the rule depends on the sizes only) whose worst case is least,
computed exactly by the recursion over the sizes (:func:`cross_worst`); :func:`cross_total`
sums the guesses over all pairs the same way and :func:`play` plays it. 19 x 19 pairs: 7
guesses, the bit-by-bit search 8, halving each block 10.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from .cutoff import check

Rect = tuple[Sequence[int], Sequence[int]]      # (A, B): ip in A and iq in B
#: (kind, parameters) of a guess: ("product", alpha, beta) or ("cross", full, side, u, v)
Move = tuple


def _mass(rects: Sequence[Rect]) -> int:
    return sum(len(a) * len(b) for a, b in rects)


def _split(rects: Sequence[Rect], move: Move) -> tuple[tuple[Sequence[int], Sequence[int]],
                                                        dict[int, list[Rect]]]:
    """The sets a guess weighs (of A, of B) and the state each reading leaves."""
    if move[0] == "product":
        (a, b), alpha, beta = rects[0], move[1], move[2]
        weighed = (a[:alpha], b[:beta])
        children = {2: [(a[:alpha], b[:beta])], 1: [(a[:alpha], b[beta:]), (a[alpha:], b[:beta])],
                    0: [(a[alpha:], b[beta:])]}
    else:
        _, full, side, u, v = move
        (af, bf), (ao, bo) = rects[full], rects[1 - full]
        if side == 0:        # rectangle ``full``'s A side whole: u of its B, v of the other's B
            weighed = (af, list(bf[:u]) + list(bo[:v]))
            children = {2: [(af, bf[:u])], 1: [(af, bf[u:]), (ao, bo[:v])], 0: [(ao, bo[v:])]}
        else:                # the same with the roles of A and B exchanged
            weighed = (list(af[:u]) + list(ao[:v]), bf)
            children = {2: [(af[:u], bf)], 1: [(af[u:], bf), (ao[:v], bo)], 0: [(ao[v:], bo)]}
    return weighed, {r: [(a, b) for a, b in kids if len(a) and len(b)]
                     for r, kids in children.items()}


def _near(target: float, top: int) -> list[int]:
    """Integers in 0..top closest to ``target`` (floor, ceiling)."""
    low = min(max(int(target), 0), top)
    return sorted({low, min(low + 1, top)})


def _moves(sizes: tuple[tuple[int, int], ...]) -> list[Move]:
    if len(sizes) == 1:
        (x, y), = sizes
        alphas = sorted({x // 2, (x + 1) // 2, round(0.42 * x), round(0.58 * x)})
        betas = sorted({y // 2, (y + 1) // 2, round(0.42 * y), round(0.58 * y)})
        return [("product", a, b) for a in alphas for b in betas]
    third = _mass_of(sizes) / 3
    moves = []
    for full in (0, 1):
        (xf, yf), (xo, yo) = sizes[full], sizes[1 - full]
        for side, (whole, f_part, o_whole, o_part) in enumerate(((xf, yf, xo, yo),
                                                                 (yf, xf, yo, xo))):
            for u in _near(third / whole, f_part):
                for w in _near(third / o_whole, o_part):
                    moves.append(("cross", full, side, u, o_part - w))
    return moves


def _mass_of(sizes: tuple[tuple[int, int], ...]) -> int:
    return sum(x * y for x, y in sizes)


def _sizes(rects: Sequence[Rect]) -> tuple[tuple[int, int], ...]:
    return tuple((len(a), len(b)) for a, b in rects)


def _children_sizes(sizes: tuple[tuple[int, int], ...], move: Move):
    """The sizes :func:`_split` leaves, by arithmetic (the tests play both against each other)."""
    if move[0] == "product":
        (x, y), alpha, beta = sizes[0], move[1], move[2]
        kids = ([(alpha, beta)], [(alpha, y - beta), (x - alpha, beta)], [(x - alpha, y - beta)])
    else:
        _, full, side, u, v = move
        (xf, yf), (xo, yo) = sizes[full], sizes[1 - full]
        if side == 0:
            kids = ([(xf, u)], [(xf, yf - u), (xo, v)], [(xo, yo - v)])
        else:
            kids = ([(u, yf)], [(xf - u, yf), (v, yo)], [(xo - v, yo)])
    out = []
    for rects in kids:
        rects = tuple((a, b) for a, b in rects if a and b)
        if rects:
            out.append(rects)
    return out


def _canonical(sizes: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """The same state up to exchanging the rectangles or the roles of A and B (the guesses
    tried are symmetric under both, so the worst case is too)."""
    flipped = tuple((y, x) for x, y in sizes)
    return min(sizes, sizes[::-1], flipped, flipped[::-1])


@cache
def _worst(sizes: tuple[tuple[int, int], ...]) -> int:
    """Worst case of a (canonical) state given by its rectangles' sizes."""
    return _choice(sizes)[0]


@cache
def _choice(sizes: tuple[tuple[int, int], ...]) -> tuple[int, Move | None]:
    """(worst case, guess played): the first candidate guess of least worst case."""
    check()
    mass = _mass_of(sizes)
    if mass <= 1:
        return 0, None
    best: tuple[int, Move | None] = (0, None)
    for move in _moves(sizes):
        kids = _children_sizes(sizes, move)
        if any(_mass_of(k) == mass for k in kids):
            continue
        worst = 1 + max(_worst(_canonical(k)) for k in kids)
        if best[1] is None or worst < best[0]:
            best = (worst, move)
    if best[1] is None:
        raise AssertionError(f"no guess splits {sizes}")
    return best


def cross_worst(x: int, y: int) -> int:
    """Worst-case guesses for ip in 0..x-1 and iq in 0..y-1."""
    return _worst(_canonical(((x, y),))) if x and y else 0


@cache
def _total(sizes: tuple[tuple[int, int], ...]) -> int:
    mass = _mass_of(sizes)
    if mass <= 1:
        return 0
    move = _choice(sizes)[1]
    return mass + sum(_total(k) for k in _children_sizes(sizes, move))


def cross_total(x: int, y: int) -> int:
    """Guesses summed over all x * y pairs."""
    return _total(((x, y),)) if x and y else 0


def play(xs: Sequence[int], ys: Sequence[int],
         weigh: Callable[[Sequence[int], Sequence[int]], int]) -> tuple[int, int]:
    """(ip, iq) found by weighing (``weigh(A', B')`` reads [ip in A'] + [iq in B'])."""
    rects: list[Rect] = [(list(xs), list(ys))]
    while _mass(rects) > 1:
        move = _choice(_sizes(rects))[1]
        weighed, children = _split(rects, move)
        rects = children[weigh(*weighed)]
    (a, b), = rects
    return a[0], b[0]


__all__ = ["cross_total", "cross_worst", "play"]
