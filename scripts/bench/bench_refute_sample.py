"""A fixed sample of a sharded worst-case refutation: CPU and nodes a unit, old and new kernel
configurations side by side (docs/benchmarks.md, "Refuting Logik 5×8 in 6: a fixed sample").

The plan is the one ``cbsolve optimal --plan DIR --max-depth D --split second`` writes (made
here in a temporary directory when ``--plan`` is not given: Logik 5×8 refuting 6, 1,696
units). The sample is drawn with a fixed seed, stratified by first-guess orbit (every orbit
at least ``MIN_PER_ORBIT`` units, the rest in proportion to its units), so the projection
(each orbit's mean CPU a unit times its units) covers every orbit. Every unit runs on a fresh
kernel (an empty memo) over one reply matrix, so a unit's figures do not depend on the units
before it; with ``--ab A B`` each unit runs under both configurations one after the other, in
alternating order, so both see the same load. A unit that reaches ``--limit`` is reported
``stopped``: its CPU is a floor of its cost.

    python scripts/bench/bench_refute_sample.py --size 40 --ab today frontier --limit 300
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

from cbsolve.runtime.deadline import Deadline
from cbsolve.search.options import SearchOptions
from cbsolve.search.worst import deeper, shards
from cbsolve.search.worst import shard_files as files
from cbsolve.search.worst.kernel import PRUNINGS, _Native
from cbsolve.game.variant import Variant

LOGIK = Variant(5, "12345678", True)
SEED, SIZE, MIN_PER_ORBIT = 20261202, 40, 2
#: Kernel configurations by name: options given to the native search over its defaults.
OLD_SCAN = {"prefetch": False, "late_symmetry": False}
CONFIGS = {"today": {"counted_memo": False, "settle_bound": False, **OLD_SCAN},
           "settle": {"counted_memo": True, "settle_bound": True, **OLD_SCAN},
           "frontier": {"counted_memo": True, "settle_bound": True, "prefetch": True,
                        "late_symmetry": True}}


def draw(plan: dict, size: int, seed: int) -> list[int]:
    """``size`` unit indices of ``plan``, stratified by first-guess orbit, in plan order."""
    by_orbit: dict[int, list[int]] = {}
    for i, unit in enumerate(plan["units"]):
        by_orbit.setdefault(unit["orbit"], []).append(i)
    total = len(plan["units"])
    quota = {o: min(len(us), MIN_PER_ORBIT) for o, us in by_orbit.items()}
    rest = size - sum(quota.values())
    if rest < 0:
        raise SystemExit(f"--size {size} is below {sum(quota.values())} ({MIN_PER_ORBIT} an orbit)")
    shares = {o: rest * len(us) / total for o, us in by_orbit.items()}
    for o in by_orbit:
        quota[o] = min(len(by_orbit[o]), quota[o] + int(shares[o]))
    for o in sorted(by_orbit, key=lambda o: -(shares[o] - int(shares[o]))):  # largest remainders
        if sum(quota.values()) >= size:
            break
        quota[o] = min(len(by_orbit[o]), quota[o] + 1)
    rng = random.Random(seed)
    return sorted(i for o, us in by_orbit.items() for i in rng.sample(us, quota[o]))


def make_plan(variant: Variant, directory: Path, depth: int) -> dict:
    return shards.plan_refutation(variant, directory, depth, split="second")


def run_unit(native: _Native, plan: dict, u: int, config: dict, limit: float | None) -> dict:
    """Unit ``u`` on a fresh kernel with ``config``: outcome, CPU seconds, nodes."""
    native.core = native.fresh_core(config)
    deadline = Deadline(limit)
    unit, reached = plan["units"][u], {}
    cpu0 = time.process_time()
    if "second" in unit:
        doc = deeper.refute_second(native, plan, u, deadline, reached)
    else:
        doc = shards._refute_orbit(native, plan, unit["orbit"], deadline, reached)
    cpu = time.process_time() - cpu0
    outcome = shards.STOPPED if doc is None else doc["outcome"]
    return {"unit": u, "label": deeper.unit_label(plan, unit), "orbit": unit["orbit"],
            "outcome": outcome, "reply": None if doc is None else doc.get("reply"),
            "cpu": round(cpu, 3), "nodes": int(native.core.nodes())}


def projection(plan: dict, rows: list[dict]) -> float:
    """Each orbit's mean CPU a sampled unit times its number of units, summed (CPU seconds)."""
    units: dict[int, int] = {}
    for unit in plan["units"]:
        units[unit["orbit"]] = units.get(unit["orbit"], 0) + 1
    total = 0.0
    for orbit, count in units.items():
        mine = [r["cpu"] for r in rows if r["orbit"] == orbit]
        if mine:
            total += count * sum(mine) / len(mine)
    return total


