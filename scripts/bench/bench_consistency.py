"""Benchmark the consistency backends: find one, the hard band, enumeration, counting, diagnosis.

The rows of docs/benchmarks.md, "Constraint backends". Pure functions plus ``main()``; small
defaults, figures printed as a table.

Every instance hides a random secret, draws random guesses and scores them, so each log is
consistent; timings are medians and p95 over the seeds, measured side by side in one run.

    python scripts/bench/bench_consistency.py --rows find --seeds 20
    python scripts/bench/bench_consistency.py --rows band --seeds 20 --time-limit 10
    python scripts/bench/bench_consistency.py --rows enum --backends auto,native,sat --seeds 3
    python scripts/bench/bench_consistency.py --rows count,diagnose
    python scripts/bench/bench_consistency.py --rows lies --backends native,sat --time-limit 20
"""
from __future__ import annotations

import argparse
import statistics
import string
import time

import numpy as np

from cbsolve.consistency import Query, get_backend
from cbsolve.consistency.portfolio import PortfolioShape
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog, random_log
from cbsolve.game.rule import score
from cbsolve.game.variant import Variant

FIND_ROWS = [  # (label, variant, guesses, target seconds)
    ("N=10 26 letters distinct, 10 guesses", Variant(10, string.ascii_uppercase, False), 10, 0.1),
    ("Mastermind 16 pegs 6 colours, 12 guesses", Variant(16, "123456", True), 12, 0.2),
    ("N=20 26 letters repeats, 40 guesses", Variant(20, string.ascii_uppercase, True), 40, 0.2),
    ("N=40 10 digits repeats, 20 guesses", Variant(40, string.digits, True), 20, 0.5),
    ("N=40 10 digits repeats, 90 guesses", Variant(40, string.digits, True), 90, 0.5),
]
BAND = Variant(40, string.digits, True)
#: Portfolio shapes compared with the default (portfolio.py: burst flips, race, hint).
PORTFOLIOS = {
    "cpsat-race": PortfolioShape(burst=0, race=True),          # no burst: race from the start
    "cpsat-burst": PortfolioShape(race=False, burst_after_first=5_000),  # burst, CP-SAT alone
    "cpsat-hint": PortfolioShape(race=False, hint_best=True),  # ... hinted with the burst's best
    "cpsat-longburst": PortfolioShape(burst=50_000, race=False),
    "cpsat-racefull": PortfolioShape(race_after_first=None, burst_after_first=5_000),  # as first
}


