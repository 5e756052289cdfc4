"""How the hard band's cost grows with the code length: time to find one secret consistent with
G = round(r * N) random guesses (10 digits, repeats), for several lengths N at fixed ratios r.

The band at N=40 (30-50 guesses, docs/benchmarks.md, "Hard band") times out at 10 s with every method tried,
so it cannot be timed there; this script times the same kind of instance on shorter codes, where
it can, to see how fast the cost grows with N. Each instance hides a random secret
(``feedback.random_log``), so every log is consistent; a query stopped at the time limit counts
as the limit and as "unknown". Engines:

* ``auto``: ``consistent(log, Query(limit=1, determined=False), "auto")``, the product's default
  (the choice included: a short probe of the depth-first search, then the CP-SAT portfolio);
* ``cpsat``: the portfolio alone (local search raced against CP-SAT; ``auto``'s fallback);
* ``dfs``: the native depth-first search alone, lexicographic (``dfs.first``);
* ``dfs-race``: that search raced against the one guided by belief propagation
  (``dfs.race_first``, two threads; what ``auto``'s probe runs on spaces of at most 10^15).

A series (ratio, engine) stops after a point with more than half the seeds unknown: longer codes
are harder. The fit is least squares of log2(median seconds) against N over the points whose
median is measured (fewer than half unknown) and at least ``--fit-floor`` seconds.

    PYTHONPATH=. python scripts/bench/band_scaling.py --ratios 1.0 --seeds 6 --time-limit 60
    PYTHONPATH=. python scripts/bench/band_scaling.py --lengths 12,16 --engines auto,dfs --seeds 2
    PYTHONPATH=. python scripts/bench/band_scaling.py --first-seed 6 --json-out more.json ...  # more logs
    PYTHONPATH=. python scripts/bench/band_scaling.py --from-json run.json,more.json    # pooled refit
"""
from __future__ import annotations

import argparse
import json
import math
import string
import time

import numpy as np
from bench_consistency import check, stats  # the same re-scoring and p95 as the rows

from cbsolve.consistency import Query, consistent, dfs, get_backend
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog, random_log
from cbsolve.game.variant import Variant

ENGINES = ("auto", "cpsat", "dfs", "dfs-race")


def find_one(engine: str, log: FeedbackLog, seconds: float) -> tuple[float, list[str], str]:
    """Time one find-one query. Returns (seconds, secrets found, who answered); every query
    starts cold (no searcher kept from the previous query, as bench_consistency.time_query)."""
    dfs.KEPT.clear()
    query = Query(limit=1, determined=False)
    t0 = time.perf_counter()
    if engine == "auto":
        r = consistent(log, query, "auto", deadline=Deadline.from_limit(seconds))
        return time.perf_counter() - t0, r.secrets, r.auto["backend"]
    if engine == "cpsat":
        r = get_backend("cpsat").solve(log, query, deadline=Deadline.from_limit(seconds))
        return time.perf_counter() - t0, r.secrets, "cpsat"
    if engine == "dfs":
        c = dfs.first(log, Deadline.from_limit(seconds))
    elif engine == "dfs-race":
        c = dfs.race_first(log, 1, Deadline.from_limit(seconds))
    else:
        raise SystemExit(f"unknown engine {engine!r}; choose from {', '.join(ENGINES)}")
    dt = time.perf_counter() - t0
    return dt, log.space.format_many(c.codes), "guided" if c.guided else "lex"


def point(engine: str, n: int, ratio: float, seeds: int, seconds: float,
          first_seed: int = 0) -> dict:
    """One (N, r, engine) point over ``seeds`` logs (random_log seeds first_seed, ...)."""
    variant = Variant(n, string.digits, True)
    g = round(ratio * n)
    times, unknown, who = [], 0, []
    for s in range(first_seed, first_seed + seeds):
        log = random_log(variant, g, s)[0]
        dt, secrets, by = find_one(engine, log, seconds)
        check(log, secrets)
        unknown += not secrets
        times.append(min(dt, seconds) if not secrets else dt)
        who.append(by)
    row = {"n": n, "ratio": ratio, "guesses": g, "engine": engine, "time_limit": seconds,
           "first_seed": first_seed, "times": [round(t, 4) for t in times],
           "answered_by": {k: who.count(k) for k in sorted(set(who))}}
    return summarise(row, unknown)


def summarise(row: dict, unknown: int) -> dict:
    times = row["times"]
    median, p95 = stats(times)
    row.update(seeds=len(times), median=median, p95=p95, unknown=unknown)
    return row


def merge(rows: list[dict]) -> list[dict]:
    """Rows of several runs (other seeds) of one (N, r, engine) as one row, times pooled."""
    out: dict = {}
    for r in rows:
        key = (r["n"], r["ratio"], r["engine"])
        if key not in out:
            out[key] = dict(r, times=list(r["times"]), answered_by=dict(r["answered_by"]),
                            unknown_total=r["unknown"])
            continue
        m = out[key]
        assert m["time_limit"] == r["time_limit"], "merge runs with the same --time-limit"
        m["times"] += r["times"]
        m["unknown_total"] += r["unknown"]
        for k, v in r["answered_by"].items():
            m["answered_by"][k] = m["answered_by"].get(k, 0) + v
    return [summarise(m, m.pop("unknown_total")) for m in out.values()]


