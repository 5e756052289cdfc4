"""The expected-case kernel as the driver sees it: the native core
(cbsolve/_native/search_expected.cpp), its infinities and switches, and the driver's small
types (a reply class of a first guess, the two ways a search is left early).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import Expired
from ...game.scoring import possible_responses
from ...runtime.status import StopReason
from ...game.variant import Variant

INF_T = 1 << 60
INF_W = 1 << 20
#: Pruning switches of the native core (all on by default); tests turn them off to compare.
OPTIONS = ("memo", "obvious", "dedup", "unplayed", "candfirst", "lookahead", "refine", "stabiliser",
           "branching")
#: Every pruning ``prune`` can switch off: the core's and the symmetry reduction.
PRUNINGS = ("symmetry", *OPTIONS)


def _replies(resp: np.ndarray) -> np.ndarray:
    """The distinct replies in ``resp`` (uint8), ascending; np.unique would import numpy.ma
    (8 ms of start-up) and sort."""
    return np.flatnonzero(np.bincount(resp))


class _Abandoned(Expired):
    """Ctrl-C reached the driver: leave without building a tree."""

    def __init__(self) -> None:
        super().__init__("the search was interrupted", StopReason.INTERRUPTED)


class _NoGreedyTree(Exception):
    """The greedy strategy breaks the depth cap on this set (it has no tree within it)."""


@dataclass
class _Class:
    """One reply class of a first guess: a subproblem solved exactly (or refuted)."""

    response: int
    members: np.ndarray       # sorted code indices (int32)
    lower: tuple[int, int]    # proved lower bound (total, worst)
    exact: bool = False



def new_solver(variant: Variant, codes: np.ndarray, matrix: np.ndarray | None,
               cand_only: bool = False, depth: int = 0, memo_entries: int = 10**5,
               weights: list[int] | None = None, table_bytes: int = 0):
    """The native core over ``codes`` (all of the game's): from the reply ``matrix``, whose
    transposed copy ``prepare()`` must then build (:func:`reply_matrix.prepare`), or scoring
    on the fly (None)."""
    from ..._native.search_expected import Solver

    possible = possible_responses(variant)
    return Solver(matrix, codes, variant.n_symbols, 1 if variant.no_leading_zero else 0,
                  variant.response_slots, variant.win_response, max(len(possible) - 1, 1),
                  cand_only, depth, memo_entries, weights or [], repeats=variant.repeats,
                  bulls_only=variant.bulls_only,
                  responses=[variant.response_index(b, c) for b, c in possible],
                  table_bytes=int(table_bytes))

