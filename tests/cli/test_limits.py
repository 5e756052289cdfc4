"""Every command keeps its promises under interrupts, time limits, huge inputs and broken pipes:
Ctrl-C ends the work with the partial answer and exit 130, a time limit covers the whole
command (0: none), inputs are capped, odd input is one line and exit 2."""
import gzip
import io
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from testkit import cpu_seconds

from cbsolve.cli import main
from cbsolve.runtime.deadline import Deadline, request_stop
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.rule import score
from cbsolve.game.variant import Variant

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def hard_log(path: Path, n: int = 40, entries: int = 25, seed: int = 1) -> list[str]:
    """A consistent log over N digits with repeats that no backend answers in seconds."""
    rng = random.Random(seed)
    v = Variant(n, "0123456789", True)
    secret = [rng.randrange(10) for _ in range(n)]
    lines = []
    for _ in range(entries):
        g = [rng.randrange(10) for _ in range(n)]
        b, c = score(v, secret, g)
        lines.append(f"{''.join(map(str, g))} {b} {c}")
    path.write_text("\n".join(lines) + "\n")
    return ["--length", str(n), "--repeats", "--log", str(path)]


def interrupt(args, after: float = 1.5):
    """Run the CLI in a child process, Ctrl-C it once it has used ``after`` seconds of CPU (its
    own clock: a loaded machine, which stretches the start-up, delays the signal instead of
    landing it before the work began; 60 s of waiting at most): (code, stdout, stderr)."""
    proc = subprocess.Popen([sys.executable, "-m", "cbsolve", *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL)
    cap = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < cap and cpu_seconds(proc.pid) < after:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


# --- 1. Ctrl-C -------------------------------------------------------------------------------
@pytest.mark.parametrize("extra", [["--count"], []])
def test_ctrl_c_during_consistent_prints_the_partial_answer_and_exits_130(tmp_path, extra):
    """Ctrl-C during `consistent` on an N=40 log printed "stopped at the default time limit"
    and exited 0; with --count it exited 130 and printed nothing (CP-SAT had left SIGINT at
    the system default, which killed the process). With --count, a Ctrl-C that came while the
    SAT backend built its CNF (Python, no deadline looked at) missed the grace period one run
    in three under load and ended as a forced interrupt, with no answer; so did one inside
    Glucose's search, which reads its interrupt only between runs of conflicts."""
    code, out, err = interrupt(["consistent", *hard_log(tmp_path / "log.txt"), *extra,
                                "--time-limit", "0"])
    assert code == 130
    assert "interrupted (Ctrl-C)" in out and "default time limit" not in out, (out, err)
    assert err.strip().splitlines() == ["cbsolve: interrupted: the answer above is partial"]


def test_ctrl_c_during_static_reports_the_interval(tmp_path):
    code, out, err = interrupt(["static", "--length", "5", "--digits", "9", "--time-limit", "0"],
                               after=2.0)
    assert code == 130 and "questions in [" in out
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_ctrl_c_ends_the_interactive_commands_with_one_line():
    for command in ("play", "bot"):
        proc = subprocess.Popen([sys.executable, "-m", "cbsolve", command], cwd=ROOT, text=True,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        if command == "bot":
            proc.stdin.write("new\n")
            proc.stdin.flush()
        proc.stdout.readline()                    # the game is on: waiting for its next line
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
        err = proc.stderr.read()
        assert proc.returncode == 130 and err.strip().splitlines() == ["cbsolve: interrupted"]


def _hard(tmp_path) -> FeedbackLog:
    hard_log(tmp_path / "log.txt")
    return FeedbackLog.from_file(Variant(40, "0123456789", True), tmp_path / "log.txt")


def test_the_native_search_stops_on_the_stop_request(tmp_path):
    """The depth-first search polls its stop flag every 256 nodes; a stop request (Ctrl-C)
    now sets it, so an untimed count ends, reported as interrupted (never as a time limit)."""
    from cbsolve.consistency import dfs
    from cbsolve.runtime.deadline import request_stop

    log = _hard(tmp_path)
    threading.Timer(0.3, request_stop).start()
    chunk = dfs.run(log, dfs.COUNT, seconds=None, max_nodes=10**8)   # the old code: "nodes"
    assert chunk.status == "interrupted" and not chunk.complete


def test_the_local_search_stops_on_the_stop_request(tmp_path):
    from cbsolve.consistency.portfolio import LocalSearch
    from cbsolve.runtime.deadline import request_stop
    from cbsolve.runtime.status import StopReason

    ls = LocalSearch(_hard(tmp_path), seed=1)
    threading.Timer(0.3, request_stop).start()
    r = ls.run(None, want=10**6, max_flips=10**9)
    assert r["stop"] is StopReason.STOPPED


# --- 2. time limits cover the whole command --------------------------------------------------
def test_the_pair_precheck_stops_at_its_deadline():
    """The pairwise pre-check grew with the square of the log and never looked at the clock
    (20,000 entries: 11 s where the filter needs 0.008 s)."""
    from cbsolve.consistency.precheck import pair_conflict

    v = Variant.preset("bulls-cows")
    log = FeedbackLog(v)
    for _ in range(300):
        log.add("0123", 1, 1)
    log.add("0123", 4, 0)                         # conflicts with every earlier entry
    assert pair_conflict(log) == (1, 301)
    assert pair_conflict(log, Deadline(0.0)) is None   # cut short: it proved nothing


def test_static_greedy_bound_stops_at_the_deadline_with_a_separating_set():
    """`static --time-limit 2` took 41 s: the greedy upper bound scored every guess at every
    step before the limit was ever looked at."""
    from cbsolve.bounds.static import greedy_separating_set, separates
    from cbsolve.game.codes import CodeSpace
    from cbsolve.game.scoring import pack

    v = Variant(4, "0123456", False)
    codes = CodeSpace(v).codes
    packed = pack(v, codes)
    chosen = greedy_separating_set(v, codes, packed, Deadline(0.0))
    assert separates(v, codes[chosen], packed)


def test_assist_replays_a_log_without_solving_after_each_entry(monkeypatch):
    """`assist --log` on a 35-entry N=40 log solved after every replayed entry (134 s)."""
    from cbsolve.play.assistant import Assistant
    from cbsolve.play.engine import Guesser

    calls = []
    monkeypatch.setattr(Guesser, "_suggest_large", lambda self, deadline: calls.append(1))
    v = Variant(40, "0123456789", True)
    a = Assistant(v, time_limit=1.0)
    rng = random.Random(3)
    for _ in range(3):
        a.add("".join(rng.choice("0123456789") for _ in range(40)), 4, 4)
    assert calls == []


# --- 3. --time-limit 0 -----------------------------------------------------------------------
def test_no_time_limit_with_an_inner_budget_hit_is_reported_not_a_crash(capsys, monkeypatch):
    """`--time-limit 0` crashed with "unsupported format string passed to NoneType" once an
    inner budget ran out."""
    from cbsolve.runtime import time_policy

    monkeypatch.setattr(time_policy, "UNTIMED_COUNT_SECONDS", 0.05)
    code, out, err = run(capsys, "consistent", "--length", "12", "--repeats",
                         "012345678901:2,3", "--count", "--time-limit", "0", "--json")
    data = json.loads(out)
    assert code == 0 and not data["exact"] and err == ""
    assert any("no time limit was set" in n for n in data["notes"])


# --- 4. --approximate ------------------------------------------------------------------------
def test_approximate_counting_gets_its_share_of_the_time(monkeypatch):
    """The exact counter took the whole budget: "no time left for approximate counting". Under a
    deadline on a fake clock that only the exact counter advances (it runs out of all the time it
    is given), ApproxMC is still given its share of the whole (time_policy.APPROX_SHARE): what
    the split decided, not how long anything took on this machine."""
    from cbsolve.runtime import time_policy
    from cbsolve.consistency import Query, answer, consistent
    from cbsolve.runtime.deadline import Deadline

    now = [0.0]

    def slow_exact(log, lies, deadline):
        now[0] += deadline.left()                  # Ganak running out of its time
        return None

    given = []
    monkeypatch.setattr(answer, "available", lambda name: True)
    monkeypatch.setattr(answer, "ganak_count", slow_exact)
    monkeypatch.setattr(answer, "approx_count",
                        lambda clauses, xs, deadline, *a, **k: given.append(deadline.left())
                        or 12345)
    log = FeedbackLog.parse(Variant(12, "0123456789", True), ["012345678901:2,3"])
    deadline = Deadline(1.0, clock=lambda: now[0])
    r = consistent(log, Query(count=True, approximate=True, count_cap=5), backend="sat",
                   deadline=deadline)
    assert r.approximate and r.approximate["count"] == 12345
    assert given == [pytest.approx(time_policy.APPROX_SHARE)]


# --- 5. input caps ---------------------------------------------------------------------------
def test_endless_log_file_is_refused_at_the_cap(capsys, monkeypatch):
    """`consistent --log /dev/zero` grew to all 24 GB of the machine."""
    monkeypatch.setenv("CBSOLVE_MAX_INPUT_BYTES", "100000")
    code, _, err = run(capsys, "consistent", "--log", "/dev/zero")
    assert code == 2 and len(err.splitlines()) == 1
    assert "input cap" in err and "CBSOLVE_MAX_INPUT_BYTES" in err


def test_gzip_bomb_is_refused_at_the_cap(capsys, monkeypatch, tmp_path):
    """A 14 MB gzip bomb given to `verify` reached 6.3 GB."""
    bomb = tmp_path / "tree.json.gz"
    bomb.write_bytes(gzip.compress(b"[" + b" " * 5_000_000 + b"]"))
    monkeypatch.setenv("CBSOLVE_MAX_INPUT_BYTES", "1000000")
    code, _, err = run(capsys, "verify", str(bomb))
    assert code == 2 and len(err.splitlines()) == 1 and "unpacked" in err and "input cap" in err


def test_endless_stdin_line_is_answered_by_the_bot_and_skipped(monkeypatch):
    from cbsolve.play.bot import Bot, serve

    monkeypatch.setenv("CBSOLVE_MAX_LINE_BYTES", "1000")
    out = io.StringIO()
    serve(Bot(Variant.preset("bulls-cows"), seed=1), io.StringIO("x" * 50_000 + "\nnew\n"), out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("error an input line is larger") and lines[1] == "ok"


# --- 6. tracebacks on odd input --------------------------------------------------------------
HUGE = "9" * 5000          # more digits than Python converts to an int (4300)


def test_huge_scores_are_one_line_everywhere(capsys, tmp_path):
    text, js = tmp_path / "log.txt", tmp_path / "log.json"
    text.write_text(f"0123 1 {HUGE}\n")
    js.write_text(f'[{{"guess": "0123", "bulls": 1, "cows": {HUGE}}}]')
    for args in (["consistent", f"0123:1,{HUGE}"], ["consistent", "--log", str(text)],
                 ["consistent", "--log", str(js)]):
        code, _, err = run(capsys, *args)
        assert code == 2 and len(err.splitlines()) == 1 and len(err) < 400
    from cbsolve.play.bot import Bot

    bot = Bot(Variant.preset("bulls-cows"), seed=1)
    assert bot.handle("new") == "ok" and bot.handle("guess")
    answer = bot.handle(f"score 1 {HUGE}")
    assert answer.startswith("error ") and "internal" not in answer


def test_dask_address_without_port_is_bad_input(capsys, tmp_path):
    pytest.importorskip("distributed")
    code, _, err = run(capsys, "analyze", "--scheduler", "localhost", "--out", str(tmp_path))
    assert code == 2 and len(err.splitlines()) == 1 and "tcp://host:8786" in err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_on_stdout_is_one_line():
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "cbsolve", "consistent", "0123:1,2"],
                              cwd=ROOT, stdout=full, stderr=subprocess.PIPE, text=True,
                              timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines() == ["cbsolve: error: cannot write the output: No space left "
                                        "on device"]


# --- 7. misleading answers -------------------------------------------------------------------
def test_an_explicit_time_limit_is_not_called_the_default(capsys, monkeypatch):
    from cbsolve import api  # the command's one call

    real = api.consistent

    def hits_the_limit(*args, **kwargs):
        result = real(*args, **kwargs)
        result.time_limit_hit = True
        return result

    monkeypatch.setattr(api, "consistent", hits_the_limit)
    _, out, _ = run(capsys, "consistent", "0123:1,2", "--time-limit", "30")
    assert "stopped at the time limit of 30 s" in out and "default" not in out
    _, out, _ = run(capsys, "consistent", "0123:1,2")
    assert "stopped at the default time limit of 30 s" in out


def test_a_sample_as_large_as_the_space_is_the_exact_evaluation(capsys):
    """`evaluate --sample 100000` on 1,296 secrets took 9.6 s (exact: 0.05 s) and printed
    "seed None"."""
    code, out, _ = run(capsys, "evaluate", "--variant", "mastermind", "--strategy", "minimax",
                       "--sample", "100000", "--json")
    data = json.loads(out)
    assert code == 0 and not data.get("estimate") and data["total"] is not None
    _, out, _ = run(capsys, "evaluate", "--variant", "mastermind", "--strategy", "minimax",
                    "--sample", "50")
    assert "None" not in out and "unseeded" in out


def test_error_lines_cut_long_values(capsys):
    code, _, err = run(capsys, "consistent", "0123:" + "x" * 200_000)
    assert code == 2 and len(err) < 400 and "characters)" in err


# --- 8. friction -----------------------------------------------------------------------------
def test_a_byte_order_mark_is_not_a_symbol(capsys, tmp_path):
    log = tmp_path / "notepad.txt"
    log.write_bytes("\ufeff0123 1 2\n".encode("utf-8"))
    code, out, _ = run(capsys, "consistent", "--log", str(log), "--count", "--json")
    assert code == 0 and json.loads(out)["count"] > 0


def test_bounds_says_what_it_computes():
    """`bounds` with defaults silently took 32 s."""
    from cbsolve.bounds import compute_bounds

    said = []
    compute_bounds(Variant(3, "012345", False), deadline=Deadline.from_limit(5), progress=said.append)
    assert any("strategy" in s for s in said) and any("partition" in s for s in said)
    assert np.all([isinstance(s, str) for s in said])


def test_ctrl_c_during_evaluate_reports_how_far_it_got(capsys):
    """`evaluate` on a large game had no partial answer: Ctrl-C ended it with no result. The
    stop request (what Ctrl-C makes) now stops the tree between nodes, and the answer says how
    many secrets were settled; the CLI exits 130."""
    timer = threading.Timer(0.5, request_stop)
    timer.start()
    code, out, err = run(capsys, "evaluate", "--strategy", "entropy", "--length", "6", "--json")
    timer.join()
    data = json.loads(out)
    assert code == 130 and data["complete"] is False
    assert 0 <= data["settled"] < data["secrets"] == 151200
    assert err.strip().splitlines() == ["cbsolve: interrupted: the answer above is partial"]
