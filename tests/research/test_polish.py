"""Polishing expected-case trees (scripts/research/polish.py, scripts/research/polish_tree.py): the result is
never worse than its input, verifies secret by secret, and with the exact move over the whole
set reaches the optimum the exact search proves."""
import gzip
import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest
from polish import Polisher

from cbsolve.certificates.certify import replay_tree, verify, verify_file
from cbsolve.search.expected import solve_expected
from cbsolve.strategy.evaluation import evaluate
from cbsolve.certificates.tree import make_tree
from cbsolve.game.variant import Variant

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "models" / "polished-results.json"
MM44 = Variant(4, "1234", True, False)
MM45 = Variant(4, "12345", True, False)


def replayed_total(variant: Variant, root: dict) -> int:
    hist, _ = replay_tree(variant, root)
    return sum(k * v for k, v in hist.items())


@pytest.mark.parametrize("variant", [MM44, MM45], ids=["mm-4x4", "mm-4x5"])
def test_exact_move_over_the_whole_set_reaches_the_proved_optimum(variant):
    tree = evaluate(variant, "entropy").tree
    optimum = solve_expected(variant, workers=1, progress=False)
    assert optimum.proved
    polisher = Polisher(variant, exact_max=variant.n_symbols ** variant.length)
    root, total = polisher.polish(tree["root"])
    assert total == replayed_total(variant, root) == optimum.total
    assert polisher.stats.before == tree["stats"]["total"]


@pytest.mark.parametrize("settings", [
    {"exact_max": 20},
    {"exact_max": 20, "alternatives": 3, "alt_max": 10_000},
    {"exact_max": 60, "alternatives": 2, "alt_max": 200, "node_seconds": 0.5},
], ids=["exact-20", "exact-20-alternatives", "exact-60-alternatives-below-200"])
@pytest.mark.parametrize("strategy", ["minimax", "entropy", "first"])
def test_polished_tree_verifies_and_is_never_worse(strategy, settings):
    tree = evaluate(MM45, strategy).tree
    polisher = Polisher(MM45, **settings)
    root, total = polisher.polish(tree["root"])
    assert total <= tree["stats"]["total"]
    assert total == replayed_total(MM45, root)
    doc = make_tree(MM45, "polished", "all", root, replay_tree(MM45, root)[0])
    report = verify(json.loads(json.dumps(doc)))
    assert report.valid, report.message
    assert report.total == total


def test_weak_tree_is_improved_and_optimal_tree_kept():
    # "first" (the lowest consistent code) leaves room; the optimum's own tree leaves none.
    weak = evaluate(MM45, "first").tree
    root, total = Polisher(MM45, exact_max=40).polish(weak["root"])
    assert total < weak["stats"]["total"]
    optimal = solve_expected(MM45, workers=1, progress=False)
    polisher = Polisher(MM45, exact_max=625, alternatives=2, alt_max=625)
    root, total = polisher.polish(optimal.tree["root"])
    assert total == optimal.total and polisher.stats.improved == 0


def test_polish_from_a_position_counts_guesses_from_there():
    tree = evaluate(MM45, "entropy").tree
    first = tree["root"]
    polisher = Polisher(MM45, exact_max=625)
    g = polisher._index(first)
    resp = polisher.search.replies(g)
    reply = max(set(resp.tolist()), key=lambda r: int((resp == r).sum()))
    members = np.flatnonzero(resp == reply)
    child = first["children"][MM45.format_response(reply)]
    root, total = polisher.polish(child, members, [g])
    hist, _ = replay_tree(MM45, root, start=members)
    assert total == sum(k * v for k, v in hist.items()) <= polisher.stats.before


def test_time_limit_returns_a_valid_tree():
    tree = evaluate(MM45, "minimax").tree
    root, total = Polisher(MM45, exact_max=625, time_limit=0.0).polish(tree["root"])
    assert total == replayed_total(MM45, root) == tree["stats"]["total"]


def _script():
    spec = importlib.util.spec_from_file_location("polish_tree",
                                                  ROOT / "scripts" / "research" / "polish_tree.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_script_writes_a_tree_verify_accepts(tmp_path, capsys):
    out = tmp_path / "mm-4x4.json.gz"
    code = _script().main(["--length", "4", "--symbols", "1234", "--repeats",
                           "--exact-max", "50", "--lower-bound", "100", "--out", str(out)])
    row = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert code == 0
    report = verify_file(out)
    assert report.valid, report.message
    assert report.total == row["total"] <= row["input_total"]
    assert row["lower"]["bound"] <= row["total"]
    doc = json.loads(gzip.decompress(out.read_bytes()))
    assert doc["strategy"] == "polished" and doc["polished"]["from"] == "entropy"


def test_script_first_value_writes_the_optimal_tree_for_the_optimal_first_guess(tmp_path, capsys):
    optimum = solve_expected(MM44, workers=1, progress=False)
    out = tmp_path / "first.json.gz"
    code = _script().main(["--length", "4", "--symbols", "1234", "--repeats", "--first-value",
                           optimum.tree["root"]["guess"], "--out", str(out)])
    row = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert code == 0 and row["exact"] and row["value"] == optimum.total
    report = verify_file(out)
    assert report.valid, report.message
    assert report.total == optimum.total


def _stored():
    rows = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    for name, row in sorted(rows.items()):   # under a second each (the native replay)
        # trees of 30,000 secrets and more (about 2 CPU s each): the slow run's
        yield pytest.param(name, row, id=name,
                           marks=pytest.mark.slow if row["secrets"] > 10_000 else ())


@pytest.mark.parametrize("name, row", list(_stored()))
def test_stored_polished_tree_verifies_with_the_recorded_total(name, row):
    path = ROOT / row["file"]
    if not path.exists():
        pytest.skip(f"{name}: not stored (regenerate with: {row['command']})")
    report = verify_file(path)
    assert report.valid, report.message
    assert (report.secrets, report.total, report.worst) == (row["secrets"], row["total"],
                                                            row["worst"])
    assert row["total"] <= row["input_total"]
