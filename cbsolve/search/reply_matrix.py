"""The exact searches' set-up: the n x n reply matrix, built in blocks a time limit can stop.

Place in the data flow: Variant -> CodeSpace -> **reply matrix** (this module, the worst and
expected searches' set-up) -> native search kernels. The matrix of Logik 5x8 is 1 GiB and
takes seconds (its transposed copy, the expected kernel's ``Solver.prepare``, seconds more);
built in one call, it ignored the time limit and Ctrl-C. Here both are built in blocks, and
the time limit, the stop request and Ctrl-C are read between blocks: a stop raises
:class:`SetupStopped`, and the search then reports what a search stopped right after its
set-up reports (the counting bound).
"""
from __future__ import annotations

import time

import numpy as np

from ..runtime.deadline import Deadline, request_stop, run_interruptible, stopped_by
from ..errors import Expired
from ..game.scoring import pack, response_dtype, score_matrix
from ..runtime.status import Status, StopReason

#: Cells per block (~20 ms of scoring): above the scoring core's threshold for its threads,
#: so every block is scored in parallel, and small enough that a stop waits for one block.
BLOCK_CELLS = 1 << 23


class SetupStopped(Expired):
    """The set-up was stopped before its matrix was complete."""

    def __init__(self, reason: StopReason, done: int, rows: int, what: str = "the reply matrix"):
        super().__init__(f"{what}: {done} of {rows} rows", reason)
        self.done, self.rows, self.what = done, rows, what

    def note(self) -> str:
        """The result's note (the words of the other stops: "time limit", "interrupted")."""
        word = {StopReason.TIME: "time limit reached", StopReason.INTERRUPTED: "interrupted"}
        return (f"{word.get(self.reason, 'stopped')} during the set-up ({self.what}: "
                f"{self.done:,} of {self.rows:,} rows built)")

    def report(self, result, lower: int | None, started: float):
        """``result`` (a SearchResult) as this stop leaves it: unknown, the lower bound
        ``lower`` (the counting bound, as a search stopped right after its set-up reports),
        why it stopped and where; returned."""
        result.status, result.proved, result.lower = Status.UNKNOWN, False, lower
        result.stop, result.interrupted = self.reason, self.reason is StopReason.INTERRUPTED
        result.notes.append(self.note())
        result.seconds = time.perf_counter() - started
        return result


def build(variant, codes: np.ndarray, deadline: Deadline | None = None,
          block_cells: int = BLOCK_CELLS) -> np.ndarray:
    """The reply matrix of ``codes`` against themselves (as :func:`cbsolve.game.scoring.score_matrix`).

    With ``deadline`` (which also expires on the stop request) the rows are scored in blocks
    of about ``block_cells`` and the deadline is read after each: raises :class:`SetupStopped`
    when it has expired, or on Ctrl-C (after making the stop request, so the rest of the
    command sees it). The first block is always built, so a game of one block never stops."""
    n = len(codes)
    out = np.empty((n, n), dtype=response_dtype(variant))
    secrets = pack(variant, codes)
    if deadline is None:
        return score_matrix(variant, secrets, secrets, out=out)
    step = max(1, block_cells // max(n, 1))
    done = 0
    try:
        while done < n:
            end = min(n, done + step)
            score_matrix(variant, codes[done:end], secrets, out=out[done:end])
            done = end
            if done < n and deadline.expired():
                raise SetupStopped(stopped_by(), done, n)
    except KeyboardInterrupt:
        request_stop()
        raise SetupStopped(StopReason.INTERRUPTED, done, n) from None
    return out


def prepare(solver, deadline: Deadline | None = None) -> None:
    """The expected kernel's transposed copy (``solver.prepare``), stoppable by ``deadline``
    and Ctrl-C (:func:`cbsolve.runtime.deadline.run_interruptible`); raises :class:`SetupStopped`."""
    if deadline is None:
        solver.prepare()
        return
    try:
        complete = run_interruptible(solver.prepare, solver.request_stop, deadline=deadline)
    except KeyboardInterrupt:
        complete, reason = False, StopReason.INTERRUPTED
    else:
        reason = StopReason(solver.stop_reason())
    if complete:
        # run_interruptible may stop the kernel just after it returned: a new solver has no
        # deadline of its own, so this clears only that late stop (the drivers set theirs)
        solver.set_deadline(0)
        return
    raise SetupStopped(reason, solver.prepared_rows, solver.n_codes,
                       "the reply matrix's transposed copy")
