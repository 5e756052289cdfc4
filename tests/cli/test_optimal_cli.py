"""`cbsolve optimal` and `cbsolve verify` driven in-process: JSON contract, files, exit codes."""
import json

import pytest

from cbsolve.cli import main


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_optimal_worst_json_and_files(capsys, tmp_path):
    tree, dot = tmp_path / "mm.json", tmp_path / "mm.dot"
    code, out, _ = run(capsys, "optimal", "--variant", "mastermind", "--objective", "worst",
                       "--out", str(tree), "--dot", str(dot), "--json")
    assert code == 0
    data = json.loads(out)
    for key in ("objective", "worst", "total", "average", "histogram", "proved", "seconds"):
        assert key in data
    # Knuth 1977: Mastermind 4/6 needs 5 guesses in the worst case.
    assert data["objective"] == "worst" and data["worst"] == 5 and data["proved"] is True
    assert sum(data["histogram"].values()) == 1296
    assert data["total"] == sum(int(k) * v for k, v in data["histogram"].items())
    assert dot.read_text().startswith("digraph")
    code, out, _ = run(capsys, "verify", str(tree), "--json")
    report = json.loads(out)
    assert code == 0 and report["valid"] and report["kind"] == "tree+lower-bound"
    assert (report["worst"], report["total"], report["secrets"]) == (5, data["total"], 1296)
    # tamper: claim one guess less in total
    doc = json.loads(tree.read_text())
    doc["stats"]["total"] -= 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    code, out, _ = run(capsys, "verify", str(bad), "--json")
    assert code == 1 and json.loads(out)["valid"] is False
    code, out, _ = run(capsys, "verify", str(bad))
    assert code == 1 and "INVALID" in out and "total" in out


def test_optimal_text_output(capsys):
    code, out, _ = run(capsys, "optimal", "--length", "3", "--digits", "6")
    assert code == 0 and "optimal worst case: 5 guesses (proved)" in out


def test_max_depth_infeasible_writes_certificate(capsys, tmp_path):
    cert = tmp_path / "lb.json"
    code, out, _ = run(capsys, "optimal", "--variant", "mastermind", "--max-depth", "4",
                       "--out", str(cert), "--json")
    assert code == 1 and json.loads(out)["lower"] == 5
    code, out, _ = run(capsys, "verify", str(cert), "--json")
    report = json.loads(out)
    assert code == 0 and report["kind"] == "lower-bound" and report["lower_bound"] == 5


def test_verify_checks_the_variant_the_user_names(capsys, tmp_path):
    cert = tmp_path / "lb.json"
    run(capsys, "optimal", "--length", "3", "--digits", "6", "--repeats", "--max-depth", "3",
        "--out", str(cert))
    code, out, _ = run(capsys, "verify", str(cert), "--json")
    report = json.loads(out)
    assert code == 0 and report["valid"] and report["variant"]["length"] == 3
    code, out, _ = run(capsys, "verify", str(cert), "--length", "3", "--digits", "6",
                       "--repeats", "--json")
    assert code == 0 and json.loads(out)["valid"]
    # a valid proof of another game is no proof for this one
    for options in (["--variant", "mastermind"], ["--length", "3", "--digits", "6", "--distinct"]):
        code, out, _ = run(capsys, "verify", str(cert), *options, "--json")
        report = json.loads(out)
        assert code == 1 and not report["valid"] and "the file is for 3 of 6" in report["message"]
    code, _, err = run(capsys, "verify", str(cert), "--length", "0")
    assert code == 2 and "length" in err


def test_time_limit_reports_interval(capsys):
    # Mastermind 6 of 6: its worst case is not proved (6 or 7; an exact search projects to
    # about a hundred core-hours), so the answer under any deadline is an interval, however
    # fast the machine. (A small game such as Bulls & Cows 4 of 8 without a leading zero was
    # proved within 0.05 s on a fast, idle machine.)
    code, out, _ = run(capsys, "optimal", "--variant", "mastermind", "--length", "6",
                       "--digits", "6", "--time-limit", "0.05", "--workers", "1")
    assert code == 0
    assert "not proved: worst case in [6, 7]" in out


