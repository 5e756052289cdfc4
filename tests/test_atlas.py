"""The atlas (models/atlas.json): its integrity, its answers equal to a recomputation, the
table formats, --play, and the edges (a bad secret, an empty filter, a game outside it, a
damaged file)."""
from __future__ import annotations

import ast
import csv
import io
import json
import shutil

import pytest

from cbsolve.bounds import atlas_file
from cbsolve.bounds import compute_bounds
from cbsolve.cli import main
from cbsolve.game.variant import Variant

ATLAS = atlas_file.load()


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def cell(variant: Variant) -> dict:
    found = atlas_file.lookup(variant)
    assert found is not None, f"{variant.describe()} is not in the atlas"
    return found


# --- integrity ------------------------------------------------------------------------------
def test_the_hash_matches_the_cells():
    assert atlas_file.content_hash(ATLAS["cells"]) == ATLAS["sha256"]
    assert ATLAS["format"] == "cbsolve-atlas" and ATLAS["version"] and ATLAS["built"]


def test_every_interval_is_ordered_and_every_literature_value_inside():
    for c in ATLAS["cells"]:
        for obj in ("worst", "expected"):
            iv = c[obj]
            assert 1 <= iv["lower"] <= iv["upper"], c["id"]
            assert iv["exact"] == (iv["lower"] if iv["lower"] == iv["upper"] else None), c["id"]
            for x in iv.get("literature", []):
                low, high = x.get("exact", x.get("lower")), x.get("exact", x.get("upper"))
                assert low is None or low <= iv["upper"], (c["id"], x)
                assert high is None or high >= iv["lower"], (c["id"], x)


@pytest.mark.parametrize("variant, worst, total", [
    # Knuth 1977 (worst 5); Koyama & Lai 1993 (total 5625): Mastermind 4x6
    (Variant(4, "123456", repeats=True), 5, 5625),
    # Tanaka 1996: Bulls & Cows 4/10, worst 7, total 26274
    (Variant(4, "0123456789", repeats=False), 7, 26274),
])
def test_the_published_exact_values_lie_in_their_cells(variant, worst, total):
    c = cell(variant)
    assert c["worst"]["lower"] <= worst <= c["worst"]["upper"]
    assert c["expected"]["lower"] <= total <= c["expected"]["upper"]


def test_a_literature_value_is_kept_beside_the_proof_not_in_its_place():
    c = cell(Variant(4, "123456", repeats=True))
    (knuth,) = c["worst"]["literature"]
    assert knuth["exact"] == 5 and "Knuth 1977" in knuth["citation"]
    assert c["worst"]["provenance"] == {"lower": "proved here", "upper": "proved here"}


# Most guesses (the final one counted) of the heuristic strategies mikemag evaluated exactly on
# a GPU, Mastermind with repeats, N x D: github.com/mikemag/Mastermind, results/ (2023).
MIKEMAG = {(5, 8): 7, (5, 9): 8, (5, 10): 8, (5, 11): 9, (5, 12): 9, (6, 5): 6, (6, 6): 7,
           (6, 7): 8, (6, 8): 8, (6, 9): 9, (6, 10): 9, (6, 11): 9, (6, 12): 10, (7, 4): 6,
           (7, 5): 7, (7, 6): 8, (7, 7): 8, (7, 8): 9, (7, 9): 9, (7, 10): 10, (7, 11): 10,
           (7, 12): 11, (8, 4): 7, (8, 5): 8, (8, 6): 9, (8, 7): 9, (8, 8): 10, (8, 9): 10}


@pytest.mark.parametrize("game", sorted(MIKEMAG), ids=lambda g: f"{g[0]}x{g[1]}")
def test_every_gpu_evaluated_game_has_a_proved_upper_end_at_most_its_value(game):
    length, symbols = game
    c = cell(Variant(length, "ABCDEFGHIJKL"[:symbols], repeats=True))
    assert c["worst"]["provenance"]["upper"] == "proved here"
    assert c["worst"]["upper"] <= MIKEMAG[game]
    assert c["worst"]["lower"] <= c["worst"]["upper"]


# --- answered from the atlas ------------------------------------------------------------------
SMALL = [Variant(2, "123", repeats=True), Variant(3, "0123", repeats=False),
         Variant(3, "12", repeats=True, feedback="bulls"), Variant(3, "123", repeats=True)]


@pytest.mark.parametrize("variant", SMALL, ids=lambda v: v.describe())
def test_the_atlas_answer_equals_a_recomputation(variant):
    from cbsolve.api import bounds

    answer = bounds(variant)
    assert answer.source == "atlas"
    fresh = compute_bounds(variant)
    for name in ("worst", "expected"):
        a, b = getattr(answer, name), getattr(fresh, name)
        # a longer computation may only tighten the atlas's interval, never contradict it
        assert a.lower <= b.upper and b.lower <= a.upper
        if b.exact is not None and a.exact is not None:
            assert a.exact == b.exact