def time_query(backend: str, log: FeedbackLog, query: Query,
               seconds: float | None = None) -> tuple[float, object]:
    """Time one query, within ``seconds`` (None: no limit); ``cpsat:W`` runs CP-SAT with W
    workers; ``cpsat-seeded`` decides
    ``determined`` by the hinted enumeration instead of a second full solve; ``cpsat-nols``
    is CP-SAT without the local-search race (portfolio.py); ``PORTFOLIOS`` names other
    shapes of the portfolio;
    ``-noguide`` suffix turns off CP-SAT's belief-propagation branching order
    (``CpSatOptions.guide``);
    ``auto-norace``: ``auto`` without the guided depth-first search raced in its find-one
    probe (``Engines.race_guided``);
    ``-nosum`` suffix drops the CNF's redundant symbol sums and count chains
    (``SatOptions.symbol_sum``, ``SatOptions.chain``);
    ``sat-NAME`` runs PySAT with solver NAME (e.g. sat-cadical195); a ``-solveronly``
    suffix turns off the one-move neighbour listing (the previous behaviour); ``sat+ENC`` or
    ``sat-NAME+ENC`` builds the CNF with cardinality encoding ENC (sat.CARD_ENCODINGS, e.g.
    sat+totalizer, sat-cadical195+cardnet)."""
    import dataclasses

    from cbsolve.consistency import Engines, consistent, dfs
    from cbsolve.consistency.backends import CpSatBackend, SatBackend

    backend, _, workers = backend.partition(":")
    backend, _, card = backend.partition("+")
    engines = Engines()
    sat_options = engines.sat if not card else dataclasses.replace(engines.sat, card=card)
    neighbours = not backend.endswith("-solveronly")   # before/after baseline
    backend = backend.removesuffix("-solveronly")
    guide = not backend.endswith("-noguide")          # belief-propagation branching order
    backend = backend.removesuffix("-noguide")
    cpsat_kwargs: dict = {}
    if backend == "cpsat-seeded":
        backend, cpsat_kwargs["seeded"] = "cpsat", True
    if backend == "cpsat-nols":                  # CP-SAT alone (before the portfolio)
        backend, cpsat_kwargs["local_search"] = "cpsat", False
    if backend in PORTFOLIOS:                    # other shapes of the local-search portfolio
        backend, cpsat_kwargs["portfolio"] = "cpsat", PORTFOLIOS[backend]
    if workers:
        cpsat_kwargs["workers"] = int(workers)
    sums = not backend.endswith("-nosum")        # the CNF's redundant sums
    sat_options = dataclasses.replace(sat_options, symbol_sum=sums, chain=sums)
    backend = backend.removesuffix("-nosum")
    if backend.startswith("sat-"):
        sat_options = dataclasses.replace(sat_options, solver=backend[4:])
        backend = "sat"
    engines = Engines(sat=sat_options, cpsat=dataclasses.replace(engines.cpsat, guide=guide),
                      neighbours=neighbours, race_guided=backend != "auto-norace")
    backend = backend.removesuffix("-norace")
    if backend == "sat" and engines.sat.solver.startswith("cadical"):
        return _killed_at_limit(log, query, engines, seconds)
    # Each query starts cold: a searcher kept from the previous backend's query on the same log
    # (count vectors, suffix table) would favour whichever backend runs second.
    dfs.KEPT.clear()
    if backend == "auto":                        # the product's default: choice included
        start = time.perf_counter()
        result = consistent(log, query, "auto", engines, deadline=Deadline.from_limit(seconds))
        return time.perf_counter() - start, result
    if backend == "cpsat":
        b = CpSatBackend(options=engines.cpsat, neighbours=neighbours, **cpsat_kwargs)
    elif backend == "sat":
        b = SatBackend(options=engines.sat, neighbours=neighbours)
    else:
        b = get_backend(backend, engines)
    start = time.perf_counter()
    result = b.solve(log, query, deadline=Deadline.from_limit(seconds))
    return time.perf_counter() - start, result


def _child_solve(conn, log, query, engines) -> None:
    from cbsolve.consistency.backends import SatBackend

    r = SatBackend(options=engines.sat, neighbours=engines.neighbours).solve(log, query)
    conn.send((r.status.value, r.secrets, r.determined))


def _killed_at_limit(log: FeedbackLog, query: Query, engines,
                     seconds: float | None) -> tuple[float, object]:
    """PySAT's CaDiCaL cannot be interrupted (solve_limited is unsupported), so it runs
    without a deadline in a forked child that is killed at the time limit: status unknown,
    as the other backends report it (the fork and pipe cost ~10 ms)."""
    import multiprocessing as mp
    from types import SimpleNamespace

    from cbsolve.runtime.status import Status

    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    start = time.perf_counter()
    proc = ctx.Process(target=_child_solve,
                       args=(child, log, query, engines))
    proc.start()
    child.close()                   # a crashed child then reads as EOF, not as a time-out
    got = parent.recv() if parent.poll(seconds) else None   # EOFError if it crashed
    dt = time.perf_counter() - start
    proc.kill()
    proc.join()
    if got is None:
        return dt, SimpleNamespace(status=Status.UNKNOWN, secrets=[], determined=None)
    status, secrets, determined = got
    return dt, SimpleNamespace(status=Status(status), secrets=secrets, determined=determined)


def stats(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(np.ceil(0.95 * len(ordered))) - 1)]
    return statistics.median(ordered), p95


