"""The partition bound two guesses deep for large spaces: second guesses up to symmetry.

Place in the data flow: :func:`cbsolve.bounds.compute_bounds` calls it where the plain two-level
bound of :mod:`.adaptive` stops for size (it scores every code as a second guess).

The argument is that of :func:`.adaptive.scorer_bound` with ``deep=True``: for each first guess
(one per symmetry class) and each of its reply classes M, the best second guess splits M into
classes whose counting bounds give a lower bound for M. The maps of positions and symbols that
fix the first guess map M onto itself and carry the partition of M by a guess g onto the
partition by its image, class sizes unchanged; so the best second guess is found among one
guess per orbit of that stabiliser (:meth:`cbsolve.game.symmetry.Symmetry.guess_representatives`).
The work is (first-guess classes) x (second-guess orbits) x S pair scorings instead of x S^2.
"""
from __future__ import annotations

import numpy as np

from ..game.codes import CodeSpace
from ..runtime.deadline import Deadline
from ..game.scoring import pack, score_against
from ..game.symmetry import Symmetry
from ..game.variant import Variant
from .adaptive import PartitionBound, _lookups, _second_level, first_guess_representatives

#: Largest space handled (the evaluator's limit: beyond it the codes are not listed).
SECOND_LEVEL_LIMIT = 1_000_000
METHOD = "partition (two guesses deep, scorer, second guesses up to symmetry)"


def second_level_bound(variant: Variant, responses: int,
                       deadline: Deadline | None = None) -> PartitionBound | None:
    """The two-level partition bound, or None when ``deadline`` expired first.

    First guesses are tried in the order of their one-level bounds; a first guess is dropped
    as soon as the one-level bounds of its classes not yet refined show it can beat the best
    first guess so far on neither objective (ties go to the lowest representative, as in
    :func:`.adaptive.scorer_bound`), so the answer is that of refining every class."""
    space = CodeSpace(variant)
    codes = space.codes
    secrets = len(codes)
    packed = pack(variant, codes)
    symmetry = Symmetry(variant)
    win = variant.win_response
    wl, tl = _lookups(secrets, responses)
    firsts = []       # (one-level total, one-level worst, representative, its classes)
    for rep in first_guess_representatives(variant, codes).tolist():
        replies = score_against(variant, codes[rep], packed)
        order = np.argsort(replies, kind="stable")
        cuts = np.flatnonzero(np.diff(replies[order])) + 1
        classes = [m for m in np.split(order, cuts) if replies[m[0]] != win]
        classes.sort(key=len, reverse=True)        # the largest decide the worst case
        firsts.append((secrets + sum(int(tl[len(m)]) for m in classes),
                       1 + max((int(wl[len(m)]) for m in classes), default=0), rep, classes))
    firsts.sort(key=lambda f: (f[0], f[1], f[2]))
    best_w = best_t = (np.inf, np.inf)              # (value, representative)
    for _, _, rep, classes in firsts:
        second = symmetry.guess_representatives([tuple(int(x) for x in codes[rep])],
                                                deadline=deadline)
        if second is None:
            return None
        guesses = pack(variant, codes[second])
        worst, total = 1, secrets + sum(int(tl[len(m)]) for m in classes)
        for i, members in enumerate(classes):
            # the classes not refined yet count with their one-level bounds
            rest_w = 1 + max((int(wl[len(m)]) for m in classes[i:]), default=0)
            if (max(worst, rest_w), rep) > best_w and (total, rep) > best_t:
                break
            if deadline is not None and deadline.expired():
                return None
            if len(members) == 1:
                continue
            w2, t2 = _refine(variant, guesses, codes[members], win, wl, tl, deadline)
            if w2 is None:
                return None
            worst = max(worst, 1 + w2)
            total += t2 - int(tl[len(members)])
        else:
            best_w = min(best_w, (worst, rep))
            best_t = min(best_t, (total, rep))
    return PartitionBound(int(best_w[0]), int(best_t[0]), METHOD, space.format(codes[best_w[1]]),
                          space.format(codes[best_t[1]]))


def _refine(variant, guesses, members, win, wl, tl, deadline) -> tuple[int | None, int | None]:
    """:func:`.adaptive._second_level` over chunks of the second guesses (the deadline is
    checked between chunks); (None, None) when it expired."""
    chunk = max(1, CHUNK_PAIRS // len(members))
    worst = total = None
    for start in range(0, len(guesses), chunk):
        if deadline is not None and deadline.expired():
            return None, None
        part = pack(variant, guesses.codes[start:start + chunk])
        w, t = _second_level(variant, part, members, win, wl, tl)
        worst = w if worst is None else min(worst, w)
        total = t if total is None else min(total, t)
    return worst, total


#: Pair scorings per chunk of second guesses (about 0.1 s).
CHUNK_PAIRS = 50_000_000
