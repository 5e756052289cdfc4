"""`cbsolve score` and `cbsolve consistent` through the CLI, in-process, plus one real process."""
import json
import subprocess
import sys

import pytest

from cbsolve.cli import main


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_score_json_and_text(capsys):
    code, out, _ = run(capsys, "score", "1807", "7810", "--json")
    assert code == 0 and json.loads(out) == {"secret": "1807", "guess": "7810", "bulls": 1, "cows": 3}
    code, out, _ = run(capsys, "score", "1122", "1212", "--variant", "black-peg")
    assert code == 0 and out.strip() == "2 black"          # Mastermind speaks in pegs
    code, out, _ = run(capsys, "score", "1807", "7810")
    assert code == 0 and out.strip() == "1 bull, 3 cows (1A3B)"   # LeetCode 299, singular right
    code, out, _ = run(capsys, "score", "1122", "1213", "--variant", "MASTERMIND")
    assert code == 0 and out.strip() == "1 black, 2 white (1B2W)"


def test_consistent_counts_and_lists(capsys):
    code, out, _ = run(capsys, "consistent", "0123:1,2", "4567:0,1", "--count", "--json", "--limit", "3")
    data = json.loads(out)
    assert code == 0
    assert data["count"] == 108 and data["exact"] and data["backend"] == "native"
    assert len(data["secrets"]) == 3 and data["truncated"] and data["determined"] is False
    assert isinstance(data["seconds"], float)


def test_inconsistent_log_exits_1_with_conflict(capsys):
    code, out, _ = run(capsys, "consistent", "0123:1,2", "4567:0,2", "--json")
    data = json.loads(out)
    assert code == 1 and data["count"] == 0 and data["conflict"] == [1, 2]
    code, out, _ = run(capsys, "consistent", "0123:1,2", "4567:0,2")
    assert code == 1 and "replies 1 and 2 cannot both be right" in out


def test_log_file_and_tokens_are_numbered_together(tmp_path, capsys):
    f = tmp_path / "game.txt"
    f.write_text("0123 1 2\n")
    code, out, _ = run(capsys, "consistent", "--log", str(f), "4567:0,2", "--json")
    assert code == 1 and json.loads(out)["conflict"] == [1, 2]


@pytest.mark.parametrize("args,fragment", [
    (["score", "1234", "5678", "--variant", "chess"], "unknown variant 'chess'"),
    (["score", "1234", "56789"], "length 5"),
    (["score", "1234", "5a78"], "symbol 'a'"),
    (["score", "1234", "5578"], "repeats symbol '5'"),
    (["score", "0234", "1234", "--variant", "numbers"], "starts with '0'"),
    (["score", "1234", "5678", "--length", "11"], "length 11"),
    (["score", "12", "34", "--symbols", "aa", "--length", "2"], "duplicate symbols"),
    (["score", "12", "34", "--feedback", "pegs"], "unknown feedback mode 'pegs'"),
    (["consistent", "0123:1,2", "--backend", "magic"], "unknown backend 'magic'"),
    (["consistent", "0123:3,1"], "impossible"),
    (["consistent", "0123:2,3"], "exceeds the length"),
    (["consistent", "1234:1,1", "--variant", "black-peg"], "bulls only"),
    (["consistent", "0123-1,2"], "malformed"),
    (["consistent", "--log", "/nonexistent/log.txt"], "log file '/nonexistent/log.txt': no such file"),
    (["consistent", "--limit", "many"], "many"),
    (["consistent", "--limit", "-1"], "'--limit': must be a whole number in 0..2147483647, got '-1'"),
    (["consistent", "--limit", "abc"], "'--limit': must be a whole number in 0..2147483647, got 'abc'"),
    # Found by a scripted audit of the CLI: these reached NumPy or C++ and gave tracebacks, or
    # NaN reached the JSON output.
    (["consistent", "0123:1,2", "--sample", "5", "--seed", "-1"], "'--seed': must be a whole number in 0.."),
    (["next", "0123:1,2", "--strategy", "random", "--seed", "-1"], "'--seed': must be a whole number in 0.."),
    (["consistent", "0123:1,2", "--time-limit", "nan", "--json"], "finite number of seconds"),
    (["bounds", "--time-limit", "inf"], "finite number of seconds"),
    (["assist", "--time-limit", "-1", "--json"], "finite number of seconds"),
    (["optimal", "--length", "2", "--symbols", "123", "--repeats", "--lookahead",
      "99999999999999999999"], "'--lookahead'"),
    (["evaluate", "--length", "2", "--symbols", "123", "--repeats", "--sample",
      "99999999999999999999"], "'--sample'"),
    (["optimal", "--length", "2", "--symbols", "123", "--dot-depth", "-2"], "'--dot-depth'"),
    (["analyze", "--lengths", "1-99999999999999999999"], "values must be in 1..64"),  # hung
    (["analyze", "--alphabets", "2-999"], "values must be in 1..26"),   # was cut silently
    (["analyze", "--strategies", ","], "no strategy named"),            # ran 0 cells
    (["score", "0123", "1234", "--variant", ""], "unknown variant ''"),  # was the default
    (["consistent", "--log", ""], "needs a file name"),                  # was ignored
    (["evaluate", "--length", "2", "--symbols", "123", "--out", ""], "needs a file name"),
    (["optimal", "--length", "2", "--symbols", "123", "--repeats", "--dot", "/dev/null/x.dot"],
     "cannot write --dot file"),                                          # was a traceback
    (["consistent", "0123:\uff11,0"], "malformed reply"),               # a full-width digit
    (["frobnicate"], "No such command"),
])
def test_bad_input_exits_2_with_one_line(capsys, args, fragment):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and fragment in err
    assert "Traceback" not in err


