"""Start-up of the worst-case kernel: the occurring replies read off the n^2 reply matrix (as
the kernel did) against the list scoring.possible_responses gives it (as it does now).

Paired runs in one process on the same matrix, alternating, median of each; the matrix itself
(built once, not timed here) is the same for both.

    nice python scripts/bench_worst_startup.py            # Logik 5x8 and Bulls & Cows 5/10
"""
from __future__ import annotations

import argparse
import statistics
import time

from cbsolve._native.search_worst import WorstSearch
from cbsolve.codes import CodeSpace
from cbsolve.scoring import possible_responses, score_matrix
from cbsolve.variant import Variant

GAMES = {"Logik 5x8": Variant(5, "ABCDEFGH", True),
         "Bulls & Cows 5/10": Variant(5, "0123456789", False)}


def construct_seconds(variant: Variant, repeats: int) -> dict[str, float]:
    codes = CodeSpace(variant).codes
    matrix = score_matrix(variant, codes, codes)
    replies = possible_responses(variant)
    given = [variant.response_index(b, c) for b, c in replies]
    times: dict[str, list[float]] = {"matrix scan": [], "list given": []}
    for _ in range(repeats):
        for how, arg in (("matrix scan", []), ("list given", given)):
            start = time.perf_counter()
            core = WorstSearch(matrix, codes, variant.n_symbols, variant.no_leading_zero,
                               variant.response_slots, variant.win_response, len(replies), arg)
            times[how].append(time.perf_counter() - start)
            del core
    return {how: statistics.median(t) for how, t in times.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    print(f"{'game':20} {'codes':>7} {'matrix scan s':>14} {'list given s':>13}")
    for name, variant in GAMES.items():
        t = construct_seconds(variant, args.repeats)
        print(f"{name:20} {CodeSpace(variant).size:7d} {t['matrix scan']:14.3f} "
              f"{t['list given']:13.4f}", flush=True)


if __name__ == "__main__":
    main()
