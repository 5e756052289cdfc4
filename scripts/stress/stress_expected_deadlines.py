"""Stress the expected-case search with deadlines and stop requests at random points.

The twin of scripts/stress/stress_worst_deadlines.py for ``optimal --objective expected``. Each game
(some with a depth cap, one cap too small to be met) is first solved in full: its optimal total
T, or "no strategy within the cap". Then, in one process and in sequence, the search is run
again many times, each time cut short at a random moment between 0 and 1.2x the full run's
time: by a time limit (the kernel's own deadline), by the kernel's stop flag set from a timer
thread (what another thread's stop does), by a stop request (what Ctrl-C sends: the search
raises SearchInterrupted holding the interval), or the bounds command is run with such a time
limit. Every answer must be sound and honest:

* a proved value is T (or a proved "none within the cap" when there is none); an interval
  contains T; no stopped search says "infeasible";
* every tree replays (:mod:`cbsolve.certificates.certify`) to the total the result reports, which is the
  upper end; a tree labelled optimal totals T; a capped search's tree keeps the cap;
* the status word matches (optimal when proved, else feasible with a tree, unknown without),
  and the stop reason is the one that stopped it (``time`` for a time limit, ``stopped`` for
  the kernel's flag, ``interrupted`` for the stop request), ``time_limit_hit`` only for a time
  limit;
* the bounds' expected interval contains T.

``--dask K`` also runs K searches split over a local Dask cluster of 2 worker processes
(:mod:`cbsolve.search.distributed`), each with a random time limit up to 1.2x that game's full
distributed run, checked the same way.

    nice python scripts/stress/stress_expected_deadlines.py                 # the heavy run (minutes)
    python scripts/stress/stress_expected_deadlines.py --games small --rounds 20 --dask 10

Exit 0 when every run was sound, 1 otherwise (each unsound run printed).
"""
from __future__ import annotations

import random
import sys
import time

from stress_worst_deadlines import (
    Kernels,
    Report,
    arguments,
    check_interval,
    check_stop,
    cut_short,
    in_rounds,
    print_report,
)

from cbsolve.bounds import compute_bounds
from cbsolve.certificates.certify import verify
from cbsolve.runtime.deadline import Deadline
from cbsolve.search.expected import solve_expected
from cbsolve.search.expected.search import _Search
from cbsolve.runtime.status import Status
from cbsolve.game.variant import Variant

DIGITS = "0123456789AB"
#: (game, depth cap) pairs for the test suite, each full search well under a second; every
#: game's greedy total exceeds its optimum (a stop that reports the greedy value as optimal is
#: caught), and 3 of 6 distinct within 4 guesses is impossible.
SMALL = [(Variant(3, DIGITS[:6], False), None), (Variant(4, DIGITS[:7], False), None),
         (Variant(5, DIGITS[:2], True), None), (Variant(3, DIGITS[:5], True, feedback="bulls"), None),
         (Variant(3, DIGITS[:6], False), 5), (Variant(3, DIGITS[:6], False), 4)]
#: The heavy set: Mastermind 4x5 and 4x6 (and 4x6 within 5 guesses: 5626), Bulls & Cows 4 of
#: 7 and 8, black-peg 4x4 and 3x5.
HEAVY = [(Variant(4, DIGITS[:5], True), None), (Variant(4, DIGITS[:6], True), None),
         (Variant(4, DIGITS[:6], True), 5), (Variant(4, DIGITS[:7], False), None),
         (Variant(4, DIGITS[:8], False), None), (Variant(4, DIGITS[:4], True, feedback="bulls"), None),
         (Variant(3, DIGITS[:5], True, feedback="bulls"), None), (Variant(4, DIGITS[:7], False), 5)]

def _check_search(game: Variant, cap, value, res, report: Report, how: str, mode: str) -> None:
    """``value``: the optimal total, None when no strategy keeps the cap."""
    def fail(why: str) -> None:
        report.failures.append(f"{game.describe()}, cap {cap} [{how}]: {why}")

    if res.status is Status.INFEASIBLE and (value is not None or not res.proved):
        fail("reported infeasible" + (f"; the optimum is {value}" if value is not None else
                                      " without proving it"))
    if value is None:
        if res.upper is not None or res.tree is not None:
            fail(f"a strategy within {cap} guesses reported ({res.upper}); there is none")
    else:
        check_interval(res, value, fail)
    if res.tree is not None:
        rep = verify(res.tree, expect=game)
        if not rep.valid:
            fail(f"tree does not verify: {rep.message}")
        elif rep.total != res.total or res.upper != res.total:
            fail(f"tree replays to {rep.total}, the result says total {res.total}, "
                 f"upper {res.upper}")
        elif res.tree.get("proved") and rep.total != value:
            fail(f"tree labelled optimal totals {rep.total}, the optimum is {value}")
        elif cap is not None and rep.worst > cap:
            fail(f"tree needs {rep.worst} guesses, the cap is {cap}")
    _check_status(res, fail, mode)
    report.outcomes[("proved" if res.proved else "interval")
                    + (", interrupted" if res.interrupted else "")] += 1


def _check_status(res, fail, mode: str) -> None:
    """The status word and the stop reason say what happened."""
    data = res.to_json()
    if res.proved:
        want = {Status.OPTIMAL, Status.INFEASIBLE}
    else:
        want = {Status.FEASIBLE if res.upper is not None else Status.UNKNOWN}
    if res.status not in want or data["status"] != str(res.status):
        fail(f"status {data['status']} (proved {res.proved}, upper {res.upper})")
    if not res.proved and res.stop is None:
        fail("not proved, and no stop reason given")
    check_stop(res, mode, fail)


