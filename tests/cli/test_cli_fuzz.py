"""The CLI contract under random input: options and entries drawn from their grammar (and
near it), mutated tree and certificate files. Exit code 0, 1, 2 or 130, never a traceback, at
most one stderr line for bad input. A small fixed budget here; scripts/stress/fuzz_cli.py runs longer."""
from testkit import load_script

fuzz_cli = load_script("fuzz_cli")


def test_cli_keeps_its_contract_on_random_calls():
    seen = fuzz_cli.fuzz(examples=30)
    assert sum(seen.values()) >= 30 and 2 in seen     # bad input was among the calls


def test_known_bad_calls_keep_the_contract():
    """Calls that once gave a traceback or several lines."""
    huge = "9" * 5000
    for argv, stdin in ([["consistent", f"0123:1,{huge}"], ""],
                        [["consistent", "0123:1,2", "--time-limit", "nan"], ""],
                        [["bot"], f"new\nguess\nscore 1 {huge}\nquit\n"],
                        [["score", "0123", "x" * 100_000], ""]):
        assert fuzz_cli.check(argv, stdin) in (1, 2) or argv[0] == "bot"


def test_play_and_assist_keep_the_contract_on_closed_stdin_and_every_command():
    """Closed stdin once crashed play, assist and bot (AttributeError, exit 1)."""
    small = ["--length", "3", "--digits", "5"]
    for argv in (["play", "--json"], ["assist", "--json"], ["bot"], ["play", "--mode", "host"]):
        assert fuzz_cli.check(argv + small, None) == 0
    lines = "help\n012\nhint\nundo\nundo\n1B1W\nfix 1 1 0\nconfirm 1\nagain\nquit\n"
    assert fuzz_cli.check(["play", "--json", "--seed", "1"] + small, lines) == 0
    assert fuzz_cli.check(["assist", "012:1 black 1 white", "--json"] + small, lines) in (0, 1)


def test_serve_and_referee_keep_the_contract():
    """serve answers every line (errors as exit 2, one line each) and ends at the end of
    input; the referee's bad arguments and unstartable bots are one line, exit 2."""
    lines = ['{"cmd": "score", "secret": "0123", "guess": "0132"}', "garbage", "{" * 3000,
             '{"cmd": "consistent", "limit": -1}', '{"cmd": "bot"}', ""]
    assert fuzz_cli.check(["serve"], "\n".join(lines) + "\n") == 0
    for argv in (["referee", "--games", "-5"], ["referee", "--timeout", "-1"],
                 ["referee", "--variant", "nope"], ["referee", "--a-cmd", "no-such-bot"]):
        assert fuzz_cli.check(argv) == 2


def test_bad_input_found_by_hand_keeps_the_contract(tmp_path):
    """A user's malformed calls, each with the exit code the contract gives: bad input 2
    (one line), an inconsistent log 1, a log that already won or has no entries 0."""
    files = {"cut.json": '{"a":', "prose.txt": "hello world\n", "empty.txt": "",
             "none.json": "[]", "five.json": '[{"guess": "0123", "bulls": 5, "cows": 0}]',
             "object.json": '{"guess": "0123"}', "won.txt": "4561 0 1\n0123 4 0\n",
             "won-then-not.txt": "0123 4 0\n4567 1 0\n"}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "binary.txt").write_bytes(b"\xff\xfe\x00bin")
    f = {name: str(tmp_path / name) for name in [*files, "binary.txt"]}
    cases = [
        (["score", "0123"], 2), (["score", "0123", "0a23"], 2), (["score", "0123", "0113"], 2),
        (["score", "0123", "0123", "--symbols", "AAB"], 2),
        (["score", "0123", "0123", "--digits", "5", "--letters", "5"], 2),
        (["consistent", "0123:3,1"], 2), (["consistent", "0123:1.5,0"], 2),
        (["consistent", ":1,2"], 2), (["consistent", "--log", f["cut.json"]], 2),
        (["consistent", "--log", f["prose.txt"]], 2), (["consistent", "--log", f["binary.txt"]], 2),
        (["consistent", "--log", f["five.json"]], 2), (["consistent", "--log", f["object.json"]], 2),
        (["consistent", "--log", str(tmp_path / "missing.txt")], 2),
        (["consistent", "--log", f["empty.txt"], "--count"], 0),
        (["consistent", "--log", f["none.json"], "--count"], 0),
        (["consistent", "0123:1,2", "--sample", "3", "--all"], 2),
        (["next", "0123:1,2", "--objective", "nope"], 2), (["next", "--log", f["cut.json"]], 2),
        (["next", "--log", f["won.txt"], "--json"], 0),
        (["next", "--log", f["won-then-not.txt"], "--json"], 1),
        (["assist", "--log", f["won.txt"], "--json"], 0),
        (["partition", "0123", "--list", "--all"], 2), (["partition"], 2),
        (["evaluate", "--first", "0011"], 2), (["optimal", "--memory-budget", "-5G"], 2),
        (["optimal", "--checkpoint-every", "5"], 2), (["optimal", "--resume", str(tmp_path)], 2),
        (["bounds", "--length", "5000", "--repeats"], 2),
        (["verify", f["cut.json"]], 2), (["verify", f["none.json"]], 2),
        (["verify", f["prose.txt"]], 2), (["verify", f["object.json"], "--json"], 1),
        (["convert", f["cut.json"], str(tmp_path / "out.json")], 2),
        (["merge", str(tmp_path)], 2), (["puzzle", "--clues", "0"], 2),
        (["play", "--objective", "nope"], 2), (["bot", "--strategy", "nope"], 2),
    ]
    for argv, code in cases:
        assert fuzz_cli.check(argv, "") == code, argv
