"""The position service's sizes and shares as data: what a face or a test passes to
:class:`~.service.PositionService` instead of changing module constants. The defaults are the
measured ones; a test makes them small to reach a large game's path on a small one.

Place in the data flow: a face (or a test) -> :class:`AdviceOptions` -> the service's
collaborators (:mod:`.listing`, :mod:`.heuristic_advice`, :mod:`.sampled`, :mod:`.classes`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..runtime import time_policy


@dataclass(frozen=True)
class SampledShape:
    """The sampled choice (:mod:`.sampled`) on spaces over ``codes`` codes."""

    #: Spaces with more codes than this are scored on a sample (the NumPy symmetry classes
    #: stop at :data:`.choose.SYMMETRY_CODES`; the native ones are asked when they fit).
    codes: int = 1_000_000
    #: Secrets of the random sample the pool is ranked on (the sample's class shares are
    #: within a few percent of the true ones: enough to put the good guesses first).
    sample: int = 1024
    #: The pool: up to this many candidates (each may be the secret), then this many codes
    #: spread evenly over the space.
    pool_candidates: int = 65_536
    pool_spread: int = 65_536


SAMPLED = SampledShape()


@dataclass(frozen=True)
class AdviceOptions:
    """Sizes and shares of one service's advice."""

    sampled: SampledShape = field(default_factory=SampledShape)
    #: Codes filtered a chunk at a time while listing the secrets a log leaves (the deadline
    #: is looked at between chunks; None: :data:`cbsolve.consistency.native.FILTER_CHUNK`).
    filter_chunk: int | None = None
    #: Spaces over this many codes: the symmetry classes from the native union-find (None:
    #: :data:`cbsolve.game.symmetry.NATIVE_ORBITS_FROM`).
    native_orbits_from: int | None = None
    #: The symmetry classes' cost a code, tried only when it fits the deadline.
    classes_seconds_per_code: float = time_policy.ADVICE_CLASSES_SECONDS_PER_CODE
    #: A review asks the certified tree for a position's optimum when it has more than this
    #: many candidates: below, the exact solve of the optimum ends well within a move's budget
    #: (Bulls & Cows 4/10 at load 7: 128 candidates, 0.16 s for both objectives; 284, 0.6 s;
    #: 369-378, 8-10 s), and loading and replaying the two trees once takes about 2.5 s, which
    #: came out of the budget of the first move that asked them.
    review_tree_from: int = 250


ADVICE = AdviceOptions()
