"""The review's optimum read off the certified tree after renaming the symbols
(cbsolve/advisor/tree_optimum.py) equals the exact solve of the position."""
from __future__ import annotations

import pytest

from cbsolve.advisor import PositionService
from cbsolve.advisor.options import AdviceOptions
from cbsolve.advisor.tree_optimum import renaming
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.variant import Variant

BC = Variant.preset("bulls-cows")
TREE_ALWAYS = AdviceOptions(review_tree_from=0)     # the tree asked at any size


def test_renaming_is_a_bijection_taking_the_guess_to_the_root():
    mapping = renaming(BC, "5831", "0123")
    assert "".join(mapping[s] for s in "5831") == "0123"
    assert sorted(mapping) == sorted(mapping.values()) == list(BC.symbols)
    assert renaming(Variant.preset("mastermind"), "1234", "1122") is None   # repeats
    assert renaming(Variant(4, "0123456789", False, no_leading_zero=True), "5831", "0123") is None


@pytest.mark.parametrize("objective", ["expected", "worst"])
def test_the_trees_optimum_is_the_exact_solves(monkeypatch, objective):
    log = FeedbackLog.parse(BC, ["5831:2,0"])         # 180 candidates: solved exactly too
    guesses = ["5302", "0123", "4791", "5837"]
    # the review asks the tree above review_tree_from candidates, after the shipped table: neither
    monkeypatch.setattr("cbsolve.advisor.review_memo.load_table", lambda variant: {})
    with_tree = [PositionService(BC, options=TREE_ALWAYS).review(log, g, objective, Deadline(None))
                 for g in guesses]
    assert all("certified tree" in r.method for r in with_tree)
    monkeypatch.setattr("cbsolve.advisor.review.tree_optimum", lambda *a: None)
    solved = [PositionService(BC).review(log, g, objective, Deadline(None)) for g in guesses]
    assert not any("certified tree" in r.method for r in solved)
    assert [(r.exact, r.cost, r.best) for r in with_tree] == [(r.exact, r.cost, r.best)
                                                              for r in solved]
    assert all(r.exact for r in solved)
