"""build_atlas.py --from-streaming (scripts/models/fold_streaming.py): a streaming evaluation of a
small game folded into a copy of its cell replaces an upper end only where it is better, the cell
is verified by replayed secrets, the assembled atlas still passes its hash check, and
``bounds --play`` replays the streaming recipe to the secret."""
from __future__ import annotations

import json
import shutil

import pytest
from testkit import load_script

from cbsolve.bounds import atlas_file
from cbsolve.cli import main
from cbsolve.strategy.streaming import Recipe, evaluate_streaming
from cbsolve.game.variant import Variant

GAME = Variant(4, "0123", repeats=True)      # the atlas cell mastermind-4x4 spells it "1234"


@pytest.fixture(scope="module")
def run_line():
    result = evaluate_streaming(GAME, Recipe())
    assert result.complete
    return result.to_json()


def copied_cell(tmp_path, cell_id: str, lines: list[dict]):
    """The build script pointed at a copy of one atlas cell, and a results file of ``lines``."""
    build = load_script("build_atlas")
    cells = tmp_path / "models" / "atlas" / "cells"
    cells.mkdir(parents=True)
    shutil.copy(build.CELLS / f"{cell_id}.json", cells)
    results = tmp_path / "streaming.jsonl"
    results.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return build, cells / f"{cell_id}.json", results


@pytest.fixture
def setup(tmp_path, run_line):
    return copied_cell(tmp_path, "mastermind-4x4",
                       [run_line, {"game": "4x4", "error": ["x"]}])


def _loosen(path, worst=None, expected=None):
    record = json.loads(path.read_text())
    for obj, value in (("worst", worst), ("expected", expected)):
        if value is not None:
            record[obj].update(upper=value, upper_method="trivial strategy", exact=None,
                               recipe={"kind": "trivial"})
            record[obj].pop("histogram", None)
    path.write_text(json.dumps(record))
    return record


def test_an_exact_cell_is_left_alone(setup, run_line):
    build, cell, results = setup
    before = cell.read_text()
    # both ends of the cell are exact (proved by the cell's own searches): a strategy cannot beat
    # them, so nothing is written
    said = []
    assert load_script("fold_streaming").fold(results, cell.parent, say=said.append) == []
    assert cell.read_text() == before and "does not beat" in said[0]


def test_only_a_better_end_is_replaced_and_verified(setup, run_line):
    build, cell, results = setup
    old = _loosen(cell, worst=256)          # the expected total stays the exact one
    fold = load_script("fold_streaming")
    changed = fold.fold(results, cell.parent, sample=60, say=lambda m: None)
    assert changed == [("mastermind-4x4", "worst", 256, run_line["worst"])]
    new = json.loads(cell.read_text())
    assert new["expected"] == old["expected"]
    w = new["worst"]
    assert w["upper"] == run_line["worst"] and w["recipe"]["kind"] == "streaming"
    assert w["exact"] == (w["lower"] if w["lower"] == w["upper"] else None)
    assert w["upper_method"].startswith("strategy streaming minimax (exact evaluation")
    assert w["histogram"] == run_line["histogram"]
    recipe = Recipe.from_json(w["recipe"]["recipe"])        # replays: the full recipe, cell alphabet
    assert set(recipe.first) <= set("1234") and len(recipe.first) == 4
    check = new["verification"]["streaming_replay"]
    assert check["sampled_secrets"] == 60 and check["most_guesses"] <= check["bound"] == w["upper"]
    # a second fold finds nothing better
    assert fold.fold(results, cell.parent, sample=60, say=lambda m: None) == []


def test_a_folded_cell_assembles_replays_and_keeps_its_hash(setup, run_line, monkeypatch, capsys):
    build, cell, results = setup
    _loosen(cell, worst=256, expected=256 * 256)
    monkeypatch.setattr(atlas_file, "models_dir", lambda: cell.parents[2])
    atlas_file._checked.cache_clear()
    atlas_file.load.cache_clear()
    try:
        fold = load_script("fold_streaming")
        fold.fold(results, cell.parent, sample=30, say=lambda m: None)
        doc = build.assemble(cell.parents[2] / "atlas.json", cell.parent)
        assert atlas_file.content_hash(doc["cells"]) == doc["sha256"]
        record = atlas_file.lookup(GAME)
        assert record["worst"]["upper"] == run_line["worst"]
        assert record["expected"]["upper"] == run_line["total"]
        for secret in ("0000", "3210", "1123"):
            code = main(["bounds", "--symbols", "0123", "--length", "4", "--repeats",
                         "--play", secret, "--json"])
            data = json.loads(capsys.readouterr().out)
            assert code == 0 and data["replays_upper_end"] and data["guesses"][-1] == secret
            assert len(data["guesses"]) <= data["upper"] == run_line["worst"]
            assert data["strategy"].startswith("streaming minimax")
    finally:
        atlas_file._checked.cache_clear()
        atlas_file.load.cache_clear()


def test_a_game_without_repeats_folds_assembles_and_replays(tmp_path, monkeypatch, capsys):
    # Bulls & Cows rules over 6 symbols, 5 positions (720 secrets): the streaming run's variant
    # is the cell's, its secrets sampled and replayed, and ``bounds --play`` follows it
    variant = Variant(5, "012345", repeats=False)
    run = evaluate_streaming(variant, Recipe(heuristic="parts", randoms=20)).to_json()
    build, cell, results = copied_cell(tmp_path, "bulls-cows-5x6", [run])
    cells = cell.parent
    _loosen(cell, worst=720)
    monkeypatch.setattr(atlas_file, "models_dir", lambda: tmp_path / "models")
    atlas_file._checked.cache_clear()
    atlas_file.load.cache_clear()
    try:
        changed = load_script("fold_streaming").fold(results, cells, sample=50, say=lambda m: None)
        assert changed == [("bulls-cows-5x6", "worst", 720, run["worst"])]
        check = json.loads(cell.read_text())["verification"]["streaming_replay"]
        assert check["sampled_secrets"] == 50 and check["most_guesses"] <= run["worst"]
        doc = build.assemble(tmp_path / "models" / "atlas.json", cells)
        assert atlas_file.content_hash(doc["cells"]) == doc["sha256"]
        for secret in ("54321", "01234", "25041"):
            code = main(["bounds", "--length", "5", "--digits", "6", "--play", secret, "--json"])
            data = json.loads(capsys.readouterr().out)
            assert code == 0 and data["replays_upper_end"] and data["guesses"][-1] == secret
            assert len(data["guesses"]) <= data["upper"] == run["worst"]
            assert all(len(set(g)) == 5 for g in data["guesses"])
    finally:
        atlas_file._checked.cache_clear()
        atlas_file.load.cache_clear()


def test_a_run_that_contradicts_its_histogram_is_refused(setup, run_line):
    build, cell, results = setup
    fold = load_script("fold_streaming")
    record = _loosen(cell, worst=256)
    bad = dict(run_line, worst=run_line["worst"] - 1)
    with pytest.raises(AssertionError, match="disagrees with its histogram"):
        fold.fold_run(record, bad)