@pytest.mark.parametrize("objective, value, other", [
    ("expected", 26274, "worst"),   # Tanaka 1996 (the total); the shipped certified tree
    # Bulls & Cows 4/10's worst case 7, the shipped tree: its verification about 4 CPU s, the
    # slow run's (the same closing of known ends as the total's above)
    pytest.param("worst", 7, "total", marks=pytest.mark.slow),
])
def test_an_interval_closed_by_known_values_is_reported_proved(capsys, tmp_path, objective,
                                                               value, other):
    """`optimal --objective expected --time-limit 5` printed "not proved: total
    guesses in [26274, 26274]" beside the greedy tree's total 26551. The known ends meet: the
    value is proved, and the tree reported (and written) is the shipped one that proves it."""
    out_file = tmp_path / "tree.json"
    code, out, _ = run(capsys, "optimal", "--objective", objective, "--time-limit", "5",
                       "--json", "--out", str(out_file))
    data = json.loads(out)
    assert code == 0 and data["proved"] is True and data["status"] == "optimal"
    assert data["lower"] == data["upper"] == value
    assert data["total" if objective == "expected" else "worst"] == value
    assert sum(data["histogram"].values()) == 5040
    code, out, _ = run(capsys, "verify", str(out_file), "--json")
    report = json.loads(out)
    assert code == 0 and report["total" if objective == "expected" else "worst"] == value


@pytest.mark.parametrize("args, fragment", [
    (["optimal", "--objective", "best"], "objective"),
    (["optimal", "--guesses", "some"], "guess set"),
    (["optimal", "--max-depth", "0"], "--max-depth"),
    (["optimal", "--time-limit", "-1"], "--time-limit"),
    (["optimal", "--length", "5", "--memory-budget", "128M"], "--memory-budget"),
    (["verify", "/nonexistent/tree.json"], "no such file"),
])
def test_bad_input_exit_2(capsys, args, fragment):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert fragment in err and len(err.strip().splitlines()) == 1


def test_verify_not_json(capsys, tmp_path):
    path = tmp_path / "x.json"
    path.write_text("{not json")
    code, _, err = run(capsys, "verify", str(path))
    assert code == 2 and "not a JSON document" in err


def test_expected_objective_is_wired(capsys):
    code, out, err = run(capsys, "optimal", "--objective", "expected", "--variant", "mastermind",
                         "--length", "2", "--digits", "3", "--json")
    if code == 2:  # the expected-case solver is not installed
        assert "expected objective not available" in err
    else:
        data = json.loads(out)
        assert code == 0 and data["objective"] == "expected" and data["proved"] is True


@pytest.mark.parametrize("objective", ["expected", "worst"])
def test_infeasible_depth_cap_is_reported_clearly(capsys, objective):
    # 3 positions, 4 colours with repeats: 64 secrets, R = 10 replies, cap(3) = 1 + 9 + 81 = 91
    # would allow 3 guesses by counting, but the search proves 3 impossible (worst case 4).
    code, out, _ = run(capsys, "optimal", "--objective", objective, "--variant", "mastermind",
                       "--length", "3", "--digits", "4", "--max-depth", "3")
    assert code == 1
    assert "None" not in out
    assert "infeasible: no strategy finds every secret within 3 guesses" in out
    assert "worst case >= 4" in out
    code, out, _ = run(capsys, "optimal", "--objective", objective, "--variant", "mastermind",
                       "--length", "3", "--digits", "4", "--max-depth", "3", "--json")
    data = json.loads(out)
    assert code == 1 and data["status"] == "infeasible" and data["proved"] is True
    assert data["infeasible"] == {"max_depth": 3, "worst_at_least": 4}
    assert data["total"] is None
    if objective == "expected":
        assert data["lower"] is None  # no capped strategy: no bound on its total
    else:
        assert data["lower"] == 4


