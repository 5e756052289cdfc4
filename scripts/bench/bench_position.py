"""First answer of the advising faces on large games: whole-process seconds.

Each face runs as its own process (``python -m cbsolve ...``) with the input closed or one
protocol line, so the time is from process start to its first answer: ``next``, ``partition
GUESS``, ``assist``, ``bot`` (``guess``) and ``play --mode host`` on Bulls & Cows 5/10 and
6/10, Logik 5x8, Mastermind 6x9 and 8x8. Figures: docs/benchmarks.md, "Position service".

    python scripts/bench/bench_position.py [--games bc5,bc6,logik,mm69,mm88] [--repeat 3]
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time

GAMES = {
    "bc5": (["--length", "5", "--digits", "10"], "01234"),
    "bc6": (["--length", "6", "--digits", "10"], "012345"),
    "logik": (["--variant", "mastermind", "--length", "5", "--digits", "8"], "11223"),
    "mm69": (["--variant", "mastermind", "--length", "6", "--digits", "9"], "112233"),
    "mm88": (["--variant", "mastermind", "--length", "8", "--digits", "8"], "11223344"),
}
#: A reply to each game's opening, for the second answer (``next`` after one entry).
REPLY = {"bc5": "1,1", "bc6": "1,2", "logik": "1,1", "mm69": "1,2", "mm88": "1,2"}


def faces(opts: list[str], guess: str, reply: str) -> dict[str, tuple[list[str], str]]:
    return {"next": (["next", *opts], ""),
            "next after 1 reply": (["next", f"{guess}:{reply}", *opts], ""),
            "partition": (["partition", guess, *opts], ""),
            "assist": (["assist", *opts, "--json"], ""), "bot": (["bot", *opts], "guess\nquit\n"),
            "play-host": (["play", "--mode", "host", *opts], "")}


def first_answer(args: list[str], stdin: str) -> tuple[float, int]:
    """(seconds, exit code) of one whole process."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cbsolve", *args], input=stdin, text=True,
                          capture_output=True, timeout=120)
    return time.perf_counter() - start, done.returncode


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print("| game | face | best of runs (s) | exit |")
    print("|---|---|---|---|")
    for name in args.games.split(","):
        opts, guess = GAMES[name]
        for face, (cmd, stdin) in faces(opts, guess, REPLY[name]).items():
            runs = [first_answer(cmd, stdin) for _ in range(args.repeat)]
            best = min(r[0] for r in runs)
            print(f"| {name} | {face} | {best:.2f} | {runs[0][1]} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