def test_any_alphabet_of_the_same_size_is_the_same_cell(capsys):
    code, out, _ = run(capsys, "bounds", "--letters", "6", "--length", "4", "--repeats", "--json")
    letters = json.loads(out)
    code2, out2, _ = run(capsys, "bounds", "--variant", "mastermind", "--json")
    digits = json.loads(out2)
    assert code == code2 == 0 and letters["source"] == digits["source"] == "atlas"
    assert letters["worst"] == digits["worst"] and letters["variant"]["symbols"] == "ABCDEF"


def test_recompute_ignores_the_atlas(capsys):
    code, out, _ = run(capsys, "bounds", "--length", "2", "--digits", "3", "--recompute", "--json")
    assert code == 0 and json.loads(out)["source"] == "computed"


def test_a_game_outside_the_atlas_is_computed_and_labelled(capsys):
    code, out, _ = run(capsys, "bounds", "--length", "2", "--letters", "13", "--repeats",
                       "--json", "--time-limit", "5")
    data = json.loads(out)
    assert code == 0 and data["source"] == "computed" and data["secrets"] == 169
    assert data["worst"]["provenance"]["upper"] == "proved here"


# --- the table ------------------------------------------------------------------------------
def test_table_json_records(capsys):
    code, out, _ = run(capsys, "bounds", "--table", "--json", "--variant", "mastermind",
                       "--length", "3")
    rows = json.loads(out)
    assert code == 0 and rows
    for r in rows:
        assert {"variant", "length", "symbols", "repeats", "feedback", "worst",
                "expected"} <= set(r)
        assert r["length"] == 3 and r["repeats"] and r["feedback"] == "bulls-cows"
        assert {"lower", "upper", "lower_method", "upper_method"} <= set(r["worst"])


def test_table_csv_and_markdown_have_a_row_per_record(capsys):
    _, out, _ = run(capsys, "bounds", "--table", "--json", "--length", "2")
    rows = json.loads(out)
    _, text, _ = run(capsys, "bounds", "--table", "--csv", "--length", "2")
    parsed = list(csv.DictReader(io.StringIO(text)))
    assert [int(p["worst_upper"]) for p in parsed] == [r["worst"]["upper"] for r in rows]
    _, md, _ = run(capsys, "bounds", "--table", "--length", "2")
    assert md.startswith("| variant |") and len(md.strip().splitlines()) == len(rows) + 2


def test_table_python_is_a_literal_of_the_bulls_and_cows_upper_ends(capsys):
    code, out, _ = run(capsys, "bounds", "--table", "--python", "--length", "3")
    table = ast.literal_eval(out)
    assert code == 0 and table
    for (n, d, repeats), upper in table.items():
        rec = cell(Variant(n, "0123456789AB"[:d], repeats=repeats))
        assert n == 3 and rec["worst"]["upper"] == upper


# --- --play ---------------------------------------------------------------------------------
@pytest.mark.parametrize("variant, secrets", [
    (Variant(3, "0123", repeats=False), ["012", "321", "230"]),     # a strategy evaluated exactly
    (Variant(4, "123456", repeats=True), ["1122", "6543", "3456"]),  # a certified tree
])
def test_play_replays_the_upper_ends_strategy_to_the_secret(capsys, variant, secrets):
    upper = cell(variant)["worst"]["upper"]
    for secret in secrets:
        code, out, _ = run(capsys, "bounds", "--symbols", variant.symbols, "--length",
                           str(variant.length), "--repeats" if variant.repeats else "--distinct",
                           "--play", secret, "--json")
        data = json.loads(out)
        assert code == 0 and data["guesses"][-1] == secret and data["secret"] == secret
        assert len(data["guesses"]) <= data["upper"] == upper and data["replays_upper_end"]


def test_play_on_every_secret_of_a_small_game_reaches_the_upper_end_exactly():
    from itertools import permutations

    from cbsolve.cli._atlas_play import play

    variant = Variant(3, "0123", repeats=False)
    rec = cell(variant)
    lengths = [len(play(variant, rec, "".join(p))["guesses"]) for p in permutations("0123", 3)]
    assert max(lengths) == rec["worst"]["upper"]
    assert sum(lengths) == rec["worst"]["recipe"]["total"]


def test_play_a_code_not_of_the_game_is_one_line_exit_2(capsys):
    code, out, err = run(capsys, "bounds", "--variant", "mastermind", "--play", "1297", "--json")
    assert code == 2 and out == "" and err.count("\n") == 1 and "1297" in err


def test_table_filter_matching_nothing_is_one_line_exit_2(capsys):
    code, out, err = run(capsys, "bounds", "--table", "--length", "30", "--repeats")
    assert code == 2 and out == "" and err.count("\n") == 1 and "no atlas cell" in err


