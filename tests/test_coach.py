"""The coach: a guess's cost against the best guess from the same position."""
import io
import json
import sys

import numpy as np

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
    coach = Coach(v)
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
    coach = Coach(MM, top=4)
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
