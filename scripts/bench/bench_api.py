"""Benchmark the public API's speed targets (docs/benchmarks.md, "Public API").

    python scripts/bench/bench_api.py                     # every row, small defaults
    python scripts/bench/bench_api.py --rows step,regret --repeat 400
    python scripts/bench/bench_api.py --rows regret --vs /path/to/other/tree --pairs 3

Rows (medians unless named; each with its target):

- ``import``: ``import cbsolve`` in a fresh interpreter (in-process seconds; target <= 0.1 s);
- ``step``: ``env.step`` of ``gymnasium.make("cbsolve/BullsCows-v0")`` under random actions
  and under consistent play, each reward kind (target <= 1 ms);
- ``puzzle``: a unique-secret puzzle on Bulls & Cows 4/10 (target <= 0.1 s) and Mastermind
  6x9 (target <= 2 s), per difficulty, over seeds, the code list already built;
- ``regret``: ``cb.regret`` on Bulls & Cows 4/10 positions of at most 100 candidates: the
  first call in a fresh interpreter (it builds the exact core, then solves the position), and
  for each objective (expected, worst) the first call at a position (it solves the position),
  a new guess there, the same guess again (target <= 100 us);
- ``count``: exact counts by the native filter, codes a second (target >= 10^7), the first
  call of a variant (it lists the codes) and later ones.

Pure functions plus ``main()``; figures printed as a table: the wall-clock median and max,
and the median and mean CPU time of the same calls (process CPU: every thread of it; on a loaded
machine the wall time of a call stretches with the load, its CPU time far less).

``--vs TREE``: the same rows, same positions and guesses, run in turn by this tree and by the
source tree TREE (``PYTHONPATH``; this script's code for both), ``--pairs`` times each; prints
each row's CPU median for both (the median over runs) and the ratio (the median of the
pairs' ratios).
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

import numpy as np

import cbsolve as cb
from cbsolve.game.feedback import random_log


def _median_max(values: list[float]) -> tuple[float, float]:
    return statistics.median(values), max(values)


class Timer:
    """Wall and CPU seconds of each timed call (a loaded machine stretches the wall time of a
    call far more than its CPU time: both are reported)."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def __enter__(self) -> Timer:
        self._t, self._c = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc) -> None:
        self.wall.append(time.perf_counter() - self._t)
        self.cpu.append(time.process_time() - self._c)

    def __len__(self) -> int:
        return len(self.wall)

    def row(self, label: str, target: str) -> dict:
        return {"row": label, "median": statistics.median(self.wall), "max": max(self.wall),
                "cpu": statistics.median(self.cpu), "cpu_mean": statistics.fmean(self.cpu),
                "unit": "s", "target": target}


def bench_import(repeat: int = 7) -> list[dict]:
    code = ("import time; t, c = time.perf_counter(), time.process_time(); import cbsolve; "
            "print(time.perf_counter() - t, time.process_time() - c)")
    times = [[float(x) for x in subprocess.run([sys.executable, "-c", code], capture_output=True,
                                               text=True, check=True).stdout.split()]
             for _ in range(repeat)]
    med, worst = _median_max([w for w, _ in times])
    return [{"row": "import cbsolve (in a fresh interpreter)", "median": med, "max": worst,
             "cpu": statistics.median(c for _, c in times), "unit": "s", "target": "<= 0.1 s"}]


def bench_step(repeat: int = 300, seed: int = 0) -> list[dict]:
    import gymnasium

    import cbsolve.gym  # noqa: F401  (registers the ids)

    rows = []
    for reward in ("guess", "information"):
        for policy in ("random", "consistent"):
            env = gymnasium.make("cbsolve/BullsCows-v0", reward=reward)
            rng = np.random.default_rng(seed)
            _, info = env.reset(seed=seed)
            timer = Timer()
            while len(timer) < repeat:
                mask = info["action_mask"]
                a = (int(rng.integers(env.action_space.n)) if policy == "random"
                     else int(rng.choice(np.flatnonzero(mask))))
                with timer:
                    _, _, term, trunc, info = env.step(a)
                if term or trunc:
                    _, info = env.reset()
            rows.append(timer.row(f"env.step Bulls & Cows 4/10, reward {reward}, {policy} actions",
                                  "<= 1 ms"))
    return rows


