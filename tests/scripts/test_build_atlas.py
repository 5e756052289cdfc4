"""scripts/models/build_atlas.py: a cell computed in its capped process and written, a cell
over the memory cap written as failed (never a dead machine), a better result merged end by
end, the assembly hashed and read back."""
from __future__ import annotations

import json

from testkit import load_script

from cbsolve.bounds import atlas_file
from cbsolve.game.variant import Variant


def test_a_cell_is_built_checked_and_assembled(tmp_path):
    build = load_script("build_atlas")
    cells = tmp_path / "cells"
    done = build.build(["mastermind-2x3"], 10.0, 2.0, recompute=False, say=lambda m: None,
                       cells_dir=cells)
    (record,) = done
    assert record["status"] == "done" and record["worst"]["exact"] == 3   # the old table's 2x3
    assert record["verification"]["strategy_replayed"] is True
    assert build.build(["mastermind-2x3"], 10.0, 2.0, recompute=False, say=lambda m: None,
                       cells_dir=cells) == []
    out = tmp_path / "atlas.json"
    doc = build.assemble(out, tmp_path / "cells")
    assert doc["missing"] and "mastermind-2x3" not in doc["missing"]
    assert atlas_file.lookup(Variant(2, "ABC", repeats=True), out)["id"] == "mastermind-2x3"


def test_a_cell_over_the_memory_cap_is_written_as_failed(tmp_path):
    build = load_script("build_atlas")
    (record,) = build.build(["mastermind-2x3"], 5.0, 0.02, recompute=False, say=lambda m: None,
                            cells_dir=tmp_path / "cells")
    assert record["status"] == "failed" and len(record["notes"]) == 2
    saved = json.loads((tmp_path / "cells" / "mastermind-2x3.json").read_text())
    assert saved["status"] == "failed"
    doc = build.assemble(tmp_path / "atlas.json", tmp_path / "cells")
    assert "mastermind-2x3" in doc["missing"] and doc["cells"] == []


def test_a_better_result_replaces_a_cell_end_by_end():
    build = load_script("build_atlas")
    old = {"status": "done", "verification": {"strategy_replayed": True},
           "worst": {"lower": 5, "upper": 7, "lower_method": "a", "upper_method": "s",
                     "recipe": {"kind": "strategy"}, "histogram": {"1": 1}},
           "expected": {"lower": 10, "upper": 20, "lower_method": "a", "upper_method": "b"}}
    new = {"status": "done", "verification": {"strategy_replayed": False}, "notes": [],
           "worst": {"lower": 6, "upper": 9, "lower_method": "c", "upper_method": "k",
                     "recipe": {"kind": "construction"}},
           "expected": {"lower": 9, "upper": 19, "lower_method": "c", "upper_method": "d"}}
    merged = build.merge(old, new)
    assert (merged["worst"]["lower"], merged["worst"]["upper"]) == (6, 7)
    assert merged["worst"]["recipe"] == {"kind": "strategy"} and merged["worst"]["histogram"]
    assert (merged["expected"]["lower"], merged["expected"]["upper"]) == (10, 19)
    assert merged["verification"]["strategy_replayed"] is True
