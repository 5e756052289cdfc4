"""First answer of the advising faces on large games, and the answer after replies: whole-process
seconds.

Each face runs as its own process (``python -m cbsolve ...``) with the input closed or a few
protocol lines, so the time is from process start to its exit: ``next``, ``partition GUESS``,
``assist``, ``bot`` (``guess``) and ``play --mode host`` on Bulls & Cows 5/10 and 6/10, Logik
5x8, Mastermind 6x9, 8x8 and 10x10, and 8 of 26 letters with repeats. ``--replies N`` (1 or 2)
plays N entries first (``next``/``partition``/``assist`` take them as arguments, ``bot`` as
``score`` lines; ``play --mode host`` has no replies to take) under ``--time-limit``; the
``over`` column is the wall time minus that limit (the target: at most 0.5 s; ``bot`` answers
a ``guess`` after each score under its own limit, so minus that many limits). Figures:
docs/benchmarks.md, "Position service".

    python scripts/bench/bench_position.py [--games bc5,mm88] [--faces next,bot] [--repeat 3]
    python scripts/bench/bench_position.py --replies 1 --time-limit 5 --repeat 1
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

#: game -> (variant options, the log it is asked about after 1 and after 2 replies)
GAMES = {
    "bc5": (["--length", "5", "--digits", "10"], ["01234:1,1", "15678:0,2"]),
    "bc6": (["--length", "6", "--digits", "10"], ["012345:1,2", "106789:1,1"]),
    "logik": (["--variant", "mastermind", "--length", "5", "--digits", "8"],
              ["11223:1,1", "34455:0,2"]),
    "mm69": (["--variant", "mastermind", "--length", "6", "--digits", "9"],
             ["112233:1,2", "445566:1,0"]),
    "mm88": (["--variant", "mastermind", "--length", "8", "--digits", "8"],
             ["12345678:2,3", "11223344:1,2"]),
    "mm1010": (["--variant", "mastermind", "--length", "10", "--digits", "10"],
               ["0123456789:2,3", "0011223344:1,2"]),
    "l8x26": (["--variant", "mastermind", "--length", "8", "--letters", "26", "--repeats"],
              ["ABCDEFGH:1,1", "IJKLMNOP:0,2"]),
}
FACES = ("next", "partition", "assist", "bot", "play-host")


def command(face: str, opts: list[str], entries: list[str], limit: list[str],
            guess: str) -> tuple[list[str], str] | None:
    """(arguments, stdin) of one face asked about the position ``entries`` leave (``partition``
    about ``guess``); None for ``play --mode host`` after replies (it takes none)."""
    if face == "next":
        return ["next", *entries, *opts, *limit, "--json"], ""
    if face == "partition":
        return ["partition", guess, *entries, *opts, *limit, "--json"], ""
    if face == "assist":
        return ["assist", *entries, *opts, *limit, "--json"], ""
    if face == "bot":
        lines = ["guess"]
        for e in entries:
            b, c = e.split(":")[1].split(",")
            lines += [f"score {b} {c}", "guess"]
        return ["bot", *opts, *limit], "\n".join(lines + ["quit", ""])
    if face == "play-host" and not entries:
        return ["play", "--mode", "host", *opts, *limit], ""
    return None


def run(args: list[str], stdin: str) -> tuple[float, int, str]:
    """(seconds, exit code, the answer's provenance when it says one) of one whole process."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cbsolve", *args], input=stdin, text=True,
                          capture_output=True, timeout=300)
    wall = time.perf_counter() - start
    source = ""
    try:
        data = json.loads(done.stdout)
        source = str(data.get("source") or (data.get("suggestion") or {}).get("source") or "")
    except (ValueError, AttributeError):
        pass
    return wall, done.returncode, source


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--faces", default=",".join(FACES))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--replies", type=int, default=0, choices=(0, 1, 2))
    parser.add_argument("--time-limit", type=float, default=None,
                        help="passed to every face (default: the face's own)")
    args = parser.parse_args(argv)
    limit = [] if args.time_limit is None else ["--time-limit", f"{args.time_limit:g}"]
    print("| game | face | replies | best of runs (s) | over the limit (s) | exit | source |")
    print("|---|---|---|---|---|---|---|")
    for name in args.games.split(","):
        opts, log = GAMES[name]
        for face in args.faces.split(","):
            found = command(face, opts, log[:args.replies], limit, log[0].split(":")[0])
            if found is None:
                continue
            runs = [run(*found) for _ in range(args.repeat)]
            best = min(r[0] for r in runs)
            # the bot answers a ``guess`` after each score, each under its own limit
            answers = max(1, args.replies) if face == "bot" else 1
            over = ("" if args.time_limit is None
                    else f"{best - answers * args.time_limit:+.2f}")
            print(f"| {name} | {face} | {args.replies} | {best:.2f} | {over} | {runs[0][1]} | "
                  f"{runs[0][2]} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