def _check_bounds(game: Variant, value: int, b, report: Report, how: str) -> None:
    e = b.expected
    if not e.lower <= value <= e.upper:
        report.failures.append(f"{game.describe()} [{how}]: expected bounds [{e.lower}, "
                               f"{e.upper}] exclude {value} ({e.lower_method} / {e.upper_method})")
    checked = getattr(b, "checks", {}).get("expected")
    if checked is not None and checked["rejected"]:
        report.failures.append(f"{game.describe()} [{how}]: verifier rejected the search: "
                               f"{checked['problem']}")
    report.outcomes["bounds exact" if e.exact is not None else "bounds interval"] += 1


def _run_one(g: Variant, cap, value, mode: str, at: float, threads: int, report: Report,
             how: str) -> None:
    if mode == "bounds":
        found = compute_bounds(g, deadline=Deadline.from_limit(at), workers=threads)
        _check_bounds(g, value, found, report, how)
        return
    kernels = Kernels(_Search, lambda search: search.solver)
    try:
        res = cut_short(kernels, mode, at, lambda limit: solve_expected(
            g, max_depth=cap, workers=threads, deadline=Deadline.from_limit(limit)))
    except Exception as exc:  # noqa: BLE001  (a crash is a failure to report, not to hide)
        report.failures.append(f"{g.describe()}, cap {cap} [{how}]: "
                               f"{type(exc).__name__}: {str(exc)[:200]}")
        return
    if res is not None:
        _check_search(g, cap, value, res, report, how, mode)


def stress(games, rounds: int, seed: int = 0, workers=(1, 2), log=None,
           bounds_cap: float = 30.0) -> Report:
    """Run ``rounds`` cut-short searches over ``games`` ((variant, cap) pairs; see the module
    docstring); the reference bounds run of an uncapped game gets ``bounds_cap`` seconds."""
    rng = random.Random(seed)
    say = log or (lambda message: None)
    full = {}
    for g, cap in games:
        t = time.perf_counter()
        res = solve_expected(g, max_depth=cap, workers=1)
        search_s = time.perf_counter() - t
        value = res.total if res.status is Status.OPTIMAL else None
        bounds_s = None
        if cap is None:
            t = time.perf_counter()
            compute_bounds(g, deadline=Deadline.from_limit(bounds_cap))
            bounds_s = time.perf_counter() - t
        full[g, cap] = (value, search_s, bounds_s)
        say(f"{g.describe()}, cap {cap}: total {value}; search {search_s:.2f} s"
            + (f", bounds {bounds_s:.2f} s" if bounds_s is not None else ""))

    def run_round(k: int, report: Report) -> None:
        g, cap = rng.choice(games)
        value, search_s, bounds_s = full[g, cap]
        modes = ("deadline", "kernel stop", "stop request") + (("bounds",) if cap is None
                                                               else ())
        mode = rng.choice(modes)
        at = rng.uniform(0.0, 1.2 * (bounds_s if mode == "bounds" else search_s)) + 1e-4
        threads = rng.choice(workers)
        _run_one(g, cap, value, mode, at, threads, report,
                 f"round {k}, {mode} at {at:.4f} s, {threads} threads")

    return in_rounds(rounds, run_round)


def stress_dask(games, rounds: int, seed: int = 0, workers: int = 2, log=None) -> Report:
    """``rounds`` time-limited searches on a local Dask cluster (see the module docstring)."""
    from cbsolve.search.distributed import DistributedExpected, cluster_client

    rng = random.Random(seed)
    say = log or (lambda message: None)
    report, full = Report(), {}
    with cluster_client("local", workers) as client:
        for g, cap in games:
            ref = solve_expected(g, max_depth=cap, workers=1)
            t = time.perf_counter()
            DistributedExpected(client, g, cap, "all").run()
            full[g, cap] = (ref.total if ref.status is Status.OPTIMAL else None,
                            time.perf_counter() - t)
            say(f"{g.describe()}, cap {cap}: total {full[g, cap][0]}; on Dask "
                f"{full[g, cap][1]:.2f} s")
        for k in range(rounds):
            g, cap = rng.choice(games)
            value, seconds = full[g, cap]
            at = rng.uniform(0.0, 1.2 * seconds) + 1e-3
            report.runs += 1
            how = f"Dask round {k}, time limit {at:.3f} s"
            try:
                res = DistributedExpected(client, g, cap, "all",
                                          deadline=Deadline.from_limit(at)).run()
            except Exception as exc:  # noqa: BLE001  (a crash is a failure to report)
                report.failures.append(f"{g.describe()}, cap {cap} [{how}]: "
                                       f"{type(exc).__name__}: {str(exc)[:200]}")
                continue
            _check_search(g, cap, value, res, report, how, "deadline")
    return report


def main(argv=None) -> int:
    parser = arguments(__doc__)
    parser.add_argument("--dask", type=int, default=0, metavar="K",
                        help="also K time-limited searches on a local Dask cluster")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    games = HEAVY if args.games == "heavy" else SMALL
    report = stress(games, args.rounds, args.seed, log=lambda m: print(m, flush=True),
                    bounds_cap=args.bounds_cap)
    if args.dask:
        on_dask = stress_dask(games, args.dask, args.seed, log=lambda m: print(m, flush=True))
        report.runs += on_dask.runs
        report.outcomes.update({f"Dask {k}": v for k, v in on_dask.outcomes.items()})
        report.failures += on_dask.failures
    return print_report(report, start)


if __name__ == "__main__":
    sys.exit(main())