def test_ties_flag(capsys, tmp_path):
    tree = tmp_path / "t.json"
    code, out, _ = run(capsys, "optimal", "--variant", "mastermind", "--length", "3",
                       "--digits", "4", "--ties", "--out", str(tree), "--json")
    data = json.loads(out)
    assert code == 0 and data["worst"] == 4 and data["proved"] is True
    lo, hi = data["at_worst"]["lower"], data["at_worst"]["upper"]
    assert lo == hi == data["histogram"]["4"]
    doc = json.loads(tree.read_text())
    assert doc["ties"]["proved"] is True and doc["ties"]["total"] == data["total"]
    code, out, _ = run(capsys, "verify", str(tree), "--json")
    assert code == 0 and json.loads(out)["optimal"] is True
    code, out, _ = run(capsys, "optimal", "--variant", "mastermind", "--length", "3",
                       "--digits", "4", "--ties")
    assert code == 0 and f"fewest secrets needing 4 guesses: {hi} (proved)" in out
    assert f"smallest total with {hi} at 4: {data['total']} (proved)" in out
    code, _, err = run(capsys, "optimal", "--objective", "expected", "--ties")
    assert code == 2 and "--ties" in err and len(err.strip().splitlines()) == 1


#: Logik (Mastermind 5 pegs x 8 colours): the constructions prove a worst case of at most 12;
#: models/certified/ ships a polished tree whose worst case is 7.
LOGIK = ("--variant", "mastermind", "--length", "5", "--digits", "8")
#: Bulls & Cows 5/10: worst case open ([7, 8]); models/certified/ ships a polished tree of 8.
BULLS_COWS_5 = ("--variant", "bulls-cows", "--length", "5")


def test_a_stopped_search_reports_the_best_known_upper_end_and_its_tree(capsys):
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    tree = "models/certified/bc-5-10-polished.json.gz"
    code, out, err = run(capsys, "optimal", *BULLS_COWS_5, "--time-limit", "1", "--json",
                         "--verbose")
    data = json.loads(out)
    assert code == 0 and not data["proved"] and data["upper"] == 8
    assert data["upper_from"]["tree"] == tree
    assert "worst case in [" in err and ", 8] before the search" in err
    code, out, _ = run(capsys, "verify", str(root / data["upper_from"]["tree"]), "--json")
    report = json.loads(out)                       # the upper end is reproducible
    assert code == 0 and report["valid"] and report["worst"] == 8
    code, out, _ = run(capsys, "optimal", *BULLS_COWS_5, "--time-limit", "1")
    assert "not proved: worst case in [" in out and ", 8]" in out
    assert f"upper end 8: tree {tree}" in out


def test_logiks_worst_case_is_proved_by_its_refutation_ledger_and_its_tree(capsys):
    # The committed refute-6 ledger (every unit refuted: no strategy in 6) meets the shipped
    # tree's 7: the value is proved without a search, and the tree that reaches it reported.
    code, out, _ = run(capsys, "optimal", *LOGIK, "--time-limit", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["proved"] and data["status"] == "optimal"
    assert data["lower"] == data["upper"] == data["worst"] == 7
    code, out, _ = run(capsys, "optimal", *LOGIK, "--time-limit", "1")
    assert "refutation ledger models/proofs/logik-5x8-refute-6" in out
    assert "models/certified/mm-5x8-polished.json.gz" in out


def test_the_known_interval_without_a_time_limit_is_the_shipped_trees():
    from cbsolve.bounds.known import apply, known_interval
    from cbsolve.runtime.deadline import Deadline
    from cbsolve.search import SearchResult
    from cbsolve.runtime.status import Status
    from cbsolve.game.variant import Variant

    logik = Variant.from_options("mastermind", length=5, digits=8)
    known = known_interval(logik, "worst", Deadline(None), None, "all")
    assert (known.lower, known.upper) == (None, 7)
    assert known.tree == "models/certified/mm-5x8-polished.json.gz"
    assert known_interval(logik, "worst", Deadline(None), 6, "all") is None     # a depth cap
    assert known_interval(logik, "expected", Deadline(None), None, "all").upper == 179034
    stopped = SearchResult("worst", Status.UNKNOWN, False, 32768, lower=6)
    assert apply(stopped, known)["tree"] == known.tree and stopped.upper == 7
    better = SearchResult("worst", Status.FEASIBLE, False, 32768, lower=5, upper=6)
    assert apply(better, known) == {"method": "this search", "tree": None}
    assert better.upper == 6
