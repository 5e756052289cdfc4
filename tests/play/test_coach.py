"""The coach (cbsolve/play/coach.py): it formats the position service's review for the game's
objective, against the game's advice; the heuristic estimate behind large positions
(cbsolve/advisor/heuristic_cost.py) and the exact engine on the whole game."""
import io
import json
import sys

import numpy as np
import pytest

from cbsolve.advisor import PositionService
from cbsolve.advisor.heuristic_cost import HeuristicCosts
from cbsolve.cli import main
from cbsolve.consistency.native import consistent_indices
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog
from cbsolve.play.coach import Coach, describe, record
from cbsolve.strategy import evaluate
from cbsolve.game.variant import Variant

MM = Variant.preset("mastermind")
NO_LIMIT = Deadline(None)


def coach(objective="worst", strategy="optimal"):
    return Coach(PositionService(MM), objective=objective, strategy=strategy)


def test_cost_is_the_evaluation_of_that_opening():
    # from the start, "1234 then the expected heuristic" is evaluate(first=1234), built by the
    # tree builder of cbsolve.strategy (another code path)
    h = HeuristicCosts(MM)
    cands = np.arange(1296)
    for opening in ("1234", "1122"):
        ev = evaluate(MM, "expected", first=opening)
        total, worst = h.cost(h.space.index_of(h.space.parse(opening)), cands)
        assert (total, worst) == (ev.total, ev.worst)


def test_best_is_the_best_of_every_guess():
    # a small game where every code can be compared without symmetry
    v = Variant(3, "01234", repeats=False)
    h = HeuristicCosts(v)
    log = FeedbackLog.parse(v, ["012:0,1"])
    cands = consistent_indices(log)
    g = h.space.index_of((3, 4, 0))
    est = h.estimate([e.guess for e in log], cands, g, NO_LIMIT)
    costs = [h.cost(x, cands) for x in range(h.space.codes.shape[0])]
    assert est.complete and not est.cut
    assert est.best_total[0] == min(t for t, _ in costs)
    assert est.best_worst[0] == min(w for _, w in costs)
    assert (est.total, est.worst) == h.cost(g, cands)


def test_large_positions_compare_the_top_guesses():
    h = HeuristicCosts(MM, top=4)
    log = FeedbackLog.parse(MM, ["1122:1,0"])
    est = h.estimate([e.guess for e in log], consistent_indices(log),
                     h.space.index_of(h.space.parse("3344")), NO_LIMIT)
    assert not est.complete and est.compared <= 5      # 4 + the heuristic's choice


