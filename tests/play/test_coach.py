"""The coach: a guess's cost against the best guess from the same position."""
import io
import json
import sys

import numpy as np
import pytest

from cbsolve.cli import main
from cbsolve.consistency.native import consistent_indices
from cbsolve.feedback import FeedbackLog
from cbsolve.play.coach import Coach
from cbsolve.strategy import evaluate
from cbsolve.variant import Variant

MM = Variant.preset("mastermind")


def test_cost_is_the_evaluation_of_that_opening():
    # from the start, "1234 then the expected heuristic" is evaluate(first=1234), built by the
    # tree builder of cbsolve.strategy (another code path)
    coach = Coach(MM)
    cands = np.arange(1296)
    for opening in ("1234", "1122"):
        ev = evaluate(MM, "expected", first=opening)
        total, worst = coach.cost(coach.space.index_of(coach.space.parse(opening)), cands)
        assert (total, worst) == (ev.total, ev.worst)


def test_best_is_the_best_of_every_guess():
    # a small game where every code can be compared without symmetry
    v = Variant(3, "01234", repeats=False)
    coach = Coach(v, exact_secrets=0)               # the heuristic review
    log = FeedbackLog.parse(v, ["012:0,1"])
    review = coach.review(log, "340")
    cands = consistent_indices(log)
    costs = [coach.cost(g, cands) for g in range(coach.space.codes.shape[0])]
    assert review.complete
    assert review.best_total == min(t for t, _ in costs)
    assert review.best_worst == min(w for _, w in costs)
    assert review.delta_expected >= 0 and review.delta_worst >= 0
    assert (review.total, review.worst) == coach.cost(coach.space.index_of((3, 4, 0)), cands)


def test_large_positions_compare_the_top_guesses():
    coach = Coach(MM, top=4, exact_secrets=0)       # the heuristic review
    review = coach.review(FeedbackLog.parse(MM, ["1122:1,0"]), "3344")
    assert not review.complete and review.compared <= 5      # 4 + the heuristic's choice
    assert "best of" in review.label and review.delta_expected >= 0


