"""Benchmark strategy evaluation: wall and CPU time per (variant, strategy), whole-process CLI time,
and peak memory of the large runs.

    python scripts/bench/bench_strategies.py            # Mastermind 4/6 x 4 heuristics, Bulls & Cows minimax
    python scripts/bench/bench_strategies.py --logik    # + Logik 5x8, every heuristic (32,768 codes)
    python scripts/bench/bench_strategies.py --big      # + B&C 6/10 and Mastermind 6x9, minimax (CLI)
    python scripts/bench/bench_strategies.py --symmetry # + the small runs with symmetry reduction
    CBSOLVE_ISA=avx2 python scripts/bench/bench_strategies.py --logik   # the AVX2 path (cbsolve.runtime.isa)

Small variants are timed twice in the same run, over the cached score matrix (``matrix``) and
scored on the fly (``fly``; the default above 4,096 codes), so the ratio is measured side by
side. Figures are medians of ``--repeats`` runs. The machine is shared: compare ratios measured
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
from cbsolve.runtime.machine import describe as describe_machine
from cbsolve.strategy import evaluation
from cbsolve.strategy.heuristics import Chooser, full_matrix

ROOT = Path(__file__).resolve().parents[2]

DEFAULT_CASES = [("mastermind", s) for s in ("minimax", "expected", "entropy", "parts")] + [
    ("bulls-cows", "minimax")]
LOGIK = Variant(5, "12345678", repeats=True, name="logik-5x8")


def variant_of(name: str) -> Variant:
    return LOGIK if name == "logik-5x8" else Variant.preset(name)


def _evaluate(v: Variant, strategy: str, use_matrix, symmetry):
    make = Chooser
    evaluation.Chooser = lambda *a, **k: make(*a, use_matrix=use_matrix, **k)
    try:
        return evaluation.evaluate(v, strategy, symmetry=symmetry)
    finally:
        evaluation.Chooser = make


def time_evaluation(name: str, strategy: str, repeats: int = 3, symmetry="auto",
                    use_matrix="auto") -> dict:
    """Median wall and CPU seconds of ``evaluate`` (a score matrix is cached beforehand)."""
    v = variant_of(name)
    if use_matrix is True:
        full_matrix(v)
    walls, cpus, ev = [], [], None
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        ev = _evaluate(v, strategy, use_matrix, symmetry)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return {"variant": name, "strategy": strategy, "symmetry": symmetry, "total": ev.total,
            "worst": ev.worst, "average": ev.average, "wall": statistics.median(walls),
            "cpu": statistics.median(cpus)}


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
    ap.add_argument("--logik", action="store_true", help="also Logik 5x8, every heuristic")
    ap.add_argument("--big", action="store_true", help="also Bulls & Cows 6/10, Mastermind 6x9")
    ap.add_argument("--symmetry", action="store_true", help="also time with symmetry reduction")
    args = ap.parse_args(argv)
    # the machine line names the kernels' instruction-set path (CBSOLVE_ISA forces one)
    print(f"machine: {describe_machine()}")
    print(f"threads: OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}, "
          f"cores {os.cpu_count()}, load {os.getloadavg()[0]:.1f}")
    for name, strategy in DEFAULT_CASES:
        for sym in (False, True) if args.symmetry else (False,):
            for mode, use in (("matrix", True), ("fly", False)):
                r = time_evaluation(name, strategy, args.repeats, symmetry=sym, use_matrix=use)
                print(f"{name:12s} {strategy:9s} {mode:6s} sym={'on ' if sym else 'off'} total "
                      f"{r['total']:6d} worst {r['worst']}  wall {r['wall']:.3f} s  "
                      f"cpu {r['cpu']:.3f} s")
    r = time_cli(["evaluate", "--strategy", "minimax"], args.repeats)
    print(f"{r['command']}: whole process {r['wall']:.3f} s (total {r['total']})")
    if args.logik:
        for strategy in ("minimax", "expected", "entropy", "parts"):
            r = time_evaluation("logik-5x8", strategy, 1)
            print(f"logik-5x8    {strategy:9s} in-process wall {r['wall']:.2f} s cpu {r['cpu']:.2f} s"
                  f"  total {r['total']} worst {r['worst']} average {r['average']:.4f}")
        r = time_cli(["evaluate", "--length", "5", "--symbols", "12345678", "--repeats",
                      "--strategy", "entropy"], 1)
        print(f"{r['command']}: whole process {r['wall']:.1f} s, peak RSS "
              f"{r['peak_rss_mb']:.0f} MB (total {r['total']})")
    if args.big:
        for cmd in (["--length", "6", "--symbols", "0123456789"],
                    ["--length", "6", "--symbols", "123456789", "--repeats"]):
            r = time_cli(["evaluate", *cmd, "--strategy", "minimax"], 1)
            print(f"{r['command']}: whole process {r['wall']:.1f} s, peak RSS "
                  f"{r['peak_rss_mb']:.0f} MB (total {r['total']})")


if __name__ == "__main__":
    main()
