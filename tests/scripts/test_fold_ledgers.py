"""build_atlas.py --from-ledgers (scripts/models/fold_ledgers.py): the result of a whole
refutation ledger (``cbsolve merge DIR --ledger --tree FILE``) raises its cell's worst-case
lower end, naming the ledger, and closes the worst case where it meets the upper end; a
ledger of consistent guesses only, or one changed after its result, is not folded.

The game is Mastermind 4x6 refuting 4 guesses (Knuth 1977: the worst case is 5), folded into
a copy of its cell whose lower end is lowered to 4 for the test."""
from __future__ import annotations

import json
import shutil

import pytest
from testkit import cli_run, load_script

from cbsolve.bounds import atlas_file
from cbsolve.search.worst.shard_files import ShardFileError

MM = ["--variant", "mastermind"]


def ledger_result(capsys, directory, depth: int, guesses: str, tree=None) -> None:
    for args in (["optimal", *MM, "--guesses", guesses, "--plan", str(directory), "--max-depth",
                  str(depth), "--split", "second"],
                 ["optimal", *MM, "--plan", str(directory), "--shard", "1/1", "--ledger"],
                 ["merge", str(directory), "--ledger", *(["--tree", str(tree)] if tree else [])]):
        code, _, err = cli_run(capsys, *args)
        assert code == 0, err


@pytest.fixture
def lowered_cell(tmp_path):
    build = load_script("build_atlas")
    cells = tmp_path / "cells"
    cells.mkdir()
    record = json.loads((build.CELLS / "mastermind-4x6.json").read_text())
    record["worst"].update(lower=4, exact=None, lower_method="a weaker bound, for the test")
    (cells / "mastermind-4x6.json").write_text(json.dumps(record))
    return build, cells


def test_a_whole_ledger_closes_the_worst_case_of_its_cell(capsys, tmp_path, lowered_cell):
    build, cells = lowered_cell
    fold = load_script("fold_ledgers")
    proofs = tmp_path / "proofs"
    ledger_result(capsys, proofs / "mm-4x6-refute-4", 4, "all", build.ROOT / "models" /
                  "mastermind-worst.json")
    said = []
    assert fold.fold(proofs, cells, say=said.append, root=tmp_path) == ["mastermind-4x6"]
    worst = json.loads((cells / "mastermind-4x6.json").read_text())["worst"]
    assert worst["lower"] == worst["exact"] == 5 == worst["upper"]
    assert worst["lower_method"].startswith("refutation ledger proofs/mm-4x6-refute-4 (5 units")
    assert worst["provenance"]["lower"] == "ledger proofs/mm-4x6-refute-4"
    assert "exact: 5" in said[0]
    # folding again changes nothing: the cell already has that lower end
    assert fold.fold(proofs, cells, say=said.append, root=tmp_path) == []


def test_bounds_reports_the_folded_worst_case_with_its_ledger(capsys, tmp_path, monkeypatch,
                                                             lowered_cell):
    build, cells = lowered_cell
    proofs = tmp_path / "proofs"
    ledger_result(capsys, proofs / "mm-4x6-refute-4", 4, "all", build.ROOT / "models" /
                  "mastermind-worst.json")
    load_script("fold_ledgers").fold(proofs, cells, say=lambda m: None, root=tmp_path)
    models = tmp_path / "models"
    models.mkdir()
    monkeypatch.setattr(atlas_file, "models_dir", lambda: models)
    atlas_file._checked.cache_clear()
    atlas_file.load.cache_clear()
    try:
        doc = build.assemble(models / atlas_file.ATLAS_FILE, cells)
        assert atlas_file.content_hash(doc["cells"]) == doc["sha256"]
        code, out, err = cli_run(capsys, "bounds", *MM, "--json")
        worst = json.loads(out)["worst"]
        assert code == 0 and worst["exact"] == 5 == worst["lower"], err
        assert worst["lower_method"].startswith("refutation ledger proofs/mm-4x6-refute-4")
    finally:
        atlas_file._checked.cache_clear()
        atlas_file.load.cache_clear()


def test_consistent_guesses_only_and_a_changed_ledger_are_not_folded(capsys, tmp_path,
                                                                      lowered_cell):
    _, cells = lowered_cell
    fold = load_script("fold_ledgers")
    proofs = tmp_path / "proofs"
    ledger_result(capsys, proofs / "cand", 5, "candidates")
    said = []
    assert fold.fold(proofs, cells, say=said.append) == []
    assert "not stronger" in said[0]
    ledger = proofs / "cand" / "ledger.jsonl"
    ledger.write_text(ledger.read_text() + ledger.read_text().splitlines()[1] + "\n")
    with pytest.raises(ShardFileError, match="another ledger"):
        fold.fold(proofs, cells)
    shutil.rmtree(proofs / "cand")
