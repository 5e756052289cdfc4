"""verify measures any tree and checks every claim it makes, reporting all that differ."""
import copy
import json
from pathlib import Path

import pytest

from cbsolve.certificates.certify import load, verify
from cbsolve.cli import main

MODELS = Path(__file__).resolve().parents[1] / "models"


@pytest.fixture(scope="module")
def worst_model():
    return load(MODELS / "mastermind-worst.json")


@pytest.fixture(scope="module")
def expected_model():
    return load(MODELS / "mastermind-4-6-expected.json")


def claims_of(report):
    return [(m["claim"], m["claimed"], m["replayed"]) for m in report.mismatches]


def test_tie_break_claim_off_by_one_is_invalid(worst_model):
    doc = copy.deepcopy(worst_model)
    at_worst = doc["ties"]["at_worst"]
    doc["ties"]["at_worst"] = at_worst - 1
    doc["stats"]["total"] -= 1
    report = verify(doc)
    assert not report.valid
    # both differences are reported, each with the replayed value beside the claimed one
    assert claims_of(report) == [("stats.total", report.total - 1, report.total),
                                 ("ties.at_worst", at_worst - 1, at_worst)]
    assert report.histogram[report.worst] == at_worst


def test_interval_and_depth_claims(worst_model):
    doc = copy.deepcopy(worst_model)
    doc["at_worst"]["upper"] += 1
    doc["max_depth"] = 4
    report = verify(doc)
    assert [c for c, _, _ in claims_of(report)] == ["at_worst.upper", "max_depth (>= worst)"]


def test_partial_and_absent_claims(expected_model):
    doc = copy.deepcopy(expected_model)
    total, secrets = doc["stats"]["total"], doc["stats"]["secrets"]
    doc["stats"] = {"average": round(total / secrets, 3)}
    assert verify(doc).valid
    doc["stats"] = {"average": round(total / secrets, 3) + 0.001}
    assert claims_of(verify(doc))[0][0] == "stats.average"
    doc["stats"] = {"total": total}
    assert verify(doc).valid
    del doc["stats"]
    report = verify(doc)            # nothing claimed: measured
    assert report.valid and report.total == total and report.average == total / secrets


def test_unknown_claims_are_not_taken_on_trust(expected_model):
    doc = copy.deepcopy(expected_model)
    doc["stats"]["median"] = 4
    report = verify(doc)
    assert not report.valid and claims_of(report) == [("stats.median", 4, None)]


def test_cli_json_carries_replayed_and_claimed(tmp_path, capsys, worst_model):
    doc = copy.deepcopy(worst_model)
    doc["stats"]["worst"] = 4
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    assert main(["verify", str(path), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["worst"] == 5 and data["claimed"]["stats"]["worst"] == 4
    assert data["mismatches"] == [{"claim": "stats.worst", "claimed": 4, "replayed": 5}]
    assert data["guesses"] == "all" and data["nodes"] > 0
    assert "ties.total_lower" in data["search_word"]
    assert main(["verify", str(path)]) == 1
    assert "claim stats.worst = 4 but the replay gives 5" in capsys.readouterr().out


def test_a_table_is_named_as_such(capsys):
    assert main(["verify", str(MODELS / "small-games.json")]) == 2
    err = capsys.readouterr().err
    assert "a table of" in err and "not a strategy tree" in err and "format None" not in err
