"""Benchmark the kernels the native toolkit touches, two source trees side by side.

Each workload runs in a fresh process with a tree's ``cbsolve`` and its built ``.so`` files,
the two trees' processes at the same time (``ab.together``), ``--repeats`` rounds; the table gives
the median seconds of each and the geometric mean of the rounds' ratios (this tree / the
other). Run together, both see the same load of a shared machine: the local search's ratio,
which wandered by +-15% with the trees run one after the other, stayed within +-5%; workloads
under a second still move by +-10% at a load average of 6-10. Absolute times are inflated by
the pair sharing the cores. The workloads: the depth-first search counting and listing
Bulls-and-Cows-family logs (N = 16, 10 digits, repeats), the local search on N = 40 (fixed
flips), the worst-case search on Mastermind 4/6 (whole, with certificate, one worker) and Bulls &
Cows 4/10 (decision and tree), the expected-case search on Mastermind 4/6 and on 3 distinct
digits of 10.

    python scripts/bench/bench_toolkit.py --other /path/to/other/checkout [--repeats 3] [--only dfs]
"""
from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

import ab

WORKLOADS = {
    "dfs count N16": "dfs_count",
    "dfs list N16": "dfs_list",
    "local search N40": "local_search",
    "worst Mastermind": "worst_mm",
    "worst Bulls & Cows (no cert.)": "worst_bc",
    "expected Mastermind": "expected_mm",
    "expected 3 of 10 distinct": "expected_3",
}

CHILD = r'''
import json, string, sys, time
import numpy as np
from cbsolve.game.codes import CodeSpace
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.rule import score
from cbsolve.game.variant import Variant

def log_of(v, k, seed):
    rng = np.random.default_rng(seed)
    space = CodeSpace(v)
    secret, *guesses = space.random_codes(k + 1, rng)
    log = FeedbackLog(v)
    for g in guesses:
        log.add(space.format(g), *score(v, secret, g))
    return log

def dfs_count():
    from cbsolve.consistency import dfs
    for seed in range(3):
        dfs.run(log_of(Variant(16, string.digits, True), 9, seed), dfs.COUNT, seconds=None)

def dfs_list():
    from cbsolve.consistency import dfs
    for seed in range(3):
        dfs.run(log_of(Variant(16, string.digits, True), 9, seed), dfs.LIST, 50_000, seconds=None)

def local_search():
    from cbsolve.consistency.portfolio import LocalSearch
    for seed in range(3):
        LocalSearch(log_of(Variant(40, string.digits, True), 20, seed), seed).run(
            None, max_flips=20_000, want=10**6)

def worst_mm():
    from cbsolve.search.worst import solve_worst
    for _ in range(5):
        solve_worst(Variant.preset("mastermind"), workers=1)

def worst_bc():
    from cbsolve.search.worst import solve_worst
    solve_worst(Variant.preset("bulls-cows"), workers=2, certificate=False)

def expected_mm():
    from cbsolve.search.expected import solve_expected
    solve_expected(Variant.preset("mastermind"), workers=2, progress=False)

def expected_3():
    from cbsolve.search.expected import solve_expected
    for _ in range(5):
        solve_expected(Variant(3, string.digits, False), workers=1, progress=False)

work = globals()[sys.argv[1]]
t0 = time.perf_counter()
work()
print(json.dumps(time.perf_counter() - t0))
'''


def run_pair(roots: tuple[Path, Path], work: str) -> list[float]:
    """The workload's seconds in each tree (as the child times it), both at the same time."""
    return [json.loads(r.last_line()) for r in ab.together(list(roots), ["-c", CHILD, work])]


def bench(here: Path, other: Path, repeats: int, only: str | None) -> list[dict]:
    rows = []
    for label, work in WORKLOADS.items():
        if only and only not in work:
            continue
        rounds = [run_pair((other, here), work) for _ in range(repeats)]
        theirs, mine = [r[0] for r in rounds], [r[1] for r in rounds]
        ratio = ab.ratio(mine, theirs)
        rows.append({"workload": label, "this_s": round(statistics.median(mine), 3),
                     "other_s": round(statistics.median(theirs), 3), "ratio": round(ratio, 3)})
        print(f"{label:32s} {rows[-1]['other_s']:8.3f} s  {rows[-1]['this_s']:8.3f} s  "
              f"ratio {ratio:.3f}", flush=True)
    return rows


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--other", required=True, help="the other tree's root (built .so files)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", default=None, help="run only the workloads whose name has this")
    args = ap.parse_args(argv)
    print(f"{'workload':32s} {'other':>10s}  {'this':>10s}  (median of {args.repeats})")
    bench(ab.THIS, Path(args.other).resolve(), args.repeats,
          args.only)


if __name__ == "__main__":
    main()
