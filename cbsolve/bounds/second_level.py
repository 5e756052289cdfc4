"""The partition bound two guesses deep for large spaces: second guesses up to symmetry.

Place in the data flow: :func:`cbsolve.bounds.compute_bounds` calls it where the plain two-level
bound of :mod:`.adaptive` stops for size (it scores every code as a second guess).

The argument is that of :func:`.adaptive.scorer_bound` with ``deep=True``: for each first guess
(one per symmetry class) and each of its reply classes M, the best second guess splits M into
classes whose counting bounds give a lower bound for M. The maps of positions and symbols that
fix the first guess map M onto itself and carry the partition of M by a guess g onto the
partition by its image, class sizes unchanged; so the best second guess is found among one
guess per orbit of that stabiliser (:meth:`cbsolve.symmetry.Symmetry.guess_representatives`).
The work is (first-guess classes) x (second-guess orbits) x S pair scorings instead of x S^2.
"""
from __future__ import annotations

import numpy as np

from ..codes import CodeSpace
from ..deadline import Deadline
from ..scoring import pack, score_against
from ..symmetry import Symmetry
from ..variant import Variant
from .adaptive import PartitionBound, _lookups, _second_level, first_guess_representatives

#: Largest space handled (the evaluator's limit: beyond it the codes are not listed).
SECOND_LEVEL_LIMIT = 1_000_000
METHOD = "partition (two guesses deep, scorer, second guesses up to symmetry)"


def second_level_bound(variant: Variant, responses: int,
                       deadline: Deadline | None = None) -> PartitionBound | None:
    """The two-level partition bound, or None when ``deadline`` expired first."""
    space = CodeSpace(variant)
    codes = space.codes
    secrets = len(codes)
    packed = pack(variant, codes)
    symmetry = Symmetry(variant)
    win = variant.win_response
    wl, tl = _lookups(secrets, responses)
    per_guess = []  # (worst, total, first guess) for each first guess
    for rep in first_guess_representatives(variant, codes).tolist():
        replies = score_against(variant, codes[rep], packed)
        second = symmetry.guess_representatives([tuple(int(x) for x in codes[rep])],
                                                deadline=deadline)
        if second is None:
            return None
        guesses = pack(variant, codes[second])
        classes = []  # (worst, total) lower bounds of each non-win class
        for r in np.unique(replies).tolist():
            if deadline is not None and deadline.expired():
                return None
            members = np.flatnonzero(replies == r)
            if r == win:
                continue
            if len(members) == 1:
                classes.append((int(wl[1]), int(tl[1])))
            else:
                classes.append(_second_level(variant, guesses, codes[members], win, wl, tl))
        per_guess.append((1 + max((w for w, _ in classes), default=0),
                          secrets + sum(t for _, t in classes), rep))
    worst = min(per_guess, key=lambda x: x[0])     # first minimum: the lowest representative
    total = min(per_guess, key=lambda x: x[1])
    return PartitionBound(worst[0], total[1], METHOD, space.format(codes[worst[2]]),
                          space.format(codes[total[2]]))
