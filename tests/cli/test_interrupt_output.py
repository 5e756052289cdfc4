"""Ctrl-C never cuts a document: once the answer is being written it comes out whole, however
slowly the reader reads. A document larger than a pipe holds blocks its write until the reader
reads; a Ctrl-C then (1) ended ``write(2)`` early, and under ``PYTHONUNBUFFERED`` Python's text
layer dropped the rest of that chunk, and (2) after the grace period and the forced exit's
seconds, the forced exit wrote the stub after the half-written document and left. Each case
runs the CLI in a child process whose output is not read until well past both."""
from __future__ import annotations

import array
import fcntl
import json
import os
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from cbsolve.cli import _interrupt, emit

ROOT = Path(__file__).resolve().parents[2]
#: Seconds allowed for the command to fill the pipe, and to end once read.
CAP = 120
#: Two replies on Bulls & Cows 5/10: `partition --all` ranks 9,288 guesses in a fraction of a
#: second and prints them whole (no limit): 0.65 MB, ten times what a pipe holds.
WHOLE_TABLE = ["partition", "--all", "01234:1,1", "15973:0,2", "--length", "5", "--digits",
               "10", "--time-limit", "0", "--json"]
ROW = {"guess", "equivalent", "candidate", "minimax", "expected", "entropy", "parts"}


def _unread(pipe) -> int:
    """Bytes written to ``pipe`` and not read yet."""
    count = array.array("i", [0])
    fcntl.ioctl(pipe.fileno(), termios.FIONREAD, count)
    return count[0]


def _interrupt_while_blocked(args: list[str], env: dict) -> tuple[int, str, str]:
    """Runs the CLI, sends SIGINT once its output fills the pipe (its document is larger: the
    write is blocked), reads nothing until the grace period and the forced exit's seconds have
    passed, then everything: (exit code, stdout, stderr)."""
    proc = subprocess.Popen([sys.executable, "-m", "cbsolve", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL)
    full = fcntl.fcntl(proc.stdout.fileno(), fcntl.F_GETPIPE_SZ) - 4096  # the last page's room
    cap = time.monotonic() + CAP
    while proc.poll() is None and _unread(proc.stdout) < full and time.monotonic() < cap:
        time.sleep(0.02)
    assert proc.poll() is None, "the command ended before its output filled the pipe"
    proc.send_signal(signal.SIGINT)
    time.sleep(_interrupt.GRACE_SECONDS + _interrupt.FORCE_SECONDS + 1.0)
    out, err = proc.communicate(timeout=CAP)
    return proc.returncode, out.decode(), err.decode()


@pytest.mark.parametrize("unbuffered", [True, False], ids=["unbuffered", "buffered"])
def test_ctrl_c_while_the_document_waits_for_its_reader_leaves_it_whole(unbuffered):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    code, out, err = _interrupt_while_blocked(WHOLE_TABLE, env)
    data = json.loads(out)                     # one document, no span missing, no stub after it
    assert code == 130 and data["complete"] is True and data["stopped"] == "interrupted"
    assert data["scored"] == data["total"] == 9288
    assert 0 < data["shown"] == len(data["guesses"]) < 9288          # cut between blocks
    assert all(set(row) == ROW for row in data["guesses"])
    largest = [row["minimax"] for row in data["guesses"]]
    assert largest == sorted(largest)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cbsolve: interrupted"), err


def test_a_stopping_command_gets_no_keyboard_interrupt_after_its_document(capsys):
    """The grace period's KeyboardInterrupt landing while a command that stops on the stop
    request prints its document is not raised after it: the command returns with its answer
    printed (the CLI then says it is partial, exit 130), instead of ending as if it had none."""
    _interrupt._state.update(json=True, emitted=False, printing=False, deferred=False,
                             graceful=True, interactive=False)

    def echo_then_signal(message=None, **kwargs):
        print(message)
        _interrupt._state["raise"] = True          # the grace period ran out
        _interrupt._handler(signal.SIGINT, None)   # ... and its interrupt lands mid-print

    import click
    original, click.echo = click.echo, echo_then_signal
    try:
        emit(True, {"command": "partition"}, "")
    finally:
        click.echo = original
    assert json.loads(capsys.readouterr().out) == {"command": "partition"}
    assert not _interrupt.owes_json() and not _interrupt._state["deferred"]


class _FailingApp:
    """The CLI's click group, failing as a library does when Ctrl-C's KeyboardInterrupt
    lands in a native module's initialisation (OR-Tools: "ImportError: initialization
    failed", exit 1 with a traceback)."""

    @staticmethod
    def main(*args, **kwargs):
        raise ImportError("initialization failed")


def test_an_error_a_ctrl_c_caused_is_the_interrupt(capsys, monkeypatch):
    import cbsolve.cli as cli
    import cbsolve.cli.score  # noqa: F401  (registered on the real group before it is replaced)

    monkeypatch.setattr(cli, "app", _FailingApp)
    monkeypatch.setattr(_interrupt, "signalled", lambda: True)
    code = cli.main(["score", "1234", "1243", "--json"])
    out, err = capsys.readouterr()
    assert code == 130 and json.loads(out) == {"command": "score", "interrupted": True,
                                               "complete": False}
    assert err.strip().splitlines() == ["cbsolve: interrupted"]


def test_the_same_error_without_a_ctrl_c_is_not_hidden(monkeypatch):
    import cbsolve.cli as cli
    import cbsolve.cli.score  # noqa: F401

    monkeypatch.setattr(cli, "app", _FailingApp)
    monkeypatch.setattr(_interrupt, "signalled", lambda: False)
    with pytest.raises(ImportError):
        cli.main(["score", "1234", "1243"])
