"""Seconds of the exact searches' set-up (the reply matrix; for the expected search also its
transposed copy), with no time limit: what a full run pays before its search starts.

Each case runs in a fresh process (a 1 GiB matrix must not slow the next case), importing the
cbsolve of ``--checkout`` (default: this one), so two checkouts can be compared side by side,
alternating A B B A:

    nice python scripts/bench/bench_setup.py --games mm5x8 bc5 --checkout /path/a /path/b --rounds 2

Prints one JSON line per case and a Markdown table of the medians.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import ab

GAMES = {
    "mm5x8": ("mastermind", {"length": 5, "symbols": "12345678", "repeats": True}),
    "bc5": ("bulls-cows", {"length": 5}),
    "d8of8": ("bulls-cows", {"length": 8, "symbols": "01234567"}),
    "mm5x5": ("mastermind", {"length": 5, "symbols": "12345", "repeats": True}),
}


def run_one(search: str, game: str) -> dict:
    """The set-up of one search in this process: seconds to a search object ready to run."""
    from cbsolve.game.variant import Variant

    preset, options = GAMES[game]
    variant = Variant.from_options(preset, **options)
    start = time.perf_counter()
    if search == "worst":
        from cbsolve.search.worst.kernel import _Native
        _Native(variant, "all", {}, 2)
    else:
        from cbsolve.search.expected.search import _Search
        _Search(variant, None, "all", 2, True, {}, 10**6)
    return {"search": search, "game": game, "seconds": round(time.perf_counter() - start, 3)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["mm5x8", "bc5"], choices=list(GAMES))
    parser.add_argument("--searches", nargs="+", default=["worst", "expected"])
    parser.add_argument("--checkout", nargs="+", default=[str(ab.THIS)])
    parser.add_argument("--rounds", type=int, default=1, help="A B then B A, this many times")
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(run_one(*args.one)))
        return 0
    print(f"load average {os.getloadavg()[0]:.1f}; {os.cpu_count()} cores", flush=True)
    times: dict[tuple, list[float]] = {}
    for game in args.games:
        for search in args.searches:
            for checkout in ab.alternating(args.checkout, args.rounds):
                out = ab.run(checkout, [os.path.abspath(__file__), "--one", search, game])
                row = json.loads(out.last_line())
                row.update(checkout=checkout, load=round(os.getloadavg()[0], 1))
                print(json.dumps(row), flush=True)
                times.setdefault((game, search, checkout), []).append(row["seconds"])
    print("\n| game | search | checkout | set-up s (median) | runs |\n|---|---|---|---|---|")
    for (game, search, checkout), values in times.items():
        print(f"| {game} | {search} | {checkout} | {statistics.median(values):.2f} | "
              f"{', '.join(f'{v:.2f}' for v in values)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
