"""How far past its time limit each engine ends: the wall-clock side of the time-out tests.

The tests check the mechanism (a spent budget or a set stop flag takes the time-out path and
says so; tests/consistency/test_dfs.py, test_consistency_backends.py, test_portfolio.py, test_diagnose.py);
this script measures the seconds, which depend on the machine and its load. Rows of
docs/benchmarks.md, "Time limits, Ctrl-C and input caps".

    python scripts/bench/bench_time_limits.py --repeats 3
"""
from __future__ import annotations

import argparse
import statistics
import string
import threading
import time
from pathlib import Path

import numpy as np

from cbsolve.consistency import Query, consistent, dfs, get_backend
from cbsolve.consistency.diagnose import conflict_search
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog, random_log
from cbsolve.game.variant import Variant

ONE_GUESS_TWICE = (Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "logs"
                   / "mastermind-16x6-one-guess-twice.txt")


def wall(work) -> float:
    t0 = time.perf_counter()
    work()
    return time.perf_counter() - t0


def count_n16() -> tuple[float, float]:
    """The native count of ~10^12 codes (N=16 of 26 letters, 3 clues) under a 0.2 s limit."""
    log, _ = random_log(Variant(16, string.ascii_uppercase, True), 1, 3)
    return 0.2, wall(lambda: consistent(log, Query(count=True, limit=2),
                                        backend="native", deadline=Deadline.from_limit(0.2)))


def hard_band(backend: str, limit: float):
    """Find one on the hard band (N=40 digits, 40 guesses) under ``limit``."""
    def row() -> tuple[float, float]:
        log, _ = random_log(Variant(40, string.digits, True), 40, 1)
        return limit, wall(lambda: get_backend(backend).solve(log, Query(limit=1),
                                                              deadline=Deadline.from_limit(limit)))
    return row


def waiting_call() -> tuple[float, float]:
    """A 0.05 s listing that waits behind a count holding the log's searcher."""
    log, _ = random_log(Variant(16, string.ascii_uppercase, True), 1, 3)
    dfs.first(log)
    flag = np.zeros(1, np.int32)
    busy = threading.Thread(target=lambda: dfs.run(log, dfs.COUNT, stop=flag))
    busy.start()
    time.sleep(0.2)
    try:
        return 0.05, wall(lambda: dfs.run(log, dfs.LIST, 1, seconds=0.05))
    finally:
        flag[0] = 1
        busy.join()


def diagnosis_n10() -> tuple[float, float]:
    """The inconsistent N=10 log of tests/consistency/test_diagnose.py, diagnosed under a 30 s limit."""
    log = FeedbackLog.parse(Variant(10, string.ascii_uppercase, False), [
        "PINKYQGEJM:0,2", "PYBDVHFWMQ:2,6", "BJIGQXTURS:0,5", "KFMHNJTLQE:0,2",
        "DZIHEMRSYV:0,4", "COLSNKBQJA:0,2"])
    return 30.0, wall(lambda: consistent(log, Query(limit=1, determined=False),
                                         deadline=Deadline.from_limit(30)))


def deletion_16x6() -> tuple[float, float]:
    """The Mastermind 16x6 conflict (one guess answered twice) under a 20 s limit."""
    log = FeedbackLog.from_file(Variant(16, "123456", True), ONE_GUESS_TWICE)
    return 20.0, wall(lambda: conflict_search(log, "native", deadline=Deadline.from_limit(20)))


def count_of_zero() -> tuple[float, float]:
    """Black-peg 16x6 whose colour counts add to 17: a count of 0 under a 30 s limit."""
    log = FeedbackLog.parse(Variant(16, "123456", True, feedback="bulls"), [
        "5555555555555555:3", "3333333333333333:6", "1111111111111111:4", "6666666666666666:4"])
    return 30.0, wall(lambda: get_backend("native").solve(log, Query(count=True),
                                                          deadline=Deadline.from_limit(30)))


ROWS = {
    "native count N=16, limit 0.2 s": count_n16,
    "sat find one, hard band, limit 0.05 s": hard_band("sat", 0.05),
    "cpsat find one, hard band, limit 0.05 s": hard_band("cpsat", 0.05),
    "cpsat + local search, hard band, limit 1 s": hard_band("cpsat", 1.0),
    "listing waiting behind a count, limit 0.05 s": waiting_call,
    "diagnosis N=10 of 26 by the search, limit 30 s": diagnosis_n10,
    "deletion Mastermind 16x6, limit 20 s": deletion_16x6,
    "count of 0, black-peg 16x6, limit 30 s": count_of_zero,
}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    print(f"| case | limit (s) | wall (s), median of {args.repeats} | max |")
    print("|---|---|---|---|")
    for label, row in ROWS.items():
        runs = [row() for _ in range(args.repeats)]
        times = [t for _, t in runs]
        print(f"| {label} | {runs[0][0]:g} | {statistics.median(times):.3f} | {max(times):.3f} |")


if __name__ == "__main__":
    main()
