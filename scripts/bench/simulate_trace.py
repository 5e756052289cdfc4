"""Project the speed-up of a distributed run on P workers from its trace (a list-scheduling
simulation; docs/optimal.md, "On a Dask cluster", traces).

A trace is written by `cbsolve optimal --scheduler ... --trace FILE`, or made here from the
finished units of a sharded plan (`--plan DIR`). The simulation replays the measured task CPU
seconds on P identical workers: a group's tasks become ready when the groups it comes after
are done and the driver has done its serial work (and, a task with ``ready``, the driver's
work in the group before it sent that task), and a free worker takes the task ready first,
the longest of those ready together (LPT). A task's ``setup`` (it built its worker's search,
the reply matrix) is taken out of it and paid by every worker before its first task, as on
a real cluster of P workers. One-worker time = all task CPU + all driver
CPU; speed-up = that / the simulated makespan. `--no-barriers` lets every group start at
once (the driver evaluating first guesses in parallel, with the same work: an optimistic
bound on what that would give).

    python scripts/bench/simulate_trace.py run.trace.json
    python scripts/bench/simulate_trace.py --plan proof --workers 8 32 128
"""
from __future__ import annotations

import argparse
import heapq
import json


def simulate(trace: dict, workers: int, barriers: bool = True) -> dict:
    """Makespan of ``trace`` on ``workers`` workers and one driver (seconds of CPU)."""
    tasks_of: dict[int, list[tuple[float, float]]] = {}
    for t in trace["tasks"]:
        tasks_of.setdefault(t["group"], []).append((float(t.get("ready", 0.0)),
                                                    float(t.get("setup", 0.0)) - float(t["cpu"])))
    setup = worker_setup(trace)
    free = [(0.0, w) for w in range(workers)]
    started: set[int] = set()
    done: dict[int, float] = {}
    driver, sent = 0.0, 0.0
    for group in sorted(trace["groups"], key=lambda g: g["id"]):
        ready = max((done[a] for a in group["after"]), default=0.0) if barriers else 0.0
        # the previous group's driver_sent, counted in this driver_cpu, is behind already
        driver = max(driver, ready) + float(group["driver_cpu"]) - sent
        start, end = driver, driver
        for offset, minus_cpu in sorted(tasks_of.get(group["id"], [])):
            at, w = heapq.heappop(free)
            t1 = max(at, start + offset) - minus_cpu + (0.0 if w in started else setup)
            started.add(w)
            heapq.heappush(free, (t1, w))
            end = max(end, t1)
        # the driver sent the group's last task (a cancelled one too), then went on
        sent = float(group.get("driver_sent", 0.0))
        driver = start + sent
        done[group["id"]] = end
    makespan = max(max(done.values(), default=0.0), driver)
    one = sum(float(t["cpu"]) - float(t.get("setup", 0.0)) for t in trace["tasks"]) + \
        driver_cpu(trace) + setup
    return {"workers": workers, "makespan": makespan, "one_worker": one,
            "speedup": one / makespan if makespan > 0 else 1.0}


def worker_setup(trace: dict) -> float:
    """A worker's CPU to build its search (the largest ``setup`` of the trace; 0 if none)."""
    return max((float(t.get("setup", 0.0)) for t in trace["tasks"]), default=0.0)


def driver_cpu(trace: dict) -> float:
    """The driver thread's CPU (a group's ``driver_cpu``: all of it since the previous group)."""
    return sum(float(g["driver_cpu"]) for g in trace["groups"])


def summary(trace: dict) -> dict:
    cpus = sorted((float(t["cpu"]) for t in trace["tasks"]), reverse=True)
    total = sum(cpus)
    driver = driver_cpu(trace)
    return {"tasks": len(cpus), "groups": len(trace["groups"]), "task_cpu": total,
            "driver_cpu": driver, "largest": cpus[0] if cpus else 0.0,
            "largest_share": cpus[0] / total if total else 0.0}


def load(path: str | None, plan: str | None) -> dict:
    if plan is not None:
        from cbsolve.search.distributed.trace import from_plan

        return from_plan(plan)
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace", nargs="?", help="a trace file (cbsolve optimal --trace FILE)")
    ap.add_argument("--plan", help="a sharded plan directory: its finished units as the trace")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2, 8, 32, 128])
    ap.add_argument("--no-barriers", action="store_true",
                    help="every group at once (the driver's order not kept)")
    args = ap.parse_args(argv)
    if (args.trace is None) == (args.plan is None):
        ap.error("give a trace file or --plan DIR")
    trace = load(args.trace, args.plan)
    s = summary(trace)
    print(f"{trace.get('objective')} {trace['variant'].get('name') or ''}: {s['tasks']} tasks "
          f"in {s['groups']} groups, {s['task_cpu']:.1f} s of task CPU, {s['driver_cpu']:.1f} s "
          f"of driver CPU, largest task {s['largest']:.1f} s ({100 * s['largest_share']:.0f} %)")
    print(f"{'workers':>8} {'makespan s':>11} {'speed-up':>9}")
    for p in args.workers:
        r = simulate(trace, p, barriers=not args.no_barriers)
        print(f"{p:8d} {r['makespan']:11.1f} {r['speedup']:9.2f}")


if __name__ == "__main__":
    main()
