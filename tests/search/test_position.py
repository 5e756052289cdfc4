"""Optimal play from a position (`cbsolve optimal ENTRY...`): the optimum of the game the
entries leave agrees with the certified trees in models/, and `verify` replays the tree and
certificate from that position."""
import json
from pathlib import Path

import pytest

from cbsolve.certificates.certify import replay_tree, verify
from cbsolve.cli import main
from cbsolve.game.feedback import FeedbackLog
from cbsolve.search.position import Position, solve_from
from cbsolve.runtime.status import Status
from cbsolve.game.variant import Variant

MODELS = Path(__file__).resolve().parents[2] / "models"
MASTERMIND = Variant.preset("mastermind")


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def subtree_stats(position: Position, node: dict) -> tuple[int, int]:
    """(total, worst) of a tree node played against the position's secrets (guess 1 = it)."""
    hist, _ = replay_tree(MASTERMIND, node, start=position.members)
    return sum(k * v for k, v in hist.items()), max(hist)


def classes_of(tree: dict):
    root = tree["root"]
    for reply, child in root["children"].items():
        log = FeedbackLog.parse(MASTERMIND, [f"{root['guess']}:{reply}"])
        yield reply, Position.from_log(log), child


def test_expected_optimum_from_every_class_equals_the_optimal_trees_subtree():
    # Koyama & Lai 1993: 5625 guesses in total is the optimum of Mastermind 4/6; an optimal
    # tree is optimal in every reply class of its first guess, so the optimum from each
    # position after that guess is the tree's subtree total there.
    tree = json.loads((MODELS / "mastermind-4-6-expected.json").read_text())
    assert tree["stats"]["total"] == 5625
    checked = 0
    for reply, position, child in classes_of(tree):
        total, _ = subtree_stats(position, child)
        result = solve_from(position, "expected")
        assert result.proved and result.secrets == position.members.size, reply
        assert result.total == total, reply
        report = verify(result.tree)
        assert report.valid and report.total == result.total, (reply, report.message)
        checked += 1
    assert checked == len(tree["root"]["children"])


def test_capped_optimum_from_a_class_equals_the_capped_trees_subtree():
    # Within 5 guesses the optimum is 5626 (Koyama & Lai 1993): from each class after the first
    # guess at most 4 more guesses, and the subtree of the capped optimal tree is optimal there.
    tree = json.loads((MODELS / "mastermind-4-6-expected-depth5.json").read_text())
    for reply, position, child in list(classes_of(tree))[:4]:
        total, _ = subtree_stats(position, child)
        result = solve_from(position, "expected", max_depth=4)
        assert result.proved and result.worst <= 4
        assert result.total == total, reply


def test_worst_optimum_from_the_classes_of_the_certified_trees_first_guess():
    # Knuth 1977: 5 guesses in the worst case, so after the certified tree's first guess every
    # class is solved within 4 more guesses and (5 being optimal) some class needs 4.
    tree = json.loads((MODELS / "mastermind-worst.json").read_text())
    assert tree["stats"]["worst"] == 5
    optima = []
    for reply, position, child in classes_of(tree):
        result = solve_from(position, "worst")
        assert result.proved and result.worst <= subtree_stats(position, child)[1], reply
        report = verify(result.tree)
        assert report.valid and report.worst == result.worst, (reply, report.message)
        if result.worst > 1:
            assert report.lower_bound == result.worst   # the embedded certificate
        optima.append(result.worst)
    assert max(optima) == 4