# --- a damaged file is refused, never used ----------------------------------------------------------
@pytest.fixture
def damaged(tmp_path, monkeypatch):
    copy = tmp_path / "models"
    copy.mkdir()
    shutil.copy(atlas_file.atlas_path(), copy / "atlas.json")
    monkeypatch.setattr(atlas_file, "models_dir", lambda: copy)
    atlas_file._checked.cache_clear()
    atlas_file.load.cache_clear()
    yield copy / "atlas.json"
    atlas_file._checked.cache_clear()
    atlas_file.load.cache_clear()


def test_a_cell_edited_by_hand_is_refused(capsys, damaged):
    text = damaged.read_text()
    damaged.write_text(text.replace('"upper":5,', '"upper":4,', 1))
    with pytest.raises(atlas_file.DamagedAtlas, match="build_atlas.py --assemble"):
        atlas_file.load(damaged)
    code, out, err = run(capsys, "bounds", "--variant", "mastermind", "--json")
    assert code == 2 and out == "" and err.count("\n") == 1 and "content hash" in err


def test_a_truncated_file_is_refused(capsys, damaged):
    damaged.write_text(damaged.read_text()[:5000])
    code, out, err = run(capsys, "bounds", "--table")
    assert code == 2 and out == "" and err.count("\n") == 1 and "rebuild it" in err


def test_an_explicit_time_limit_may_only_tighten_an_open_cell(capsys):
    open_cells = [r for r in atlas_file.records()
                  if r["worst"]["exact"] is None and r["secrets"] <= 2000]
    if not open_cells:
        pytest.skip("every small cell of the atlas is closed")
    r = min(open_cells, key=lambda r: r["secrets"])
    before = r["worst"]
    code, out, _ = run(capsys, "bounds", "--symbols", r["symbols"], "--length", str(r["length"]),
                       "--repeats" if r["repeats"] else "--distinct", "--feedback", r["feedback"],
                       "--time-limit", "0.5", "--json")     # spent whole: 2 s was 2 CPU s
    data = json.loads(out)
    assert code == 0 and data["source"] in ("atlas", "atlas, improved")
    assert before["lower"] <= data["worst"]["lower"] <= data["worst"]["upper"] <= before["upper"]


def test_play_says_so_when_the_upper_end_cannot_be_replayed():
    from cbsolve.cli._atlas_play import play

    variant = Variant(3, "0123456789", repeats=True)
    record = {"variant": variant.to_dict(), "strategies": [],
              "worst": {"lower": 4, "upper": 9, "upper_method": "constructive strategy",
                        "recipe": {"kind": "construction", "method": "constructive strategy"}}}
    data = play(variant, record, "907")
    assert data["guesses"][-1] == "907" and not data["replays_upper_end"]
    assert "cannot replay" in data["note"] and data["strategy"].startswith("first consistent")


def test_play_replays_a_block_composition_within_its_upper_end():
    from cbsolve.bounds.blocks import METHOD, block_worst
    from cbsolve.cli._atlas_play import play

    # 8 of 3: two shifted blocks of one and a last block of six (the block trees of 12 of 4
    # took about 12 CPU s to build; tests/bounds/test_bounds_blocks.py replays larger games)
    variant = Variant(8, "123", repeats=True, feedback="bulls")
    upper = block_worst(variant)
    record = {"variant": variant.to_dict(), "strategies": [],
              "worst": {"lower": 7, "upper": upper, "upper_method": METHOD,
                        "recipe": {"kind": "construction", "method": METHOD}}}
    for secret in ("11111111", "32132132", "12312333"):
        data = play(variant, record, secret)
        assert data["guesses"][-1] == secret and len(data["guesses"]) <= upper
        assert data["replays_upper_end"] and "note" not in data


def test_the_earlier_bounds_table_and_the_certified_trees_agree_with_every_cell():
    """Two proofs of one game cannot contradict: every interval of docs/bounds-table.csv (the
    70 s research run) overlaps its cell, and every optimum a certified tree in models/ holds
    lies inside it."""
    from pathlib import Path

    from cbsolve.certificates.certified import certified_value

    table = Path(__file__).resolve().parents[1] / "docs" / "bounds-table.csv"
    with table.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert rows
    for r in rows:
        symbols = "0123456789AB"[:int(r["D"])]
        c = cell(Variant(int(r["N"]), symbols, repeats=r["kind"] == "repeats"))
        for obj, prefix in (("worst", "worst"), ("expected", "total")):
            lo, hi = int(r[f"{prefix}_lower"]), int(r[f"{prefix}_upper"])
            assert max(lo, c[obj]["lower"]) <= min(hi, c[obj]["upper"]), (c["id"], obj)
    checked = 0
    for c in ATLAS["cells"]:
        if c["secrets"] > 100_000:
            continue
        for obj in ("worst", "expected"):
            found = certified_value(Variant.from_dict(c["variant"]), obj)
            if found is not None:
                checked += 1
                assert c[obj]["lower"] <= found[0] <= c[obj]["upper"], (c["id"], found)
    assert checked
