"""Fuzz the command line: random options and entries, mutated tree and certificate files.

Every run must keep the CLI contract: exit code 0, 1, 2 or 130, never a traceback, and at most
one line on stderr for bad input (exit 2). Commands run in-process (fast); their time limits
are kept short. The test suite runs a small derandomized budget (tests/cli/test_cli_fuzz.py); run
this script for a longer search:

    python scripts/stress/fuzz_cli.py --examples 3000 [--seed 7]
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

PRESETS = ["bulls-cows", "mastermind", "black-peg", "numbers", "cowbull", "nope"]
HUGE = "9" * 5000
# Small numbers mostly, then the edges that broke things: negatives, 2^31, 4300+ digits.
NUMBERS = st.one_of(st.integers(0, 8).map(str), st.sampled_from(
    ["-1", "0", "64", "65", "2147483648", "1e3", "nan", "", " 3", HUGE]))


def variant_options():
    opts = st.sampled_from([
        [], ["--variant", "mastermind"], ["--variant", "black-peg"], ["--variant", "cowbull"],
        ["--length", "3", "--digits", "5"], ["--length", "2", "--symbols", "abc", "--repeats"],
        ["--length", "5", "--letters", "6", "--no-leading-zero"], ["--feedback", "bulls"]])
    odd = st.tuples(st.sampled_from(["--variant", "--length", "--digits", "--letters",
                                     "--symbols", "--feedback"]),
                    st.one_of(NUMBERS, st.sampled_from(PRESETS), st.text(max_size=6)))
    return st.one_of(opts, opts, odd.map(list), st.tuples(opts, odd).map(lambda t: t[0] + list(t[1])))


def codes():
    return st.one_of(st.text("0123456789", min_size=0, max_size=6),
                     st.text("123456ABCDabc", min_size=1, max_size=5), st.text(max_size=5))


def entries():
    reply = st.one_of(st.tuples(NUMBERS, NUMBERS).map(lambda t: f"{t[0]},{t[1]}"),
                      st.tuples(NUMBERS, NUMBERS).map(lambda t: f"{t[0]}A{t[1]}B"),
                      NUMBERS, st.text(max_size=4))
    return st.tuples(codes(), st.sampled_from([":", ":", "", "::"]), reply).map("".join)


def command_options(command: str):
    common = {
        "consistent": st.sampled_from([[], ["--count"], ["--limit", "2"], ["--all"],
                                       ["--sample", "2", "--seed", "1"], ["--max-lies", "1"],
                                       ["--backend", "native"], ["--backend", "cpsat"],
                                       ["--backend", "sat"], ["--backend", "bogus"],
                                       ["--count-cap", "3"], ["--approximate", "--count"],
                                       ["--limit", "-1"], ["--seed", "-3"]]),
        "next": st.sampled_from([[], ["--strategy", "entropy"], ["--strategy", "x"],
                                 ["--strategy", "first"]]),
        "partition": st.just([]),
        "score": st.just([]),
    }
    return common.get(command, st.just([]))


@st.composite
def cli_calls(draw, files: list[Path]):
    """(argv, stdin text) of one CLI call."""
    command = draw(st.sampled_from(["consistent", "consistent", "next", "score", "partition",
                                    "verify", "verify", "bot", "static", "bounds"]))
    argv = [command] + draw(variant_options())
    stdin = ""
    if command in ("consistent", "next"):
        argv += draw(st.lists(entries(), max_size=4)) + draw(command_options(command))
        argv += ["--time-limit", draw(st.sampled_from(["0.5", "0.2", "-1", "x", "inf"]))] \
            if command == "consistent" else []
    elif command in ("score", "partition"):
        argv += draw(st.lists(codes(), min_size=1, max_size=2))
        argv += draw(st.lists(entries(), max_size=2)) if command == "partition" else []
    elif command == "verify":
        argv.append(str(draw(st.sampled_from(files))))
    elif command == "bot":
        lines = st.one_of(st.sampled_from(["new", "guess", "quit", "check 0123", "score 1 2",
                                           f"score 1 {HUGE}", "score 4 0", ""]),
                          st.text(max_size=12))
        stdin = "\n".join(draw(st.lists(lines, max_size=6))) + "\n"
    elif command == "static":
        argv += ["--time-limit", "0.5"]
    elif command == "bounds":
        argv += ["--shallow", "--no-search", "--no-strategies"]
    if draw(st.booleans()):
        argv.append("--json")
    return argv, stdin


def run_cli(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    """Run the CLI in this process: (exit code, stdout, stderr)."""
    from cbsolve.cli import main

    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:       # click's --help / --version paths
                code = exc.code or 0
    finally:
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()


def check(argv: list[str], stdin: str = "") -> int:
    """Run one call and assert the contract; returns the exit code."""
    code, _, err = run_cli(argv, stdin)
    shown = " ".join(a[:40] for a in argv)
    assert code in (0, 1, 2, 130), f"exit {code}: {shown}"
    assert "Traceback" not in err, f"traceback: {shown}\n{err}"
    if code == 2:
        assert len(err.strip().splitlines()) <= 1, f"{len(err.splitlines())} lines: {shown}\n{err}"
    return code


def mutated_files(folder: Path, rng: random.Random, count: int = 12) -> list[Path]:
    """A small valid strategy tree and a shipped certificate, then mutations of both: byte
    flips, cuts, deleted or repeated slices, and values swapped for odd JSON."""
    from cbsolve.strategy import evaluate
    from cbsolve.tree import write_tree
    from cbsolve.variant import Variant

    tree = folder / "tree.json"
    write_tree(evaluate(Variant(2, "123", True), "minimax").tree, tree)
    models = Path(__file__).resolve().parents[2] / "models"
    sources = [tree.read_bytes(), (models / "mastermind-4-6-expected-depth5.json").read_bytes()]
    odd = [None, -1, 0, 10**60, "x", [], {}, True, 1.5, "0123", {"guess": "11"}]
    out = [tree]
    for k in range(count):
        raw = bytearray(rng.choice(sources))
        how = k % 4
        if how == 0:
            for _ in range(rng.randint(1, 5)):
                raw[rng.randrange(len(raw))] = rng.randrange(256)
        elif how == 1:
            raw = raw[:rng.randrange(len(raw))]
        elif how == 2:
            a = rng.randrange(len(raw))
            b = min(len(raw), a + rng.randint(1, 200))
            raw = raw[:a] + (raw[a:b] * 2 if rng.random() < 0.5 else b"") + raw[b:]
        else:
            doc = json.loads(raw)
            node = doc
            for _ in range(rng.randint(1, 6)):          # walk down to a random value
                keys = list(node) if isinstance(node, dict) else list(range(len(node))) \
                    if isinstance(node, list) else []
                if not keys:
                    break
                key = rng.choice(keys)
                if not isinstance(node[key], (dict, list)) or rng.random() < 0.3:
                    node[key] = rng.choice(odd)
                    break
                node = node[key]
            raw = json.dumps(doc).encode()
        path = folder / f"mutant{k}.json"
        path.write_bytes(bytes(raw))
        out.append(path)
    return out


def fuzz(examples: int = 50, seed: int | None = None, folder: Path | None = None) -> dict:
    """Run ``examples`` random calls (derandomized when ``seed`` is None); returns
    {exit code: calls}. A broken contract raises AssertionError naming the call."""
    codes_seen: dict[int, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        files = mutated_files(Path(folder or tmp), random.Random(seed or 0))

        @settings(max_examples=examples, deadline=None, database=None,
                  derandomize=seed is None, suppress_health_check=list(HealthCheck))
        @given(cli_calls(files))
        def one(call):
            code = check(*call)
            codes_seen[code] = codes_seen.get(code, 0) + 1

        if seed is not None:
            one = hypothesis_seed(seed)(one)
        one()
    return codes_seen


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: fixed)")
    args = parser.parse_args(argv)
    seen = fuzz(args.examples, args.seed)
    print(f"{sum(seen.values())} calls, all within the contract; exit codes {dict(sorted(seen.items()))}")


if __name__ == "__main__":
    main()
