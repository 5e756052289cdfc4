"""Static (non-adaptive) games: SAT refinement vs exhaustive search over guess sets."""
from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from cbsolve.bounds.static import collisions, counting_lower, separates, solve_static
from cbsolve.cli import main
from cbsolve.game.codes import CodeSpace
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.scoring import score_matrix
from cbsolve.game.variant import Variant


def exhaustive_static(variant: Variant) -> int:
    """Fewest questions separating all secrets, by trying every set of k guesses, k = 0, 1, ..."""
    codes = CodeSpace(variant).codes
    m = score_matrix(variant, codes, codes).astype(np.int64)
    for k in range(len(codes)):
        for subset in itertools.combinations(range(len(codes)), k):
            keys = {tuple(m[list(subset), s]) for s in range(len(codes))}
            if len(keys) == len(codes):
                return k
    raise AssertionError("unreachable: all codes as questions separate everything")


@pytest.mark.parametrize("colours", [2, 3, 4, 5])
def test_mastermind_two_pegs_matches_exhaustive_search(colours):
    v = Variant(2, "123456789"[:colours], True)
    result = solve_static(v, deadline=Deadline.from_limit(60))
    assert result.proved and result.lower == result.upper == exhaustive_static(v)
    space = CodeSpace(v)
    chosen = np.array([space.parse(g) for g in result.guesses], dtype=np.uint8)
    assert separates(v, chosen, space.codes) and len(chosen) == result.upper


@pytest.mark.parametrize("variant", [Variant(2, "0123", False), Variant(3, "012", True),
                                     Variant(2, "0123", True, feedback="bulls"),
                                     Variant(2, "0123", True, no_leading_zero=True)],
                         ids=lambda v: v.describe())
def test_other_small_games_match_exhaustive_search(variant):
    result = solve_static(variant, deadline=Deadline.from_limit(60))
    assert result.proved and result.upper == exhaustive_static(variant)


def test_collisions_and_counting():
    v = Variant(2, "123", True)
    codes = CodeSpace(v).codes
    assert len(collisions(v, np.zeros((0, 2), np.uint8), codes)) == 1
    assert counting_lower(1296, 14) == 3 and counting_lower(1, 14) == 0


def test_time_limit_reports_an_interval():
    """A zero time limit still returns the verified greedy set and the counting lower bound."""
    v = Variant(3, "123456", True)
    r = solve_static(v, deadline=Deadline.from_limit(0))
    space = CodeSpace(v)
    assert separates(v, np.array([space.parse(g) for g in r.guesses], np.uint8), space.codes)
    assert r.lower == counting_lower(216, 9) <= r.upper == len(r.guesses)


def test_cli_static_json(capsys):
    code = main(["static", "--length", "2", "--digits", "4", "--variant", "mastermind", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["questions"] == 3 and data["proved"] and len(data["guesses"]) == 3
    assert data["game_guesses"] == 4 and "questions + 1" in data["convention"]


def test_cli_static_max_questions_below_the_optimum_is_a_none_answer(capsys):
    """`--max-questions K` asks whether K questions suffice: below the proved minimum (3 for
    Mastermind 2/4) the answer is none, exit 1; it used to report the optimum and exit 0."""
    base = ["static", "--length", "2", "--digits", "4", "--variant", "mastermind", "--json"]
    code = main([*base, "--max-questions", "2"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["status"] == "infeasible" and data["lower"] == 3
    assert any("no 2 questions" in n for n in data["notes"])
    code = main([*base, "--max-questions", "3"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["proved"] and data["questions"] == 3


@pytest.mark.parametrize("args", [["--time-limit", "-5"], ["--max-questions", "-1"],
                                  ["--length", "0"], ["--length", "6", "--digits", "10",
                                                      "--repeats"]])
def test_cli_static_bad_input_exit_2(capsys, args):
    code = main(["static", *args])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1
