"""Benchmark: the coach's exact review against its heuristic review, side by side.

    python scripts/bench/bench_coach.py

For a few positions of Mastermind 4/6 and Bulls & Cows 4/10 (one or two guesses in), one guess
is reviewed by the exact review (the proved optimum from the position, within its default
budget) and by the heuristic review (each guess then Irving's heuristic), in one run; the
cores are built first (the first review of a game pays for its reply matrices). Prints the
candidates, both wall times and both deltas (the heuristic's deltas are against the best
compared guess under the heuristic, so they may differ from the exact ones either way).
"""
from __future__ import annotations

import time

from cbsolve.consistency.native import consistent_indices
from cbsolve.feedback import FeedbackLog
from cbsolve.play.coach import Coach
from cbsolve.variant import Variant

CASES = {
    "mastermind": [([], "1122"), (["1122:1,0"], "1344"), (["1123:0,1"], "2344"),
                   (["1122:0,1", "3345:1,1"], "2436")],
    "bulls-cows": [(["0123:1,1", "4567:0,1"], "0248"), (["0123:0,2", "4567:1,0"], "1048"),
                   (["0123:1,0", "4567:1,0"], "0489"), (["0123:0,1", "4567:0,2"], "5690")],
}


def timed(coach: Coach, log: FeedbackLog, guess: str):
    start = time.perf_counter()
    review = coach.review(log, guess)
    return review, time.perf_counter() - start


def main() -> None:
    for name, cases in CASES.items():
        v = Variant.preset(name)
        exact, heuristic = Coach(v), Coach(v, exact_secrets=0)
        start = time.perf_counter()
        exact.review(FeedbackLog.parse(v, cases[-1][0]), cases[-1][1])
        print(f"{name}: first exact review (builds the cores) {time.perf_counter() - start:.2f} s")
        for entries, guess in cases:
            log = FeedbackLog.parse(v, entries)
            n = int(consistent_indices(log).size)
            r, te = timed(exact, log, guess)
            h, th = timed(heuristic, log, guess)
            kind = "exact" if r.exact else f"heuristic ({r.why})"
            print(f"  {' '.join(entries) or 'start'} {guess}: {n} candidates; {kind} {te:.3f} s "
                  f"+{r.delta_expected:.3f}/+{r.delta_worst} | heuristic {th:.3f} s "
                  f"+{h.delta_expected:.3f}/+{h.delta_worst}")


if __name__ == "__main__":
    main()