def test_cli_play_and_assist_report_the_coach(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1234\n1122\nquit\n"))
    assert main(["play", "--mode", "guess", "--variant", "mastermind", "--coach",
                 "--secret", "3335", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    first = record["your_guesses"][0]["coach"]
    assert first["guess"] == "1234" and first["candidates"] == 1296
    assert first["delta_worst"] == first["worst"] - first["best_worst"]
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
    position search of ``cbsolve optimal ENTRY...`` (a fresh search, not the coach's)."""
    from cbsolve.search.position import Position, solve_from

    result = solve_from(Position.from_log(FeedbackLog.parse(MM, entries)), objective,
                        certificate=False, workers=1)
    if objective == "worst":
        return None, result.upper
    return result.total, result.worst


def guess_then_optimum(entries, guess, objective):
    """(total, worst) of ``guess`` then the optimum in each of its reply classes, each class
    solved as a position of its own."""
    from cbsolve.scoring import score_against

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


def test_exact_review_matches_the_position_searches():
    coach = Coach(MM)
    log = FeedbackLog.parse(MM, TWO_IN)
    best_total, _ = optimum_from(TWO_IN, "expected")
    _, best_worst = optimum_from(TWO_IN, "worst")
    for guess in ("1111", "2436"):
        review = coach.review(log, guess)
        assert review.exact and "exact optimum" in review.label
        assert (review.best_total, review.best_worst) == (best_total, best_worst)
        assert review.total == guess_then_optimum(TWO_IN, guess, "expected")[0]
        assert review.worst == guess_then_optimum(TWO_IN, guess, "worst")[1]
        assert review.delta_expected > 0              # neither is an optimal first guess here
    assert coach.review(log, "1111").delta_expected > coach.review(log, "2436").delta_expected


@pytest.mark.parametrize("objective", ["worst", "expected"])
def test_the_searchs_own_guess_costs_nothing(objective):
    from cbsolve.advisor import OPTIMAL, PositionService

    for entries in (TWO_IN, ["1122:1,0"]):
        log = FeedbackLog.parse(MM, entries)
        advice = PositionService(MM, "all").advise(log, strategy=OPTIMAL, objective=objective)
        assert advice.source == "exact" and advice.provenance.honoured
        review = Coach(MM, objective=objective).review(log, advice.guess)
        assert review.followed == "exact" and review.exact
        assert review.delta_expected == 0 and review.delta_worst == 0
        best_total, best_worst = optimum_from(entries, objective)
        assert (review.total if objective == "expected" else review.worst) == \
            (best_total if objective == "expected" else best_worst)


def test_the_certified_opening_draws_no_blame():
    # the coach said the certified opening cost "+1 in the worst case" (a heuristic
    # judging a certified tree); the tree's own guess is the advice, with the tree's figures
    review = Coach(MM).review(FeedbackLog(MM), "1123")
    assert review.followed == "tree" and review.delta_worst == 0 and review.worst == 5
    assert "followed the advice" in review.label


def test_large_or_slow_positions_fall_back_to_the_labelled_heuristic():
    log = FeedbackLog.parse(MM, ["1122:1,0"])                  # 256 candidates
    small = Coach(MM, exact_secrets=100).review(log, "1234")   # not the advice (1344)
    assert not small.exact and small.label.startswith("heuristic:")
    assert "256 candidates, more than the 100" in small.why
    record = small.to_json()
    assert record["exact"] is False and record["not_exact"] == small.why
    # the optimum the advice proved (4 from here, exact worst-case search) is the best
    assert small.best_worst == optimum_from(["1122:1,0"], "worst")[1]
    timed = Coach(MM, exact_seconds=1e-9).review(log, "1234")
    assert not timed.exact and "did not end within" in timed.why


def test_opening_delta_is_the_best_tree_after_the_guess_against_the_optimum():
    # From the start: the optimal total 5625 (Koyama & Lai 1993, J. Recreational Math. 25(4)),
    # the minimax optimum 5 (Knuth 1976, J. Recreational Math. 9(1)); the best tree after
    # 1122 is assembled here from one position search per reply class.
    coach = Coach(MM, exact_secrets=1296, exact_seconds=60)
    review = coach.review(FeedbackLog(MM), "1122")
    assert review.exact and (review.best_total, review.best_worst) == (5625, 5)
    after_1122 = guess_then_optimum([], "1122", "expected")[0]
    assert review.delta_expected == (after_1122 - 5625) / 1296 > 0
    assert coach.review(FeedbackLog(MM), review.best_expected_guess).delta_expected == 0


def test_cli_assist_reports_the_exact_review(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1111 0 0\nquit\n"))
    assert main(["assist", *TWO_IN, "--variant", "mastermind", "--coach", "--json"]) == 0
    review = json.loads(capsys.readouterr().out)["coach"][0]
    assert review["exact"] is True and review["method"].startswith("exact optimum")
    assert review["delta_expected"] > 0 and "not_exact" not in review


def test_a_stop_request_ends_the_exact_review():
    from cbsolve.deadline import clear_stop, request_stop

    request_stop()
    try:
        review = Coach(MM).review(FeedbackLog.parse(MM, TWO_IN), "2436")
    finally:
        clear_stop()
    assert not review.exact and review.why == "the exact review was stopped"


def test_a_tie_with_the_advice_names_the_advice():
    # the coach answered the certified opening 1123 (5 at worst) with "+1 in the worst case
    # (6 vs 5 with 1122)": a heuristic's guess named where the advice proves the same figure
    review = Coach(MM).review(FeedbackLog(MM), "1111")
    assert (review.worst, review.best_worst, review.best_worst_guess) == (6, 5, "1123")


def test_the_last_guess_reads_as_one_guess():
    # "6543 is the advice (determined): 1 more guesses at worst"
    log = FeedbackLog.parse(MM, ["1123:1,0", "1445:1,1", "6155:1,1", "4525:1,1"])
    review = Coach(MM).review(log, "6543")
    assert review.followed == "determined" and ": 1 more guess at worst," in review.describe()
