"""Benchmark strategy evaluation: wall and CPU time per (variant, strategy), whole-process CLI time,
and peak memory of the large Mastermind 5/8 run.

    python scripts/bench_strategies.py            # Mastermind 4/6 x 4 heuristics, Bulls & Cows minimax
    python scripts/bench_strategies.py --big      # + Mastermind 5 pegs 8 colours minimax (~1 GiB)
    python scripts/bench_strategies.py --symmetry # + the same runs with symmetry reduction

Figures are medians of ``--repeats`` runs; each run starts with the score matrix already cached
(computing it is timed separately as ``matrix``). The machine is shared: compare ratios measured
in the same run, and read CPU time next to wall time.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from cbsolve import Variant
from cbsolve.strategy import evaluate
from cbsolve.strategy.heuristics import full_matrix

ROOT = Path(__file__).resolve().parents[1]

DEFAULT_CASES = [("mastermind", s) for s in ("minimax", "expected", "entropy", "parts")] + [
    ("bulls-cows", "minimax")]


def variant_of(name: str) -> Variant:
    return Variant(5, "12345678", repeats=True, name="mastermind-5x8") if name == "mastermind-5x8" \
        else Variant.preset(name)


def time_evaluation(name: str, strategy: str, repeats: int = 3, symmetry: bool = False) -> dict:
    """Median wall and CPU seconds of ``evaluate`` (score matrix cached beforehand)."""
    v = variant_of(name)
    t0, c0 = time.perf_counter(), time.process_time()
    full_matrix(v)
    matrix = (time.perf_counter() - t0, time.process_time() - c0)
    walls, cpus, ev = [], [], None
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        ev = evaluate(v, strategy, symmetry=symmetry)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return {"variant": name, "strategy": strategy, "symmetry": symmetry, "total": ev.total,
            "worst": ev.worst, "wall": statistics.median(walls), "cpu": statistics.median(cpus),
            "matrix_wall": matrix[0], "matrix_cpu": matrix[1]}


def time_cli(args: list[str], repeats: int = 3) -> dict:
    """Median wall seconds of a whole ``python -m cbsolve ...`` process, and its peak RSS."""
    walls, rss = [], 0
    env = dict(os.environ)
    for _ in range(repeats):
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "cbsolve", *args, "--json"], cwd=ROOT, env=env,
                              capture_output=True, text=True, check=True)
        walls.append(time.perf_counter() - t0)
        rss = max(rss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    data = json.loads(proc.stdout)
    return {"command": "cbsolve " + " ".join(args), "wall": statistics.median(walls),
            "total": data.get("total"), "peak_rss_mb": rss / 1024}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--big", action="store_true", help="also Mastermind 5/8 minimax (CLI process)")
    ap.add_argument("--symmetry", action="store_true", help="also time with symmetry reduction")
    args = ap.parse_args(argv)
    print(f"threads: OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}, "
          f"cores {os.cpu_count()}, load {os.getloadavg()[0]:.1f}")
    for name, strategy in DEFAULT_CASES:
        for sym in (False, True) if args.symmetry else (False,):
            r = time_evaluation(name, strategy, args.repeats, symmetry=sym)
            print(f"{name:12s} {strategy:9s} sym={'on ' if sym else 'off'} total {r['total']:6d} "
                  f"worst {r['worst']}  wall {r['wall']:.3f} s  cpu {r['cpu']:.3f} s  "
                  f"(matrix {r['matrix_wall'] * 1e3:.0f} ms)")
    r = time_cli(["evaluate", "--strategy", "minimax"], args.repeats)
    print(f"{r['command']}: whole process {r['wall']:.3f} s (total {r['total']})")
    if args.big:
        r = time_cli(["evaluate", "--length", "5", "--symbols", "12345678", "--repeats",
                      "--strategy", "minimax"], 1)
        print(f"{r['command']}: whole process {r['wall']:.1f} s, peak RSS "
              f"{r['peak_rss_mb']:.0f} MB (total {r['total']})")


if __name__ == "__main__":
    main()