def measured(row: dict) -> bool:
    """The median is a measured time, not the limit (fewer than half the seeds unknown)."""
    return 2 * row["unknown"] < row["seeds"]


def fit(rows: list[dict], floor: float) -> dict | None:
    """Least squares log2(median) = a + b N over the measured points at or above ``floor`` s;
    None with fewer than two. ``doubles_every`` = 1/b positions."""
    pts = [(r["n"], math.log2(r["median"])) for r in rows if measured(r) and r["median"] >= floor]
    if len(pts) < 2:
        return None
    x, y = np.array(pts).T
    b, a = np.polyfit(x, y, 1)
    resid = y - (a + b * x)
    out = {"points": len(pts), "lengths": [int(v) for v in x], "slope": float(b),
           "intercept": float(a), "doubles_every": float(1 / b) if b > 0 else None,
           "rms_log2": float(np.sqrt(np.mean(resid ** 2)))}
    if len(pts) > 2:          # standard error of the slope
        out["slope_se"] = float(np.sqrt(np.sum(resid ** 2) / (len(pts) - 2)
                                        / np.sum((x - x.mean()) ** 2)))
    return out


def extrapolate(f: dict, n: int) -> dict:
    """Median seconds at length ``n`` from the fit, with the slope +- one standard error."""
    at = {"n": n, "median": 2 ** (f["intercept"] + f["slope"] * n)}
    if "slope_se" in f:
        xm = float(np.mean(f["lengths"]))       # pivot at the points' mean length
        ym = f["intercept"] + f["slope"] * xm
        at["low"] = 2 ** (ym + (f["slope"] - f["slope_se"]) * (n - xm))
        at["high"] = 2 ** (ym + (f["slope"] + f["slope_se"]) * (n - xm))
    return at


def show(row: dict) -> None:
    by = ", ".join(f"{k} {v}" for k, v in row["answered_by"].items())
    print(f"N={row['n']:<3} r={row['ratio']:<5} G={row['guesses']:<3} {row['engine']:<9} "
          f"median {row['median']:8.3g}  p95 {row['p95']:8.3g}  "
          f"unknown {row['unknown']}/{row['seeds']}  ({by})", flush=True)


def run(lengths, ratios, engines, seeds: int, seconds: float, first_seed: int = 0) -> list[dict]:
    rows = []
    for ratio in ratios:
        for engine in engines:
            for n in lengths:
                rows.append(point(engine, n, ratio, seeds, seconds, first_seed))
                show(rows[-1])
                if 2 * rows[-1]["unknown"] > seeds:
                    print(f"  (stop r={ratio} {engine}: more than half unknown at N={n})")
                    break
    return rows


def fits(rows: list[dict], floor: float, extrapolate_to: int = 40) -> list[dict]:
    """One fit per (ratio, engine) series, extrapolated to ``extrapolate_to`` positions."""
    out = []
    for ratio, engine in dict.fromkeys((r["ratio"], r["engine"]) for r in rows):
        f = fit(sorted((r for r in rows if (r["ratio"], r["engine"]) == (ratio, engine)),
                       key=lambda r: r["n"]), floor)
        if f:
            f.update(ratio=ratio, engine=engine, at=extrapolate(f, extrapolate_to),
                     guesses_at=round(ratio * extrapolate_to))
            out.append(f)
    return out


def show_fits(fits: list[dict]) -> None:
    for f in fits:
        se = f" +- {f['slope_se']:.3f}" if "slope_se" in f else ""
        k = f"doubles every {f['doubles_every']:.2g} positions" if f["doubles_every"] else "no growth"
        at = f["at"]
        band = f" ({at['low']:.3g} - {at['high']:.3g})" if "low" in at else ""
        print(f"fit r={f['ratio']} {f['engine']}: log2 s = {f['intercept']:.2f} + "
              f"{f['slope']:.3f}{se} N over N={f['lengths']}, rms {f['rms_log2']:.2f}; {k}; "
              f"N={at['n']}, G={f['guesses_at']}: median ~{at['median']:.3g} s{band}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lengths", default="12,16,20,24,28,32,36,40")
    ap.add_argument("--ratios", default="0.75,1.0,1.25", help="guesses per position")
    ap.add_argument("--engines", default="auto,dfs", help=f"comma list of {', '.join(ENGINES)}")
    ap.add_argument("--seeds", type=int, default=6)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--fit-floor", type=float, default=0.1,
                    help="fit only medians of at least this many seconds (below: fixed costs)")
    ap.add_argument("--first-seed", type=int, default=0, help="random_log seeds from here")
    ap.add_argument("--json-out", default=None)
    ap.add_argument("--from-json", default=None,
                    help="comma list of --json-out files: no run; pool their rows (same N, r and "
                         "engine: more seeds), print the table and the fits")
    args = ap.parse_args(argv)
    if args.from_json:
        rows = []
        for path in args.from_json.split(","):
            with open(path) as fh:
                rows += json.load(fh)["rows"]
        rows = merge(rows)
        for r in rows:
            show(r)
    else:
        rows = run([int(n) for n in args.lengths.split(",")],
                   [float(r) for r in args.ratios.split(",")], args.engines.split(","),
                   args.seeds, args.time_limit, args.first_seed)
    out = {"rows": rows, "fits": fits(rows, args.fit_floor)}
    show_fits(out["fits"])
    if args.json_out:
        with open(args.json_out, "w") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