def test_cli_from_position_writes_a_tree_verify_replays_from_there(capsys, tmp_path):
    out, page = tmp_path / "t.json", tmp_path / "t.html"
    code, text, _ = run(capsys, "optimal", "1122:1,0", "--variant", "mastermind", "--out",
                        str(out), "--html", str(page), "--json")
    data = json.loads(text)
    assert code == 0 and data["proved"] and data["worst"] == 4
    assert '"n":256,' in page.read_text()     # the page starts from the position's secrets
    assert data["position"]["entries"] == [{"guess": "1122", "reply": "1,0"}]
    assert data["secrets"] == data["position"]["secrets"] == 256
    code, text, _ = run(capsys, "verify", str(out), "--json")
    report = json.loads(text)
    assert code == 0 and report["kind"] == "tree+lower-bound" and report["optimal"]
    assert report["secrets"] == 256 and report["position"] == data["position"]
    # another reply leaves other secrets: the same tree no longer solves them
    doc = json.loads(out.read_text())
    doc["position"]["entries"][0]["reply"] = "0,1"
    doc["certificate"]["position"] = doc["position"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    code, text, _ = run(capsys, "verify", str(bad), "--json")
    assert code == 1 and not json.loads(text)["valid"]


def test_cli_log_file_candidates_and_standalone_certificate(capsys, tmp_path):
    log = tmp_path / "game.txt"
    log.write_text("1122:1,0\n3345:0,1\n")
    cert = tmp_path / "lb.json"
    code, text, _ = run(capsys, "optimal", "--log", str(log), "--variant", "mastermind",
                        "--guesses", "candidates", "--max-depth", "1", "--out", str(cert),
                        "--json")
    data = json.loads(text)
    assert code == 1 and data["status"] == "infeasible" and data["secrets"] > 1
    code, text, _ = run(capsys, "verify", str(cert), "--json")
    report = json.loads(text)
    assert code == 0 and report["kind"] == "lower-bound" and report["lower_bound"] == 2
    assert report["secrets"] == data["secrets"]


@pytest.mark.parametrize("objective", ["worst", "expected"])
def test_cli_inconsistent_log_exits_1(capsys, objective):
    code, text, _ = run(capsys, "optimal", "1122:1,0", "1122:1,1", "--variant", "mastermind",
                        "--objective", objective, "--json")
    data = json.loads(text)
    assert code == 1 and data["consistent"] is False and data["conflict"] == [1, 2]


def test_cli_one_secret_left_and_bad_options(capsys):
    # one secret left, not yet played: one more guess (the winning one)
    code, text, _ = run(capsys, "optimal", "0123:2,2", "0132:0,4", "--json")
    data = json.loads(text)
    assert code == 0 and data["secrets"] == 1 and data["total"] == 1 and data["worst"] == 1
    code, _, err = run(capsys, "optimal", "0123:1,0", "--ties")
    assert code == 2 and "position" in err
    code, _, err = run(capsys, "optimal", "--workers", "100000", "--length", "2", "--digits", "3")
    assert code == 2 and "--workers" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("objective", ["worst", "expected"])
@pytest.mark.parametrize("args", [("0123:4,0",), ("0123:2,2", "0132:4,0"),
                                  ("1122:4,0", "--variant", "mastermind"),
                                  ("1122:4,0", "--variant", "mastermind", "--guesses",
                                   "candidates")])
def test_a_won_log_needs_no_more_guesses_as_next_says(capsys, objective, args):
    # the position service's answer (docs/contract.md, `next`: `solved`, needed [0, 0])
    code, text, _ = run(capsys, "next", *args, "--objective", objective, "--json")
    advice = json.loads(text)
    assert code == 0 and advice["needed"]["lower"] == advice["needed"]["upper"] == 0
    code, text, _ = run(capsys, "optimal", *args, "--objective", objective, "--json")
    data = json.loads(text)
    assert code == 0 and data["proved"] is True and data["status"] == "optimal"
    assert data["solved"] == advice["solved"] and data["secrets"] == 1
    assert data["lower"] == data["upper"] == data["worst"] == data["total"] == 0
    assert data["histogram"] == {"0": 1} and data["time_limit_hit"] is False
    code, text, _ = run(capsys, "optimal", *args, "--objective", objective)
    assert code == 0 and ": 0 guesses (proved)" in text and "solved" in text
    code, text, _ = run(capsys, "optimal", *args, "--objective", objective, "--max-depth", "1",
                        "--json")
    assert code == 0 and json.loads(text)["upper"] == 0
    # a later reply that contradicts the win is the log's diagnosis, as for `next`
    code, text, _ = run(capsys, "optimal", *args, "4567:1,0" if "1122:4,0" not in args
                        else "3456:1,0", "--objective", objective, "--json")
    assert code == 1 and json.loads(text)["consistent"] is False


def test_next_optimal_says_which_source_it_used(capsys):
    # a small set: solved exactly, the optimum reported beside the guess
    position = Position.from_log(FeedbackLog.parse(MASTERMIND, ["1122:1,0"]))
    for objective in ("expected", "worst"):
        code, text, _ = run(capsys, "next", "1122:1,0", "--variant", "mastermind", "--strategy",
                            "optimal", "--objective", objective, "--json")
        data = json.loads(text)
        best = solve_from(position, objective, certificate=False)
        assert code == 0 and data["source"] == "exact" and data["honoured"]
        assert data["guess"] == best.tree["root"]["guess"] and data["objective"] == objective
        assert data["optimum"]["total"] == best.total and data["optimum"]["worst"] == best.worst
    # the whole game: the certified tree's first guess
    code, text, _ = run(capsys, "next", "--variant", "mastermind", "--strategy", "optimal",
                        "--json")
    data = json.loads(text)
    tree = json.loads((MODELS / "mastermind-worst.json").read_text())
    assert data["source"] == "tree" and data["guess"] == tree["root"]["guess"]
    # no tree for this game: the heuristic, and the reason
    code, text, _ = run(capsys, "next", "--variant", "numbers", "--strategy", "optimal")
    assert code == 0 and "heuristic" in text and "minimax" in text
    code, text, _ = run(capsys, "next", "1122:1,0", "1122:1,1", "--variant", "mastermind",
                        "--strategy", "optimal", "--json")
    assert code == 1 and json.loads(text)["conflict"] == [1, 2]


def test_a_depth_cap_no_strategy_meets_from_a_position_is_infeasible():
    # the 32 secrets 3445:0,0 and 1111:1,0 leave need 4 guesses at worst: within a cap of 3 the
    # expected search has no strategy (the core once called that set solved, then had no tree)
    position = Position.from_log(FeedbackLog.parse(MASTERMIND, ["3445:0,0", "1111:1,0"]))
    assert solve_from(position, "worst", certificate=False).upper == 4
    capped = solve_from(position, "expected", max_depth=3)
    assert capped.proved and capped.status is Status.INFEASIBLE and capped.tree is None
    assert solve_from(position, "expected", max_depth=4).worst == 4
