"""The expected-case Dask driver's traffic with the cluster: tasks sent under keys made of
their inputs, their results collected as they finish, and the account of the work they did
(tasks, nodes, the workers' CPU).

Place in the data flow: :class:`cbsolve.search.distributed.expected.DistributedExpected` (which
class or guess to send, with which budget) -> **this module** -> :func:`.expected_tasks.solve_class`
and :func:`.expected_tasks.solve_guess` on the workers -> their results back to the driver.
"""
from __future__ import annotations

import numpy as np

from ...game.variant import Variant
from ...runtime.deadline import Deadline
from .cluster import _Stopped, wait_any
from .expected_tasks import solve_class, solve_guess


class TaskDispatch:
    """The tasks one driver sends to one cluster, and what they did."""

    def __init__(self, client, variant: Variant, max_depth: int | None, guesses: str,
                 deadline: Deadline, trace=None):
        self.client = client
        self.variant = variant
        self.max_depth = max_depth
        self.guesses = guesses
        self.deadline = deadline  # the driver's: it may reserve time for its greedy tree
        self.trace = trace        # a .trace.Trace to record the tasks in, or None
        self.slots = max(1, sum(client.nthreads().values()))
        self.tasks = 0
        self.nodes = 0
        self.task_seconds = 0.0   # CPU seconds of the tasks on the workers (their threads)
        self.worker_seconds: dict[str, float] = {}   # the same per worker
        self.process_seconds = 0.0  # the worker processes' CPU meanwhile (their own threads too)

    def left(self) -> float | None:
        """The seconds a task is sent with; :class:`_Stopped` when none are left."""
        if self.deadline.expired():
            raise _Stopped
        return self.deadline.left()

    def _spec(self, members: np.ndarray, depth: int, history: list[int], budget) -> dict:
        return {"variant": self.variant.to_dict(), "max_depth": self.max_depth,
                "guesses": self.guesses, "members": members.tolist(), "history": history,
                "depth": depth, "budget": [int(budget[0]), int(budget[1])],
                "seconds": self.left()}

    def submit_class(self, members: np.ndarray, depth: int, history: list[int], budget):
        """A class's exact optimum below ``budget`` (:func:`solve_class`), larger first."""
        return self.send(solve_class, self._spec(members, depth, history, budget), len(members))

    def submit_guess(self, g: int, members: np.ndarray, depth: int, history: list[int], best):
        """Guess ``g``'s expansion at a set below ``best`` (:func:`solve_guess`)."""
        spec = self._spec(members, depth, history, best)
        spec["guess"] = int(g)
        return self.send(solve_guess, spec, len(members))

    def send(self, task, spec: dict, size: int):
        """Submit a task under a key made of its inputs (all but the time left) and its
        number in the run: the scheduler re-runs a lost worker's task as the same computation
        (the task is pure: a worker's search is a cache), and a task cancelled and sent again
        gets a fresh key (Dask keeps a cancelled key's state for a while); the priority is
        the set's size."""
        from dask.base import tokenize      # the cluster's package: an optional extra

        self.tasks += 1
        inputs = tokenize({k: v for k, v in spec.items() if k != "seconds"})
        key = f"cbsolve-{task.__name__}-{inputs}-{self.tasks}"
        if self.trace is not None:
            self.trace.submitted(key, task.__name__, size)
        return self.client.submit(task, spec, key=key, priority=size)

    def finished(self, running: dict) -> list:
        """(what, result) of the tasks of ``running`` (future -> what) that finish next,
        removed from it, their work counted; a stopped task stops the search."""
        if not running:
            return []
        done = wait_any(list(running), self.deadline)
        out = []
        for fut in done:
            res = fut.result()
            if self.trace is not None:
                self.trace.finished(fut.key, res)
            self.nodes += res["nodes"]
            self.task_seconds += res["cpu"]
            self.process_seconds += res.get("process_cpu", res["cpu"])
            self.worker_seconds[res["worker"]] = self.worker_seconds.get(res["worker"], 0.0) \
                + res["cpu"]
            if res["stopped"]:
                raise _Stopped
            out.append((running.pop(fut), res))
        return out