def check(log: FeedbackLog, secrets: list[str]) -> None:
    """Every secret a solver returns is re-scored (a wrong answer aborts the benchmark)."""
    for text in secrets:
        code = log.space.parse(text)
        for e in log:
            assert score(log.variant, code, e.guess) == (e.bulls, e.cows), (text, e)


def find_one(backends, seeds: int, time_limit: float, modes=("one", "one+det")) -> list[dict]:
    """Issue rows. Mode ``one``: ``Query(limit=1, determined=False)``, the row as the issue
    states it (one consistent secret); ``one+det``: ``Query(limit=1)``, which also decides
    ``determined`` (a second secret or a proof there is none)."""
    rows = []
    for label, variant, n_guesses, target in FIND_ROWS:
        logs = [random_log(variant, n_guesses, s)[0] for s in range(seeds)]
        for name in backends:
            for mode in modes:
                if mode == "one" and name in ("cpsat-seeded", "cpsat-solveronly"):
                    continue                   # same path as cpsat for a pure find-one
                times, unknown = [], 0
                for log in logs:
                    q = Query(limit=1, determined=mode != "one")
                    dt, r = time_query(name, log, q, time_limit)
                    check(log, r.secrets)
                    unknown += r.status.value == "unknown"
                    times.append(dt)
                med, p95 = stats(times)
                rows.append({"row": f"{label} [{mode}]", "backend": name, "median": med,
                             "p95": p95, "unknown": unknown, "target": target, "seeds": seeds})
                show(rows[-1:])
    return rows


def band(backends, seeds: int, time_limit: float, guesses=(20, 30, 40, 50, 60, 70, 90),
         mode: str = "one+det"):
    """Mode ``one+det``: find one and decide ``determined``; ``one``: find one secret (the
    prototype's measure of the band)."""
    rows = []
    for n_guesses in guesses:
        logs = [random_log(BAND, n_guesses, s)[0] for s in range(seeds)]
        for name in backends:
            times, unknown, undecided = [], 0, 0
            for log in logs:
                query = Query(limit=1, determined=mode != "one")
                dt, r = time_query(name, log, query, time_limit)
                check(log, r.secrets)
                unknown += r.status.value == "unknown"
                undecided += r.determined is None      # no secret, or no proof of uniqueness
                times.append(dt)
            med, p95 = stats(times)
            rows.append({"row": f"band N=40 D=10 repeats, {n_guesses} guesses [{mode}]",
                         "backend": name, "mode": mode,
                         "median": med, "p95": p95, "unknown": unknown, "seeds": seeds,
                         "guesses": n_guesses, "time_limit": time_limit,
                         "undecided": undecided})
            show(rows[-1:])
    return rows


