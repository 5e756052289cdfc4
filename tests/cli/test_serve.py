"""``cbsolve serve``: each answer is the document the command line prints under --json, with the
exit code it gives; bad requests are answered with one error and the service goes on; the end
of input, a request's time limit and Ctrl-C end what they should."""
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cbsolve.cli import app
from cbsolve.cli._requests import SERVABLE, BadRequest, to_argv

ROOT = Path(__file__).resolve().parents[2]
#: Fields that differ from run to run (wall-clock times).
TIMES = {"seconds", "choose_seconds", "solve_seconds", "diagnose_seconds"}


def serve(lines: list[str], timeout: float = 120) -> tuple[int, list[dict], str]:
    proc = subprocess.run([sys.executable, "-m", "cbsolve", "serve"], cwd=ROOT, text=True,
                          input="".join(line + "\n" for line in lines), capture_output=True,
                          timeout=timeout)
    return proc.returncode, [json.loads(x) for x in proc.stdout.splitlines()], proc.stderr


def cli(*args: str) -> tuple[int, str, str]:
    proc = subprocess.run([sys.executable, "-m", "cbsolve", *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def untimed(doc):
    """``doc`` without its wall-clock times (they differ between any two runs)."""
    if isinstance(doc, dict):
        return {k: untimed(v) for k, v in doc.items() if k not in TIMES}
    if isinstance(doc, list):
        return [untimed(v) for v in doc]
    return doc


CASES = [
    ({"cmd": "consistent", "entries": ["0123:1,2", "4567:0,1"], "count": True},
     ["consistent", "0123:1,2", "4567:0,1", "--count"]),
    ({"cmd": "consistent", "entries": ["0123:1,2", "0123:0,0"]},    # inconsistent: exit 1
     ["consistent", "0123:1,2", "0123:0,0"]),
    ({"cmd": "score", "secret": "1122", "guess": "1212", "variant": "mastermind"},
     ["score", "1122", "1212", "--variant", "mastermind"]),
    ({"cmd": "partition", "guess": "012", "entries": ["345:0,1"], "length": 3, "digits": 6,
      "list": True}, ["partition", "012", "345:0,1", "--length", "3", "--digits", "6", "--list"]),
    ({"cmd": "next", "entries": ["0123:1,2"], "strategy": "expected"},
     ["next", "0123:1,2", "--strategy", "expected"]),
    ({"cmd": "evaluate", "length": 3, "digits": 4, "repeats": True, "strategy": "entropy"},
     ["evaluate", "--length", "3", "--digits", "4", "--repeats", "--strategy", "entropy"]),
    ({"cmd": "optimal", "length": 3, "digits": 4, "objective": "expected"},
     ["optimal", "--length", "3", "--digits", "4", "--objective", "expected"]),
    ({"cmd": "bounds", "length": 2, "digits": 5, "no_search": True},
     ["bounds", "--length", "2", "--digits", "5", "--no-search"]),
]


def test_answers_are_the_command_lines_documents_and_exit_codes():
    requests = [json.dumps({**req, "id": i}) for i, (req, _) in enumerate(CASES)]
    code, answers, err = serve(requests)
    assert code == 0, err
    assert [a["id"] for a in answers] == list(range(len(CASES)))
    for (req, argv), answer in zip(CASES, answers, strict=True):
        cli_code, out, _ = cli(*argv, "--json")
        expected = json.loads(out)
        assert answer.pop("exit") == cli_code, req
        answer.pop("id")
        assert untimed(answer) == untimed(expected), req


BAD = [
    "not json",
    "[1, 2]",
    '{"cmd": "play"}',
    '{"entries": ["0123:1,2"]}',
    '{"cmd": "consistent", "entries": "0123:1,2"}',
    '{"cmd": "consistent", "bogus": 1}',
    '{"cmd": "consistent", "count": "yes"}',
    '{"cmd": "consistent", "log": "-"}',
    '{"cmd": "consistent", "limit": -1}',
    '{"cmd": "consistent", "entries": ["0123:9,9"]}',
    '{"cmd": "consistent", "time_limit": -1}',
    '{"cmd": "score", "guess": "0123"}',
    '{"cmd": "score", "secret": 123, "guess": [1]}',
    '{"cmd": "next", "time_limit": "soon"}',
    '{"cmd": "consistent", "variant": "no-such-game"}',
    '{"cmd": "consistent", "log": "/no/such/file"}',
    "[" * 5000,
]


def test_answers_are_the_python_apis_documents():
    """serve runs the commands, and the commands call cbsolve.api: one answer three ways."""
    import cbsolve as cb

    log = ["0123:1,2", "4567:0,1"]
    cases = [
        ({"cmd": "score", "secret": "1122", "guess": "1212", "variant": "mastermind"},
         lambda: cb.score("1122", "1212", variant="mastermind")),
        ({"cmd": "consistent", "entries": log, "count": True, "time_limit": 0},
         lambda: cb.consistent(log, count=True)),
        ({"cmd": "next", "entries": log, "strategy": "parts"},
         lambda: cb.next_guess(log, strategy="parts")),
        ({"cmd": "partition", "guess": "0145", "entries": log, "time_limit": 0},
         lambda: cb.partition("0145", log, members=False)),
    ]
    code, answers, _ = serve([json.dumps(request) for request, _ in cases])
    assert code == 0 and len(answers) == len(cases)
    for answer, (request, call) in zip(answers, cases, strict=True):
        assert answer.pop("exit") == 0, request
        assert untimed(answer) == untimed(call().to_json()), request


def test_bad_requests_are_answered_with_exit_2_and_the_service_goes_on():
    lines = [*BAD, json.dumps({"cmd": "score", "secret": "0123", "guess": "3210", "id": "last"})]
    code, answers, err = serve(lines)
    assert code == 0 and err == ""
    assert len(answers) == len(BAD) + 1
    for line, answer in zip(BAD, answers[:-1], strict=True):
        assert answer["exit"] == 2 and "\n" not in answer["error"], (line, answer)
    assert answers[-1] == {"id": "last", "secret": "0123", "guess": "3210", "bulls": 0,
                           "cows": 4, "exit": 0}


def test_the_error_is_the_command_lines_message():
    code, answers, _ = serve(['{"cmd": "consistent", "entries": ["0123:9,9"], "id": 3}'])
    cli_code, _, err = cli("consistent", "0123:9,9")
    assert answers == [{"id": 3, "error": err.strip().removeprefix("cbsolve: error: "),
                        "exit": cli_code}]


def test_an_overlong_line_is_refused_and_skipped(monkeypatch):
    monkeypatch.setenv("CBSOLVE_MAX_LINE_BYTES", "100")
    long = json.dumps({"cmd": "consistent", "entries": ["0123:1,2"] * 40})
    code, answers, _ = serve([long, '{"cmd": "score", "secret": "0123", "guess": "0123"}'])
    assert code == 0 and len(answers) == 2
    assert answers[0]["exit"] == 2 and "input cap" in answers[0]["error"]
    assert answers[1]["bulls"] == 4


def test_field_names_map_to_the_options():
    consistent = app.get_command(None, "consistent")
    argv = to_argv(consistent, {"cmd": "consistent", "entries": ["-12:1,0"], "count": True,
                                "all": False, "repeats": False, "no_leading_zero": True,
                                "time_limit": 2.5, "max_lies": 1, "seed": None})
    assert argv == ["--count", "--distinct", "--no-leading-zero", "--time-limit", "2.5",
                    "--max-lies", "1", "--json", "--", "-12:1,0"]
    with pytest.raises(BadRequest, match="'guess'"):
        to_argv(app.get_command(None, "partition"), {"entries": ["0123:1,2"]})
    assert to_argv(app.get_command(None, "partition"), {"entries": ["0123:1,2"], "all": True}
                   )[-1] == "0123:1,2"
    assert set(SERVABLE) <= set(app.list_commands(None))


def test_a_request_time_limit_stops_a_slow_command_and_the_service_goes_on():
    # partition --all on Mastermind 8x8 after a reply (7,014 classes, 1.9 M candidates)
    # takes 10 s and more; 1.5 s is all it gets (6 of 10 digits with repeats now ends in 0.4 s)
    slow = {"cmd": "partition", "all": True, "variant": "mastermind", "length": 8, "digits": 8,
            "entries": ["11223344:1,2"], "time_limit": 1.5, "id": 1}
    code, answers, err = serve([json.dumps(slow), '{"cmd": "score", "secret": "0123", '
                                                  '"guess": "0132", "id": 2}'], timeout=60)
    assert code == 0, err
    first = answers[0]
    assert {k: first[k] for k in ("id", "command", "complete", "stopped", "time_limit",
                                  "time_limit_hit", "exit")} == {
        "id": 1, "command": "partition", "complete": False, "stopped": "time",
        "time_limit": 1.5, "time_limit_hit": True, "exit": 0}
    assert len(first["guesses"]) == first["shown"] <= first["scored"]   # the best so far
    assert answers[1]["bulls"] == 2     # decided within the call's deadline (60 s)


def test_ctrl_c_ends_the_service_with_exit_130():
    proc = subprocess.Popen([sys.executable, "-m", "cbsolve", "serve"], cwd=ROOT, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdin.write('{"cmd": "score", "secret": "0123", "guess": "0123"}\n')
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["bulls"] == 4    # the service is up and idle
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert (proc.returncode, out, err) == (130, "", "cbsolve: interrupted\n")


def test_ctrl_c_during_a_request_answers_it_then_ends():
    proc = subprocess.Popen([sys.executable, "-m", "cbsolve", "serve"], cwd=ROOT, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    # three guesses deep on 7 of 10 digits: 604,800 guesses to score, minutes of work (one
    # reply deep on 6 of 10 with repeats finishes within the sleep, before the Ctrl-C)
    proc.stdin.write(json.dumps({"cmd": "partition", "all": True, "length": 7, "digits": 10,
                                 "entries": ["0123456:0,4", "1357924:0,5", "2468013:0,4"],
                                 "id": 9}) + "\n")
    proc.stdin.flush()
    time.sleep(2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    answers = [json.loads(x) for x in out.splitlines()]   # one: the guesses scored so far
    assert len(answers) == 1 and {k: answers[0][k] for k in ("id", "command", "stopped", "exit")} == {
        "id": 9, "command": "partition", "stopped": "interrupted", "exit": 130}
    # cut while scoring (complete false) or while formatting the whole table's rows
    assert len(answers[0]["guesses"]) == answers[0]["shown"] <= answers[0]["scored"]
    assert answers[0]["shown"] < answers[0]["total"] or not answers[0]["complete"]
    # one line: the service's (the command's own "the answer above ..." was a second one)
    assert err == "cbsolve: interrupted\n"


def test_a_bug_in_a_request_is_answered_and_the_service_goes_on(monkeypatch):
    from cbsolve.cli import serve as service

    def broken(command, request):
        raise TypeError("a bug")

    monkeypatch.setattr(service, "to_argv", broken)
    assert service.answer_line(b'{"cmd": "score", "id": 1}') == {
        "id": 1, "error": "internal error: TypeError: a bug (please report it)", "exit": 1}
    monkeypatch.undo()
    assert service.answer_line(b'{"cmd": "score", "secret": "0123", "guess": "0123"}')["bulls"] == 4


def test_a_request_budget_counts_from_its_arrival_not_the_services_start(monkeypatch):
    """Each request is an edge: one Deadline made when it arrives. It counted from the
    service's start, so a service idle for longer than a request's limit answered
    ``next`` with "no guess scored in time"."""
    from cbsolve.cli import _budget
    from cbsolve.cli.serve import answer

    monkeypatch.setattr(_budget, "_FROM_PROCESS_START", [True])     # as ``cbsolve serve``
    monkeypatch.setattr(_budget, "process_age", lambda: 3600.0)     # an hour of waiting
    doc = answer({"cmd": "next", "entries": ["0123:1,1"], "time_limit": 30})
    assert doc["exit"] == 0 and doc["complete"] is True and "in time" not in doc["note"]


def test_a_list_document_is_answered_as_one_object_of_records():
    """`bounds --table --json` prints a list; its answer is one object holding it."""
    from cbsolve.cli.serve import answer_line

    request = {"cmd": "bounds", "table": True, "length": 4, "digits": 6, "repeats": True}
    reply = answer_line(json.dumps(request))
    code, out, _ = cli("bounds", "--table", "--json", "--length", "4", "--digits", "6", "--repeats")
    assert reply["exit"] == code == 0
    assert reply["records"] == json.loads(out) and reply["records"][0]["id"] == "mastermind-4x6"
