"""Tree formats of the field: readers on hand-written fixtures (every corner of each format),
round trips of our own trees through every writer, and the CLI's convert / verify --format."""
import copy
import json
from pathlib import Path

import pytest

from cbsolve.certificates.certify import load, measure_tree, verify
from cbsolve.cli import main
from cbsolve.formats import FORMATS, FormatError, read_document, write_document
from cbsolve.strategy import evaluate
from cbsolve.certificates.tree import iter_nodes, make_tree
from cbsolve.game.variant import Variant

FIXTURES = Path(__file__).parents[1] / "fixtures" / "trees"
MODELS = Path(__file__).resolve().parents[2] / "models"
MM23 = Variant(2, "123", repeats=True)      # Mastermind, 2 pegs, 3 colours: 9 secrets
BC24 = Variant(2, "0123", repeats=False)    # Bulls & Cows, 2 of 4 digits: 12 secrets


def measured(path, fmt, variant=None):
    doc = read_document(path, fmt, variant)
    report = verify(doc)
    assert report.valid, report.message
    return doc, report


def test_irving_labels_marks_and_implicit_leaves():
    # 9 (12: ...): the reply classes of 12 are 0,2 {21}; 0,1 {23, 31}; 0,0 {33};
    # 1,0 {11, 13, 22, 32}; 2,0 {12}. "1" and "2" are implicit leaves, "(11*)" a
    # non-candidate guess splitting {23, 31}, Knuth's "0," for the impossible 1,1 reply, "4A"
    # a hoisted label whose "(33x)" splits its 4 secrets into pairs {11, 22}, {13, 32}, each
    # guessed in turn. By hand: 1 at 1 guess; 21, 33 at 2; 23, 31, 11, 13 at 3; 22, 32 at 4.
    doc, report = measured(FIXTURES / "mm-2-3.irving", "irving", MM23)
    assert report.histogram == {1: 1, 2: 2, 3: 4, 4: 2}
    assert report.claimed == {"node counts": 5}          # 9; 1, 2, 1 on 0 bulls; 4A
    root = doc["root"]
    assert root["guess"] == "12" and root["count"] == 9
    assert root["children"]["1,0"]["guess"] == "33"        # the label's body, filled in
    assert root["children"]["0,1"]["guess"] == "11"


@pytest.mark.parametrize("text, fragment", [
    ("9 (12: 1, 2 (11*), 1; 0, 4A; 1)\n", "labels used but never defined: A"),
    ("9 (12: 1, 2 (11*), 1; 0, 4A; 1)\nB = (33x)\n", "defined but not used"),
    ("9 (12: 1, 2 (11*), 1; 4; 1)\n", "an implicit leaf holds at most 2"),
    ("9 (12: 1, 2 (11*), 1; 4 (13); 0)\n", "all-bulls entry 0"),
    ("9 (12: 1, 2 (11*); 4 (13); 1)\n", "expected ','"),
    ("9 (19: 1)\n", "symbol '9'"),
])
def test_irving_errors_name_the_place(tmp_path, text, fragment):
    path = tmp_path / "bad.irving"
    path.write_text(text)
    with pytest.raises(FormatError, match=fragment.replace("(", r"\(")):
        read_document(path, "irving", MM23)


def test_irving_wrong_counts_are_all_reported(tmp_path):
    path = tmp_path / "counts.irving"
    path.write_text((FIXTURES / "mm-2-3.irving").read_text().replace("9 (", "8 (")
                    .replace("4A", "3A"))
    report = verify(read_document(path, "irving", MM23))
    assert not report.valid
    assert [(m["claimed"], m["replayed"]) for m in report.mismatches] == [(8, 9), (3, 4)]


def test_arfst_yaml_and_text_read_the_same_tree():
    # Colours 0..2 in the files are the variant's 1..3; "01", "00" and "10" stay codes (a
    # YAML 1.1 reader would make them the numbers 1, 0 and 10). By hand: 12 at 1 guess;
    # 33, 21, 13 at 2; 23, 31, 22, 32, 11 at 3.
    doc_y, rep_y = measured(FIXTURES / "mm-2-3.yml", "arfst-yaml", MM23)
    doc_t, rep_t = measured(FIXTURES / "mm-2-3.txt", "arfst-text", MM23)
    assert rep_y.histogram == rep_t.histogram == {1: 1, 2: 3, 3: 5}
    assert doc_y["root"] == doc_t["root"]
    assert doc_y["root"]["guess"] == "12" and doc_y["root"]["children"]["0,1"]["guess"] == "11"


def test_arfst_alphabet_can_be_overridden(tmp_path):
    # the same file read as if its colours were 1..3 already: 0 is then not a colour
    with pytest.raises(FormatError, match="--file-symbols"):
        read_document(FIXTURES / "mm-2-3.yml", "arfst-yaml", MM23, file_symbols="123")
    doc = read_document(FIXTURES / "mm-2-3.yml", "arfst-yaml", Variant(2, "ABC", True),
                        file_symbols="012")
    assert doc["root"]["guess"] == "AB"


