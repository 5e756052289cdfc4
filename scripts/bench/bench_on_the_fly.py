"""Exact searches with the reply matrix against replies scored on the fly (docs/optimal.md,
"Past the reply matrix").

Each run is a child process (its peak memory, max RSS, is its own): the game, the objective,
the reply source (``matrix``, ``on-the-fly``, or ``tight``: on the fly at the smallest budget,
so the upper nodes score their pairs without a row table), workers and a time limit. Prints one
Markdown row per run: the answer (interval), wall and CPU seconds, nodes, peak memory.

    nice python scripts/bench/bench_on_the_fly.py                 # the comparison games
    nice python scripts/bench/bench_on_the_fly.py --large 300     # also the games past the matrix
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: (label, length, symbols, repeats, objective, sources, time limit)
COMPARE = [
    ("Bulls & Cows 4/10", 4, "0123456789", False, "worst", ("matrix", "on-the-fly", "tight"), None),
    ("Mastermind 5x6", 5, "123456", True, "worst", ("matrix", "on-the-fly", "tight"), None),
    ("Mastermind 5x5", 5, "12345", True, "expected", ("matrix", "on-the-fly", "tight"), None),
]
#: games whose matrix does not fit the default budget (6 GiB on the project machine)
LARGE = [
    ("Mastermind 6x7", 6, "1234567", True, "worst", ("auto",)),
    ("Bulls & Cows 5/12", 5, "0123456789AB", False, "worst", ("auto",)),
]

CHILD = r"""
import json, resource, sys, time
from cbsolve import Variant
from cbsolve.game.codes import CodeSpace
from cbsolve.runtime.deadline import Deadline
from cbsolve.search import memory
from cbsolve.search.expected import solve_expected
from cbsolve.search.worst import solve_worst
length, symbols, repeats, objective, source, limit, workers = json.loads(sys.argv[1])
v = Variant(length, symbols, repeats)
budget = None
if source == "tight":
    budget = memory.needed_on_the_fly(CodeSpace(v).size, objective, workers)
    source = "on-the-fly"
deadline = Deadline.from_limit(limit)
t, c = time.perf_counter(), time.process_time()
if objective == "worst":
    r = solve_worst(v, replies=source, memory_budget=budget, workers=workers, deadline=deadline)
else:
    r = solve_expected(v, replies=source, memory_budget=budget, workers=workers,
                       deadline=deadline, progress=False)
print(json.dumps({"lower": r.lower, "upper": r.upper, "proved": r.proved, "nodes": r.nodes,
                  "source": r.reply_source, "wall": time.perf_counter() - t,
                  "cpu": time.process_time() - c,
                  "maxrss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run(length, symbols, repeats, objective, source, limit, workers) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", CHILD,
                          json.dumps([length, symbols, repeats, objective, source, limit, workers])],
                         cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--large", type=float, default=None, metavar="SECONDS",
                    help="also run the games past the matrix with this time limit")
    ap.add_argument("--only", default="", metavar="TEXT", help="the games whose label has TEXT")
    args = ap.parse_args()
    print("| game | objective | replies | answer | wall s | CPU s | nodes | peak MiB |")
    print("|---|---|---|---|---:|---:|---:|---:|")
    todo = [(*g[:6], g[6]) for g in COMPARE]
    if args.large:
        todo += [(*g, args.large) for g in LARGE]
    for label, length, symbols, repeats, objective, sources, limit in todo:
        if args.only not in label:
            continue
        for source in sources:
            r = run(length, symbols, repeats, objective, source, limit, args.workers)
            answer = (str(r["lower"]) if r["proved"] else f"[{r['lower']}, {r['upper']}]")
            print(f"| {label} | {objective} | {source} ({r['source']}) | {answer} | "
                  f"{r['wall']:.1f} | {r['cpu']:.1f} | {r['nodes']:,} | {r['maxrss_mib']:.0f} |",
                  flush=True)


if __name__ == "__main__":
    main()
