"""The trace of a distributed run: which tasks ran, for how much CPU, on which worker, in
which order they could run (docs/optimal.md, "On a Dask cluster", traces).

Place in the data flow: the Dask drivers (:mod:`.expected`, :mod:`.worst`) and the sharded
units (``results/`` of a plan, :func:`from_plan`) -> **this module** -> a JSON file ->
``scripts/bench/simulate_trace.py`` (a list-scheduling simulation on P workers).

Model: a run is a sequence of groups. A group is the work the driver can hand out at once:
the reply classes of one first guess (the expected case), the first guesses of one depth (the
worst case), the units of a sharded plan. Its tasks are independent of each other; a group
starts when the groups it comes ``after`` are done and the driver has spent ``driver_cpu``
seconds (its serial work in between: ordering, bounds, certificate), the CPU of the driver's
own thread: the Dask client's threads, which talk to the scheduler while the driver waits,
run beside the workers and are counted apart (``driver_process_cpu``, the driver process's
whole CPU; on Bulls & Cows 4/10 on 2 workers, 0.6 s of the driver's 8.2 s was its thread's).
A task's ``ready`` is the driver thread's CPU in its group before the task was sent (a driver
with guesses in flight orders and bounds the next guess while tasks run): the task cannot
start earlier; a group's ``driver_sent`` is the driver's CPU in it up to its last task sent
(a cancelled task's too), the part of the next group's ``driver_cpu`` spent while this
group's tasks could already run.
A task that built its worker's search (the reply matrix, once a worker) carries that CPU as
``setup`` (part of its ``cpu``): a cluster of P workers pays it P times.
Tasks the driver cancels (a refuted guess's other classes) return nothing and are not in the
trace: it holds the work that was needed, measured, and the order the driver's logic imposes.
"""
from __future__ import annotations

import json
import time
from ..worst import shard_files as files
from ..worst.shard_files import write_atomic

FORMAT, VERSION = "cbsolve-dask-trace", 1


class Trace:
    """Tasks and groups of one run, as they happen."""

    def __init__(self, objective: str, variant: dict, workers: int):
        self.doc = {"format": FORMAT, "version": VERSION, "objective": objective,
                    "variant": variant, "workers": workers, "groups": [], "tasks": []}
        self._pending: dict[str, dict] = {}
        self._cpu = time.thread_time()      # made and fed in the driver's thread
        self._process = time.process_time()
        self._start = time.perf_counter()

    def group(self, name: str) -> int:
        """Open the next group (after the previous one); the driver thread's CPU since the
        last group is its serial work before this one."""
        now = time.thread_time()
        groups = self.doc["groups"]
        if groups:      # the previous group's driver CPU up to its last task sent
            groups[-1]["driver_sent"] = round(self._ready, 4)
        groups.append({"id": len(groups), "name": name,
                       "after": [len(groups) - 1] if groups else [],
                       "driver_cpu": round(now - self._cpu, 4)})
        self._cpu, self._ready = now, 0.0
        return len(groups) - 1

    _ready = 0.0    # the driver's CPU in the current group up to its last task sent

    def submitted(self, key: str, kind: str, size: int) -> None:
        if not self.doc["groups"]:
            self.group("start")
        self._ready = time.thread_time() - self._cpu
        self._pending[key] = {"key": key, "kind": kind, "group": len(self.doc["groups"]) - 1,
                              "size": int(size), "ready": round(self._ready, 4)}

    def finished(self, key: str, result: dict) -> None:
        task = self._pending.pop(key, None)
        if task is None:
            return
        if result.get("setup"):     # this task built its worker's search (reply matrix)
            task["setup"] = round(float(result["setup"]), 4)
        task.update(cpu=round(float(result.get("cpu", 0.0)), 4),
                    seconds=round(float(result.get("seconds", 0.0)), 4),
                    worker=result.get("worker", "?"))
        self.doc["tasks"].append(task)

    def close(self) -> dict:
        """The document: the driver's CPU after the last group as a closing group."""
        self.group("finish")
        self.doc["wall"] = round(time.perf_counter() - self._start, 3)
        self.doc["driver_process_cpu"] = round(time.process_time() - self._process, 3)
        self.doc["cancelled"] = len(self._pending)
        return self.doc

    def write(self, path) -> None:
        from pathlib import Path

        write_atomic(Path(path), json.dumps(self.close(), separators=(",", ":")) + "\n")


def from_plan(directory) -> dict:
    """A trace of a sharded plan's finished jobs: one group of independent tasks (a job's
    CPU, or its wall seconds for results written before CPU was recorded)."""
    from pathlib import Path

    plan = files.read_plan(directory)
    n = len(plan["units"]) if "units" in plan else len(plan["orbits"])
    tasks = []
    for j in range(n):
        doc = files.read_job(directory, plan, j)
        if doc is not None:
            tasks.append({"key": files.job_path(directory, plan, j).name, "kind": "unit",
                          "group": 0, "size": int(doc.get("size") or 0),
                          "cpu": float(doc.get("cpu", doc.get("seconds", 0.0))),
                          "seconds": float(doc.get("seconds", 0.0)), "worker": "shard"})
    return {"format": FORMAT, "version": VERSION, "objective": "worst-refutation",
            "variant": plan["variant"], "workers": 1, "plan": str(Path(directory)),
            "jobs": n, "groups": [{"id": 0, "name": "units", "after": [], "driver_cpu": 0.0}],
            "tasks": tasks}
