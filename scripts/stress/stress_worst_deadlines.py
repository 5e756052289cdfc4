"""Stress the worst-case search with deadlines and stop requests at random points.

Each game is first solved in full (its value W, the reference) and its bounds computed without
a limit. Then, in one process and in sequence (as a bounds-table pool worker runs its cells),
the search is run again many times, each time cut short at a random moment between 0 and 1.2x
the full run's time: by a time limit (the waiting thread polls the clock every 0.5 ms here,
not every 0.1 s, so the stop lands inside the kernels even on small games), by the kernel's own
stop flag set from a timer thread (lands within one node), or by a stop request (what Ctrl-C
sends); or the bounds command is run with such a time limit. Every answer must be sound:

* a proved value is W; a proved lower bound is <= W, an upper bound >= W;
* every certificate and every tree the search returns passes :mod:`cbsolve.certificates.certify`, and the
  certificate proves no more than W;
* the bounds' interval contains W, and an end labelled by the search is one the verifier
  confirmed.

    nice python scripts/stress/stress_worst_deadlines.py                 # the heavy run (minutes)
    python scripts/stress/stress_worst_deadlines.py --games small --rounds 20

Exit 0 when every run was sound, 1 otherwise (each unsound run printed).
"""
from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from collections import Counter

from cbsolve.runtime import deadline as deadlines
from cbsolve.bounds import compute_bounds
from cbsolve.certificates.certify import verify
from cbsolve.runtime.deadline import Deadline, clear_stop, request_stop
from cbsolve.search.worst import solve_worst
from cbsolve.search.worst.kernel import _Native
from cbsolve.runtime.status import StopReason
from cbsolve.game.variant import Variant

DIGITS = "0123456789AB"
#: The heavy set: Bulls & Cows 4 of 8..11 distinct, Mastermind 4 x 5..7, black-peg 4x4, 3x5, 5x3
#: (black-peg 4x5 is left out: its full worst-case search alone takes over 10 minutes here).
HEAVY = [Variant(4, DIGITS[:d], False) for d in range(8, 12)] + \
        [Variant(4, DIGITS[:d], True) for d in range(5, 8)] + \
        [Variant(n, DIGITS[:d], True, feedback="bulls") for n, d in ((4, 4), (3, 5), (5, 3))]
#: Small games for the test suite (each full search well under a second); 5 of 2 with repeats
#: has a greedy tree deeper than its optimum.
SMALL = [Variant(3, DIGITS[:6], False), Variant(4, DIGITS[:6], False), Variant(4, DIGITS[:4], True),
         Variant(5, DIGITS[:2], True), Variant(3, DIGITS[:4], True, feedback="bulls")]


class Report:
    """Runs made, their outcomes ("proved", "interval", "bounds exact", ...), unsound ones."""

    def __init__(self):
        self.runs = 0
        self.outcomes: Counter = Counter()
        self.failures: list[str] = []


def check_interval(res, value: int, fail) -> None:
    """A proved value is ``value`` (the full search's), an interval contains it."""
    if res.proved and not (res.lower == res.upper == value):
        fail(f"proved [{res.lower}, {res.upper}], the full search proves {value}")
    if res.lower is not None and res.lower > value:
        fail(f"lower bound {res.lower} > {value}")
    if res.upper is not None and res.upper < value:
        fail(f"upper bound {res.upper} < {value}")


#: The stop reason each way of stopping must report.
EXPECTED_STOP = {"deadline": StopReason.TIME, "kernel stop": StopReason.STOPPED,
                 "stop request": StopReason.INTERRUPTED}


def check_stop(res, mode: str, fail) -> None:
    """The stop reason is the one that stopped the search, and the JSON says so."""
    data = res.to_json()
    if res.stop is not None and res.stop is not EXPECTED_STOP[mode]:
        fail(f"stop reason {res.stop}, stopped by a {mode}")
    if data["time_limit_hit"] != (res.stop is StopReason.TIME):
        fail(f"time_limit_hit {data['time_limit_hit']} with stop reason {res.stop}")
    if res.interrupted and res.stop is not StopReason.INTERRUPTED:
        fail(f"interrupted with stop reason {res.stop}")
    if not res.proved and res.interrupted != (res.stop is StopReason.INTERRUPTED):
        fail(f"interrupted {res.interrupted} with stop reason {res.stop}")


