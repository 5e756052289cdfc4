"""A Dask worker killed (SIGKILL) in the middle of a distributed search: its tasks are keyed
by their inputs and re-run by the scheduler on the surviving or restarted worker, and the run
ends with the proved value of one process (docs/optimal.md, "Faults")."""
from __future__ import annotations

import os
import signal
import threading
import time

import pytest
from testkit import local_dask_client

from cbsolve.certificates.certify import verify
from cbsolve.search.distributed import DistributedExpected, solve_worst_distributed
from cbsolve.search.distributed.trace import Trace
from cbsolve.search.expected import solve_expected
from cbsolve.search.worst import solve_worst
from cbsolve.game.variant import Variant

#: Two clusters started, a worker killed and restarted, the search run again in one process
#: (about 11 CPU s together): the slow run's.
pytestmark = pytest.mark.slow

#: Bulls & Cows 4 of 9: 3,024 secrets, about 2 s of CPU for the expected optimum.
GAME = Variant(4, "012345678", repeats=False)


@pytest.fixture
def cluster():
    yield from local_dask_client(2)


class Killer(threading.Thread):
    """Kills (SIGKILL) the first worker seen running a task of ``kind`` (with ``after_first``,
    only once ``trace`` has recorded a finished task); ``killed`` names it, ``lost`` the keys
    it held."""

    def __init__(self, client, trace: Trace, kind: str, after_first: bool = True):
        super().__init__(daemon=True)
        self.client, self.trace, self.kind = client, trace, kind
        self.after_first = after_first
        self.pids = client.run(os.getpid)
        self.killed, self.lost, self.stop = None, [], threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            if self.trace.doc["tasks"] or not self.after_first:
                for worker, keys in self.client.processing().items():
                    mine = [k for k in keys if self.kind in str(k)]
                    if mine and worker in self.pids:
                        self.lost = [str(k) for k in mine]
                        os.kill(self.pids[worker], signal.SIGKILL)
                        self.killed = worker
                        return
            time.sleep(0.005)


def test_expected_search_survives_a_worker_killed_mid_run(cluster):
    one = solve_expected(GAME, workers=1, progress=False)
    trace = Trace("expected", GAME.to_dict(), 2)
    driver = DistributedExpected(cluster, GAME, None, "all", trace=trace)
    killer = Killer(cluster, trace, "cbsolve-solve_")
    killer.start()
    try:
        many = driver.run()
    finally:
        killer.stop.set()
        killer.join()
    assert killer.killed is not None, "the run ended before a worker could be killed"
    assert many.proved and (many.total, many.worst) == (one.total, one.worst)
    assert verify(many.tree).valid
    assert_rerun_elsewhere(killer, trace)


def assert_rerun_elsewhere(killer: Killer, trace: Trace) -> None:
    """Each task the killed worker held that the driver still waited for finished on another
    worker (a task the driver cancelled meanwhile has no result)."""
    finished = {t["key"]: t["worker"] for t in trace.doc["tasks"]}
    assert all(finished[k] != killer.killed for k in killer.lost if k in finished)


def test_worst_case_search_survives_a_worker_killed_mid_run(cluster):
    # Mastermind 4x7: 5 first-guess orbits a depth, so tasks run side by side (3 s on 2 workers)
    game = Variant(4, "1234567", repeats=True)
    one = solve_worst(game, workers=1, certificate=False)
    trace = Trace("worst", game.to_dict(), 2)
    # the first depth's tasks start at once and last a fraction of a second: kill on sight
    killer = Killer(cluster, trace, "cbsolve-decide_guess", after_first=False)
    killer.start()
    try:
        many = solve_worst_distributed(cluster, game, certificate=False, workers=1, trace=trace)
    finally:
        killer.stop.set()
        killer.join()
    assert killer.killed is not None, "the run ended before a worker could be killed"
    assert many.proved and many.worst == one.worst
    assert verify(many.tree).valid
    assert_rerun_elsewhere(killer, trace)
