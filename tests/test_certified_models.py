"""The "Certified results" of docs/optimal.md: every stored tree passes the independent verifier.

The trees and models/certified-results.json come from scripts/models/make_models.py certified. The
verifier replays every secret with the scorer alone and, for the worst case, checks the
embedded certificate that one guess less fails; these tests compare what it recomputes with
the row the script recorded, and with the published value where one exists.
"""
import json
from pathlib import Path

import pytest

from cbsolve.certificates.certify import verify_file

ROOT = Path(__file__).resolve().parents[1]
ROWS = json.loads((ROOT / "models" / "certified-results.json").read_text())
#: Verified in a few seconds; the others replay 4,000+ secrets (and certificates) and are slow.
QUICK = {"mm-5x4-expected", "mm-6x3-expected"}


def _stored():
    for name, row in sorted(ROWS.items()):
        if row.get("file"):
            marks = () if name in QUICK else (pytest.mark.slow,)
            yield pytest.param(name, row, id=name, marks=marks)


@pytest.mark.parametrize("name, row", list(_stored()))
def test_stored_tree_is_verified(name, row):
    report = verify_file(ROOT / row["file"])
    assert report.valid, report.message
    assert report.secrets == row["secrets"]
    if row["objective"] == "worst":
        # the certificate proves worst - 1 guesses fail: the worst case is optimal
        assert report.optimal and report.worst == report.lower_bound == row["value"]
    else:
        assert report.total == row["value"] == row["lower"]


@pytest.mark.parametrize("name, value", [
    # G. Ville, "An optimal Mastermind (4,7) strategy and more results in the expected case",
    # arXiv:1305.1010 (2013): 11228 guesses in total for Mastermind 4 pegs x 7 colours.
    ("mm-4x7-expected", 11228),
    # fancidev/mastermind, published optimal-strategy results: Bulls & Cows with 4 of 9
    # digits, 14914 in total.
    ("bc-4-9-expected", 14914),
    # Ville (2013): Mastermind 4 pegs x 8 colours, 20471 in total.
    ("mm-4x8-expected", 20471),
])
def test_published_values_agree(name, value):
    if name not in ROWS:
        pytest.skip(f"{name} not run yet (scripts/models/make_models.py certified --only {name})")
    assert ROWS[name]["proved"] and ROWS[name]["value"] == value


def _make_script():
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_certified_models",
                                                  ROOT / "scripts" / "models" / "make_models.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_an_interval_the_polisher_narrowed_shows_beside_the_searchs():
    polished = json.loads((ROOT / "models" / "polished-results.json").read_text())
    script = _make_script()
    for name, row in ROWS.items():
        match = [p for p in polished.values()
                 if p["variant"] == row["variant"] and p.get("lower")]
        note = script.narrowed(row)
        if row["objective"] == "expected" and match:
            assert f"[{match[0]['lower']['bound']}, {match[0]['total']}]" in note, name
        else:
            assert note == "", name
    assert "numbers-expected" in ROWS and script.narrowed(ROWS["numbers-expected"])


def test_a_certified_value_holds_for_the_same_game_on_other_symbols():
    # Mastermind 4x6 on letters is Knuth's game on 1-6: the certified worst case 5 (Knuth
    # 1977) and total 5625 (Koyama & Lai 1993) are its values too; following the tree needs
    # its own symbols, so find_tree without any_symbols finds none for the letters
    from cbsolve.bounds import compute_bounds
    from cbsolve.certificates.certified import best_shipped_tree, certified_value, find_tree, same_game
    from cbsolve.game.variant import Variant

    letters, digits = Variant(4, "ABCDEF", repeats=True), Variant.preset("mastermind")
    assert same_game(letters, digits) and not same_game(letters, Variant(4, "ABCDEF", False))
    assert certified_value(letters, "worst")[0] == 5
    assert certified_value(letters, "expected")[0] == 5625
    assert find_tree(letters, "worst") is None and find_tree(digits, "worst") is not None
    logik = Variant(5, "ABCDEFGH", repeats=True)    # a polished tree of worst case 7 ships
    assert best_shipped_tree(logik, "worst")[0] == 7
    b = compute_bounds(letters, search=False, strategies=False)
    assert (b.worst.lower, b.worst.upper) == (5, 5) and "certified tree" in b.worst.upper_method
