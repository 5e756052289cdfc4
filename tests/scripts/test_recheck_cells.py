"""build_atlas.py --recheck (scripts/models/recheck_cells.py): a written cell's upper ends are
replayed against every secret by the independent checkers, what was checked is recorded, and a
cell that claims a number its strategy does not reach is refused."""
from __future__ import annotations

import json
import shutil

import pytest
from testkit import load_script

from cbsolve.strategy.streaming import Recipe, evaluate_streaming
from cbsolve.game.variant import Variant

GAME = Variant(4, "0123", repeats=True)      # the atlas cell mastermind-4x4 spells it "1234"


@pytest.fixture
def cells(tmp_path):
    build = load_script("build_atlas")
    here = tmp_path / "cells"
    here.mkdir()
    for cell_id in ("mastermind-4x4", "bulls-cows-4x7"):
        shutil.copy(build.CELLS / f"{cell_id}.json", here)
    return build, here


def _as_streaming(path, recipe=Recipe(heuristic="parts", randoms=20), end="worst"):
    """The cell's ``end`` replaced by a streaming evaluation's (as a fold writes)."""
    run = evaluate_streaming(GAME, recipe)
    record = json.loads(path.read_text())
    recipe = dict(run.recipe.to_json(), first=run.recipe.first.translate(str.maketrans("0123", "1234")))
    record[end].update(upper=run.worst if end == "worst" else run.total,
                       histogram={str(k): v for k, v in run.histogram.items()},
                       recipe={"kind": "streaming", "recipe": recipe, "worst": run.worst,
                               "total": run.total})
    path.write_text(json.dumps(record))
    return record


def test_a_strategy_cell_is_replayed_by_the_verifier(cells):
    build, here = cells
    record = json.loads((here / "bulls-cows-4x7.json").read_text())
    assert record["worst"]["recipe"]["kind"] == "strategy"
    build.recheck_written(["bulls-cows-4x7"], cells_dir=here)
    check = json.loads((here / "bulls-cows-4x7.json").read_text())["verification"]
    assert check["strategy_replayed"] is True
    assert check["strategy_replay_worst"]["worst"] == record["worst"]["upper"]
    assert check["strategy_replay_worst"]["secrets"] == 840


def test_a_streaming_cell_is_replayed_whole(cells):
    build, here = cells
    record = _as_streaming(here / "mastermind-4x4.json")
    build.recheck_written(["mastermind-4x4"], cells_dir=here)
    check = json.loads((here / "mastermind-4x4.json").read_text())["verification"]
    whole = check["streaming_replay_all"]
    assert whole["worst"] == record["worst"]["upper"] and whole["secrets"] == 256
    assert whole["total"] == sum(int(k) * v for k, v in record["worst"]["histogram"].items())


def test_two_ends_from_two_recipes_are_each_replayed_against_their_own_histogram(cells):
    # a fold takes the worst end from one run and leaves the expected end of another
    build, here = cells
    path = here / "mastermind-4x4.json"
    _as_streaming(path, Recipe(heuristic="expected", randoms=5, seed=1), end="expected")
    record = _as_streaming(path)
    assert record["worst"]["recipe"] != record["expected"]["recipe"]
    build.recheck_written(["mastermind-4x4"], cells_dir=here)
    check = json.loads(path.read_text())["verification"]
    assert check["streaming_replay_all"]["worst"] == record["worst"]["upper"]
    assert check["streaming_replay_all_expected"]["total"] == record["expected"]["upper"]


def test_a_claim_the_replay_does_not_reach_is_refused(cells):
    recheck = load_script("recheck_cells")
    build, here = cells
    record = _as_streaming(here / "mastermind-4x4.json")
    h = record["worst"]["histogram"]
    top = max(h, key=int)
    h[str(int(top) - 1)] = h.get(str(int(top) - 1), 0) + h.pop(top)   # one guess better than true
    record["worst"]["upper"] -= 1
    with pytest.raises(AssertionError, match="histogram"):
        recheck.recheck(record)


def test_a_cell_above_the_limit_is_left_alone(cells):
    recheck = load_script("recheck_cells")
    build, here = cells
    record = json.loads((here / "bulls-cows-4x7.json").read_text())
    assert recheck.recheck(record, limit=100) == {}
