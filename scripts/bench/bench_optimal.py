"""Benchmark the exact optimal searches: time per phase, workers side by side, verification.

Pure function :func:`bench` plus :func:`main`. Small default (Mastermind 4/6); ``--full`` adds
Bulls & Cows 4/10 (worst case with its lower-bound certificate, target <= 30 s), ``--expected``
adds the expected-case solver where it is installed, ``--ties`` the worst objective's proved
tie-breaks (``solve_worst(ties=True)``: fewest secrets at the worst depth, then the total;
``--ties-limit`` bounds it). On a shared machine compare the rows of one run (ratios), not runs
of different days; CPU seconds and the load average are printed with the wall time.

    python scripts/bench/bench_optimal.py
    python scripts/bench/bench_optimal.py --full --workers 1 2
    python scripts/bench/bench_optimal.py --ties                 # Mastermind 4/6: 539, total 5627
    python scripts/bench/bench_optimal.py --mmstrat /tmp/mmstrat --workers 1 2  # whole processes

``--mmstrat PATH`` compares whole processes (start-up included) with fancidev/mastermind's
``mmstrat -s optimal`` built from its public source outside this repository: Mastermind 4/6 and
Bulls & Cows 4/10 expected optimum, each program with the same threads, wall and CPU seconds
and peak memory (max RSS) of the child process, and the ratios of one run.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from cbsolve.certificates.certify import verify
from cbsolve.runtime.deadline import Deadline
from cbsolve.search.worst import solve_worst
from cbsolve.game.variant import Variant


def bench(presets=("mastermind",), workers=(2,), expected: bool = False, ties: bool = False,
          ties_limit: float | None = None) -> list[dict]:
    """One row per (variant, objective, workers): wall and CPU seconds, phases, results."""
    import os

    rows = []
    for preset in presets:
        variant = Variant.preset(preset)
        for w in workers:
            if ties:
                load = os.getloadavg()[0]
                cpu0, t0 = time.process_time(), time.perf_counter()
                result = solve_worst(variant, workers=w, ties=True, deadline=Deadline.from_limit(ties_limit))
                wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
                t = (result.tree or {}).get("ties", {})
                rows.append({"variant": preset, "objective": "worst+ties", "workers": w,
                             "wall_s": round(wall, 2), "cpu_s": round(cpu, 2),
                             "load_before": round(load, 1), "worst": result.worst,
                             "at_worst": result.at_worst, "total": result.total,
                             "ties": t, "phases": result.phases, "nodes": result.nodes,
                             "valid": bool(verify(result.tree).optimal)})
            cpu0, t0 = time.process_time(), time.perf_counter()
            result = solve_worst(variant, workers=w)
            wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
            v0 = time.perf_counter()
            report = verify(result.tree)
            rows.append({"variant": preset, "objective": "worst", "workers": w,
                         "wall_s": round(wall, 2), "cpu_s": round(cpu, 2),
                         "worst": result.worst, "at_worst": result.histogram.get(result.worst),
                         "total": result.total, "proved": result.proved,
                         "nodes": result.nodes, "phases": result.phases,
                         "verify_s": round(time.perf_counter() - v0, 2),
                         "valid": report.valid and bool(report.optimal)})
            if expected:
                try:
                    from cbsolve.search.expected import solve_expected
                except ImportError:
                    continue
                t0 = time.perf_counter()
                res = solve_expected(variant, workers=w)
                rows.append({"variant": preset, "objective": "expected", "workers": w,
                             "wall_s": round(time.perf_counter() - t0, 2), "total": res.total,
                             "proved": res.proved})
    return rows


#: (label, cbsolve variant preset, mmstrat rules) of the whole-process comparison
VERSUS = (("Mastermind 4/6", "mastermind", "mm"), ("Bulls & Cows 4/10", "bulls-cows", "bc"))


def measure(args: list[str], env: dict | None = None) -> dict:
    """Run a whole process; its wall and CPU seconds and peak memory (max RSS)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                            text=True)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    return {"wall_s": round(time.perf_counter() - t0, 2),
            "cpu_s": round(usage.ru_utime + usage.ru_stime, 2),
            "max_rss_mib": round(usage.ru_maxrss / 1024), "ok": status == 0, "out": out}


def versus_mmstrat(mmstrat: str, workers: int = 2, games=VERSUS) -> list[dict]:
    """Expected optimum, whole processes: this checkout's `cbsolve optimal` against mmstrat."""
    import compileall
    import json

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root))
    # An installed package has its bytecode compiled; a checkout under PYTHONDONTWRITEBYTECODE
    # would compile 16 modules from source at every start (0.04 s).
    compileall.compile_dir(str(root / "cbsolve"), quiet=1)
    rows = []
    for label, preset, rules in games:
        ours = measure([sys.executable, "-m", "cbsolve", "optimal", "--objective", "expected",
                        "--variant", preset, "--workers", str(workers), "--json"], env)
        theirs = measure([mmstrat, "-r", rules, "-s", "optimal", "-mt", str(workers), "-S"])
        total = json.loads(ours.pop("out"))["total"] if ours["ok"] else None
        theirs.pop("out")
        rows.append({"game": label, "workers": workers, "total": total, "cbsolve": ours,
                     "mmstrat": theirs,
                     "wall_ratio": round(ours["wall_s"] / max(theirs["wall_s"], 1e-3), 2),
                     "cpu_ratio": round(ours["cpu_s"] / max(theirs["cpu_s"], 1e-3), 2),
                     "load": round(os.getloadavg()[0], 1)})
    return rows


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="add Bulls & Cows 4/10")
    parser.add_argument("--workers", type=int, nargs="+", default=[2])
    parser.add_argument("--expected", action="store_true", help="add the expected-case solver")
    parser.add_argument("--ties", action="store_true", help="add the proved tie-breaks")
    parser.add_argument("--ties-limit", type=float, default=None, metavar="SECONDS")
    parser.add_argument("--mmstrat", default=None, metavar="PATH",
                        help="compare whole processes with this mmstrat binary")
    args = parser.parse_args(argv)
    from cbsolve.runtime.machine import describe as describe_machine
    print(f"machine: {describe_machine()}")  # with the kernels' instruction-set path
    if args.mmstrat:
        for w in args.workers:
            for row in versus_mmstrat(args.mmstrat, w):
                print(row, flush=True)
        return
    presets = ("mastermind", "bulls-cows") if args.full else ("mastermind",)
    for row in bench(presets, tuple(args.workers), args.expected, args.ties, args.ties_limit):
        print(row)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory {peak:.0f} MB")


if __name__ == "__main__":
    main()
