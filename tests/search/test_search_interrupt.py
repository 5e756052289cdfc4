"""Ctrl-C and the memory budget of `cbsolve optimal`: the mechanism, not its speed.

A subprocess runs a search that takes minutes, gets SIGINT once it is searching, and must exit
130 with one JSON document holding the interval proved so far. The only timing is a generous cap
on the wait (the machine is shared), never an assertion on how fast it stopped.
"""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from testkit import cpu_seconds

from cbsolve.cli import main
from cbsolve.errors import SpaceTooLarge
from cbsolve.search import memory

ROOT = Path(__file__).resolve().parents[2]
#: Seconds allowed between SIGINT and the exit (~1 s on an idle machine).
CAP = 120


def _interrupt(args: list[str], after: float) -> tuple[int, dict, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "cbsolve", "optimal", *args, "--json"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    cap = time.monotonic() + CAP        # signalled after CPU seconds of the child (its own
    while proc.poll() is None and time.monotonic() < cap and cpu_seconds(proc.pid) < after:
        time.sleep(0.05)                # clock: a loaded machine delays the signal instead)
    assert proc.poll() is None, "the search ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=CAP)
    return proc.returncode, json.loads(out), err


@pytest.mark.parametrize("args", [
    # Bulls & Cows 4/10 expected (Tanaka 1996: 26274): a minute of search on two cores
    ["--objective", "expected", "--variant", "bulls-cows", "--workers", "1"],
    # Bulls & Cows without a leading zero, worst case: minutes of decision search (the default
    # run interrupts the same command in tests/cli/test_interrupt_sweep.py)
    pytest.param(["--objective", "worst", "--variant", "bulls-cows", "--no-leading-zero",
                  "--workers", "1"], marks=pytest.mark.slow),
])
def test_sigint_stops_the_search_and_keeps_the_interval(args):
    code, data, _ = _interrupt(args, after=2.0)
    assert code == 130
    assert data["interrupted"] is True and data["proved"] is False
    assert data["status"] in ("feasible", "unknown")
    if data["lower"] is not None and data["upper"] is not None:
        assert data["lower"] <= data["upper"]


def test_refused_game_names_memory_and_option(capsys):
    code = main(["optimal", "--variant", "mastermind", "--length", "5", "--letters", "8",
                 "--memory-budget", "64M"])
    err = capsys.readouterr().err
    assert code == 2
    assert "--memory-budget" in err and "GiB" in err and "32,768 codes" in err


def test_budget_sources(monkeypatch):
    monkeypatch.setenv(memory.ENV_VAR, "3G")
    assert memory.budget() == 3 * 2**30
    assert memory.budget("512M") == 512 * 2**20
    monkeypatch.delenv(memory.ENV_VAR)
    assert memory.budget() == int(memory.machine_memory() * memory.DEFAULT_FRACTION)
    # Logik's 32,768 codes: a 1 GiB reply matrix, inside a 2 GiB budget for the worst case;
    # the expected case (the matrix twice) fits only on the fly; 64 MiB fits neither
    assert memory.plan(32_768, "worst", 2 * 2**30).source == memory.MATRIX
    assert memory.plan(32_768, "expected", 2 * 2**30).source == memory.ON_THE_FLY
    assert not memory.fits(32_768, "worst", 64 * 2**20)
    with pytest.raises(SpaceTooLarge, match="memory-budget"):
        memory.check("huge", 70_000, "worst", 64 * 2**20)


@pytest.mark.parametrize("text", ["", "-1G", "lots", "0"])
def test_bad_budget_is_usage_error(capsys, text):
    code = main(["optimal", "--length", "3", "--digits", "4", "--memory-budget", text])
    assert code == 2 and "--memory-budget" in capsys.readouterr().err
