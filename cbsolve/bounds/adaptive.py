"""Partition-based lower bounds on adaptive strategies, one or two guesses deep.

Place in the data flow: closed-form partitions (:mod:`cbsolve.bounds.partition`) or the native
scorer -> here -> :func:`cbsolve.bounds.compute_bounds`.

Whatever the first guess g, the secrets split into classes by their reply to g. A class C of the
reply that is not the win still needs a whole sub-strategy, so (counting bounds of
:mod:`cbsolve.game.capacity` applied to each class, as Knuth 1977 reasoned about first guesses)

    worst >= min_g max_C (1 + worst_lower(|C|))         (the win class costs exactly 1)
    total >= |S| + min_g sum_{C non-win} total_lower(|C|)

and the minimum runs over one guess per symmetry class (a *pattern*), since symbol and position
permutations map strategies to strategies. Two levels deep the same argument is applied to every
class C of every first guess with the best second guess chosen among all codes, reading the
second partitions off the native scorer; that is done only when the space is small enough.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..game.capacity import total_lower, worst_lower
from ..game.codes import CodeSpace
from ..game.patterns import count_patterns, guess_patterns, pattern_code
from ..game.variant import Variant
from .cutoff import check
from .partition import first_guess_partition, repeats_work

#: Work allowed for the closed-form dynamic programme of the repeats case (see repeats_work).
CLOSED_FORM_WORK = 4_000_000
#: Pair scorings allowed for the two-level bound (first-guess representatives x |S| x |S|).
DEEP_PAIRS = 2_000_000_000


@dataclass
class PartitionBound:
    worst: int
    total: int
    method: str
    best_worst: str      # the first guess (pattern or code) attaining the worst bound
    best_total: str


def closed_form_feasible(variant: Variant) -> tuple[bool, str]:
    """Whether the closed-form partitions are available and cheap for this variant (and why not)."""
    if variant.no_leading_zero:
        return False, "no closed form for no-leading-zero variants"
    if not variant.repeats:
        return True, ""
    n, d = variant.length, variant.n_symbols
    patterns = count_patterns(n, d)
    if patterns > 2000:
        return False, f"{patterns} guess patterns for N={n}, D={d} (closed forms limited to 2000)"
    # Always estimated (microseconds): coefficients cached for other patterns say nothing
    # about these, and skipping the estimate let a long-lived process start N = 20's.
    work = sum(repeats_work(p) for p in guess_patterns(variant))
    if work > CLOSED_FORM_WORK * 50:
        return False, f"closed-form coefficients for N={n} too costly (estimated {work:.2e} steps)"
    return True, ""


def bound_of_partition(sizes: dict, variant: Variant, responses: int, secrets: int) -> tuple[int, int]:
    """(worst, total) lower bounds when the first guess splits the secrets into ``sizes``."""
    win = (variant.length, 0)
    worst, total = 1, secrets
    for key, size in sizes.items():
        if key == win or size == 0:
            continue
        worst = max(worst, 1 + worst_lower(size, responses))
        total += total_lower(size, responses)
    return worst, total


def closed_form_bound(variant: Variant, responses: int, secrets: int) -> PartitionBound:
    """One-level partition bound from the closed forms, minimised over every guess pattern."""
    best_w = best_t = None
    for pattern in guess_patterns(variant):
        w, t = bound_of_partition(first_guess_partition(variant, pattern), variant, responses,
                                  secrets)
        if best_w is None or w < best_w[0]:
            best_w = (w, pattern)
        if best_t is None or t < best_t[0]:
            best_t = (t, pattern)
    assert best_w is not None and best_t is not None
    return PartitionBound(best_w[0], best_t[0], "partition (first guess, closed form)",
                          _pattern_text(best_w[1]), _pattern_text(best_t[1]))


def _pattern_text(pattern) -> str:
    return "pattern " + "+".join(str(m) for m in pattern)


# --- scorer-based bounds (small spaces) -----------------------------------------------------
def first_guess_representatives(variant: Variant, codes):
    """Indices into ``codes`` of one first guess per symmetry class of the variant."""
    import numpy as np

    if not variant.no_leading_zero:
        space = CodeSpace(variant)
        return np.array([space.index_of(pattern_code(p)) for p in guess_patterns(variant)])
    # Symmetries fixing position 1 and symbol 0: the orbit of g is fixed by the multiplicity of
    # g[0] among the other positions, that of symbol 0, and the multiset of the others.
    seen: dict[tuple, int] = {}
    for i, code in enumerate(codes.tolist()):
        head, rest = code[0], code[1:]
        others = sorted((rest.count(s) for s in set(rest) if s not in (0, head)), reverse=True)
        seen.setdefault((rest.count(head), rest.count(0), tuple(others)), i)
    return np.array(sorted(seen.values()))


def scorer_bound(variant: Variant, responses: int, deep: bool) -> PartitionBound:
    """Partition bound read off the native scorer: one level, or two when ``deep`` (small spaces)."""
    import numpy as np

    from ..game.scoring import pack, score_against

    space = CodeSpace(variant)
    codes = space.codes
    secrets = len(codes)
    packed = pack(variant, codes)
    reps = first_guess_representatives(variant, codes)
    win = variant.win_response
    wl, tl = _lookups(secrets, responses)
    best_w = best_t = None
    for rep in reps.tolist():
        replies = score_against(variant, codes[rep], packed)
        worst, total = 1, secrets
        for r in np.unique(replies).tolist():
            check()         # the command's deadline (bounds/cutoff.py): a bound is all or none
            if r == win:
                continue
            members = np.flatnonzero(replies == r)
            if deep and len(members) > 1:
                w2, t2 = _second_level(variant, packed, codes[members], win, wl, tl)
            else:
                w2, t2 = int(wl[len(members)]), int(tl[len(members)])
            worst = max(worst, 1 + w2)
            total += t2
        if best_w is None or worst < best_w[0]:
            best_w = (worst, rep)
        if best_t is None or total < best_t[0]:
            best_t = (total, rep)
    assert best_w is not None and best_t is not None
    method = "partition (two guesses deep, scorer)" if deep else "partition (first guess, scorer)"
    return PartitionBound(best_w[0], best_t[0], method, space.format(codes[best_w[1]]),
                          space.format(codes[best_t[1]]))


def _second_level(variant, packed_all, members, win, wl, tl) -> tuple[int, int]:
    """(worst, total) lower bounds for solving ``members`` with the best second guess of all codes."""
    import numpy as np

    from ..game.scoring import partition_counts

    hist = partition_counts(variant, packed_all, members).astype(np.int64)  # (G, slots)
    nonwin = hist.copy()
    nonwin[:, win] = 0
    # worst: a non-empty non-win class of size m needs 1 + wl[m]; the win class costs 1.
    depth = np.where(nonwin > 0, 1 + wl[nonwin], 0).max(axis=1)
    depth = np.maximum(depth, 1)
    total = len(members) + tl[nonwin].sum(axis=1)
    return int(depth.min()), int(total.min())


def _lookups(upto: int, responses: int):
    """``worst_lower(m)`` and ``total_lower(m)`` for m = 0..upto as int64 arrays (vectorised)."""
    import numpy as np

    if responses <= 2 or upto < 64:
        return (np.array([worst_lower(m, responses) for m in range(upto + 1)], dtype=np.int64),
                np.array([total_lower(m, responses) for m in range(upto + 1)], dtype=np.int64))
    caps, full = [0], [0]           # cap(j) and the total of j completely filled levels
    level = 1
    while caps[-1] < upto:
        full.append(full[-1] + len(caps) * level)
        caps.append(caps[-1] + level)
        level *= responses - 1
    m = np.arange(upto + 1, dtype=np.int64)
    k = np.searchsorted(np.array(caps, dtype=np.int64), m, side="left")  # smallest k: cap(k) >= m
    prev = np.array(caps, dtype=np.int64)[np.maximum(k - 1, 0)]
    total = np.array(full, dtype=np.int64)[np.maximum(k - 1, 0)] + k * (m - prev)
    return k.astype(np.int64), total


def deep_feasible(variant: Variant, secrets: int) -> bool:
    reps = 1 if not variant.repeats else count_patterns(variant.length, variant.n_symbols)
    if variant.no_leading_zero:
        reps *= 2 * variant.length
    return reps * secrets * secrets <= DEEP_PAIRS
