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
