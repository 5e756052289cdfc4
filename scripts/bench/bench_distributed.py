"""Scaling of the distributed expected-case search (cbsolve.search.distributed) on 1 and 2 workers.

Side by side in one run: the single-process search on one thread (the reference value and
time), then a local Dask cluster of 1 and of 2 one-thread worker processes. Per row: wall
seconds, the CPU seconds spent in the tasks (the threads that ran them: the search's work),
the worker processes' CPU during the tasks ("in tasks"), the worker processes' whole CPU
from the driver's start to its end, every thread ("workers": Dask's event loop, heartbeats
and comms included, read from /proc before and after), the busiest worker's share of the
task CPU (on dedicated cores the run cannot finish before that worker, so total / busiest is
the speed-up the split allows, a figure the load of a shared machine does not change much),
the work efficiency (the one-process CPU divided by the task CPU of all workers, "eff.", and
divided by the workers' whole CPU, "whole": 1.0 when splitting costs nothing), tasks, nodes,
the optimum and whether it matches the reference. ``--threads`` adds the workers' CPU by
thread; ``--dask-config both`` runs each cluster with the package's settings and with Dask's
(the profiler off); ``--trace DIR`` writes each Dask run's trace
(scripts/bench/simulate_trace.py projects it). Run it with nice on a shared machine.

    nice python scripts/bench/bench_distributed.py                        # Bulls & Cows 4/10
    nice python scripts/bench/bench_distributed.py --variant mastermind   # seconds, a smoke run
    nice python scripts/bench/bench_distributed.py --workers 1 2 --threads --dask-config both
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import re
import threading
import time
from pathlib import Path

from cbsolve.search import distributed
from cbsolve.search.distributed import DistributedExpected, cluster_client
from cbsolve.search.distributed.trace import Trace
from cbsolve.search.expected import solve_expected
from cbsolve.game.variant import Variant


def thread_cpu() -> dict[str, float]:
    """On a worker: CPU seconds of each of its process's threads so far, by thread name
    (``/proc/self/task``; a thread Python does not know, e.g. a native one, by its id)."""
    tick = os.sysconf("SC_CLK_TCK")
    names = {t.native_id: t.name for t in threading.enumerate()}
    out: dict[str, float] = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/stat", encoding="ascii") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:     # the thread ended meanwhile
            continue
        name = names.get(int(tid), f"native {tid}")
        out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return out


def _threads_delta(before: dict, after: dict) -> dict[str, float]:
    """The CPU of every worker thread between two snapshots, summed over the workers by
    thread name (Dask names its threads alike in every worker)."""
    out: dict[str, float] = {}
    for worker, threads in after.items():
        for name, cpu in threads.items():
            key = "native" if name.startswith("native") else re.sub(r"\d+-|-?\d+", "", name)
            out[key] = out.get(key, 0.0) + cpu - before.get(worker, {}).get(name, 0.0)
    return out


#: Dask's own settings but the profiler (as before the package's LOCAL_CONFIG), for an A/B.
PROFILER_OFF = {"distributed.worker.profile.enabled": False}


def bench(variant: Variant, workers=(1, 2), reference: bool = True,
          split: distributed.Split | None = None, trace_dir=None,
          splits: tuple = (), configs: tuple = (None,)) -> list[dict]:
    """The rows; ``splits``: several split settings, each run on every cluster size;
    ``configs``: the local clusters' Dask settings to compare (None: the package's)."""
    splits = splits or (distributed.Split() if split is None else split,)
    rows, ref = [], None
    if reference:
        start, cpu = time.perf_counter(), time.process_time()
        ref = solve_expected(variant, workers=1, progress=False)
        cpu = time.process_time() - cpu
        rows.append({"run": "one process, 1 thread", "seconds": time.perf_counter() - start,
                     "cpu": cpu, "busiest": cpu, "process": cpu, "whole": cpu, "threads": {},
                     "tasks": 0, "total": ref.total, "same": True, "nodes": ref.nodes})
    for n, split, config in ((n, sp, c) for n in workers for sp in splits for c in configs):
        name = "" if len(splits) == 1 else (" 3rd level" if split.third else " 2nd only")
        slug = name.replace(" ", "-") + ("" if config is None else "-dask-settings")
        name += "" if config is None else ", Dask's settings"
        environ = set(os.environ)
        with cluster_client("local", n, config) as client:
            start = time.perf_counter()
            trace = Trace("expected", variant.to_dict(), n)
            driver = DistributedExpected(client, variant, None, "all", split=split, trace=trace)
            before = client.run(thread_cpu)
            res = driver.run()
            threads = _threads_delta(before, client.run(thread_cpu))
            if trace_dir is not None:
                Path(trace_dir).mkdir(parents=True, exist_ok=True)
                trace.write(Path(trace_dir) / f"{variant.name or 'game'}-{n}-workers"
                            f"{slug}.trace.json")
            rows.append({"run": f"Dask, {n} worker{'s' if n > 1 else ''}{name}",
                         "seconds": time.perf_counter() - start, "cpu": driver.dispatch.task_seconds,
                         "busiest": max(driver.dispatch.worker_seconds.values()), "tasks": driver.dispatch.tasks,
                         "nodes": driver.dispatch.nodes,
                         "process": driver.dispatch.process_seconds, "whole": sum(threads.values()),
                         "threads": threads,
                         "total": res.total,
                         "same": "-" if ref is None else (res.total, res.worst) == (
                             ref.total, ref.worst)})
        # Dask's nannies set their workers' environment (MALLOC_TRIM_THRESHOLD_, ...) in this
        # process before spawning them; the next cluster, with other settings, must not
        # inherit it
        for var in set(os.environ) - environ:
            del os.environ[var]
    for r in rows:
        r["efficiency"] = None if ref is None or not r["cpu"] else rows[0]["cpu"] / r["cpu"]
        r["whole_efficiency"] = None if ref is None or not r["whole"] else \
            rows[0]["cpu"] / r["whole"]
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="bulls-cows")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2],
                    help="Dask cluster sizes to run (default: 1 2)")
    ap.add_argument("--no-reference", action="store_true",
                    help="skip the single-process run")
    ap.add_argument("--split-slots", type=int, default=None,
                    help="split large classes by second guesses from this many worker threads "
                         f"(default {distributed.Split().min_slots})")
    ap.add_argument("--third", choices=("on", "off", "both"), default="on",
                    help="the split's first guess by its classes as tasks (a third level), "
                         "or not, or both side by side (default on)")
    ap.add_argument("--trace", metavar="DIR", default=None,
                    help="write each Dask run's trace into DIR")
    ap.add_argument("--dask-config", choices=("package", "profiler-off", "both"),
                    default="package",
                    help="the workers' Dask settings: the package's (LOCAL_CONFIG), Dask's "
                         "with only the profiler off (as before them), or both side by side")
    ap.add_argument("--threads", action="store_true",
                    help="the workers' CPU by thread (task, event loop, offload, ...)")
    args = ap.parse_args()
    split = distributed.Split()
    if args.split_slots is not None:
        split = distributed.Split(min_slots=args.split_slots)
    variant = Variant.preset(args.variant)
    print(f"{variant.describe()}, expected-case optimum")
    print(f"{'run':40} {'wall s':>8} {'task CPU s':>11} {'in tasks s':>10} {'workers s':>10} "
          f"{'busiest s':>10} {'eff.':>5} {'whole':>5} {'tasks':>6} {'nodes':>10} {'total':>7} same")
    splits = tuple(dataclasses.replace(split, third=t) for t in
                   {"on": (True,), "off": (False,), "both": (False, True)}[args.third])
    rows = bench(variant, tuple(args.workers), not args.no_reference, trace_dir=args.trace,
                 splits=splits, configs={"package": (None,), "profiler-off": (PROFILER_OFF,),
                                         "both": (PROFILER_OFF, None)}[args.dask_config])
    for r in rows:
        eff, whole = ("-" if e is None else f"{e:.2f}"
                      for e in (r["efficiency"], r["whole_efficiency"]))
        print(f"{r['run']:40} {r['seconds']:8.1f} {r['cpu']:11.1f} {r['process']:10.1f} "
              f"{r['whole']:10.1f} {r['busiest']:10.1f} {eff:>5} {whole:>5} {r['tasks']:6d} "
              f"{r['nodes']:10d} {r['total']:7d} {r['same']}", flush=True)
    if args.threads:
        for r in rows:
            if r["threads"]:
                parts = sorted(r["threads"].items(), key=lambda kv: -kv[1])
                print(f"{r['run']}: " + ", ".join(f"{k} {v:.1f} s" for k, v in parts))



if __name__ == "__main__":
    main()
