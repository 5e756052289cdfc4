"""Unique-secret puzzles (cbsolve/puzzles/puzzle.py, ``cbsolve puzzle``): one secret, checked
here by the pure-Python rule; seeded and reproducible; minimal where promised."""
from __future__ import annotations

import json

import pytest
from testkit import PUZZLE_VARIANTS, brute_force_consistent, puzzle_entries

import cbsolve as cb
from cbsolve.cli import main
from cbsolve.game.codes import CodeSpace

SMALL = PUZZLE_VARIANTS


@pytest.mark.parametrize("variant", SMALL, ids=lambda v: v.describe())
@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_exactly_one_secret_by_the_plain_rule(variant, difficulty):
    space = CodeSpace(variant)
    for seed in range(4):
        p = cb.puzzle(variant, seed=seed, difficulty=difficulty, distractors=3)
        assert p.verified and p.clues >= 1
        assert brute_force_consistent(variant, puzzle_entries(p)) == [space.parse(p.secret)]
        for d in p.distractors:      # one symbol away, and ruled out by the log
            assert sum(a != b for a, b in zip(d, p.secret, strict=True)) == 1
        assert len(set(p.distractors)) == len(p.distractors) <= 3


@pytest.mark.parametrize("difficulty", ["medium", "hard"])
def test_minimal_puzzles_need_every_clue(difficulty):
    v = cb.Variant.preset("bulls-cows")
    for seed in range(5):
        p = cb.puzzle(v, seed=seed, difficulty=difficulty)
        assert p.minimal
        tokens = p.tokens()
        for i in range(len(tokens)):
            rest = tokens[:i] + tokens[i + 1:]
            assert cb.consistent(rest, count=True, limit=0).count > 1, (seed, i)


def test_same_seed_same_puzzle_and_a_chosen_number_of_clues():
    a = cb.puzzle("bulls-cows", seed=42, difficulty="hard", distractors=2)
    b = cb.puzzle("bulls-cows", seed=42, difficulty="hard", distractors=2)
    assert a.to_json() == b.to_json()
    p = cb.puzzle("bulls-cows", seed=5, clues=6)
    assert p.clues == 6 and p.verified
    with pytest.raises(cb.CbsolveError):
        cb.puzzle("bulls-cows", seed=5, clues=1)       # one reply never pins a secret here


def test_a_spent_deadline_stops_the_draws_for_a_number_of_clues():
    from cbsolve.runtime.deadline import Deadline

    with pytest.raises(cb.CbsolveError, match="within the time limit"):
        cb.puzzle("mastermind", seed=1, clues=30, deadline=Deadline(0.0))
    assert cb.puzzle("mastermind", seed=1, deadline=Deadline(0.0)).verified  # one draw: no wait


def test_cli_json_carries_entries_and_secret_and_equals_the_api(capsys, tmp_path):
    code = main(["puzzle", "--variant", "mastermind", "--seed", "9", "--distractors", "2",
                 "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0
    assert doc == cb.puzzle("mastermind", seed=9, distractors=2).to_json()
    assert doc["entries"] and doc["secret"] and doc["verified"]
    # the entries read back as a log file: the JSON form `--log FILE` takes
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps(doc["entries"]))
    assert main(["consistent", "--log", str(path), "--variant", "mastermind", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["secrets"] == [doc["secret"]]


@pytest.mark.parametrize("args", [["--difficulty", "impossible"], ["--clues", "0"],
                                  ["--length", "1", "--digits", "1", "--repeats"]])
def test_bad_requests_exit_2_with_one_line(capsys, args):
    assert main(["puzzle", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cbsolve: error:")


def test_more_distractors_than_neighbours_are_refused_naming_the_most(capsys):
    # Bulls & Cows 4/10: each of 4 positions to one of the 6 digits the secret lacks
    assert main(["puzzle", "--seed", "1", "--distractors", "50"]) == 2
    err = capsys.readouterr().err
    assert "distractors must be at most 24" in err and err.count("\n") == 1
    assert len(cb.puzzle(seed=1, distractors=24).distractors) == 24
    with pytest.raises(cb.CbsolveError, match="at most 20"):    # Mastermind: 4 x 5
        cb.puzzle("mastermind", seed=1, distractors=21)


def test_clues_help_shows_the_range_it_checks(capsys):
    assert main(["puzzle", "--help"]) == 0
    assert "1<=x<=2147483647" in capsys.readouterr().out      # --clues 0 is refused
    assert main(["puzzle", "--clues", "0"]) == 2
    assert "'--clues': must be a whole number in 1.." in capsys.readouterr().err


def test_text_hides_the_answer_unless_asked(capsys):
    p = cb.puzzle("mastermind", seed=5)
    assert main(["puzzle", "--variant", "mastermind", "--seed", "5"]) == 0
    hidden = capsys.readouterr().out
    assert p.secret not in hidden.splitlines()[-1] and "--show-answer" in hidden
    assert all(t in hidden for t in p.tokens())
    assert main(["puzzle", "--variant", "mastermind", "--seed", "5", "--show-answer"]) == 0
    assert f"the one consistent secret: {p.secret}" in capsys.readouterr().out
