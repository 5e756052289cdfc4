"""Benchmark: the coach's figures, the position service's exact review against the heuristic
estimate it falls back to, side by side.

    python scripts/bench/bench_coach.py

For a few positions of Mastermind 4/6 and Bulls & Cows 4/10 (one or two guesses in), one guess
is reviewed for each objective by ``PositionService.review`` (exact where the position has at
most 500 secrets) and estimated by the heuristic continuation (each compared guess, then
Irving's heuristic), in one run; the exact core is built first (the first review of a game
pays for its reply matrix). Prints the candidates, the wall times and the regrets (the
heuristic's against the best compared guess under the heuristic, so they may differ from the
exact ones either way).
"""
from __future__ import annotations

import time

from cbsolve.advisor import PositionService
from cbsolve.advisor.heuristic_cost import HeuristicCosts
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.variant import Variant

CASES = {
    "mastermind": [([], "1122"), (["1122:1,0"], "1344"), (["1123:0,1"], "2344"),
                   (["1122:0,1", "3345:1,1"], "2436")],
    "bulls-cows": [(["0123:1,1", "4567:0,1"], "0248"), (["0123:0,2", "4567:1,0"], "1048"),
                   (["0123:1,0", "4567:1,0"], "0489"), (["0123:0,1", "4567:0,2"], "5690")],
}


def timed(service: PositionService, log: FeedbackLog, guess: str, objective: str):
    start = time.perf_counter()
    review = service.review(log, guess, objective, Deadline(None))
    return review, time.perf_counter() - start


def timed_estimate(variant: Variant, log: FeedbackLog, guess: str, costs=None):
    from cbsolve.consistency.native import consistent_indices

    costs = costs or HeuristicCosts(variant)
    start = time.perf_counter()
    g = costs.space.index_of(costs.space.parse(guess))
    est = costs.estimate([e.guess for e in log], consistent_indices(log), g, Deadline(None))
    return est, time.perf_counter() - start


def main() -> None:
    for name, cases in CASES.items():
        v = Variant.preset(name)
        service, costs = PositionService(v), HeuristicCosts(v)
        start = time.perf_counter()
        service.review(FeedbackLog.parse(v, cases[-1][0]), cases[-1][1], "expected", None)
        print(f"{name}: first exact review (builds the core) {time.perf_counter() - start:.2f} s")
        for entries, guess in cases:
            log = FeedbackLog.parse(v, entries)
            h, th = timed_estimate(v, log, guess, costs)
            for objective in ("expected", "worst"):
                r, te = timed(service, log, guess, objective)
                hr = (h.total - h.best_total[0] if objective == "expected"
                      else h.worst - h.best_worst[0])
                print(f"  {' '.join(entries) or 'start'} {guess} {objective}: {r.candidates} "
                      f"candidates; {r.known} {te:.3f} s regret {r.regret} | heuristic "
                      f"{th:.3f} s regret {hr}")


if __name__ == "__main__":
    main()