PUZZLES = [("Bulls & Cows 4/10", cb.Variant.preset("bulls-cows"), "<= 0.1 s"),
           ("Mastermind 6x9", cb.Variant(6, "123456789", repeats=True), "<= 2 s")]


def bench_puzzle(seeds: int = 10) -> list[dict]:
    rows = []
    for label, variant, target in PUZZLES:
        assert cb.CodeSpace(variant).codes.size    # listed once per variant, as in a long run
        for difficulty in ("easy", "medium", "hard"):
            timer = Timer()
            for seed in range(seeds):
                with timer:
                    cb.puzzle(variant, seed=seed, difficulty=difficulty, distractors=3)
            rows.append(timer.row(f"puzzle {label}, {difficulty}", target))
    return rows


def small_positions(k: int, seed: int = 0, most: int = 100) -> list[list[str]]:
    """``k`` Bulls & Cows 4/10 logs of two random guesses leaving 2..``most`` candidates."""
    v = cb.Variant.preset("bulls-cows")
    out, s = [], seed
    while len(out) < k:
        log, _ = random_log(v, 2, s)
        s += 1
        n = cb.consistent(log, count=True, limit=0).count
        if 2 <= n <= most:
            out.append(log.tokens())
    return out


def bench_regret(positions: int = 8, guesses: int = 20, seed: int = 0) -> list[dict]:
    v = cb.Variant.preset("bulls-cows")
    space = cb.CodeSpace(v)
    rng = np.random.default_rng(seed)
    cb.regret("0123", ["4567:1,1"])            # builds the exact core (reply matrix) once
    logs = small_positions(positions, seed)
    picks = [[space.format(space.codes[int(i)]) for i in rng.integers(space.size, size=guesses)]
             for _ in logs]
    target = "<= 100 us"
    cold = bench_regret_cold(small_positions(3, seed + 100))
    rows = [cold]
    for objective in ("expected", "worst"):
        first, fresh, again = Timer(), Timer(), Timer()
        for log, gs in zip(logs, picks, strict=True):
            with first:
                cb.regret(gs[0], log, objective=objective)
            for g in gs[1:]:
                with fresh:
                    r = cb.regret(g, log, objective=objective)
                assert r.exact
                with again:
                    cb.regret(g, log, objective=objective)
        rows += [first.row(f"regret {objective}, first guess at a position (<= 100 candidates, "
                           f"{positions} positions: it solves the position)", "<= 1 ms"),
                 fresh.row(f"regret {objective}, a new guess at a solved position", target),
                 again.row(f"regret {objective}, the same guess again", target)]
    return rows


def bench_regret_cold(logs: list[list[str]]) -> dict:
    """The first ``cb.regret`` call of a fresh interpreter, one per log (in-process seconds:
    the exact core's set-up and the position's solve, not the interpreter's start)."""
    code = ("import sys, time, cbsolve as cb; log = sys.argv[1].split(); "
            "t, c = time.perf_counter(), time.process_time(); cb.regret('0145', log); "
            "print(time.perf_counter() - t, time.process_time() - c)")
    times = [[float(x) for x in subprocess.run([sys.executable, "-c", code, " ".join(log)],
                                               capture_output=True, text=True,
                                               check=True).stdout.split()]
             for log in logs]
    return {"row": f"regret, the first call of a fresh interpreter ({len(logs)} positions)",
            "median": statistics.median(w for w, _ in times), "max": max(w for w, _ in times),
            "cpu": statistics.median(c for _, c in times), "unit": "s", "target": "<= 100 us"}


COUNTS = [("6 of 10 digits, repeats (10^6 codes)", cb.Variant(6, "0123456789", True)),
          ("6 of 9 symbols, repeats (531,441 codes)", cb.Variant(6, "123456789", True)),
          ("7 of 7 symbols, repeats (823,543 codes)", cb.Variant(7, "1234567", True))]