def summary(plan: dict, rows: list[dict]) -> dict:
    return {"units": len(rows), "cpu": round(sum(r["cpu"] for r in rows), 2),
            "nodes": sum(r["nodes"] for r in rows),
            "stopped": sum(r["outcome"] == shards.STOPPED for r in rows),
            "not_refuted": sum(r["outcome"] == files.NOT_REFUTED for r in rows),
            "projected_core_hours": round(projection(plan, rows) / 3600, 2)}


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plan", help="a plan directory (default: Logik 5x8 refuting 6, made here)")
    ap.add_argument("--size", type=int, default=SIZE)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--slice", default=":", metavar="START:STOP",
                    help="run only these units of the drawn sample (0-based, Python slice), "
                         "e.g. to split it between processes or for quick iterations")
    ap.add_argument("--config", default="today", choices=sorted(CONFIGS))
    ap.add_argument("--ab", nargs=2, metavar=("A", "B"), choices=sorted(CONFIGS),
                    help="two configurations, every unit under both")
    ap.add_argument("--limit", type=float, default=None, help="seconds a unit (wall), else none")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    names = list(args.ab) if args.ab else [args.config]
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(args.plan) if args.plan else Path(tmp) / "plan"
        plan = files.read_plan(directory) if args.plan else make_plan(LOGIK, directory, 6)
    variant = shards.plan_variant(plan)
    try:
        start, stop = (int(x) if x else None for x in args.slice.split(":"))
    except ValueError:
        raise SystemExit(f"--slice needs START:STOP, got {args.slice!r}") from None
    sample = draw(plan, args.size, args.seed)[start:stop]
    options = SearchOptions.checked(variant, "worst", PRUNINGS, guesses=plan["guesses"],
                                    max_depth=plan["depth"], workers=1)
    native = _Native(variant, options.guesses, options.prune, 1, plan=options.plan)
    rows: dict[str, list[dict]] = {name: [] for name in names}
    for k, u in enumerate(sample):
        order = names if k % 2 == 0 else names[::-1]
        for name in order:
            row = run_unit(native, plan, u, CONFIGS[name], args.limit)
            rows[name].append(row)
            if not args.json:
                print(f"{name:>7} unit {u:5d} {row['label']:<24} {row['outcome']:<12} "
                      f"{row['cpu']:8.2f} s {row['nodes']:>10,} nodes", flush=True)
    report = {"variant": variant.describe(), "depth": plan["depth"], "seed": args.seed,
              "sample": sample, "configs": {n: CONFIGS[n] for n in names},
              "summary": {n: summary(plan, rows[n]) for n in names}, "rows": rows}
    if len(names) == 2 and report["summary"][names[1]]["cpu"] > 0:
        report["cpu_ratio"] = round(report["summary"][names[0]]["cpu"]
                                    / report["summary"][names[1]]["cpu"], 2)
    if args.json:
        print(json.dumps(report))
    else:
        print(json.dumps({k: report[k] for k in ("summary", "sample") if k in report}
                         | ({"cpu_ratio": report["cpu_ratio"]} if "cpu_ratio" in report else {})))
    return report


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
