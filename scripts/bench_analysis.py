"""Benchmark: ``cbsolve analyze`` wall time against the number of workers (1 vs 2, side by side).

    python scripts/bench_analysis.py                 # the default sweep, 1 and 2 local workers
    python scripts/bench_analysis.py --small         # N 2-3, D 2-6: a quick smoke run
    python scripts/bench_analysis.py --dask          # also 2 workers of a Dask LocalCluster

Each run starts from an empty directory; the script checks that every run wrote byte-identical
results.csv and reports wall seconds, the speed-up over one worker, and the sum of the cells'
own times (the work; with W workers the best possible wall time is about work / W, and never
less than the longest cell).
"""
from __future__ import annotations

import argparse
import csv
import sys
import tempfile
import time
from pathlib import Path


def measure(cells: list[dict], workers=(1, 2), dask: bool = False) -> list[dict]:
    """Run the same cells once per configuration into fresh directories; returns the figures."""
    from cbsolve.analysis import run_sweep

    runs = []
    configs = [("local", w) for w in workers] + ([("dask", 2)] if dask else [])
    with tempfile.TemporaryDirectory() as tmp:
        base = None
        for kind, w in configs:
            out = Path(tmp) / f"{kind}-{w}"
            start = time.perf_counter()
            if kind == "dask":
                from distributed import LocalCluster

                with LocalCluster(n_workers=w, threads_per_worker=1, processes=True,
                                  dashboard_address=None,
                                  env={"OMP_NUM_THREADS": "1"}) as cluster:
                    t0 = time.perf_counter()
                    run_sweep(cells, out, scheduler=cluster.scheduler_address, make_plots=False)
                    wall = time.perf_counter() - t0
            else:
                run_sweep(cells, out, workers=w, make_plots=False)
                wall = time.perf_counter() - start
            data = (out / "results.csv").read_bytes()
            base = base or data
            with (out / "timings.csv").open() as fh:
                rows = list(csv.DictReader(fh))
            work = sum(float(r["seconds"]) for r in rows)
            longest = max(float(r["seconds"]) for r in rows)
            runs.append({"scheduler": kind, "workers": w, "wall_s": round(wall, 2),
                         "work_s": round(work, 2), "longest_cell_s": round(longest, 2),
                         "identical": data == base})
    one = next((r["wall_s"] for r in runs if r["scheduler"] == "local" and r["workers"] == 1), None)
    for r in runs:
        r["speedup"] = round(one / r["wall_s"], 2) if one else None
    return runs


def main(argv: list[str] | None = None) -> int:
    from cbsolve.analysis import make_cells

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--small", action="store_true", help="N 2-3, D 2-6 instead of the default sweep")
    p.add_argument("--dask", action="store_true", help="also run on a 2-worker Dask LocalCluster")
    args = p.parse_args(argv)
    cells = (make_cells(lengths=[2, 3], alphabets=range(2, 7)) if args.small else make_cells())
    print(f"{len(cells)} cells")
    print(f"{'scheduler':9} {'workers':>7} {'wall s':>8} {'speed-up':>8} {'work s':>8} "
          f"{'longest s':>9} identical")
    for r in measure(cells, dask=args.dask):
        print(f"{r['scheduler']:9} {r['workers']:>7} {r['wall_s']:>8.2f} {r['speedup']:>8.2f} "
              f"{r['work_s']:>8.2f} {r['longest_cell_s']:>9.2f} {r['identical']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