def _check_search(game: Variant, value: int, res, report: Report, how: str,
                  mode: str) -> None:
    def fail(why: str) -> None:
        report.failures.append(f"{game.describe()} [{how}]: {why}")

    check_interval(res, value, fail)
    if res.tree is not None and res.tree.get("proved") and res.worst != value:
        fail(f"tree labelled optimal has worst {res.worst}, the optimum is {value}")
    for name, doc in (("tree", res.tree), ("certificate", res.certificate)):
        if doc is None:
            continue
        rep = verify(doc, expect=game)
        if not rep.valid:
            fail(f"{name} does not verify: {rep.message}")
        elif rep.lower_bound is not None and rep.lower_bound > value:
            fail(f"{name}'s certificate proves {rep.lower_bound} > {value}")
    check_stop(res, mode, fail)
    report.outcomes[_outcome(res)] += 1


def _outcome(res) -> str:
    """The result's kind and where the stop landed, from its notes."""
    where = next((phase for key, phase in (("deciding", "feasible"), ("building", "tree"),
                                           ("certificate", "certificate"))
                  if any(key in note for note in res.notes)), None)
    if where is None and res.upper is None:
        where = "greedy"
    kind = "proved" if res.proved else "interval"
    return kind if where is None else f"{kind}, stopped in {where}"


def _check_bounds(game: Variant, value: int, b, report: Report, how: str) -> None:
    w = b.worst
    if not w.lower <= value <= w.upper:
        report.failures.append(f"{game.describe()} [{how}]: bounds [{w.lower}, {w.upper}] "
                               f"exclude {value} ({w.lower_method} / {w.upper_method})")
    checked = getattr(b, "checks", {}).get("worst")
    for end, method in (("lower", w.lower_method), ("upper", w.upper_method)):
        if method.startswith("search") and (checked is None or checked["rejected"]
                                            or checked[end] is None):
            report.failures.append(f"{game.describe()} [{how}]: {end} end labelled {method!r} "
                                   "without the verifier's confirmation")
    if checked is not None and checked["rejected"]:
        report.failures.append(f"{game.describe()} [{how}]: verifier rejected the search: "
                               f"{checked['problem']}")
    report.outcomes["bounds exact" if w.exact is not None else "bounds interval"] += 1


def _later(seconds: float, action) -> threading.Timer:
    timer = threading.Timer(seconds, action)
    timer.daemon = True
    timer.start()
    return timer


class Kernels:
    """Remembers the native kernels a search creates (``pick`` of each object ``owner``'s
    constructor makes), so a timer can set the latest one's stop flag. The stress scripts of
    both objectives use it."""

    def __init__(self, owner, pick):
        self.owner, self.pick, self.made = owner, pick, []
        self._init = owner.__init__

    def __enter__(self):
        made, init, pick = self.made, self._init, self.pick

        def record(obj, *args, **kwargs):
            init(obj, *args, **kwargs)
            made.append(pick(obj))

        self.owner.__init__ = record
        return self

    def __exit__(self, *exc):
        self.owner.__init__ = self._init

    def stop_latest(self) -> None:
        if self.made:
            self.made[-1].request_stop()


def in_rounds(rounds: int, run_round) -> Report:
    """Call ``run_round(k, report)`` for k < ``rounds`` in sequence, each with a fresh stop
    request, the waiting thread polling every 0.5 ms (so a stop lands inside the kernels even
    on small games)."""
    report = Report()
    poll = deadlines.POLL_SECONDS
    deadlines.POLL_SECONDS = 0.0005
    try:
        for k in range(rounds):
            report.runs += 1
            clear_stop()
            try:
                run_round(k, report)
            finally:
                clear_stop()
    finally:
        deadlines.POLL_SECONDS = poll
    return report