def test_unusable_files_exit_2(tmp_path, capsys):
    """A tree nested deeper than Python's recursion limit, and an output directory that is a
    file, gave tracebacks (found by a scripted audit of the CLI)."""
    deep = tmp_path / "deep.json"
    with deep.open("w") as fh:          # json.dumps itself cannot nest this deep: write by hand
        fh.write('{"format":"cbsolve-tree","version":1,"variant":{"name":null,"length":2,'
                 '"symbols":"123","repeats":true,"no_leading_zero":false,'
                 '"feedback":"bulls-cows"},"root":')
        fh.write('{"guess":"11","children":{"0,0":' * 3000 + '{"guess":"11","children":{}}'
                 + "}}" * 3000 + "}")
    for args in (["verify", str(deep)],
                 ["assist", "--tree", str(deep), "--length", "2", "--symbols", "123", "--repeats",
                  "--json"]):
        code, _, err = run(capsys, *args)
        assert code == 2 and "nested too deeply" in err and "Traceback" not in err
    taken = tmp_path / "file.txt"
    taken.write_text("")
    code, _, err = run(capsys, "analyze", "--out", str(taken), "--lengths", "2", "--alphabets",
                       "3", "--strategies", "minimax", "--no-bounds", "--no-plots", "--workers", "0")
    assert code == 2 and "cannot use output directory" in err


def test_verify_of_a_tree_too_large_to_replay_exits_2_without_backend_advice(tmp_path, capsys):
    tree = {"format": "cbsolve-tree", "version": 1, "root": {"guess": "0" * 30, "children": {}},
            "variant": {"name": None, "length": 30, "symbols": "0123456789", "repeats": True,
                        "no_leading_zero": False, "feedback": "bulls-cows"}}
    path = tmp_path / "big.json"
    path.write_text(json.dumps(tree))
    code, _, err = run(capsys, "verify", str(path))
    assert code == 2 and "cannot be verified here" in err and "--backend" not in err


def test_malformed_log_file_exits_2(tmp_path, capsys):
    f = tmp_path / "bad.json"
    f.write_text("[{\"guess\": \"0123\", \"bulls\": ")
    code, _, err = run(capsys, "consistent", "--log", str(f))
    assert code == 2 and "not valid JSON" in err


def test_python_dash_m_entry_point():
    proc = subprocess.run([sys.executable, "-m", "cbsolve", "score", "1234", "1243", "--json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and json.loads(proc.stdout) == {
        "secret": "1234", "guess": "1243", "bulls": 2, "cows": 2}
    bad = subprocess.run([sys.executable, "-m", "cbsolve", "score", "1234"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "Missing argument" in bad.stderr