def plot_band(rows: list[dict], path: str) -> None:
    """Median and p95 seconds against the number of guesses, one line pair per backend
    (docs/band.png); a time-limited query counts at the limit."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = {"cpsat": "portfolio (local search + CP-SAT)", "cpsat-nols": "CP-SAT alone",
              "cpsat-noguide": "portfolio, CP-SAT without BP order",
              "sat": "Glucose 4.1, counter", "sat+totalizer": "Glucose 4.1, totalizer",
              "sat+cardnet": "Glucose 4.1, card. networks",
              "sat-cadical195": "CaDiCaL 1.9.5, counter"}
    # Lines at the cap hide each other, so a second panel counts the seeds left unknown.
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(9.5, 6.4), sharex=True,
                                  gridspec_kw={"height_ratios": [2.2, 1]})
    modes = list(dict.fromkeys(r["mode"] for r in rows))
    names = list(dict.fromkeys((r["backend"], r["mode"]) for r in rows))
    for k, (name, mode) in enumerate(names):
        mine = [r for r in rows if (r["backend"], r["mode"]) == (name, mode)]
        xs = [r["guesses"] for r in mine]
        label = labels.get(name, name) + (f" [{mode}]" if len(modes) > 1 else "")
        line, = ax.plot(xs, [r["median"] for r in mine], "o-", label=f"{label}: median")
        ax.plot(xs, [r["p95"] for r in mine], "s--", color=line.get_color(), alpha=0.7,
                label=f"{label}: p95")
        shift = (k - (len(names) - 1) / 2) * 0.8      # side by side, not on top of each other
        ax2.bar([x + shift for x in xs], [r["unknown"] for r in mine], width=0.8,
                color=line.get_color())
    limit = max(r["time_limit"] for r in rows)
    ax.axhline(limit, color="grey", lw=0.8, ls=":")
    ax.axhline(10, color="red", lw=0.8, ls=":", label="goal: p95 10 s")
    ax.set_yscale("log")
    ax2.set_xlabel("random guesses in the log (N=40, 10 digits, repeats)")
    ax2.set_ylabel(f"unknown of {rows[0]['seeds']}\n(no secret)")
    what = {"one": "find one", "one+det": "find one + determined"}
    ax.set_ylabel(f"seconds ({' / '.join(what.get(m, m) for m in modes)};\ncapped at {limit:g} s)")
    ax.set_title(f"Hard band, {rows[0]['seeds']} hidden secrets per point")
    ax.legend(fontsize=7.5, loc="center left", bbox_to_anchor=(1.01, 0.5))   # outside: readable
    fig.tight_layout()
    fig.savefig(path, dpi=110)


ENUM_ROWS = [  # (label, variant, guesses)
    ("dense: N=9 D=10 repeats, 2 guesses", Variant(9, string.digits, True), 2),
    ("sparse: N=12 D=6 repeats, 4 guesses", Variant(12, "123456", True), 4),
    ("N=10 26 letters distinct, 3 guesses", Variant(10, string.ascii_uppercase, False), 3),
    ("N=10 26 letters distinct, 6 guesses", Variant(10, string.ascii_uppercase, False), 6),
    ("N=20 26 letters repeats, 10 guesses", Variant(20, string.ascii_uppercase, True), 10),
    ("Mastermind 16 pegs 6 colours, 8 guesses", Variant(16, "123456", True), 8),
]


def enumeration(seeds: int, backends=("sat", "native"), limit: int = 50_000,
                time_limit: float = 10.0, count: bool = True, rows=None) -> list[dict]:
    """Secrets/s listing up to ``limit`` secrets of a set too large for the native filter
    (``Query(limit=limit)``, stopped at ``time_limit``; the rate is secrets listed / wall
    time), side by side: ``sat`` = PySAT with block completion, ``native`` = the native
    depth-first search (consistency/dfs.py). With ``count``: exact counting of the same logs,
    depth-first search vs Ganak on the CNF, each with ``time_limit`` (seconds; "-" = not done)."""
    from cbsolve.consistency import dfs
    from cbsolve.consistency.counting import available, cnf_of, exact_count

    out = []
    for label, variant, n_guesses in rows or ENUM_ROWS:
        logs = [random_log(variant, n_guesses, s)[0] for s in range(seeds)]
        for name in backends:
            rates = []
            for log in logs:
                dt, r = time_query(name, log, Query(limit=limit), time_limit)
                check(log, r.secrets[:50] + r.secrets[-50:])
                rates.append(len(r.secrets) / dt)
            out.append({"row": f"enumeration secrets/s (median, worst), {label}", "backend": name,
                        "median": statistics.median(rates), "p95": min(rates), "seeds": seeds})
            show(out[-1:])
        if not count:
            continue
        for name in ("dfs-count", "ganak"):
            if name == "ganak" and not available("pyganak"):
                continue
            times, counts = [], []
            for log in logs:
                t = time.perf_counter()
                if name == "dfs-count":
                    c = dfs.count(log, seconds=time_limit)
                    n = c.count if c.complete else None
                else:
                    clauses, xs, _ = cnf_of(log)
                    n = exact_count(clauses, xs, Deadline(time_limit))
                times.append(time.perf_counter() - t)
                counts.append(n)
            med, p95 = stats(times)
            shown = ",".join("-" if n is None else f"{n:.3g}" for n in counts)
            out.append({"row": f"exact count s [{shown}], {label}", "backend": name,
                        "median": med, "p95": p95, "seeds": seeds})
            show(out[-1:])
    return out


def count_native(seeds: int) -> list[dict]:
    variant = Variant.preset("bulls-cows")
    times = []
    for s in range(seeds):
        log, _ = random_log(variant, 1 + s % 5, s)
        dt, _ = time_query("native", log, Query(count=True))
        times.append(dt)
    med, p95 = stats(times)
    return [{"row": "exact count, Bulls & Cows 4/10, 1-5 guesses", "backend": "native",
             "median": med, "p95": p95, "target": 0.02, "seeds": seeds}]


def inconsistent_log(variant: Variant, n: int, seed: int, wrong: int = 2) -> FeedbackLog:
    """A random-secret log with ``wrong`` replies replaced by other possible replies."""
    from cbsolve.game.scoring import possible_responses

    log, secret = random_log(variant, n, seed)
    rng = np.random.default_rng(seed + 10_000)
    replies = [r for r in possible_responses(variant) if r[0] < variant.length]
    entries = list(log.entries)
    for i in rng.choice(n, size=wrong, replace=False):
        e = entries[i]
        b, c = replies[rng.integers(len(replies))]
        entries[i] = type(e)(e.guess, e.text, b, c)
    return FeedbackLog(variant, entries)


DIAGNOSE_ROWS = [  # (label, variant, guesses, [conflict, corrections] target seconds)
    ("20-entry inconsistent 4/10 log", Variant.preset("bulls-cows"), 20, (0.5, 2.0)),
    ("N=10 26 letters distinct, 10 guesses, 2 wrong", Variant(10, string.ascii_uppercase, False),
     10, None),
    ("Mastermind 16 pegs 6 colours, 12 guesses, 2 wrong", Variant(16, "123456", True), 12, None),
]


def diagnose_rows(seeds: int, backends=("native", "sat"), time_limit: float = 10.0) -> list[dict]:
    """Minimal conflict and fewest corrections of random logs with two replies made wrong (kept
    when inconsistent): on Bulls & Cows by the filter's matrix (``native``) or the solvers; the
    larger rows are beyond the filter, where ``native`` is the depth-first search. "unproved" =
    the time limit came first (answer not proved minimal / fewest, or none)."""
    from cbsolve.consistency import consistent
    from cbsolve.consistency.diagnose import conflict_search, corrections
    from cbsolve.runtime.status import Status

    rows = []
    for label, variant, n, targets in DIAGNOSE_ROWS:
        logs, s = [], 0
        while len(logs) < seeds:
            log = inconsistent_log(variant, n, s)
            s += 1
            found = consistent(log, Query(limit=1), "auto", deadline=Deadline.from_limit(30))
            if found.status == Status.INFEASIBLE:
                logs.append(log)
        for name in backends:
            tc, tf, unproved = [], [], [0, 0]
            for log in logs:
                t = time.perf_counter()
                _, minimal = conflict_search(log, name, deadline=Deadline.from_limit(time_limit))
                tc.append(time.perf_counter() - t)
                t = time.perf_counter()
                _, proved, _ = corrections(log, name, deadline=Deadline.from_limit(time_limit))
                tf.append(time.perf_counter() - t)
                unproved[0] += not minimal
                unproved[1] += not proved
            for what, times, k, target in (("minimal conflict", tc, 0, targets and targets[0]),
                                           ("corrections", tf, 1, targets and targets[1])):
                med, p95 = stats(times)
                rows.append({"row": f"{what}, {label}", "backend": name, "median": med,
                             "p95": p95, "seeds": seeds, "unknown": unproved[k]}
                            | ({"target": target} if target else {}))
    return rows


LIES_ROWS = [  # (label, variant, guesses): spaces beyond the native filter
    ("N=9 10 digits repeats, 6 guesses", Variant(9, string.digits, True), 6),
    ("N=10 26 letters distinct, 8 guesses", Variant(10, string.ascii_uppercase, False), 8),
    ("Mastermind 8 pegs 8 colours, 8 guesses", Variant(8, "12345678", True), 8),
    ("Mastermind 16 pegs 6 colours, 14 guesses", Variant(16, "123456", True), 14),
]


def lies_rows(seeds: int, backends=("native", "sat"), lies: int = 1,
              time_limit: float = 20.0) -> list[dict]:
    """``--max-lies``: exact count of the codes contradicting at most ``lies`` replies of a
    random log with one reply made wrong, beyond the native filter: the depth-first search
    (``native``) vs PySAT's block enumeration (``sat``), side by side; a stopped count is
    "unknown" (time at the limit)."""
    from cbsolve.consistency.lies import consistent_with_lies

    rows = []
    for label, variant, n_guesses in LIES_ROWS:
        logs = [inconsistent_log(variant, n_guesses, s, wrong=1) for s in range(seeds)]
        counts = {}
        for name in backends:
            times, unknown = [], 0
            for i, log in enumerate(logs):
                t = time.perf_counter()
                r = consistent_with_lies(log, lies, Query(count=True, limit=0), name,
                                         deadline=Deadline.from_limit(time_limit))
                times.append(time.perf_counter() - t)
                unknown += not r.exact
                if r.exact:
                    assert counts.setdefault(i, r.count) == r.count, "backends disagree"
            med, p95 = stats(times)
            rows.append({"row": f"count, max lies {lies}, {label}", "backend": name,
                         "median": med, "p95": p95, "unknown": unknown, "seeds": seeds})
            show(rows[-1:])
    return rows


def show(rows: list[dict]) -> None:
    for r in rows:
        extra = f"  unknown {r['unknown']}/{r['seeds']}" if "unknown" in r else ""
        if "undecided" in r:
            extra += f"  undecided {r['undecided']}/{r['seeds']}"
        target = f"  target {r['target']}" if "target" in r else ""
        print(f"{r['row']:<62} {r['backend']:<14} median {r['median']:.4g}  p95 {r['p95']:.4g}"
              f"{extra}{target}", flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", default="find",
                    help="comma list: find,band,enum,count,diagnose,lies")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--backends", default="cpsat,sat")
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--modes", default="one,one+det", help="find: one (find-one alone), "
                    "one+det (find-one and decide determined)")
    ap.add_argument("--guesses", default="20,30,40,50,60,70,90", help="band: guess counts")
    ap.add_argument("--plot", default=None, help="band: write the chart here (e.g. docs/band.png)")
    ap.add_argument("--json-out", default=None, help="write every row as JSON here")
    args = ap.parse_args(argv)
    out: list[dict] = []
    backends = args.backends.split(",")
    for row in args.rows.split(","):
        if row == "find":
            out += find_one(backends, args.seeds, args.time_limit,   # prints each row when done
                            tuple(args.modes.split(",")))
        elif row == "band":
            rows = [r for mode in args.modes.split(",")
                    for r in band(backends, args.seeds, args.time_limit,
                                  tuple(int(g) for g in args.guesses.split(",")), mode)]
            out += rows
            if args.plot:
                plot_band(rows, args.plot)
        elif row == "enum":
            enumeration(args.seeds, backends=tuple(backends), time_limit=args.time_limit)
        elif row == "count":
            show(count_native(args.seeds))
        elif row == "diagnose":
            rows = diagnose_rows(args.seeds, tuple(backends), args.time_limit)
            show(rows)
            out += rows
        elif row == "lies":
            out += lies_rows(args.seeds, tuple(backends), time_limit=args.time_limit)
        else:
            raise SystemExit(f"unknown row {row!r}; choose from find, band, enum, count, "
                             "diagnose, lies")
    if args.json_out:
        import json

        with open(args.json_out, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
