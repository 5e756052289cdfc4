"""``cbsolve referee`` keeps the CLI's contract: bad arguments and a bot that cannot start are
one line and exit 2 (never a traceback), the bot's last stderr line is in every fault, and the
start-up wait is ``--startup-timeout``."""
import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable


def referee(*args, timeout=120):
    proc = subprocess.run([PY, "-m", "cbsolve", "referee", "--quiet", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)
    return proc.returncode, proc.stdout, proc.stderr


def bot(source: str) -> str:
    """A bot command line: Python running ``source``."""
    return f"{shlex.quote(PY)} -c {shlex.quote(source)}"


@pytest.mark.parametrize("args, message", [
    (["--a-cmd", "no-such-bot-program"], "A (no-such-bot-program) cannot start: no such program"),
    (["--timeout", "-1"], "'--timeout': must be a finite number of seconds > 0, got -1"),
    (["--startup-timeout", "0"], "'--startup-timeout': must be a finite number of seconds > 0"),
    (["--variant", "nope"], "unknown variant 'nope'"),
    (["--games", "-5"], "'--games': must be a whole number in 1.."),
    (["--a", "psychic"], "unknown strategy 'psychic'"),
    (["--b-cmd", "'unclosed"], "'--b-cmd'"),
])
def test_bad_arguments_are_one_line_and_exit_2(args, message):
    code, out, err = referee(*args)
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("cbsolve: error: ") and message in err, err


def test_a_bot_that_dies_at_start_is_exit_2_with_its_stderr():
    dies = bot("import sys; sys.stderr.write('warming up\\nlicence expired\\n'); sys.exit(3)")
    code, out, err = referee("--a-cmd", dies, "--json")
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "cannot start: exited" in err and "(its stderr: licence expired)" in err


def test_a_silent_bot_cannot_start_within_the_startup_timeout():
    silent = bot("import sys, time; sys.stdin.readline(); time.sleep(60)")
    code, _, err = referee("--a-cmd", silent, "--startup-timeout", "1")
    assert code == 2
    assert "A (" in err and "cannot start: no answer to 'new' within 1 s" in err


def test_a_fault_names_the_bots_last_stderr_line():
    # answers `new`, then writes a reason on stderr and exits when asked for a guess
    quits = bot("import sys\n"
                "while True:\n"
                "    line = sys.stdin.readline()\n"
                "    if line.startswith('new'):\n"
                "        print('ok', flush=True)\n"
                "    else:\n"
                "        sys.stderr.write('out of memory in guess\\n'); sys.exit(1)\n")
    code, out, err = referee("--a-cmd", quits, "--games", "2", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["a"]["faults"] == 2 and data["b"]["wins"] == 2 and data["complete"]
    assert all("(its stderr: out of memory in guess)" in m for m in data["a"]["fault_messages"])


def test_a_bot_whose_output_ended_fails_the_next_question_at_once():
    """A bot that exited while answering is asked again in the next game; if that question is
    written in the instant before the exiting bot's input closes, the write succeeds, and the
    referee had then waited the whole answer timeout (10 s of a 0.4 s match under load). Made
    certain here: the bot closes its output and goes on reading its input."""
    from cbsolve.play.referee import BotFailure, BotProcess

    closes = BotProcess([PY, "-c", "import os, sys\n"
                         "print('ok', flush=True); sys.stdin.readline(); sys.stdin.readline()\n"
                         "sys.stderr.write('lost my output\\n'); sys.stderr.flush(); os.close(1)\n"
                         "for line in sys.stdin: pass"], name="closes", timeout=30)
    try:
        assert closes.ask("new") == "ok"
        with pytest.raises(BotFailure, match="exited while answering 'guess'"):
            closes.ask("guess")
        # the bot is alive and reading, so the question is written; no answer can come
        with pytest.raises(BotFailure, match=r"exited before 'new' \(its output is closed\) "
                                             r"\(its stderr: lost my output\)"):
            closes.ask("new")
    finally:
        closes.proc.kill()
        closes.proc.wait()


def test_help_documents_the_startup_timeout():
    proc = subprocess.run([PY, "-m", "cbsolve", "referee", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert "--startup-timeout" in proc.stdout and "--timeout" in proc.stdout


def test_a_broken_or_silent_bot_is_killed_at_the_end_not_waited_for():
    """A bot out of protocol (``yes`` answers "y" to everything, forever) or silent past its
    start-up limit is killed when the match ends (SIGKILL), where the referee once waited
    CLOSE_SECONDS for it to quit (13 s for a match of 0.0 s); a bot that kept the protocol
    is told to quit and exits by itself."""
    import signal

    from cbsolve.play.referee import BotCannotStart, BotProcess, bot_argv, close_all, match
    from cbsolve.game.variant import Variant

    v = Variant.preset("mastermind")
    chatty = BotProcess(["yes"], name="yes")
    good = BotProcess(bot_argv("first", 1, v), name="first")
    record = match(v, good, chatty, games=2)      # good answers `new` first, then chatty fails
    assert record.b.faults == 2 and chatty.broken and not good.broken
    close_all([good, chatty])
    assert chatty.proc.returncode == -signal.SIGKILL and good.proc.returncode == 0

    silent = BotProcess([PY, "-c", "import time; time.sleep(100)"], startup_timeout=0.5)
    with pytest.raises(BotCannotStart):
        silent.ask("new")
    close_all([silent])
    assert silent.broken and silent.proc.returncode == -signal.SIGKILL


def test_the_record_says_the_time_with_start_up_and_shutdown():
    code, out, _ = referee("--games", "2", "--variant", "mastermind", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["wall_seconds"] >= doc["seconds"]
    code, out, _ = referee("--games", "1", "--variant", "mastermind")
    assert code == 0 and "s of play (" in out.splitlines()[0]
