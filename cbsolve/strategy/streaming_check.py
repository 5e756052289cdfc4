"""An independent replay of a streaming strategy against every secret.

Place in the data flow: the check behind an atlas cell whose upper end is a streaming
evaluation (:mod:`cbsolve.strategy.streaming`). The native kernel only names the guess it makes
at each class (``choose_at``: the strategy itself); everything the claimed numbers rest on is
done here, apart from the kernel's bookkeeping: each class is split by the NumPy reference
scorer (:func:`cbsolve.game.scoring.score_against`), the secret a guess hits is counted as solved at
that guess, and the depth histogram is summed again. It must equal the evaluation's histogram.
This is to a streaming strategy what :func:`cbsolve.certificates.certify.verify` is to a stored tree: the
strategy may be anything, only its claimed worst case, total and histogram are checked.

Cost: one kernel call and one NumPy scoring a class of three secrets or more. A class of one or
two is played by the recipe's stated rule (its lowest code, then the other) without asking.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..runtime.deadline import Deadline
from ..game.scoring import score_against
from ..runtime.status import StopReason
from ..game.variant import Variant
from .streaming import Recipe, _check_space, _engine, resolve_first

#: A class still unsolved after this many guesses means the strategy does not finish.
MAX_GUESSES = 60


@dataclass
class ReplayCheck:
    """The histogram an independent replay found (None when the deadline cut it)."""

    secrets: int
    histogram: dict[int, int] | None
    classes: int
    seconds: float
    stop: StopReason | None = None

    @property
    def complete(self) -> bool:
        return self.histogram is not None

    @property
    def worst(self) -> int | None:
        return None if self.histogram is None else max(self.histogram)

    @property
    def total(self) -> int | None:
        return None if self.histogram is None else sum(k * v for k, v in self.histogram.items())


def replay_every_secret(variant: Variant, recipe: Recipe,
                        deadline: Deadline | None = None) -> ReplayCheck:
    """Play ``recipe``'s strategy against every secret of ``variant`` with the kernel naming the
    guesses and this module scoring and counting; stops (histogram None) at ``deadline``."""
    deadline = Deadline.given(deadline)
    space = _check_space(variant)
    recipe = resolve_first(variant, recipe)
    engine = _engine(variant, recipe, space)
    start = time.perf_counter()
    histogram: dict[int, int] = {}
    pending = [(0, np.arange(space.size, dtype=np.uint32))]   # (guesses made, class)
    classes = 0
    while pending:
        if deadline.expired():
            return ReplayCheck(space.size, None, classes, time.perf_counter() - start,
                               deadline.reason())
        depth, members = pending.pop()
        if depth >= MAX_GUESSES:
            raise RuntimeError(f"the strategy leaves {members.size} secrets unsolved after "
                               f"{MAX_GUESSES} guesses")
        classes += 1
        if depth > 0 and members.size <= 2:    # the recipe's rule: the lowest code, then the other
            for k in range(members.size):
                histogram[depth + 1 + k] = histogram.get(depth + 1 + k, 0) + 1
            continue
        guess = int(engine.choose_at(depth, members))
        replies = score_against(variant, space.code_at(guess), space.codes_at(members),
                               backend="numpy")
        hit = members == guess
        if hit.any():
            histogram[depth + 1] = histogram.get(depth + 1, 0) + 1
        rest, rest_replies = members[~hit], replies[~hit]
        order = np.argsort(rest_replies, kind="stable")    # each class stays ascending
        rest, rest_replies = rest[order], rest_replies[order]
        bounds = np.flatnonzero(np.diff(rest_replies)) + 1
        for part in np.split(rest, bounds):
            if part.size == members.size:
                raise RuntimeError(f"guess {space.format(space.code_at(guess))} does not split "
                                   f"a class of {members.size} secrets after {depth} guesses")
            if part.size:
                pending.append((depth + 1, part))
    return ReplayCheck(space.size, dict(sorted(histogram.items())), classes,
                       time.perf_counter() - start)

