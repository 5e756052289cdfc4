"""Closed stdin is the end of input for `play`, `assist` and `bot` (supervisors often start
children that way): exit 0 with what was decided, and under --json exactly one document.
Spawned for real, once with stdin on /dev/null and once with file descriptor 0 closed."""
import json
import os
import subprocess
import sys

import pytest

SMALL = ["--length", "3", "--digits", "5"]


def closed_fd0():
    os.close(0)


def spawn(args, how):
    kwargs = {"stdin": subprocess.DEVNULL} if how == "devnull" else {"preexec_fn": closed_fd0}
    return subprocess.run([sys.executable, "-m", "cbsolve", *args], capture_output=True,
                          text=True, timeout=120, **kwargs)


@pytest.mark.parametrize("how", ["devnull", "closed"])
@pytest.mark.parametrize("args,fields", [
    (["play", "--mode", "guess", "--secret", "012", "--json"], {"quit": True, "winner": None}),
    (["play", "--json"], {"quit": True}),
    (["assist", "012:1,1", "--json"], {"consistent": True, "solved": False}),
])
def test_play_and_assist_end_cleanly_with_one_document(args, fields, how):
    proc = spawn(args + SMALL, how)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    data = json.loads(proc.stdout)               # exactly one document
    assert {k: data[k] for k in fields} == fields
    assert proc.stderr.endswith("\n")            # the prompt's line was left cleanly


@pytest.mark.parametrize("how", ["devnull", "closed"])
def test_assist_inconsistent_entries_still_exit_1_with_the_diagnosis(how):
    proc = spawn(["assist", "012:0,0", "345:0,0", "--json", "--length", "3", "--digits", "6"], how)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    data = json.loads(proc.stdout)
    assert data["consistent"] is False and data["conflict"] == [1, 2]


@pytest.mark.parametrize("how", ["devnull", "closed"])
def test_bot_ends_at_closed_stdin(how):
    proc = spawn(["bot"] + SMALL, how)
    assert proc.returncode == 0 and proc.stdout == "" and proc.stderr == ""
