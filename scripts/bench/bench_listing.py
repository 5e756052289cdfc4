"""The listing of a large space's consistent secrets: the filter over every code against the
depth-first search that lists them (:func:`cbsolve.consistency.native.consistent_within`), CPU
seconds in one process, the same indices checked. Figures: docs/benchmarks.md, "Position
service".

    python scripts/bench/bench_listing.py                       # Mastermind 8x8, two logs
    python scripts/bench/bench_listing.py --length 5 --digits 8 --entries 12345:1,2
"""
from __future__ import annotations

import argparse
import time

#: The logs of Mastermind 8x8 the position service lists after one and two replies.
LOGS = (["12345678:2,3"], ["12345678:2,3", "11223344:1,2"])


def timed(log, search: bool) -> tuple[float, object]:
    """(CPU seconds, indices) of one listing, by the search or by the filter of every code."""
    from cbsolve.consistency import native

    saved = native.SEARCH_CODES
    native.SEARCH_CODES = 0 if search else log.space.size
    try:
        start = time.process_time()
        found, complete = native.consistent_within(log)
        assert complete
        return time.process_time() - start, found
    finally:
        native.SEARCH_CODES = saved


def main(argv=None) -> int:
    from cbsolve.game.feedback import FeedbackLog
    from cbsolve.game.variant import Variant

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--length", type=int, default=8)
    parser.add_argument("--digits", type=int, default=8)
    parser.add_argument("--entries", nargs="+", default=None, help="one log (default: two)")
    args = parser.parse_args(argv)
    v = Variant.from_options("mastermind", length=args.length, digits=args.digits)
    print("| log | secrets | list the codes (s) | filter every code (s) | search (s) |")
    print("|---|---|---|---|---|")
    for entries in [args.entries] if args.entries else LOGS:
        log = FeedbackLog.parse(v, entries)
        start = time.process_time()
        _ = log.space.codes                  # the filter's array of every code, made once
        listing = time.process_time() - start
        filtered, every = timed(log, search=False)
        searched, found = timed(log, search=True)
        assert (every == found).all(), "the search and the filter disagree"
        print(f"| {' '.join(entries)} | {found.size} | {listing:.3f} | {filtered:.3f} | "
              f"{searched:.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
