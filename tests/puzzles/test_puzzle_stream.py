"""Puzzle streams and measured difficulty: ``puzzle --count K --jsonl`` is
``puzzle --seed S+i`` line by line; the native draw and its Python twin agree; the measure is
what the plain rule recomputes; ``serve`` answers ``puzzle``."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from testkit import PUZZLE_VARIANTS, brute_force_consistent, puzzle_entries

import cbsolve as cb
from cbsolve.cli import main
from cbsolve.game.codes import CodeSpace
from cbsolve.puzzles import difficulty as pd
from cbsolve.puzzles import draw
from cbsolve.puzzles.puzzle import maker_for

ROOT = Path(__file__).resolve().parents[2]
SMALL = PUZZLE_VARIANTS


@pytest.mark.parametrize("variant", [cb.Variant.preset("bulls-cows"), *SMALL],
                         ids=lambda v: v.describe())
@pytest.mark.parametrize("recipe", ["easy", "medium", "hard"])
def test_the_native_draw_and_its_python_twin_give_the_same_puzzle(variant, recipe):
    replies = maker_for(variant).replies
    replies.whole()                              # the kernel draws over the whole matrix
    assert replies.full is not None
    for seed in range(25):
        a, b = draw.Stream(seed), draw.Stream(seed)
        assert draw.draw(replies, a, recipe) == draw.draw(replies, b, recipe, native=False)
        assert a.state == b.state                # the stream goes on from the same place


def test_the_stream_is_splitmix64():
    # SplitMix64 (Steele, Lea and Flood 2014; Vigna's reference splitmix64.c), seed 0: its
    # first output is 0xE220A8397B1DCDAF
    assert draw.Stream(0).next() == 0xE220A8397B1DCDAF


@pytest.mark.parametrize("variant", SMALL, ids=lambda v: v.describe())
@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_the_measure_is_what_the_plain_rule_recomputes(variant, difficulty):
    size = CodeSpace(variant).size
    for seed in range(3):
        p = cb.puzzle(variant, seed=seed, difficulty=difficulty)
        m = p.difficulty_measure
        entries = puzzle_entries(p)
        # candidates after each clue, in the listed order, by brute force over every code
        after = [len(brute_force_consistent(variant, entries[:i + 1]))
                 for i in range(len(entries))]
        assert m["candidates_after"] == after and after[-1] == 1
        # the listed order is the reference solver's: each clue leaves the fewest candidates
        for i in range(len(entries)):
            for later in entries[i + 1:]:
                trial = entries[:i] + [later]
                assert len(brute_force_consistent(variant, trial)) >= after[i]
        assert m["carried"] == sum(after[:-1])
        assert m["score"] == round(pd.score(m["carried"], size), 4)
        low, high = pd.BANDS[difficulty]
        assert low <= m["score"] < high and p.difficulty == difficulty
        assert m["every_clue_needed"] and all(
            len(brute_force_consistent(variant, entries[:i] + entries[i + 1:])) > 1
            for i in range(len(entries)))


def test_labels_follow_the_measure_on_bulls_and_cows():
    scores = {d: [cb.puzzle(seed=s, difficulty=d).difficulty_measure["score"]
                  for s in range(20)] for d in pd.BANDS}
    assert max(scores["easy"]) < min(scores["medium"])
    assert max(scores["medium"]) < min(scores["hard"])


def test_a_process_first_puzzles_row_by_row_equal_the_later_ones_over_the_matrix():
    from cbsolve.puzzles.puzzle import _Maker

    variant = cb.Variant(3, "0123456", repeats=False)
    fresh = _Maker(variant, CodeSpace(variant))          # rows scored one by one
    rows = [fresh.finish(fresh.draw(draw.Stream(s), "medium"), draw.Stream(0), s, "medium",
                         0, 1).to_json() for s in range(3)]
    assert fresh.replies.full is None
    fresh.replies.whole()
    whole = [fresh.finish(fresh.draw(draw.Stream(s), "medium"), draw.Stream(0), s, "medium",
                          0, 1).to_json() for s in range(3)]
    assert fresh.replies.full is not None and rows == whole


def test_the_stream_is_the_single_puzzles_seed_by_seed(capsys):
    assert main(["puzzle", "--count", "4", "--jsonl", "--seed", "30", "--difficulty",
                 "hard", "--distractors", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4
    for i, line in enumerate(lines):
        doc = json.loads(line)
        assert doc == cb.puzzle(seed=30 + i, difficulty="hard", distractors=2).to_json()
        assert doc["verified"] and doc["seed"] == 30 + i


def test_a_stream_stops_between_puzzles_at_its_deadline():
    from cbsolve.runtime.deadline import Deadline
    from cbsolve.puzzles.stream import puzzles

    made = list(puzzles(cb.Variant.preset("bulls-cows"), seed=0, count=50,
                        deadline=Deadline(0.0)))
    assert len(made) == 1                  # the first is always made; then the limit stops it


@pytest.mark.parametrize("args,word", [
    (["--count", "3", "--json"], "--jsonl"), (["--json", "--jsonl"], "--jsonl"),
    (["--count", "0", "--jsonl"], "count"), (["--jsonl", "--difficulty", "tricky"],
                                            "difficulty")])
def test_bad_stream_requests_exit_2_with_one_line(capsys, args, word):
    assert main(["puzzle", *args]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and word in captured.err and not captured.out


def test_serve_answers_puzzle_as_the_command_line_does():
    request = {"cmd": "puzzle", "seed": 12, "variant": "mastermind", "difficulty": "easy",
               "id": 1}
    bad = {"cmd": "puzzle", "count": 2}
    proc = subprocess.run([sys.executable, "-m", "cbsolve", "serve"], cwd=ROOT, text=True,
                          input=json.dumps(request) + "\n" + json.dumps(bad) + "\n",
                          capture_output=True, timeout=120)
    first, second = (json.loads(x) for x in proc.stdout.splitlines())
    expected = cb.puzzle("mastermind", seed=12, difficulty="easy").to_json()
    assert first == {"id": 1, **expected, "exit": 0}
    assert second["exit"] == 2 and "--jsonl" in second["error"]


@pytest.mark.parametrize("variant", [cb.Variant.preset("mastermind"),
                                     cb.Variant(3, "012345", repeats=False)],
                         ids=lambda v: v.describe())
def test_kinds_answers_are_what_the_plain_rule_and_the_diagnosis_say(variant):
    for seed in range(3):
        p = cb.puzzle(variant, seed=seed, kind="count")
        assert p.kind == "count" and p.clues < cb.puzzle(variant, seed=seed).clues
        assert p.answer["secrets"] == len(brute_force_consistent(variant, puzzle_entries(p)))

        p = cb.puzzle(variant, seed=seed, kind="wrong-reply")
        assert brute_force_consistent(variant, puzzle_entries(p)) == []
        k, true = p.answer["entry"], p.answer["reply"]
        fixed = [dict(e) for e in p.entries]
        bulls, _, cows = true.partition(",")
        fixed[k - 1].update(bulls=int(bulls), **({"cows": int(cows)} if cows else {}))
        p.entries = fixed
        assert brute_force_consistent(variant, puzzle_entries(p)) == \
            [CodeSpace(variant).parse(p.secret)]
        # the diagnosis (cbsolve consistent) finds that one correction and no other
        p.entries = [dict(e) for e in p.entries]
        p.entries[k - 1].update(bulls=int(p.answer["given"].split(",")[0]))
        if "," in p.answer["given"]:
            p.entries[k - 1]["cows"] = int(p.answer["given"].split(",")[1])
        found = cb.consistent(p.tokens(), variant=variant, count=True)
        single = [(c["entry"], c["to"]) for c in found.corrections if c["replies"] == 1]
        assert single == [(k, true)]


def test_best_guess_answer_is_the_exact_optimum_from_its_position():
    p = cb.puzzle("mastermind", seed=4, kind="best-guess")
    left = p.answer["secrets"]
    assert left >= 3 and p.answer["worst"] >= 2
    advice = cb.next_guess(p.tokens(), variant="mastermind", strategy="optimal")
    assert advice.needed.lower == advice.needed.upper == p.answer["worst"]


def test_the_orbit_key_is_blind_to_renamed_symbols_and_permuted_positions():
    import random

    from cbsolve.puzzles.export import orbit_key

    rng = random.Random(5)
    for variant in (cb.Variant.preset("bulls-cows"), cb.Variant.preset("mastermind")):
        for seed in range(4):
            p = cb.puzzle(variant, seed=seed)
            symbols = list(variant.symbols)
            renamed = dict(zip(symbols, rng.sample(symbols, len(symbols))))
            order = rng.sample(range(variant.length), variant.length)
            copy = [{**e, "guess": "".join(renamed[e["guess"][i]] for i in order)}
                    for e in p.entries]
            assert orbit_key(variant, copy) == orbit_key(variant, p.entries)
            other = cb.puzzle(variant, seed=seed + 100)
            assert orbit_key(variant, other.entries) != orbit_key(variant, p.entries)


def test_export_splits_share_no_orbit_and_datasets_loads_them(tmp_path):
    from cbsolve.puzzles.export import orbit_key

    assert main(["puzzle", "--count", "60", "--seed", "7", "--variant", "mastermind",
                 "--export", str(tmp_path), "--test-fraction", "0.3"]) == 0
    split = {name: [json.loads(line) for line in (tmp_path / f"{name}.jsonl").open()]
             for name in ("train", "test")}
    assert len(split["train"]) + len(split["test"]) == 60 and split["test"]
    keys = {name: {orbit_key(cb.Variant.preset("mastermind"), d["entries"]) for d in docs}
            for name, docs in split.items()}
    assert not keys["train"] & keys["test"]
    assert "configs:" in (tmp_path / "README.md").read_text()
    datasets = pytest.importorskip("datasets")
    loaded = datasets.load_dataset("json", data_files={
        "train": str(tmp_path / "train.jsonl"), "test": str(tmp_path / "test.jsonl")})
    assert loaded["test"].num_rows == len(split["test"])
    assert loaded["train"][0]["secret"] == split["train"][0]["secret"]
