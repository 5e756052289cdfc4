"""Scaling of the distributed expected-case search (cbsolve.search.distributed) on 1 and 2 workers.

Side by side in one run: the single-process search on one thread (the reference value and
time), then a local Dask cluster of 1 and of 2 one-thread worker processes. Per row: wall
seconds, the CPU seconds spent in the tasks (the threads that ran them: the search's work),
the worker processes' CPU meanwhile (adding the workers' own threads), the busiest worker's
share of the task CPU (on dedicated cores the run cannot finish before that worker, so total /
busiest is the speed-up the split allows, a figure the load of a shared machine does not
change much), the work efficiency (the one-process CPU divided by the task CPU of all workers:
1.0 when splitting costs no extra work), tasks, the optimum and whether it matches the
reference. ``--trace DIR`` writes each Dask run's trace (scripts/bench/simulate_trace.py
projects it). Run it with nice on a shared machine.

    nice python scripts/bench/bench_distributed.py                        # Bulls & Cows 4/10
    nice python scripts/bench/bench_distributed.py --variant mastermind   # seconds, a smoke run
    nice python scripts/bench/bench_distributed.py --no-reference --workers 2 --split-slots 3
"""
from __future__ import annotations

import argparse
import dataclasses
import time
from pathlib import Path

from cbsolve.search import distributed
from cbsolve.search.distributed import DistributedExpected, cluster_client
from cbsolve.search.distributed.trace import Trace
from cbsolve.search.expected import solve_expected
from cbsolve.variant import Variant


def bench(variant: Variant, workers=(1, 2), reference: bool = True,
          split: distributed.Split | None = None, trace_dir=None,
          splits: tuple = ()) -> list[dict]:
    """The rows; ``splits``: several split settings, each run on every cluster size."""
    splits = splits or (distributed.Split() if split is None else split,)
    rows, ref = [], None
    if reference:
        start, cpu = time.perf_counter(), time.process_time()
        ref = solve_expected(variant, workers=1, progress=False)
        cpu = time.process_time() - cpu
        rows.append({"run": "one process, 1 thread", "seconds": time.perf_counter() - start,
                     "cpu": cpu, "busiest": cpu, "process": cpu, "tasks": 0, "total": ref.total,
                     "same": True})
    for n, split in ((n, sp) for n in workers for sp in splits):
        name = "" if len(splits) == 1 else (" 3rd level" if split.third else " 2nd only")
        with cluster_client("local", n) as client:
            start = time.perf_counter()
            trace = Trace("expected", variant.to_dict(), n)
            driver = DistributedExpected(client, variant, None, "all", split=split, trace=trace)
            res = driver.run()
            if trace_dir is not None:
                Path(trace_dir).mkdir(parents=True, exist_ok=True)
                trace.write(Path(trace_dir) / f"{variant.name or 'game'}-{n}-workers"
                            f"{name.replace(' ', '-')}.trace.json")
            rows.append({"run": f"Dask, {n} worker{'s' if n > 1 else ''}{name}",
                         "seconds": time.perf_counter() - start, "cpu": driver.task_seconds,
                         "busiest": max(driver.worker_seconds.values()), "tasks": driver.tasks,
                         "process": driver.process_seconds,
                         "total": res.total,
                         "same": "-" if ref is None else (res.total, res.worst) == (
                             ref.total, ref.worst)})
    for r in rows:
        r["efficiency"] = None if ref is None or not r["cpu"] else rows[0]["cpu"] / r["cpu"]
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
    args = ap.parse_args()
    split = distributed.Split()
    if args.split_slots is not None:
        split = distributed.Split(min_slots=args.split_slots)
    variant = Variant.preset(args.variant)
    print(f"{variant.describe()}, expected-case optimum")
    print(f"{'run':34} {'wall s':>8} {'task CPU s':>11} {'worker CPU s':>12} {'busiest s':>10} "
          f"{'effic.':>6} "
          f"{'tasks':>6} {'total':>7} same")
    splits = tuple(dataclasses.replace(split, third=t) for t in
                   {"on": (True,), "off": (False,), "both": (False, True)}[args.third])
    for r in bench(variant, tuple(args.workers), not args.no_reference, trace_dir=args.trace,
                   splits=splits):
        eff = "-" if r["efficiency"] is None else f"{r['efficiency']:.2f}"
        print(f"{r['run']:34} {r['seconds']:8.1f} {r['cpu']:11.1f} {r['process']:12.1f} "
              f"{r['busiest']:10.1f} "
              f"{eff:>6} {r['tasks']:6d} {r['total']:7d} {r['same']}", flush=True)


if __name__ == "__main__":
    main()
