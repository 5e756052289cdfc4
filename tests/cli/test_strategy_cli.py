"""``cbsolve evaluate`` and ``cbsolve next`` driven in-process: JSON contract and exit codes."""
import json

import pytest

from cbsolve.cli import main
from cbsolve.certificates.tree import histogram_of, read_tree
from cbsolve.game.variant import Variant


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_evaluate_json_contract(capsys, tmp_path):
    out_file = tmp_path / "tree.json"
    code, out, _ = run(capsys, "evaluate", "--variant", "mastermind", "--strategy", "minimax",
                       "--out", str(out_file), "--json")
    assert code == 0
    data = json.loads(out)
    # Knuth 1977: Mastermind minimax total 5801, worst 5.
    assert {k: data[k] for k in ("strategy", "first", "secrets", "worst", "total")} == {
        "strategy": "minimax", "first": "1122", "secrets": 1296, "worst": 5, "total": 5801}
    assert data["average"] == pytest.approx(5801 / 1296)
    assert data["histogram"] == {"1": 1, "2": 6, "3": 62, "4": 533, "5": 694}
    tree = read_tree(out_file)
    assert histogram_of(Variant.preset("mastermind"), tree["root"]) == {1: 1, 2: 6, 3: 62, 4: 533,
                                                                        5: 694}


def test_evaluate_text_and_sample(capsys):
    code, out, _ = run(capsys, "evaluate", "--variant", "mastermind", "--strategy", "parts")
    assert code == 0 and "total 5668" in out
    code, out, _ = run(capsys, "evaluate", "--variant", "mastermind", "--sample", "50",
                       "--seed", "2", "--json")
    data = json.loads(out)
    assert code == 0 and data["estimate"] is True and data["sample"] == 50
    assert data["total"] is None and len(data["ci95"]) == 2


def test_evaluate_time_limit_reports_how_far_it_got(capsys):
    code, out, _ = run(capsys, "evaluate", "--variant", "mastermind", "--time-limit", "1e-9",
                       "--json")
    data = json.loads(out)
    assert code == 0 and data["complete"] is False and data["time_limit_hit"] is True
    assert data["settled"] < data["secrets"] == 1296 and data["time_limit"] == 1e-9
    code, out, _ = run(capsys, "evaluate", "--variant", "mastermind", "--time-limit", "1e-9")
    assert code == 0 and "time limit reached after settling" in out


def test_evaluate_time_limit_ends_a_sample_with_the_secrets_played(capsys, monkeypatch):
    from cbsolve.runtime import deadline

    checks = {"n": 0}

    def expires_on_the_sixth_check(self):
        checks["n"] += 1
        return checks["n"] > 5

    monkeypatch.setattr(deadline.Deadline, "expired", expires_on_the_sixth_check)
    code, out, _ = run(capsys, "evaluate", "--variant", "mastermind", "--sample", "50",
                       "--seed", "1", "--time-limit", "60", "--json")
    data = json.loads(out)
    assert code == 0 and data["complete"] is False and data["time_limit_hit"] is True
    assert 1 <= data["sample"] < data["sample_requested"] == 50


def test_evaluate_within_its_time_limit_is_the_whole_answer(capsys):
    code, out, _ = run(capsys, "evaluate", "--variant", "mastermind", "--time-limit", "600",
                       "--json")
    data = json.loads(out)
    assert code == 0 and data["total"] == 5801 and "complete" not in data


@pytest.mark.parametrize("args, message", [
    (["evaluate", "--strategy", "best"], "unknown strategy 'best'"),
    (["evaluate", "--guesses", "some"], "unknown guess set 'some'"),
    (["evaluate", "--first", "0012"], "repeats symbol"),
    (["evaluate", "--sample", "0"], "'--sample': must be a whole number in 1..2147483647, got '0'"),
    (["evaluate", "--sample", "5", "--out", "x.json"], "--out and --dot need an exhaustive"),
    (["evaluate", "--variant", "mastermind", "--dot", "x.dot", "--dot-depth", "0"],
     "'--dot-depth': must be a whole number in 1..2147483647, got '0'"),
    (["evaluate", "--length", "8"], "use --sample K"),   # 1,814,400 secrets > 10^6
    (["evaluate", "--length", "12", "--letters", "26", "--sample", "3"], "lists every code"),
    (["next", "--strategy", "best"], "unknown strategy 'best'"),
    (["evaluate", "--time-limit", "-1"], "finite number of seconds"),
    (["next", "0123:5,0"], "exceeds the length"),
])
def test_bad_input_exit_2(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_next_beyond_listing_answers_a_consistent_code(capsys):
    # the opening needs no listing (tests/advisor); a position after it cannot be listed, so
    # the answer is one consistent code from the depth-first search, labelled so
    code, out, _ = run(capsys, "next", "AAAAAAAAAAAA:0,0", "--length", "12", "--letters", "26",
                       "--repeats", "--time-limit", "30", "--json")
    data = json.loads(out)
    assert code == 0 and data["source"] == "consistent" and data["complete"]
    assert len(data["guess"]) == 12 and "A" not in data["guess"]
    assert data["partition"] == {} and not data["honoured"]


def test_next_json(capsys, tmp_path):
    code, out, _ = run(capsys, "next", "--variant", "mastermind", "--json")
    data = json.loads(out)
    assert code == 0 and data["guess"] == "1122" and data["candidates"] == 1296
    assert data["strategy"] == "minimax" and data["determined"] is False
    log = tmp_path / "log.txt"
    log.write_text("1122 4 0\n")
    code, out, _ = run(capsys, "next", "--variant", "mastermind", "--log", str(log), "--json")
    data = json.loads(out)
    assert data["determined"] is True and data["guess"] == "1122" and data["candidates"] == 1


def test_next_inconsistent_exit_1(capsys):
    code, out, _ = run(capsys, "next", "0123:0,1", "0123:1,1", "--json")
    data = json.loads(out)
    assert code == 1 and data["consistent"] is False and data["conflict"] == [1, 2]
    code, out, _ = run(capsys, "next", "0123:0,1", "0123:1,1")
    assert code == 1 and "#1 0123:0,1" in out and "#2 0123:1,1" in out


def test_evaluate_dot(capsys, tmp_path):
    dot = tmp_path / "t.dot"
    code, out, _ = run(capsys, "evaluate", "--variant", "mastermind", "--dot", str(dot),
                       "--dot-depth", "1", "--json")
    assert code == 0 and json.loads(out)["dot"] == str(dot)
    text = dot.read_text()
    # Knuth's opening 1122 splits the 1296 codes into 13 parts (S. Gur's first-guess table),
    # one of them the win: 12 edges leave the root
    assert text.startswith("digraph") and '"1122"' in text and text.count("->") == 12