def bench_count(repeat: int = 3, guesses: int = 2) -> list[dict]:
    rows = []
    for label, variant in COUNTS:
        size = cb.CodeSpace(variant).size
        log, _ = random_log(variant, guesses, 1)
        timer = Timer()
        for _ in range(repeat + 1):
            with timer:
                r = cb.consistent(log, count=True, limit=0, backend="native")
        assert r.exact
        first = size / timer.wall[0]
        rows.append({"row": f"exact count, native filter, {label}, first call (lists the codes)",
                     "median": first, "max": first, "cpu": size / timer.cpu[0],
                     "unit": "codes/s", "target": ">= 1e7"})
        rate = [size / t for t in timer.wall[1:]]
        rows.append({"row": f"exact count, native filter, {label}, later calls",
                     "median": statistics.median(rate), "max": max(rate),
                     "cpu": statistics.median(size / t for t in timer.cpu[1:]),
                     "unit": "codes/s", "target": ">= 1e7"})
    return rows


ROWS = {"import": bench_import, "step": bench_step, "puzzle": bench_puzzle,
        "regret": bench_regret, "count": bench_count}


def _fmt(value: float, unit: str) -> str:
    if unit == "codes/s":
        return f"{value:.3g}"
    return f"{value * 1e6:.0f} us" if value < 1e-3 else f"{value * 1e3:.2f} ms"


def run_rows(rows: str, tree: str) -> list[dict]:
    """The rows measured by this script in a child interpreter importing cbsolve from ``tree``."""
    import json
    import os

    env = {**os.environ, "PYTHONPATH": tree}
    out = subprocess.run([sys.executable, __file__, "--rows", rows, "--json"], env=env, cwd=tree,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.splitlines()[-1])


def compare(rows: str, other: str, pairs: int) -> None:
    """Prints each row's CPU median in this tree (A) and in ``other`` (B), run in turn."""
    from pathlib import Path

    here = str(Path(__file__).resolve().parents[2])
    runs = [(run_rows(rows, here), run_rows(rows, other)) for _ in range(pairs)]
    print(f"A = {here}, B = {other}, {pairs} pairs (A then B); CPU medians (and means, where "
          "a row has them)")
    print(f"{'row':<80} {'A':>10} {'B':>10} {'A/B':>6} {'A mean':>10} {'B mean':>10}")
    for i, row in enumerate(runs[0][0]):
        a = [r[i]["cpu"] for r, _ in runs]
        b = [r[i]["cpu"] for _, r in runs]
        ratio = statistics.median(x / y for x, y in zip(a, b, strict=True) if y > 0)
        means = ""
        if "cpu_mean" in row and all("cpu_mean" in r[i] for pair in runs for r in pair):
            means = "".join(f" {_fmt(statistics.median(r[i]['cpu_mean'] for r in side), row['unit']):>10}"
                            for side in ([r for r, _ in runs], [r for _, r in runs]))
        print(f"{row['row']:<80} {_fmt(statistics.median(a), row['unit']):>10} "
              f"{_fmt(statistics.median(b), row['unit']):>10} {ratio:>6.2f}{means}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default=",".join(ROWS), help=f"Rows: {', '.join(ROWS)}.")
    parser.add_argument("--vs", metavar="TREE", help="Also run the rows with cbsolve from TREE.")
    parser.add_argument("--pairs", type=int, default=2, help="Runs of each tree with --vs.")
    parser.add_argument("--json", action="store_true", help="Print the rows as one JSON line.")
    args = parser.parse_args(argv)
    import os

    from cbsolve.runtime.machine import describe

    if args.json:
        import json

        print(json.dumps([row for name in args.rows.split(",") for row in ROWS[name.strip()]()]))
        return
    print(describe(), f"load {os.getloadavg()[0]:.1f}")
    if args.vs:
        compare(args.rows, args.vs, args.pairs)
        return
    print(f"{'row':<80} {'median':>12} {'max':>12} {'CPU median':>12} {'CPU mean':>12}  target")
    for name in args.rows.split(","):
        for row in ROWS[name.strip()]():
            mean = _fmt(row["cpu_mean"], row["unit"]) if "cpu_mean" in row else "-"
            print(f"{row['row']:<80} {_fmt(row['median'], row['unit']):>12} "
                  f"{_fmt(row['max'], row['unit']):>12} {_fmt(row['cpu'], row['unit']):>12} "
                  f"{mean:>12}  {row['target']}")


if __name__ == "__main__":
    main()
