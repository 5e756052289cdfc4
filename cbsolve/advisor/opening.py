"""The first guess of any game, at once: one guess per symmetry class, scored in closed form.

Place in the data flow: Variant -> the guess patterns and their partitions of the whole space
in closed form (:mod:`cbsolve.bounds.partition`) -> the heuristic's choice among them. No code
is enumerated and no secret scored, so the opening of Bulls & Cows 6/10, Logik 5x8 or
Mastermind 8x8 (16.7 M codes) costs milliseconds.

Under the permutations of positions and symbols every opening of a distinct-symbol game is
equivalent (one pattern); with repeats the openings fall into one class per partition of N
into at most D parts (Mastermind 4x6: five, 1111 1112 1122 1123 1234; Knuth 1977 compared the
same five). Each class is represented by its lowest code, and every opening is a candidate
(the space is every code), so the choice, ties included (best score, then the lowest code),
is the one the heuristic kernel makes over every code (the tests compare them).

Variants with no leading zero break the symbol symmetry and have no closed form: None.
"""
from __future__ import annotations

import math

from ..bounds.partition import first_guess_partition, repeats_work
from ..game.codes import CodeSpace
from ..game.patterns import pattern_code, pattern_of
from ..game.rule import possible_responses
from ..game.variant import Variant
from ..strategy.partition import Partition, best_of_sums, class_summary, row_sums, scores_of_sums
from ..bounds import adaptive
from ..game import patterns


def _key(strategy: str, sizes: list[int]):
    """The heuristic's score of a partition (lower is better), as the native kernel orders it."""
    if strategy == "minimax":
        return max(sizes)
    if strategy == "expected":
        return sum(s * s for s in sizes)
    if strategy == "entropy":     # sum n log2 n; fsum of sorted terms: equal multisets tie
        return math.fsum(sorted(s * math.log2(s) for s in sizes if s > 1))
    if strategy == "parts":
        return -len(sizes)
    raise ValueError(f"no closed-form opening for strategy {strategy!r}")


#: Most work (:func:`cbsolve.bounds.partition.repeats_work`, summed over the patterns) scored
#: in closed form: Mastermind 8x8 (22 patterns) is 4.9e6, 0.5 s on the loaded 2-core machine;
#: 10x10 (42 patterns, 9e7) took 5.6 s and 12 of 26 letters (77, 1.5e9) 45 s. Beyond it the
#: opening is chosen by :func:`rule_opening`, labelled so.
OPENING_WORK = 6_000_000


def rule_opening(variant: Variant) -> tuple[int, ...]:
    """The cheap rule for a game too large to score every pattern: symbols in pairs, as evenly
    as the alphabet allows (Knuth's 1122 on Mastermind 4x6; minimax's own choice on 6x9 and
    8x8, 112233 and 11223344). Distinct games have one pattern."""
    n, d = variant.length, variant.n_symbols
    if not variant.repeats:
        return tuple(range(n))
    k = min(d, (n + 1) // 2)
    pattern = tuple(sorted((n // k + (i < n % k) for i in range(k)), reverse=True))
    return tuple(pattern_code(pattern))


def opening(variant: Variant, strategy: str
            ) -> tuple[tuple[int, ...], list[int], tuple[int, int]] | None:
    """(the opening's code as symbol indices, its class sizes, the game's one-level partition
    bound (worst, total) over every opening pattern, as ``bounds`` proves it in closed form)
    for a scored heuristic, or None when there is no closed form (no leading zero, an unscored
    strategy) or it would take too long (more than :data:`OPENING_WORK`: then
    :func:`rule_opening`)."""
    if variant.no_leading_zero or strategy not in ("minimax", "expected", "entropy", "parts"):
        return None
    patterns = _patterns(variant)
    if patterns is None:
        return None
    if variant.repeats:
        work = 0
        for p in patterns:
            work += repeats_work(p)
            if work > OPENING_WORK:
                return None
    responses = len(possible_responses(variant))
    best = low = None
    for pattern in patterns:
        classes = first_guess_partition(variant, pattern)
        sizes = [s for s in classes.values() if s]
        # every opening is some pattern's: the least bound over them holds for the game
        w, t = adaptive.bound_of_partition(classes, variant, responses, sum(sizes))
        low = (w, t) if low is None else (min(low[0], w), min(low[1], t))
        code = tuple(pattern_code(pattern))
        key = (_key(strategy, sizes), code)
        if best is None or key < best[0]:
            best = (key, code, sizes)
    return best[1], best[2], low


def _patterns(variant: Variant) -> list[tuple[int, ...]] | None:
    """The variant's guess patterns, or None when their closed forms cost more than
    :data:`OPENING_WORK` on their count alone (each costs at least N(N+1)): 64 of 26 letters
    has 1.6 million patterns, seconds to list."""
    n = variant.length
    if not variant.repeats:
        return [(1,) * n]
    if patterns.count_patterns(n, variant.n_symbols) * n * (n + 1) > OPENING_WORK:
        return None
    return patterns.guess_patterns(variant)


def opening_partition(variant: Variant, code):
    """The partition of the whole space by the opening ``code`` (symbol indices) in closed
    form, with the scores' best over every opening (:class:`cbsolve.strategy.partition.
    Partition`, classes without members); None when there is no closed form or it would take
    too long."""
    if variant.no_leading_zero:
        return None
    patterns = _patterns(variant)
    every = patterns is not None and (
        not variant.repeats or sum(repeats_work(p) for p in patterns) <= OPENING_WORK)
    if not every:     # too many patterns to compare (10x10): the guess's own, if it fits
        patterns = [pattern_of(code)]
        if repeats_work(patterns[0]) > OPENING_WORK:
            return None
    slots = variant.response_slots
    rows = []
    for p in patterns:
        row = [0] * slots
        for (b, c), size in first_guess_partition(variant, p).items():
            row[variant.response_index(b, c)] = size
        rows.append(row)
    n = sum(rows[0])
    sums = [row_sums(row) for row in rows]
    mine = patterns.index(pattern_of(code))
    classes = [{"reply": variant.format_response(r), "count": int(n), "members": []}
               for r, n in enumerate(rows[mine]) if n]
    return Partition(guess=CodeSpace(variant).format(code), candidates=sum(rows[mine]), candidate=True,
                     classes=classes, scores=scores_of_sums(n, *sums[mine]),
                     best=best_of_sums(n, sums) if every else None, best_complete=every)


def rule_summary(variant: Variant, code) -> dict:
    """The partition summary of the rule's opening ``code`` in closed form (its one pattern),
    or {} when even that would take too long."""
    pattern = pattern_of(code)
    if variant.repeats and repeats_work(pattern) > OPENING_WORK:
        return {}
    return class_summary(first_guess_partition(variant, pattern).values())
