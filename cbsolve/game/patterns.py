"""Guess patterns: a code up to symbol and position permutations is the multiset of its symbol
multiplicities (a partition of N into at most D parts, largest first).

Place in the data flow: Variant -> **patterns** -> :mod:`cbsolve.game.symmetry` (the orbits of the
first guess, without enumerating N! position maps) and :mod:`cbsolve.bounds` (first-guess
partitions in closed form, one pattern at a time). Distinct-symbol games have one pattern,
``(1,)*N``.

>>> guess_patterns(Variant.preset("mastermind"))
[(4,), (3, 1), (2, 2), (2, 1, 1), (1, 1, 1, 1)]
>>> pattern_code((2, 1, 1)), pattern_of((5, 3, 5, 0))
((0, 0, 1, 2), (2, 1, 1))
"""
from __future__ import annotations

from .variant import Variant


def guess_patterns(variant: Variant) -> list[tuple[int, ...]]:
    """Patterns of the variant's guesses: partitions of N into at most D parts, largest first."""
    n, d = variant.length, variant.n_symbols
    if not variant.repeats:
        return [(1,) * n]
    out: list[tuple[int, ...]] = []

    def rec(rest: int, largest: int, prefix: tuple[int, ...]) -> None:
        if rest == 0:
            out.append(prefix)
            return
        if len(prefix) == d:
            return
        for part in range(min(rest, largest), 0, -1):
            rec(rest - part, part, prefix + (part,))

    rec(n, n, ())
    return out


def count_patterns(n: int, d: int) -> int:
    """Number of partitions of n into at most d parts (how many patterns a repeats game has)."""
    table = [[0] * (d + 1) for _ in range(n + 1)]
    for j in range(d + 1):
        table[0][j] = 1
    for i in range(1, n + 1):
        for j in range(1, d + 1):
            table[i][j] = table[i][j - 1] + (table[i - j][j] if i >= j else 0)
    return table[n][d]


def pattern_code(pattern: tuple[int, ...]) -> tuple[int, ...]:
    """A representative guess of a pattern: symbol 0 repeated m_0 times, then symbol 1, ..."""
    return tuple(sym for sym, m in enumerate(pattern) for _ in range(m))


def pattern_of(code) -> tuple[int, ...]:
    """The pattern (sorted symbol multiplicities) of a code."""
    counts: dict[int, int] = {}
    for s in code:
        counts[int(s)] = counts.get(int(s), 0) + 1
    return tuple(sorted(counts.values(), reverse=True))
