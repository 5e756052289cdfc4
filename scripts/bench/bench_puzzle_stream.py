"""Benchmark ``cbsolve puzzle --count K --jsonl``: puzzles a second of the whole process
(docs/benchmarks.md, "Puzzle streams"; the target: >= 2,000 medium puzzles a second on
Bulls & Cows 4/10).

    python scripts/bench/bench_puzzle_stream.py                    # 10,000 medium, BC 4/10
    python scripts/bench/bench_puzzle_stream.py --count 2000 --difficulty hard --runs 3
    python scripts/bench/bench_puzzle_stream.py --single 20        # also: one process a puzzle

Each run starts ``python -m cbsolve puzzle --count K --jsonl`` as a child (interpreter start,
imports, the reply matrix and writing every line included), reads its lines, checks that each
is verified and of the difficulty asked, and reports puzzles a second by wall clock and by
the child's CPU time (user + system: on a loaded machine the wall time stretches with the
load, the CPU time far less), with the load average before and after. ``--single N`` times N
command lines of one puzzle each: what the stream replaces.
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

ROOT = Path(__file__).resolve().parents[2]


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_stream(count: int, difficulty: str = "medium", seed: int = 0,
               variant: str = "bulls-cows") -> dict:
    """One whole-process run: wall and CPU seconds, and the lines checked."""
    cmd = [sys.executable, "-m", "cbsolve", "puzzle", "--count", str(count), "--jsonl",
           "--seed", str(seed), "--difficulty", difficulty, "--variant", variant]
    load = os.getloadavg()[0]
    cpu0, t0 = _child_cpu(), time.perf_counter()
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    wall, cpu = time.perf_counter() - t0, _child_cpu() - cpu0
    docs = [json.loads(line) for line in out.splitlines()]
    assert len(docs) == count, f"{len(docs)} lines for {count} puzzles"
    assert all(d["verified"] and d["difficulty"] == difficulty for d in docs)
    return {"count": count, "difficulty": difficulty, "variant": variant, "wall": wall,
            "cpu": cpu, "per_second_wall": count / wall, "per_second_cpu": count / cpu,
            "load_before": load, "load_after": os.getloadavg()[0],
            "attempts": statistics.mean(d["attempts"] for d in docs)}


def run_single(n: int, difficulty: str = "medium") -> dict:
    """``n`` command lines of one puzzle each (seeds 0..n-1)."""
    cpu0, t0 = _child_cpu(), time.perf_counter()
    for seed in range(n):
        subprocess.run([sys.executable, "-m", "cbsolve", "puzzle", "--seed", str(seed),
                        "--difficulty", difficulty, "--json"], cwd=ROOT, capture_output=True,
                       check=True)
    wall, cpu = time.perf_counter() - t0, _child_cpu() - cpu0
    return {"count": n, "wall": wall, "cpu": cpu, "per_second_wall": n / wall,
            "per_second_cpu": n / cpu}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--difficulty", default="medium")
    parser.add_argument("--variant", default="bulls-cows")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--single", type=int, default=0, metavar="N")
    args = parser.parse_args(argv)
    print(f"{'run':>4} {'puzzles':>8} {'wall s':>7} {'cpu s':>6} {'/s wall':>8} "
          f"{'/s cpu':>7} {'load':>11} draws/puzzle")
    for i in range(args.runs):
        r = run_stream(args.count, args.difficulty, seed=i * args.count, variant=args.variant)
        print(f"{i + 1:>4} {r['count']:>8} {r['wall']:>7.2f} {r['cpu']:>6.2f} "
              f"{r['per_second_wall']:>8.0f} {r['per_second_cpu']:>7.0f} "
              f"{r['load_before']:>5.1f}-{r['load_after']:<5.1f} {r['attempts']:.2f}")
    if args.single:
        r = run_single(args.single, args.difficulty)
        print(f"one process a puzzle: {r['count']} in {r['wall']:.2f} s wall, {r['cpu']:.2f} s "
              f"CPU: {r['per_second_wall']:.1f}/s wall, {r['per_second_cpu']:.1f}/s CPU")


if __name__ == "__main__":
    main()