def print_report(report: Report, start: float) -> int:
    """Print the unsound runs and the tally; the exit code (1 when any run was unsound)."""
    for failure in report.failures:
        print("UNSOUND:", failure)
    print(f"{report.runs} runs in {time.perf_counter() - start:.0f} s: "
          f"{dict(sorted(report.outcomes.items()))}; {len(report.failures)} unsound")
    return 1 if report.failures else 0


def cut_short(kernels: Kernels, mode: str, at: float, solve):
    """``solve(time_limit)`` stopped after ``at`` seconds by ``mode`` ("deadline": that time
    limit; "kernel stop": the latest kernel's stop flag; "stop request": what Ctrl-C sends):
    its result, or the interval a SearchInterrupted carries."""
    with kernels:
        timer = None
        if mode == "kernel stop":
            timer = _later(at, kernels.stop_latest)
        elif mode == "stop request":
            timer = _later(at, request_stop)
        try:
            return solve(at if mode == "deadline" else None)
        except KeyboardInterrupt as exc:   # SearchInterrupted carries the interval
            return getattr(exc, "result", None)
        finally:
            if timer is not None:
                timer.cancel()


def _run_one(g: Variant, value: int, mode: str, at: float, threads: int, report: Report,
             how: str) -> None:
    if mode == "bounds":
        found = compute_bounds(g, deadline=Deadline.from_limit(at), workers=threads)
        _check_bounds(g, value, found, report, how)
        return
    res = cut_short(Kernels(_Native, lambda native: native.core), mode, at,
                    lambda limit: solve_worst(g, workers=threads, deadline=Deadline.from_limit(limit)))
    if res is not None:
        _check_search(g, value, res, report, how, mode)


def stress(games, rounds: int, seed: int = 0, workers=(1, 2), log=None,
           bounds_cap: float = 30.0) -> Report:
    """Run ``rounds`` cut-short searches over ``games`` (see the module docstring); the
    reference bounds run gets ``bounds_cap`` seconds (an expected-case search can take hours)."""
    rng = random.Random(seed)
    say = log or (lambda message: None)
    full = {}
    for g in games:
        t = time.perf_counter()
        res = solve_worst(g, workers=1)
        search_s = time.perf_counter() - t
        t = time.perf_counter()
        compute_bounds(g, deadline=Deadline.from_limit(bounds_cap))
        full[g] = (res.upper, search_s, time.perf_counter() - t)
        say(f"{g.describe()}: worst {res.upper}; search {search_s:.2f} s, bounds "
            f"{full[g][2]:.2f} s")

    def run_round(k: int, report: Report) -> None:
        g = rng.choice(games)
        value, search_s, bounds_s = full[g]
        mode = rng.choice(("deadline", "kernel stop", "stop request", "bounds"))
        at = rng.uniform(0.0, 1.2 * (bounds_s if mode == "bounds" else search_s)) + 1e-4
        threads = rng.choice(workers)
        _run_one(g, value, mode, at, threads, report,
                 f"round {k}, {mode} at {at:.4f} s, {threads} threads")

    return in_rounds(rounds, run_round)


def arguments(doc: str) -> argparse.ArgumentParser:
    """The options both stress scripts take."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--games", choices=("heavy", "small"), default="heavy")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bounds-cap", type=float, default=30.0, metavar="SECONDS",
                        help="time limit of the reference bounds run (default 30 s)")
    return parser


def main(argv=None) -> int:
    args = arguments(__doc__).parse_args(argv)
    start = time.perf_counter()
    report = stress(HEAVY if args.games == "heavy" else SMALL, args.rounds, args.seed,
                    log=lambda m: print(m, flush=True), bounds_cap=args.bounds_cap)
    return print_report(report, start)


if __name__ == "__main__":
    sys.exit(main())