def test_arfst_text_checks_line_references(tmp_path):
    text = (FIXTURES / "mm-2-3.txt").read_text()
    path = tmp_path / "bad.txt"
    path.write_text(text.replace(">002", ">009"))
    with pytest.raises(FormatError, match="line 009"):
        read_document(path, "arfst-text", MM23)
    path.write_text(text.replace("001 2 00", "001 3 00"))
    with pytest.raises(FormatError, match="guess number 3"):
        read_document(path, "arfst-text", MM23)


def test_kunigami_script_with_confirmation_leaves():
    # [0, 1] splits 0,0 {23, 32}; 0,1 {12, 13, 20, 30}; 0,2 {10}; 1,0 {02, 03, 21, 31};
    # "(2, 0)": [[g], {}] repeats a node's guess: the game is won there, not another guess.
    # By hand: 01 at 1; 23, 10, 12, 02 at 2; the other 7 at 3.
    doc, report = measured(FIXTURES / "bc-2-4.js", "kunigami-json", BC24)
    assert report.histogram == {1: 1, 2: 4, 3: 7}
    assert "2,0" not in doc["root"]["children"]


def test_kunigami_confirmation_must_repeat_the_guess(tmp_path):
    text = (FIXTURES / "bc-2-4.js").read_text().replace("'(2, 0)': [[2, 3], {}]",
                                                        "'(2, 0)': [[3, 2], {}]")
    path = tmp_path / "bad.js"
    path.write_text(text)
    with pytest.raises(FormatError, match="confirmation leaf"):
        read_document(path, "kunigami-json", BC24)


def strip_counts(root):
    root = copy.deepcopy(root)
    for _, node in iter_nodes(root):
        node.pop("count", None)
        if node.get("children") == {}:
            del node["children"]
    return root


def own_trees():
    mm = load(MODELS / "mastermind-worst.json")      # codes such as 1123 -> arfst's 0012
    small = Variant(3, "012345", repeats=False)
    ev = evaluate(small, "expected")
    return [mm, make_tree(small, "expected", "all", ev.tree["root"], ev.histogram)]


@pytest.mark.parametrize("fmt", [f for f in FORMATS if f != "cbsolve"])
def test_round_trip_of_our_trees(tmp_path, fmt):
    for doc in own_trees():
        variant = Variant.from_dict(doc["variant"])
        path = tmp_path / f"tree.{fmt}"
        write_document(doc, path, fmt)
        back = read_document(path, fmt, variant)
        assert strip_counts(back["root"]) == strip_counts(doc["root"])
        assert measure_tree(variant, back["root"])["total"] == doc["stats"]["total"]
        again = tmp_path / f"again.{fmt}"
        write_document(back, again, fmt)
        assert again.read_text() == path.read_text()


def test_cli_convert_and_verify(tmp_path, capsys):
    out = tmp_path / "mm.json"
    args = ["--variant", "mastermind", "--length", "2", "--digits", "3"]
    assert main(["convert", str(FIXTURES / "mm-2-3.irving"), str(out), "--from", "irving",
                 "--json", *args]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["from"], data["to"], data["total"]) == ("irving", "cbsolve", 25)
    assert main(["verify", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["valid"] and data["claimed"]["stats"]["total"] == 25
    yml = tmp_path / "mm.yml"
    assert main(["convert", str(out), str(yml)]) == 0
    capsys.readouterr()
    assert main(["verify", str(yml), "--json", *args]) == 0
    assert json.loads(capsys.readouterr().out)["format"] == "arfst-yaml"


def test_cli_convert_refuses_a_wrong_tree(tmp_path, capsys):
    path = tmp_path / "bad.irving"
    path.write_text((FIXTURES / "mm-2-3.irving").read_text().replace("9 (", "8 ("))
    code = main(["convert", str(path), str(tmp_path / "x.json"), "--from", "irving",
                 "--variant", "mastermind", "--length", "2", "--digits", "3"])
    assert code == 1 and "count at reply path (root) = 8" in capsys.readouterr().err
    # under --json the refusal is one document too (exit 1 is an answer)
    code = main(["convert", str(path), str(tmp_path / "x.json"), "--from", "irving",
                 "--variant", "mastermind", "--length", "2", "--digits", "3", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 1 and doc["converted"] is False and "= 8" in doc["message"]
    assert not (tmp_path / "x.json").exists()
    assert main(["verify", str(path)]) == 2
    assert "give --format" in capsys.readouterr().err
    assert main(["verify", str(path), "--format", "nonsense"]) == 2
    assert "unknown tree format" in capsys.readouterr().err
