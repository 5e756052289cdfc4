"""Where a new guess's expected regret spends its time: the exact solves of its reply classes,
by class size (docs/benchmarks.md, "A guess's cost: one exact engine").

    python scripts/bench/regret_profile.py                    # 30 positions x 30 guesses
    python scripts/bench/regret_profile.py --positions 8 --guesses 20 --seed 0

Bulls & Cows 4/10 positions of two random entries and at most 100 candidates
(``bench_api.small_positions``), each solved first (its table filled, as regret does); then
for random guesses each reply class is solved by one call of the expected-case kernel, in the
order ``Solver.guess_value`` takes them (smallest first, the table shared), and its thread CPU
time and nodes are summed by class size. The guess's cost (n + the class totals) is summed
into a checksum, so two trees can be compared on the same answers.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import cbsolve as cb

SIZES = [(0, 9), (10, 19), (20, 29), (30, 49), (50, 100)]


def profile(positions: int = 30, guesses: int = 30, seed: int = 7) -> dict:
    """Per class-size bucket: classes, CPU seconds, nodes; per guess: the CPU of its classes."""
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_api import small_positions

    from cbsolve.runtime.deadline import Deadline
    from cbsolve.game.feedback import FeedbackLog
    from cbsolve.advisor.exact_cost import PositionCores, worst_core
    from cbsolve.search.position import Position
    from cbsolve.strategy.exact import cached_search

    v = cb.Variant.preset("bulls-cows")
    search = cached_search(v)
    solver = search.solver
    rng = np.random.default_rng(1)
    buckets = {b: [0, 0.0, 0] for b in SIZES}
    per_guess, checksum = [], 0
    for log in small_positions(positions, seed):
        cores = PositionCores(search, lambda: worst_core(search),
                              Position.from_log(FeedbackLog.parse(v, log)))
        cores.expected_optimum(Deadline(None))
        for g in rng.integers(search.matrix.shape[0], size=guesses):
            history = [*cores.history, int(g)]
            played, native = search.played_mask(history), search.native_history(history)
            replies = search.replies(int(g), cores.members)
            classes = sorted((cores.members[replies == r] for r in np.unique(replies)
                              if r != v.win_response), key=len)
            spent, total = 0.0, cores.size
            for members in classes:
                members = np.ascontiguousarray(members, dtype=np.int32)
                nodes, t0 = solver.nodes, time.thread_time()
                value = solver.solve(members, search.depth, 1 << 60, 1 << 30, played, None,
                                     native)
                dt = time.thread_time() - t0
                bucket = next(b for b in SIZES if b[0] <= members.size <= b[1])
                buckets[bucket][0] += 1
                buckets[bucket][1] += dt
                buckets[bucket][2] += solver.nodes - nodes
                spent += dt
                total += int(value[0])
            per_guess.append(spent)
            checksum += total
    return {"buckets": buckets, "per_guess": per_guess, "checksum": checksum}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--guesses", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7, help="Seed of the positions.")
    args = parser.parse_args(argv)
    out = profile(args.positions, args.guesses, args.seed)
    times = out["per_guess"]
    print(f"{len(times)} guesses: median {statistics.median(times) * 1e6:.0f} us, mean "
          f"{statistics.fmean(times) * 1e6:.0f} us of class solves; checksum {out['checksum']}")
    spent = sum(b[1] for b in out["buckets"].values()) or 1.0
    for (lo, hi), (k, seconds, nodes) in out["buckets"].items():
        if k:
            print(f"  classes of {lo}-{hi} secrets: {k} x {seconds / k * 1e6:.0f} us "
                  f"({100 * seconds / spent:.0f} %), {nodes / k:.1f} nodes each")


if __name__ == "__main__":
    main()
