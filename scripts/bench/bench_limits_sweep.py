"""Every game under one time limit: wall time and peak memory of whole `cbsolve` processes.

The contract (docs/contract.md, "Time limits") promises that a command ends within 0.5 s of its
``--time-limit`` and within a stated memory cap on every game, whatever N and D. This sweep
runs ``bounds --time-limit T`` (or ``next``, ``partition``, ``evaluate``) as a separate process
on each cell of N x D for Mastermind with repeats, without repeats (N <= D) and black-peg,
and records the wall time and the peak resident memory (the child's ``ru_maxrss``). Rows of
docs/benchmarks.md, "Limits on every game".

    python scripts/bench/bench_limits_sweep.py --lengths 1-20 --digits 2-10 --out sweep.csv
    python scripts/bench/bench_limits_sweep.py --command next --lengths 9-20 --digits 2-4

``--recompute`` is passed to ``bounds`` when the installed cbsolve knows it (the atlas would
otherwise answer at once and nothing would be measured).
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

#: Each cell's process is killed past this much address space (the contract's cap is 2 GB of
#: resident memory; the address space of a NumPy + OpenMP process is larger than its RSS).
ADDRESS_CAP = 8 << 30
#: A cell that has not ended by then is recorded as hung.
HANG_SECONDS = 120

RULES = {"repeats": ["--variant", "mastermind", "--repeats"],
         "distinct": ["--variant", "mastermind", "--distinct"],
         "black-peg": ["--variant", "black-peg", "--repeats"]}
EXTRA = {"bounds": [], "next": [], "evaluate": ["--strategy", "minimax"],
         "partition": []}


def span(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def cell_command(command: str, rule: str, n: int, d: int, limit: float,
                 recompute: bool) -> list[str]:
    args = [sys.executable, "-m", "cbsolve", command]
    if command == "partition":           # the lowest code of the game as the guess
        from cbsolve.game.variant import Variant

        variant = Variant.from_options(RULES[rule][1], length=n, digits=d,
                                       repeats=rule != "distinct")
        args.append(variant.symbols[0] * n if rule != "distinct" else variant.symbols[:n])
    args += [*RULES[rule], "--length", str(n), "--digits", str(d), "--time-limit", str(limit),
             "--json", *EXTRA[command]]
    if command == "bounds" and recompute:
        args.append("--recompute")
    return args


def run_cell(args: list[str]) -> dict:
    """Wall seconds, peak RSS (MB) and exit code of one process."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_CAP, ADDRESS_CAP))

    start = time.perf_counter()
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=HANG_SECONDS,
                              preexec_fn=cap)
        code, err = done.returncode, done.stderr.strip().splitlines()[-1:] if done.stderr else []
    except subprocess.TimeoutExpired:
        code, err = "hung", []
    wall = time.perf_counter() - start
    # ru_maxrss of the children is a running maximum over every child waited for: each cell
    # is therefore run from a fresh Python process of its own (measure)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {"wall": round(wall, 2), "peak_mb": round(peak / 1024, 1),
            "exit": code, "stderr": err[0] if err else ""}


def measure(args: list[str]) -> dict:
    """:func:`run_cell` in a fresh Python child, so that its peak is its own."""
    probe = (f"import json,sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); "
             f"from bench_limits_sweep import run_cell; print(json.dumps(run_cell({args!r})))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    return json.loads(done.stdout)


def knows_recompute() -> bool:
    done = subprocess.run([sys.executable, "-m", "cbsolve", "bounds", "--help"],
                          capture_output=True, text=True)
    return "--recompute" in done.stdout


def sweep(command: str, rules, lengths, digits, limit: float, out: Path | None,
          slack: float, mem_mb: float) -> list[dict]:
    recompute = command == "bounds" and knows_recompute()
    rows, writer = [], None
    handle = out.open("w", newline="") if out else None
    for rule in rules:
        for n in lengths:
            for d in digits:
                if rule == "distinct" and n > d:
                    continue
                row = {"command": command, "rule": rule, "length": n, "digits": d,
                       "limit": limit, **measure(cell_command(command, rule, n, d, limit,
                                                              recompute))}
                row["ok"] = (row["exit"] in (0, 1) and row["wall"] <= limit + slack
                             and row["peak_mb"] <= mem_mb)
                rows.append(row)
                print(f"{rule:9} {n:2}x{d:<2} {row['wall']:6.2f} s {row['peak_mb']:7.1f} MB "
                      f"exit {row['exit']}{'' if row['ok'] else '  <-- over'}", flush=True)
                if handle:
                    if writer is None:
                        writer = csv.DictWriter(handle, fieldnames=list(row))
                        writer.writeheader()
                    writer.writerow(row)
                    handle.flush()
    if handle:
        handle.close()
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--command", choices=sorted(EXTRA), default="bounds")
    ap.add_argument("--rules", default="repeats,distinct,black-peg")
    ap.add_argument("--lengths", default="1-20")
    ap.add_argument("--digits", default="2-10")
    ap.add_argument("--time-limit", type=float, default=2.0)
    ap.add_argument("--slack", type=float, default=0.5,
                    help="seconds past the limit a whole process may take (start-up included)")
    ap.add_argument("--memory-mb", type=float, default=2048)
    ap.add_argument("--out", type=Path)
    a = ap.parse_args(argv)
    rows = sweep(a.command, a.rules.split(","), span(a.lengths), span(a.digits), a.time_limit,
                 a.out, a.slack, a.memory_mb)
    over = [r for r in rows if not r["ok"]]
    worst = max(rows, key=lambda r: r["wall"]) if rows else None
    heaviest = max(rows, key=lambda r: r["peak_mb"]) if rows else None
    print(f"{len(rows)} cells, {len(over)} over; slowest {worst['rule']} {worst['length']}x"
          f"{worst['digits']} {worst['wall']} s; heaviest {heaviest['rule']} "
          f"{heaviest['length']}x{heaviest['digits']} {heaviest['peak_mb']} MB; load "
          f"{os.getloadavg()[0]:.1f}" if rows else "no cells")
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main())
