"""Reviews of the second move computed ahead of time, for ``cbsolve review``
(cbsolve/advisor/review_memo.py; docs/benchmarks.md, "Reviewing transcripts").

    python scripts/models/review_table.py                          # Bulls & Cows 4/10
    python scripts/models/review_table.py --length 3 --digits 6 --out /tmp/table.json
    python scripts/models/review_table.py --count                  # the orbits, no solving

A game whose codes are one symmetry class has one first guess up to symmetry (the code of
index 0 stands for all); after each of its replies, every guess that could be the secret (a
random consistent player's second guess; ``--all-guesses``: every code) is reviewed exactly for
both objectives, one guess per symmetry class (the review memo's canonical key), with no time
limit, and the memo is written as JSON: ``{"variant", "reviews": {key: [secrets, cost, best,
best guess in the key's symbols, method]}}``. The review then answers those moves at once.
Resumable: an existing table's reviews are kept and only the missing ones are solved.
"""
from __future__ import annotations

import argparse
import json
import time

import numpy as np

from cbsolve.game.variant import Variant


def orbits(service, first: int, all_guesses: bool) -> list[tuple[str, str, int]]:
    """(the first entry's token, a guess, the number of guesses it stands for), one per
    symmetry class of the second guesses after each reply to code ``first``."""
    from cbsolve.game.feedback import FeedbackLog
    from cbsolve.game.scoring import score_against

    space, v = service.space, service.variant
    memo = service.reviewer()._memo
    replies = score_against(v, space.codes[first], space.codes)
    out = []
    for r in np.unique(replies):
        if int(r) == v.win_response:
            continue
        b, c = v.response_of(int(r))
        token = f"{space.format(space.codes[first])}:{b}" + ("" if v.bulls_only else f",{c}")
        log = FeedbackLog.parse(v, [token])
        pool = np.arange(space.size) if all_guesses else np.flatnonzero(replies == r)
        seen: dict[str, list] = {}
        for g in pool:
            key = memo.key(log, tuple(int(x) for x in space.codes[g]), "expected")[0]
            seen.setdefault(key, [int(g), 0])[1] += 1
        out += [(token, space.format(space.codes[g]), k) for g, k in seen.values()]
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="bulls-cows")
    parser.add_argument("--length", type=int, default=None)
    parser.add_argument("--digits", type=int, default=None)
    parser.add_argument("--all-guesses", action="store_true")
    parser.add_argument("--count", action="store_true", help="Count the orbits and stop.")
    parser.add_argument("--third", action="store_true",
                        help="Also the optima of the positions after the second reply (each "
                             "second guess class, each reply), the most frequent first.")
    parser.add_argument("--out", default=None, help="Default: the table the review reads.")
    args = parser.parse_args(argv)
    from cbsolve.advisor import PositionService
    from cbsolve.advisor.review_memo import load_table, table_path
    from cbsolve.runtime.deadline import Deadline
    from cbsolve.game.feedback import FeedbackLog

    variant = Variant.from_options(args.variant, length=args.length, digits=args.digits)
    service = PositionService(variant)
    work = orbits(service, 0, args.all_guesses)
    print(f"{len(work)} second guesses up to symmetry, standing for "
          f"{sum(k for _, _, k in work)} moves", flush=True)
    if args.count:
        return
    out = args.out or str(table_path(variant))
    memo = service.reviewer()._memo
    kept = load_table(variant) if args.out is None else {}
    for token, guess, k in sorted(work, key=lambda w: w[2]):     # small classes first
        log = FeedbackLog.parse(variant, [token])
        for objective in ("worst", "expected"):
            key = memo.key(log, service.space.parse(guess), objective)
            if key[0] in kept:
                continue
            t0 = time.perf_counter()
            r = service.review(log, guess, objective, Deadline(None))
            print(f"{token} {guess} ({k} moves) {objective}: cost {r.cost}, best {r.best}, "
                  f"exact {r.exact}, {time.perf_counter() - t0:.1f} s", flush=True)
        write(out, variant, kept, memo)
    if args.third:
        for log, weight in third_positions(service, work):
            for objective in ("worst", "expected"):
                if memo.position_key(log, objective)[0] in kept:
                    continue
                t0 = time.perf_counter()
                guess = service.space.format(service.space.codes[int(service.candidates(log)[0])])
                r = service.review(log, guess, objective, Deadline(None))
                print(f"{' '.join(log.tokens())} ({weight} games in 5040) {objective}: optimum "
                      f"{r.best}, {time.perf_counter() - t0:.1f} s", flush=True)
            write(out, variant, kept, memo)


def third_positions(service, work):
    """(log, how many of the 5040 x ... games reach it) after each second guess class and
    reply, the most frequent first."""
    from cbsolve.game.feedback import FeedbackLog
    from cbsolve.game.scoring import score_against

    v, space = service.variant, service.space
    found = []
    for token, guess, k in work:
        log = FeedbackLog.parse(v, [token])
        cands = service.candidates(log)
        g = space.index_of(space.parse(guess))
        replies = score_against(v, space.codes[g], space.codes[cands])
        for r in np.unique(replies):
            if int(r) == v.win_response:
                continue
            b, c = v.response_of(int(r))
            second = FeedbackLog.parse(v, [token, f"{guess}:{b}" + ("" if v.bulls_only else f",{c}")])
            found.append((second, k * int((replies == r).sum())))
    return sorted(found, key=lambda item: -item[1])


def write(out, variant, kept, memo) -> None:
    from pathlib import Path

    Path(out).parent.mkdir(parents=True, exist_ok=True)
    reviews = {**kept, **memo.dump()}
    Path(out).write_text(json.dumps({"variant": variant.to_dict(), "reviews": reviews},
                                    sort_keys=True, indent=0) + "\n")


if __name__ == "__main__":
    main()
