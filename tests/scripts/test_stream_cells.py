"""build_atlas.py --stream (scripts/models/stream_cells.py): an open cell gets its family's
streaming recipes, each run logged; the best run replaces an upper end only where it is better,
verified by sampled replays; a second build runs nothing again (resumable); a cell whose worst
case is exact, or above the size limit, is left alone; a run over the memory cap is logged as an
error and changes nothing."""
from __future__ import annotations

import json
import shutil

from testkit import load_script

from cbsolve.strategy.streaming import Recipe, play_streaming
from cbsolve.game.variant import Variant

CELL = "black-peg-3x6"      # 216 secrets, bulls only; an entropy run ends within 8 guesses


def copied(tmp_path, cell_id=CELL, worst=None):
    build = load_script("build_atlas")
    cells = tmp_path / "cells"
    cells.mkdir(parents=True)
    shutil.copy(build.CELLS / f"{cell_id}.json", cells)
    path = cells / f"{cell_id}.json"
    record = json.loads(path.read_text())
    if worst is not None:           # an upper end a streaming run is sure to beat
        record["worst"].update(upper=worst, upper_method="constructive strategy", exact=None,
                               recipe={"kind": "construction", "method": "constructive"})
        record["worst"].pop("histogram", None)
        path.write_text(json.dumps(record))
    return cells, path, tmp_path / "runs.jsonl"


def test_an_open_cell_is_streamed_logged_folded_and_resumed(tmp_path):
    stream = load_script("stream_cells")
    cells, path, runs = copied(tmp_path, worst=30)
    changed = stream.stream([CELL], cells, runs, seconds=60, memory_gb=4, say=lambda m: None,
                            sample=40)
    rows = [json.loads(line) for line in runs.read_text().splitlines()]
    assert [r["asked"] for r in rows] == stream.RECIPES["black-peg"]
    assert all(r["complete"] and r["cell"] == CELL and r["cpu_seconds"] >= 0 for r in rows)
    best = min(rows, key=lambda r: (r["worst"], r["total"]))
    assert ("black-peg-3x6", "worst", 30, best["worst"]) in changed
    w = json.loads(path.read_text())["worst"]
    assert w["upper"] == best["worst"] and w["recipe"]["kind"] == "streaming"
    assert w["lower"] <= w["upper"] and sum(w["histogram"].values()) == 216
    record = json.loads(path.read_text())
    assert record["verification"]["streaming_replay"]["sampled_secrets"] == 40
    assert record["streaming_run"]["wall_seconds"] == best["wall_seconds"]
    # the recipe written replays a secret within the claimed worst case, in the cell's alphabet
    variant = Variant.from_dict(record["variant"])
    guesses = play_streaming(variant, Recipe.from_json(w["recipe"]["recipe"]), "516")
    assert guesses[-1] == "516" and len(guesses) <= w["upper"]
    # resumable: every recipe is logged, so a second build runs nothing and changes nothing
    before = path.read_text()
    assert stream.stream([CELL], cells, runs, seconds=60, say=lambda m: None) == []
    assert len(runs.read_text().splitlines()) == len(rows) and path.read_text() == before


def test_exact_large_and_failed_cells_are_left_alone(tmp_path):
    stream = load_script("stream_cells")
    cells, path, runs = copied(tmp_path, "black-peg-4x4")      # worst case exact: 6
    assert json.loads(path.read_text())["worst"]["exact"] == 6
    assert stream.stream(["black-peg-4x4"], cells, runs, say=lambda m: None) == []
    assert not runs.exists()
    cells, path, runs = copied(tmp_path / "b", worst=30)
    assert stream.stream([CELL], cells, runs, limit=100, say=lambda m: None) == []
    assert not runs.exists()
    # a run over the address-space cap: an error line in the log, the cell untouched
    before = path.read_text()
    said = []
    assert stream.stream([CELL], cells, runs, memory_gb=0.02, say=said.append) == []
    rows = [json.loads(line) for line in runs.read_text().splitlines()]
    assert rows and all("error" in r for r in rows) and path.read_text() == before
    assert any("error" in m for m in said)


def test_a_sweep_recipe_aims_one_guess_under_each_cells_upper_end(tmp_path):
    stream = load_script("stream_cells")
    cells, path, runs = copied(tmp_path, worst=12)
    below = {"heuristic": "minimax", "target": "below", "tight_randoms": 50}
    stream.stream([CELL], cells, runs, seconds=60, memory_gb=4, say=lambda m: None, sample=20,
                  extra=[below])
    (row,) = [json.loads(line) for line in runs.read_text().splitlines()
              if json.loads(line)["asked"] == below]
    assert row["recipe"]["target"] == 11 and row["complete"]
    # logged as asked, so the same sweep resumed runs it no more
    lines = runs.read_text()
    stream.stream([CELL], cells, runs, seconds=60, say=lambda m: None, extra=[below])
    assert runs.read_text() == lines
