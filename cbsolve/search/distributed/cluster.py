"""The Dask side shared by both distributed drivers: a client of a cluster (an existing
scheduler, or a local one), closed without holding up a stop, and a wait that a time limit
and Ctrl-C can cut short.
"""
from __future__ import annotations

import threading

from ...extras import require
from ...runtime.deadline import POLL_SECONDS, Deadline, stop_requested, stopped_by
from ...errors import Expired
from ...runtime.workers import connect, default_workers


class _Stopped(Expired):
    """The time limit ran out in a task (or in the driver), or Ctrl-C came."""

    def __init__(self) -> None:
        super().__init__("the distributed search stopped", stopped_by())


def wait_any(futures: list, deadline: Deadline) -> set:
    """The futures of ``futures`` that finish next. Waits in short steps: one blocked wait
    would hold Ctrl-C until the forced exit (cli._interrupt). Raises :class:`_Stopped` at the
    deadline or on Ctrl-C (the caller cancels what still runs)."""
    from distributed import wait

    while True:
        if deadline.expired():
            raise _Stopped
        left = deadline.left()
        try:
            done, _ = wait(futures, timeout=POLL_SECONDS if left is None
                           else min(POLL_SECONDS, max(left, 1e-3)),
                           return_when="FIRST_COMPLETED")
        except TimeoutError:    # none finished in this step
            continue
        if done:
            return done


#: The Dask settings of the local clusters this package starts (the nannies copy them into
#: their worker processes when created). Each is a worker thread's periodic work that nothing
#: here reads, paid on every worker for the whole run (docs/journal.md, "Work efficiency"):
#: - the sampling profiler walks every thread's stack 100 times a second: on Bulls & Cows
#:   4/10 it cost a worker 2.2 s of CPU beside a 29 s task;
#: - the event loop's tick (every 20 ms) only measures how long the loop was blocked, for a
#:   warning; the memory monitor (every 100 ms) pauses, spills or ends a worker near its
#:   memory limit, and once a second still ends a runaway one (the tasks keep no data to
#:   spill); the system monitor (every 500 ms) samples CPU, memory, disk and network for the
#:   dashboard, which no local run opens (it is off).
#: And one setting that costs the search itself: the nannies start their workers with glibc's
#: trim threshold fixed at 64 KiB (MALLOC_TRIM_THRESHOLD_, so that a worker holding data
#: gives freed memory back), which also freezes glibc's mmap threshold at 128 KiB, so the
#: search's large buffers are mapped, faulted in and returned afresh each time: on Bulls &
#: Cows 4/10 a worker took 1.65 M page faults and 2.9 s of system CPU beside 24 s of search,
#: against 20 k and 0.2 s left unset (glibc's adaptive default, as in one process).
LOCAL_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
}


class cluster_client:
    """``with cluster_client(address_or_local, workers) as client``: a client of an existing
    scheduler, or of a local cluster of ``workers`` one-thread worker processes started with
    ``config`` (:data:`LOCAL_CONFIG`); connecting to a scheduler waits at most until
    ``deadline``."""

    def __init__(self, scheduler: str, workers: int | None, config: dict | None = None,
                 deadline=None):
        self.scheduler, self.workers, self.deadline = scheduler, workers, deadline
        self.config = LOCAL_CONFIG if config is None else config
        self.cluster = self.client = None
        self.closing: threading.Thread | None = None  # the background close after a stop

    def __enter__(self):
        if self.scheduler != "local":
            self.client = connect(self.scheduler, self.deadline)
            return self.client

        distributed = require("distributed", "a Dask cluster (--workers / --scheduler)")
        import dask

        Client, LocalCluster = distributed.Client, distributed.LocalCluster
        with dask.config.set(self.config):
            self.cluster = LocalCluster(n_workers=self.workers or default_workers(),
                                        threads_per_worker=1, processes=True,
                                        dashboard_address=None, silence_logs=50)
        self.client = Client(self.cluster)
        return self.client

    #: After a stop, how long the background close may wait for the client and the cluster.
    CLOSE_TIMEOUT = 5.0

    def __exit__(self, *exc):
        if stop_requested():
            # Ctrl-C or a stop: closing a cluster with running tasks takes seconds, so it is
            # closed in the background: the caller leaves now (the CLI then ends the worker
            # processes itself, cli._interrupt.leave) and a library caller leaks no cluster.
            self.closing = threading.Thread(target=self._close, args=(self.CLOSE_TIMEOUT,),
                                            daemon=True, name="cbsolve-cluster-close")
            self.closing.start()
            return False
        self._close(None)
        return False

    def _close(self, timeout: float | None) -> None:
        for part in (self.client, self.cluster):
            if part is None:
                continue
            try:
                part.close() if timeout is None else part.close(timeout=timeout)
            except Exception:   # noqa: BLE001  (a close cut short by its timeout: nothing to add)
                if timeout is None:
                    raise
