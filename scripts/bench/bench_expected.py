"""Benchmark of the exact expected-case search (cbsolve.search.expected).

Times, side by side in one run: Mastermind 4/6 (optimum 5625, Koyama–Lai 1993), the same with
at most 5 guesses (5626), and Bulls & Cows 4/10 (26274, Tanaka 1996) under a time limit, which
reports the interval proved when the limit is hit. Wall-clock and CPU seconds (the machine is
shared: CPU time is the steadier figure), peak memory of the process.

    python scripts/bench/bench_expected.py                  # all three, Bulls & Cows capped at 300 s
    python scripts/bench/bench_expected.py --bc-limit 0     # Mastermind only
"""
from __future__ import annotations

import argparse
import resource
import time

from cbsolve.runtime.deadline import Deadline
from cbsolve.search.expected import solve_expected
from cbsolve.game.variant import Variant


def bench(bc_limit: float = 300.0, workers: int = 2, repeat: int = 3) -> list[dict]:
    """Rows {case, seconds (median wall), cpu (its CPU seconds), total, lower, upper, proved,
    nodes} for each case."""
    mm = Variant.preset("mastermind")
    cases = [("mastermind 4/6", mm, None, None, repeat),
             ("mastermind 4/6, max depth 5", mm, 5, None, repeat)]
    if bc_limit > 0:
        cases.append(("bulls-cows 4/10", Variant.preset("bulls-cows"), None, bc_limit, 1))
    rows = []
    for name, variant, depth, limit, runs in cases:
        times, result = [], None
        for _ in range(runs):
            start, cpu = time.perf_counter(), time.process_time()
            result = solve_expected(variant, max_depth=depth, deadline=Deadline.from_limit(limit),
                                    workers=workers, progress=False)
            times.append((time.perf_counter() - start, time.process_time() - cpu))
        wall, cpu = sorted(times)[len(times) // 2]
        rows.append({"case": name, "seconds": wall, "cpu": cpu,
                     "total": result.total, "lower": result.lower, "upper": result.upper,
                     "proved": result.proved, "nodes": result.nodes})
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bc-limit", type=float, default=300.0,
                        help="time limit for Bulls & Cows 4/10 in seconds (0: skip)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3, help="runs per Mastermind case (median)")
    args = parser.parse_args(argv)
    print(f"{'case':30} {'wall s':>8} {'cpu s':>8} {'total':>7} {'bounds':>16} {'proved':>6} "
          f"{'nodes':>9}")
    for row in bench(args.bc_limit, args.workers, args.repeat):
        bounds = f"[{row['lower']}, {row['upper']}]"
        print(f"{row['case']:30} {row['seconds']:8.2f} {row['cpu']:8.2f} {row['total']!s:>7} {bounds:>16} "
              f"{row['proved']!s:>6} {row['nodes']:>9}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MB, workers {args.workers}")


if __name__ == "__main__":
    main()
