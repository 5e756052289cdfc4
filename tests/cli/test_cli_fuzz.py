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
