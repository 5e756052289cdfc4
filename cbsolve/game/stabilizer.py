"""The stabiliser of a history for long codes, from its column classes, never from N! maps.

Place in the data flow: Variant -> **stabilizer** -> :mod:`cbsolve.game.symmetry` (orbits of guesses)
-> strategies, bounds, exact search.

:class:`cbsolve.game.symmetry.Symmetry` lists every position permutation while there are at most
:data:`LISTED_POSITION_MAPS` of them (8 positions). Past that, listing is what broke the limits:
14 positions are 87 billion maps (the kernel killed ``bounds`` on Mastermind 14x2 for memory).
This module builds, from the history alone, generators of a subgroup of the stabiliser:

* the *column* of position i is the tuple of symbols the history's guesses hold there; two
  positions with the same column may be swapped (symbols unchanged): the adjacent swaps of
  each column class generate all of them;
* two column classes of one size may be exchanged (their positions paired in order) when the
  symbol map this forces (column of one onto column of the other, and every other column onto
  itself) is a bijection: for a single guess this exchanges two symbols played equally often,
  so for one guess (and the empty history) the generators give the whole stabiliser.

A subgroup is always sound for the searches (orbits may only be finer: more guesses tried,
none wrongly skipped). With no leading zero, position 0 and symbol 0 stay fixed, as in
:mod:`cbsolve.game.symmetry`.

>>> from cbsolve.game.variant import Variant
>>> v = Variant.from_options("mastermind", length=5, digits=2)
>>> [p for p, _ in column_generators(v, [(0, 0, 0, 1, 1)])]
[(1, 0, 2, 3, 4), (0, 2, 1, 3, 4), (0, 1, 2, 4, 3)]
>>> len(closure(identity(v, [(0, 0, 0, 1, 1)]), column_generators(v, [(0, 0, 0, 1, 1)]), 100))
12
"""
from __future__ import annotations

from collections.abc import Sequence

from .variant import Variant

#: Position permutations :class:`cbsolve.game.symmetry.Symmetry` lists in full (8!).
LISTED_POSITION_MAPS = 40_320

Element = tuple[tuple[int, ...], dict]          # (pos_perm, {played symbol: image})


def fixed_symbols(variant: Variant, history: Sequence[Sequence[int]]) -> set[int]:
    """The symbols a map must send into themselves: those played, and 0 with no leading zero."""
    used = {int(x) for h in history for x in h}
    if variant.no_leading_zero:
        used.add(0)
    return used


def identity(variant: Variant, history: Sequence[Sequence[int]]) -> Element:
    """The map that moves nothing."""
    return tuple(range(variant.length)), {s: s for s in fixed_symbols(variant, history)}


def column_classes(variant: Variant, history: Sequence[Sequence[int]]) -> list[list[int]]:
    """Positions grouped by their column (increasing positions, classes by first position);
    with no leading zero position 0 is a class of its own that no map moves."""
    by_column: dict[tuple[int, ...], list[int]] = {}
    start = 1 if variant.no_leading_zero else 0
    for i in range(start, variant.length):
        by_column.setdefault(tuple(int(h[i]) for h in history), []).append(i)
    classes = sorted(by_column.values(), key=lambda c: c[0])
    return ([[0]] if variant.no_leading_zero else []) + classes


def column_generators(variant: Variant, history: Sequence[Sequence[int]]) -> list[Element]:
    """Generators of a subgroup of the stabiliser of ``history`` (see the module's docstring):
    the adjacent swaps inside each column class, then the valid exchanges of two classes."""
    history = [tuple(int(x) for x in h) for h in history]
    n = variant.length
    unmoved = identity(variant, history)[1]
    classes = column_classes(variant, history)
    movable = classes[1:] if variant.no_leading_zero else classes
    out: list[Element] = []
    for members in movable:
        for a, b in zip(members, members[1:], strict=False):
            perm = list(range(n))
            perm[a], perm[b] = b, a
            out.append((tuple(perm), dict(unmoved)))
    for x, first in enumerate(movable):
        for second in movable[x + 1:]:
            if len(first) == len(second):
                found = _exchange(n, history, first, second, unmoved, variant.no_leading_zero)
                if found is not None:
                    out.append(found)
    return out


def _exchange(n, history, first, second, unmoved, keep_zero: bool) -> Element | None:
    """The map exchanging two column classes position by position, or None when the symbol
    map it forces is not a bijection of the fixed symbols (or moves symbol 0, ``keep_zero``)."""
    perm = list(range(n))
    for a, b in zip(first, second, strict=True):
        perm[a], perm[b] = b, a
    # image[i] = sigma[x[perm[i]]] fixes guess h when sigma[h[perm[i]]] = h[i] at every i
    forced: dict[int, int] = {}
    for i in range(n):
        for h in history:
            if forced.setdefault(h[perm[i]], h[i]) != h[i]:
                return None
    if keep_zero and forced.get(0, 0) != 0:
        return None
    sigma = {**unmoved, **forced}
    if len(set(sigma.values())) != len(sigma):
        return None
    return tuple(perm), sigma


def compose(outer: Element, inner: Element) -> Element:
    """``outer`` after ``inner``: image[i] = s_o[s_i[x[p_i[p_o[i]]]]]."""
    (p_o, s_o), (p_i, s_i) = outer, inner
    return tuple(p_i[j] for j in p_o), {k: s_o.get(v, v) for k, v in s_i.items()}


def closure(identity: Element, generators: Sequence[Element], cap: int) -> list[Element]:
    """The elements the generators generate, identity first, at most ``cap`` of them (a prefix
    of a breadth-first listing when the group is larger: then not a group, but every element
    is still a map of the stabiliser, which is all a lowest-image search needs)."""
    seen = {_key(identity)}
    out, frontier = [identity], [identity]
    while frontier and len(out) < cap:
        step = []
        for element in frontier:
            for g in generators:
                new = compose(g, element)
                key = _key(new)
                if key not in seen:
                    seen.add(key)
                    out.append(new)
                    step.append(new)
                    if len(out) >= cap:
                        return out
        frontier = step
    return out


def _key(element: Element):
    return element[0], tuple(sorted(element[1].items()))


__all__ = ["LISTED_POSITION_MAPS", "closure", "column_classes", "column_generators", "compose",
           "fixed_symbols", "identity"]
