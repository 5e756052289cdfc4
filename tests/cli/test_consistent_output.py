"""`consistent` for people and pipes: no engine lines unless --verbose, one secret a line,
contradictory listing options rejected, --help ranges that validation accepts, exit 2 even when
the message cannot be written, and --max-lies saying which replies each secret breaks."""
import json
import os
import re
import subprocess
import sys

import pytest

from cbsolve.cli import main
from cbsolve.consistency.native import consistent_indices
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.rule import score
from cbsolve.game.variant import Variant

ENTRIES = ["0123:1,2", "4567:0,1"]


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_default_text_has_no_engine_lines_and_lists_one_secret_a_line(capsys):
    code, out, _ = run(capsys, "consistent", *ENTRIES, "--count", "--limit", "5")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "exactly 108 consistent secrets"
    assert not any(x.startswith(("auto:", "backend ")) for x in lines)
    log = FeedbackLog.parse(Variant.preset("bulls-cows"), ENTRIES)
    want = log.space.format_many(log.space.codes[consistent_indices(log)[:5]])
    assert lines[2:7] == want and lines[7].startswith("... 103 more")
    code, out, _ = run(capsys, "consistent", *ENTRIES, "--count", "--limit", "5", "--verbose")
    assert code == 0 and re.search(r"^backend native, [0-9.]+ s$", out, re.M)
    assert "\nauto: " in out


def test_all_lists_every_secret_on_its_own_line(capsys):
    code, out, _ = run(capsys, "consistent", *ENTRIES, "--all")
    listed = [x for x in out.splitlines() if re.fullmatch(r"\d{4}", x)]
    assert code == 0 and len(listed) == 108 and "..." not in out


@pytest.mark.parametrize("options", [["--sample", "3", "--all"], ["--all", "--limit", "5"],
                                     ["--sample", "3", "--limit", "2"]])
def test_contradictory_listing_options_are_rejected_in_one_line(capsys, options):
    code, out, err = run(capsys, "consistent", *ENTRIES, *options)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "contradict" in err


@pytest.mark.parametrize("command,option,extra", [
    ("evaluate", "--sample", ["--strategy", "first", "--length", "2", "--digits", "3"]),
    ("evaluate", "--dot-depth", ["--strategy", "first", "--length", "2", "--digits", "3"]),
    ("optimal", "--max-depth", ["--length", "2", "--digits", "3"]),
    ("optimal", "--workers", ["--length", "2", "--digits", "3"]),
    ("consistent", "--limit", ENTRIES),
])
def test_help_ranges_are_what_validation_accepts(capsys, command, option, extra):
    assert main([command, "--help"]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith(f"  {option} "))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("  -"))
    block = " ".join(lines[start:end])
    rng = re.search(r"(\d+)<=x<=(\d+)", block)
    assert rng, block
    low, high = int(rng.group(1)), int(rng.group(2))
    for value in (low - 1, high + 1):
        code, _, err = run(capsys, command, *extra, option, str(value), "--time-limit", "5")
        assert code == 2 and len(err.strip().splitlines()) == 1, (value, err)


def test_exit_2_even_when_stderr_cannot_be_written():
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "cbsolve", "consistent", *ENTRIES, "--all",
                               "--limit", "5"], stdout=subprocess.PIPE, stderr=full, timeout=120,
                              env={**os.environ})
    assert proc.returncode == 2 and proc.stdout == b""


def test_max_lies_says_which_replies_each_secret_breaks(capsys):
    entries = ["0123:1,1", "4567:0,2", "0123:2,0"]
    code, out, _ = run(capsys, "consistent", *entries, "--max-lies", "1", "--json")
    data = json.loads(out)
    v = Variant.preset("bulls-cows")
    log = FeedbackLog.parse(v, entries)
    assert code == 0 and len(data["breaks"]) == len(data["secrets"]) > 0
    for secret, broken in zip(data["secrets"], data["breaks"], strict=True):
        code_ = log.space.parse(secret)
        want = [k for k, e in enumerate(log, 1) if score(v, code_, e.guess) != (e.bulls, e.cows)]
        assert broken == want and len(broken) <= 1
    code, out, _ = run(capsys, "consistent", *entries, "--max-lies", "1", "--limit", "3")
    first = data["secrets"][0]
    assert f"{first}  (breaks reply {data['breaks'][0][0]})" in out
