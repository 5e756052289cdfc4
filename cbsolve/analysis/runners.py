"""Where cells run: a local process pool (default) or a Dask distributed cluster.

Both runners take the same cells and call the same pure :func:`~.sweep.run_cell`, yielding
results as they finish (in completion order; the report sorts them back into table order), so
a sweep gives identical rows either way. Cells are submitted longest first (a longest-
processing-time-first schedule), which keeps every worker busy until the end of the sweep and
is what makes the speed-up near-linear in the number of workers.
"""
from __future__ import annotations

import os
from collections.abc import Iterator

from ..runtime.deadline import POLL_SECONDS, UNLIMITED, Deadline
from ..runtime.workers import connect, default_workers
from .sweep import cost, run_cell


def single_threaded() -> None:
    """Pool initializer: one OpenMP thread per worker process, so ``workers`` = cores used.

    The native kernels parallelise large matrices with OpenMP; inside a pool that would make
    every worker compete for every core. It must run before the native module is first used
    (it is: a worker imports cbsolve's native code only when its first cell evaluates).
    """
    os.environ["OMP_NUM_THREADS"] = "1"


def run_local(cells: list[dict], workers: int | None = None, *, work=run_cell,
              order=cost, deadline: Deadline = UNLIMITED) -> Iterator[dict]:
    """Run cells on ``workers`` single-threaded processes (default: one per CPU).

    ``workers=0`` runs them in this process, one after the other (debugging, tiny sweeps);
    the native kernels may then use several threads. ``work`` (a picklable function of one
    cell) and ``order`` (its rough cost) let other tables reuse the runner. When ``deadline``
    expires (its time, or Ctrl-C) no cell is started and the pool's running cells are ended:
    the finished ones have been yielded.
    """
    cells = sorted(cells, key=order, reverse=True)
    if workers == 0:
        for cell in cells:
            if deadline.expired():
                return
            yield work(cell)
        return
    workers = workers or default_workers()
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    # spawn, not fork: the parent may hold threads (rich, OpenMP) that fork would copy broken
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx,
                             initializer=single_threaded) as pool:
        futures = [pool.submit(work, cell) for cell in cells]
        pending = set(futures)
        try:
            while pending and not deadline.expired():   # finished cells are kept
                done, pending = wait(pending, POLL_SECONDS, return_when=FIRST_COMPLETED)
                for fut in done:
                    yield fut.result()
        finally:
            if deadline.expired() or any(not f.done() for f in futures):
                _cancel(pool)


def _cancel(pool) -> None:
    """Stop a process pool now: drop the queued cells and end the running workers (a cell
    runs for up to minutes and nothing in it listens for a stop request). The workers are
    taken before ``shutdown``, which forgets them (the cells then ran to their end, and the
    interpreter's exit waited for them: 20 s after a 3 s ``--time-limit``)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()


def run_dask(cells: list[dict], scheduler: str, *, work=run_cell, order=cost,
             deadline: Deadline = UNLIMITED) -> Iterator[dict]:
    """Run cells on the Dask distributed cluster whose scheduler is at ``scheduler``.

    Workers must be able to import cbsolve (install it on every worker); start them with
    ``--nthreads 1`` and ``OMP_NUM_THREADS=1`` so that each uses one core, as the local pool does.
    """
    from distributed import as_completed

    cells = sorted(cells, key=order, reverse=True)
    client = connect(scheduler, deadline)
    try:
        # pure=False: identical cells are still computed (and keys stay unique); the priority
        # makes the scheduler start the longest cells first, as the local pool does
        futures = [client.submit(work, cell, pure=False, priority=len(cells) - i)
                   for i, cell in enumerate(cells)]
        for fut in as_completed(futures):
            if deadline.expired():        # time limit or Ctrl-C: cancel what has not finished
                client.cancel(futures)
                return
            yield fut.result()
    finally:
        client.close()