def test_cli_play_and_assist_report_the_coach(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1234\n1122\nquit\n"))
    assert main(["play", "--mode", "guess", "--variant", "mastermind", "--coach",
                 "--secret", "3335", "--json"]) == 0
    record_ = json.loads(capsys.readouterr().out)
    first = record_["your_guesses"][0]["coach"]
    assert first["guess"] == "1234" and first["candidates"] == 1296
    assert first["objective"] == "worst" and first["known"] == "heuristic"
    assert first["delta_worst"] == first["worst"] - first["best_worst"] == first["regret"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("1123 1 1\nquit\n"))
    assert main(["assist", "--variant", "mastermind", "--coach", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["coach"][0]["entry"] == 1 and summary["coach"][0]["guess"] == "1123"
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--mode", "host", "--coach"]) == 2
    assert "--mode guess or both" in capsys.readouterr().err


# --- the exact review -------------------------------------------------------------------------
TWO_IN = ["1122:0,1", "3345:1,1"]          # Mastermind, two guesses in: 56 candidates


def optimum_from(entries, objective):
    """(total, worst) of the proved optimum from the position ``entries`` leave, by the
    position search of ``cbsolve optimal ENTRY...`` (a fresh search, not the review's)."""
    from cbsolve.search.position import Position, solve_from

    result = solve_from(Position.from_log(FeedbackLog.parse(MM, entries)), objective,
                        certificate=False, workers=1)
    if objective == "worst":
        return None, result.upper
    return result.total, result.worst


def guess_then_optimum(entries, guess, objective):
    """(total, worst) of ``guess`` then the optimum in each of its reply classes, each class
    solved as a position of its own."""
    from cbsolve.game.scoring import score_against

    log = FeedbackLog.parse(MM, entries)
    cands = consistent_indices(log)
    replies = score_against(MM, log.space.parse(guess), log.space.codes[cands])
    total, worst = int(cands.size), 1
    for r in np.unique(replies):
        if r == MM.win_response:
            continue                    # the guess itself: no further guess
        bulls, cows = MM.response_of(int(r))
        t, w = optimum_from(entries + [f"{guess}:{bulls},{cows}"], objective)
        total, worst = (total + t if t is not None else None), max(worst, 1 + w)
    return total, worst


@pytest.mark.parametrize("objective", ["expected", "worst"])
def test_exact_review_matches_the_position_searches(objective):
    c = coach(objective)
    log = FeedbackLog.parse(MM, TWO_IN)
    k = 0 if objective == "expected" else 1
    best = optimum_from(TWO_IN, objective)[k]
    costs = {}
    for guess in ("1111", "2436"):
        review = c.review(log, guess, NO_LIMIT)
        assert review.exact and review.method.startswith("exact")
        assert review.best == best and review.followed is None
        assert review.cost == guess_then_optimum(TWO_IN, guess, objective)[k]
        costs[guess] = review.regret
    if objective == "expected":
        assert costs["1111"] > costs["2436"] > 0      # neither is an optimal first guess here


@pytest.mark.parametrize("objective", ["worst", "expected"])
def test_the_searchs_own_guess_costs_nothing(objective):
    from cbsolve.advisor import OPTIMAL, PositionService

    for entries in (TWO_IN, ["1122:1,0"]):
        log = FeedbackLog.parse(MM, entries)
        advice = PositionService(MM, "all").advise(log, strategy=OPTIMAL, objective=objective)
        assert advice.source == "exact" and advice.provenance.honoured
        review = coach(objective).review(log, advice.guess, NO_LIMIT)
        assert review.followed == "exact" and review.exact and review.regret == 0
        best_total, best_worst = optimum_from(entries, objective)
        assert review.cost == (best_total if objective == "expected" else best_worst)


def test_the_certified_opening_draws_no_blame():
    # the coach said the certified opening cost "+1 in the worst case" (a heuristic
    # judging a certified tree); the tree's own guess is the advice, with the tree's figures
    review = coach().review(FeedbackLog(MM), "1123", NO_LIMIT)
    assert review.followed == "tree" and review.regret == 0 and review.cost == 5
    assert "followed the advice" in review.method


def test_large_or_slow_positions_fall_back_to_the_labelled_heuristic():
    large = coach().review(FeedbackLog(MM), "1234", NO_LIMIT)    # 1296 candidates
    assert not large.exact and large.method.startswith("heuristic:")
    assert "1296 candidates, more than the 500" in large.method
    assert record(large)["exact"] is False
    log = FeedbackLog.parse(MM, ["1122:1,0"])
    timed = Coach(PositionService(MM)).review(log, "1234", Deadline(0.0))
    assert not timed.exact and "did not end within" in timed.method


def test_opening_delta_is_the_best_tree_after_the_guess_against_the_optimum():
    # From the start: the optimal total 5625 (Koyama & Lai 1993, J. Recreational Math. 25(4)),
    # the minimax optimum 5 (Knuth 1976, J. Recreational Math. 9(1)); the best tree after
    # 1122 is assembled here from one position search per reply class. The exact engine
    # itself, on the whole game (the review keeps it for 500 secrets and fewer).
    from cbsolve.advisor.exact_cost import PositionCores, worst_core
    from cbsolve.search.position import Position
    from cbsolve.strategy.exact import cached_search

    search = cached_search(MM)
    cores = PositionCores(search, lambda: worst_core(search), Position.from_log(FeedbackLog(MM)))
    space = FeedbackLog(MM).space
    g = space.index_of(space.parse("1122"))
    assert cores.expected_optimum(NO_LIMIT)[0] == 5625
    assert cores.worst_optimum(NO_LIMIT)[0] == 5
    assert cores.expected_total(g, NO_LIMIT) == guess_then_optimum([], "1122", "expected")[0]
    assert cores.expected_total(cores.expected_optimum(NO_LIMIT)[1], NO_LIMIT) == 5625


def test_cli_assist_reports_the_exact_review(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1111 0 0\nquit\n"))
    assert main(["assist", *TWO_IN, "--variant", "mastermind", "--coach", "--objective",
                 "expected", "--json"]) == 0
    review = json.loads(capsys.readouterr().out)["coach"][0]
    assert review["exact"] is True and review["method"].startswith("exact optimum")
    assert review["delta_expected"] > 0 and review["known"] == "exact"


def test_a_stop_request_ends_the_exact_review():
    from cbsolve.runtime.deadline import clear_stop, request_stop

    request_stop()
    try:
        review = coach().review(FeedbackLog.parse(MM, TWO_IN), "2436", NO_LIMIT)
    finally:
        clear_stop()
    assert not review.exact and "the exact review was stopped" in review.method
    assert review.stopped == "interrupted" and not review.complete


def test_a_tie_with_the_advice_names_the_advice():
    # the coach answered the certified opening 1123 (5 at worst) with "+1 in the worst case
    # (6 vs 5 with 1122)": a heuristic's guess named where the advice proves the same figure
    review = coach().review(FeedbackLog(MM), "1111", NO_LIMIT)
    assert (review.cost, review.best, review.best_guess) == (6, 5, "1123")
    assert review.best_bounds == (5, 5)


def test_the_last_guess_reads_as_one_guess():
    # "6543 is the advice (determined): 1 more guesses at worst"
    log = FeedbackLog.parse(MM, ["1123:1,0", "1445:1,1", "6155:1,1", "4525:1,1"])
    review = coach().review(log, "6543", NO_LIMIT)
    assert review.followed == "determined" and ": 1 more guess at worst" in describe(review)
