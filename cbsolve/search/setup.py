"""The exact searches' set-up, shared by both objectives: the plan under the default budget,
the reply matrix built within the deadline (or None: replies scored on the fly), and a guess's
replies read from whichever the set-up left.

Place in the data flow: checked options (:mod:`.options`) -> **set-up** (this module, on
:mod:`.memory` for the budget and :mod:`.reply_matrix` for the stoppable matrix) -> the
kernels (``worst.kernel``, ``expected.search``). A stop during the set-up is kept as a
:class:`~.reply_matrix.SetupStopped`; nothing half-built is read, and the driver reports the
counting bound without searching.
"""
from __future__ import annotations

import numpy as np

from ..runtime.deadline import Deadline
from ..game.scoring import score_matrix
from ..game.variant import Variant
from . import memory, reply_matrix
from .options import MEMO_ENTRIES


def default_plan(variant: Variant, n: int, objective: str, workers: int,
                 memo_entries: int = MEMO_ENTRIES) -> memory.Plan:
    """The plan under the default budget (--memory-budget, $CBSOLVE_MEMORY_BUDGET), for a
    search built without checked options (a position's search, the Dask workers)."""
    return memory.check(variant.describe(), n, objective, memory.budget(), max(1, workers),
                        "auto", memo_entries)


def matrix_within(variant: Variant, codes: np.ndarray, plan: memory.Plan,
                  deadline: Deadline | None
                  ) -> tuple[np.ndarray | None, reply_matrix.SetupStopped | None]:
    """(the reply matrix, None) when the plan reads it and it was built before ``deadline``
    (or Ctrl-C); (None, why it stopped) when it was not; (None, None) on the fly."""
    if plan.source != memory.MATRIX:
        return None, None
    try:
        return reply_matrix.build(variant, codes, deadline), None
    except reply_matrix.SetupStopped as stop:
        return None, stop


def replies_of(variant: Variant, codes: np.ndarray, matrix: np.ndarray | None, guess: int,
               members: np.ndarray | None = None) -> np.ndarray:
    """Reply indices of ``guess`` to ``members`` (default: every code): the matrix's row, or
    scored on the fly."""
    if matrix is not None:
        return matrix[guess] if members is None else matrix[guess][members]
    secrets = codes if members is None else codes[members]
    return score_matrix(variant, codes[[int(guess)]], secrets)[0]
