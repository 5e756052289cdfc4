"""Benchmark the native scoring core against the issue's targets (run by hand).

    python scripts/bench/bench_scoring.py [--repeat 7]

Prints the median of ``repeat`` runs for each row, side by side with the NumPy reference where
that is affordable, so the ratio is measured in one run on a noisy shared machine.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

import numpy as np

from cbsolve import CodeSpace, Variant
from cbsolve.game import scoring as S


def median_seconds(fn, repeat: int) -> tuple[float, float]:
    """Median wall and median CPU seconds (CPU is steadier on a shared machine; for a parallel
    kernel it is the sum over threads)."""
    wall, cpu = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return statistics.median(wall), statistics.median(cpu)


def run(repeat: int = 7) -> list[tuple[str, tuple[float, float], str]]:
    """Rows of (what, (median wall, median CPU) seconds, target)."""
    rows = []
    bc = Variant.preset("bulls-cows")
    bc_codes = S.pack(bc, CodeSpace(bc).codes)
    out = np.empty((len(bc_codes), len(bc_codes)), dtype=np.uint8)
    S.score_matrix(bc, bc_codes, bc_codes, out=out)  # warm-up (OpenMP threads, packing)
    rows.append(("score matrix B&C 4/10 5040x5040 (reused buffer)",
                 median_seconds(lambda: S.score_matrix(bc, bc_codes, bc_codes, out=out), repeat), "<= 30 ms"))
    rows.append(("  same, fresh allocation",
                 median_seconds(lambda: S.score_matrix(bc, bc_codes, bc_codes), repeat), ""))
    rows.append(("  NumPy reference, 500 rows (x10.08 for all)",
                 median_seconds(lambda: S.score_matrix(bc, bc_codes.codes[:500], bc_codes,
                                                       backend="numpy"), 1), ""))
    print(f"memory of the 4/10 matrix: {out.nbytes / 1e6:.1f} MB (target <= 26 MB)")
    mm = Variant.preset("mastermind")
    mm_codes = S.pack(mm, CodeSpace(mm).codes)
    mm_out = np.empty((len(mm_codes), len(mm_codes)), dtype=np.uint8)
    rows.append(("score matrix Mastermind 4/6 1296x1296",
                 median_seconds(lambda: S.score_matrix(mm, mm_codes, mm_codes, out=mm_out), repeat),
                 "<= 3 ms"))
    rows.append(("partition counts B&C 5040 guesses x 5040 candidates",
                 median_seconds(lambda: S.partition_counts(bc, bc_codes, bc_codes), repeat), "<= 30 ms"))
    rows.append(("  from the precomputed matrix",
                 median_seconds(lambda: S.partition_counts_from_matrix(
                     out, np.arange(5040), np.arange(5040), bc.response_slots), repeat), ""))
    five = Variant(5, "0123456789", repeats=False)
    five_codes = S.pack(five, CodeSpace(five).codes)
    guess = S.pack(five, five_codes.codes[1234])
    S.score_against(five, guess, five_codes)
    rows.append(("one guess vs all 30240 codes of 5/10 distinct",
                 median_seconds(lambda: S.score_against(five, guess, five_codes), repeat * 10), "<= 0.2 ms"))
    cli = [sys.executable, "-m", "cbsolve", "score", "1234", "5678"]
    rows.append(("`python -m cbsolve score 1234 5678` end to end",
                 median_seconds(lambda: subprocess.run(cli, capture_output=True, check=True), 5), "<= 0.3 s"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    print(f"{'':58s} {'wall':>10s}    {'cpu':>10s}")
    for what, (wall, cpu), target in run(args.repeat):
        print(f"{what:58s} {wall * 1e3:10.3f} ms {cpu * 1e3:10.3f} ms   {target}")


if __name__ == "__main__":
    main()
