"""Sample the units of a sharded worst-case plan and project the cost of the whole refutation
(docs/journal.md, "Cost of the open values").

Runs K units drawn at random (a seed) from the plan in DIR, each alone in a child process
(`cbsolve optimal ... --plan DIR --shard u/N`, N = the number of units, so the shard is that
one unit) under a time limit, and reports per unit the outcome (refuted, not-refuted, or
stopped at the limit), the CPU seconds and peak memory of the child (set-up included) and the
result file's size. The projection multiplies the mean CPU a unit by the number of units: a
lower bound when some units stopped (their CPU counts as spent so far, not as their cost).

    python scripts/research/sample_shards.py --plan logik-6 --sample 4 --limit 60 \\
        -- --variant mastermind --length 5 --digits 8
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
from pathlib import Path


def run_unit(plan_dir: Path, unit: int, n: int, limit: float, variant_args: list[str],
             workers: int = 1) -> dict:
    """One unit alone in a child: its outcome, CPU seconds, peak memory, result size."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cmd = [sys.executable, "-m", "cbsolve", "optimal", *variant_args, "--plan", str(plan_dir),
           "--shard", f"{unit + 1}/{n}", "--workers", str(workers), "--time-limit", str(limit),
           "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        doc = json.loads(proc.stdout)
        entry = doc["orbits"][0]
    except (ValueError, KeyError, IndexError):
        raise SystemExit(f"unit {unit}: no report (exit {proc.returncode}): "
                         f"{proc.stderr.strip()[-300:]}") from None
    path = Path(plan_dir) / "results" / f"unit-{unit:05d}.json"
    return {"unit": unit, "label": entry.get("guess"), "outcome": entry["outcome"],
            "cpu": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
            "unit_cpu": entry.get("cpu"), "nodes": entry.get("nodes"),
            "peak_mib": float(doc.get("peak_rss_mib", 0.0)), "result_bytes": path.stat().st_size
            if path.exists() else None, "deciding": entry.get("deciding"),
            "settled": entry.get("settled"), "classes": entry.get("classes")}


def project(rows: list[dict], n: int) -> dict:
    """Core-hours of all ``n`` units from the sample (a lower bound if some stopped)."""
    cpu = [r["cpu"] for r in rows]
    mean = sum(cpu) / len(cpu) if cpu else 0.0
    stopped = sum(r["outcome"] == "stopped" for r in rows)
    return {"units": n, "sampled": len(rows), "stopped": stopped, "mean_cpu": mean,
            "core_hours": mean * n / 3600, "lower_bound": stopped > 0,
            "peak_mib": max((r["peak_mib"] for r in rows), default=0.0),
            "result_bytes": max((r["result_bytes"] or 0 for r in rows), default=0)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plan", required=True, help="a plan directory (--split second)")
    ap.add_argument("--sample", type=int, default=3, help="units to run (default 3)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--limit", type=float, default=60.0, help="seconds a unit (default 60)")
    ap.add_argument("--workers", type=int, default=1, help="threads a unit (default 1)")
    ap.add_argument("variant", nargs=argparse.REMAINDER,
                    help="after --: the plan's variant options")
    args = ap.parse_args(argv)
    variant_args = [a for a in args.variant if a != "--"]
    plan = json.loads((Path(args.plan) / "plan.json").read_text())
    n = len(plan.get("units") or plan["orbits"])
    picks = sorted(random.Random(args.seed).sample(range(n), min(args.sample, n)))
    rows = []
    for u in picks:
        r = run_unit(Path(args.plan), u, n, args.limit, variant_args, args.workers)
        rows.append(r)
        size = "-" if r["result_bytes"] is None else f"{r['result_bytes'] / 1e6:.2f} MB"
        print(f"unit {u} {r['label']}: {r['outcome']}, {r['cpu']:.1f} s CPU, "
              f"{r['peak_mib']:.0f} MiB, result {size}", flush=True)
    p = project(rows, n)
    bound = "at least " if p["lower_bound"] else ""
    print(f"projection: {n} units x {p['mean_cpu']:.1f} s = {bound}{p['core_hours']:.2f} "
          f"core-hours ({p['stopped']} of {p['sampled']} sampled units stopped at "
          f"{args.limit:g} s); peak {p['peak_mib']:.0f} MiB a worker")
    print(json.dumps({"rows": rows, "projection": p}))


if __name__ == "__main__":
    main()
