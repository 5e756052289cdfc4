"""Reviews of the second and third moves computed ahead of time, for ``cbsolve review``
(cbsolve/advisor/review_memo.py; docs/benchmarks.md, "Reviewing transcripts").

    python scripts/models/review_table.py                          # Bulls & Cows 4/10
    python scripts/models/review_table.py --third-guesses          # the shipped table
    python scripts/models/review_table.py --third-guesses --slice 0/2 --out /tmp/a.json &
    python scripts/models/review_table.py --third-guesses --slice 1/2 --out /tmp/b.json
    python scripts/models/review_table.py --merge /tmp/a.json /tmp/b.json
    python scripts/models/review_table.py --length 3 --digits 6 --out /tmp/table.json
    python scripts/models/review_table.py --count                  # the orbits, no solving

A game whose codes are one symmetry class has one first guess up to symmetry (the code of
index 0 stands for all); after each of its replies, every guess that could be the secret (a
random consistent player's second guess; ``--all-guesses``: every code) is reviewed exactly for
both objectives, one guess per symmetry class (the review memo's canonical key), with no time
limit, and the position's optimum is kept. ``--third``: also the optima of the positions after
the second reply; ``--third-guesses``: also every guess that could be the secret there (a
random consistent player's third guess), one per symmetry class, the most frequent moves
first. The memo is written as JSON (:meth:`ReviewMemo.encoded`): ``{"variant", "methods",
"reviews": {key: [secrets, cost, best, best guess in the key's symbols, method number] or, for
a position's optimum, [value, best guess]}}``. The review then answers those moves at once.
Resumable: the table the review reads is loaded first and only what it lacks is solved.
"""
from __future__ import annotations

import argparse
import gzip
import json
import time
from pathlib import Path

import numpy as np

from cbsolve.advisor import PositionService
from cbsolve.advisor.review_memo import table_path
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.scoring import score_against
from cbsolve.game.variant import Variant


def orbits(service, first: int, all_guesses: bool) -> list[tuple[str, str, int]]:
    """(the first entry's token, a guess, the number of guesses it stands for), one per
    symmetry class of the second guesses after each reply to code ``first``."""
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
    parser.add_argument("--third-guesses", action="store_true",
                        help="Also the reviews of every guess that could be the secret at those "
                             "positions (a random consistent player's third guess), one per "
                             "symmetry class, the most frequent moves first.")
    parser.add_argument("--slice", default=None, metavar="I/K",
                        help="Only the third guesses whose rank is I modulo K (runs in K "
                             "processes; fold their tables with --merge).")
    parser.add_argument("--merge", nargs="+", default=(), metavar="FILE",
                        help="Fold these tables into the output and stop.")
    parser.add_argument("--out", default=None, help="Default: the table the review reads.")
    args = parser.parse_args(argv)
    variant = Variant.from_options(args.variant, length=args.length, digits=args.digits)
    service = PositionService(variant)
    out = args.out or str(table_path(variant))
    memo = service.reviewer()._memo       # holds the shipped table: what it has is not solved
    if args.merge:
        for path in args.merge:
            memo.fold(read(path))
        write(out, variant, memo)
        return
    work = orbits(service, 0, args.all_guesses)
    print(f"{len(work)} second guesses up to symmetry, standing for "
          f"{sum(k for _, _, k in work)} moves", flush=True)
    if args.count:
        return
    for token, guess, k in sorted(work, key=lambda w: w[2]):     # small classes first
        solve_move(service, FeedbackLog.parse(variant, [token]), guess, f"({k} moves)")
        write(out, variant, memo)
    if args.third or args.third_guesses:
        for log, weight in third_positions(service, work):
            for objective in ("worst", "expected"):
                if memo.get_optimum(memo.position_key(log, objective)) is not None:
                    continue
                t0 = time.perf_counter()
                guess = service.space.format(service.space.codes[int(service.candidates(log)[0])])
                r = service.review(log, guess, objective, Deadline(None))
                print(f"{' '.join(log.tokens())} ({weight} games in 5040) {objective}: optimum "
                      f"{r.best}, {time.perf_counter() - t0:.1f} s", flush=True)
            write(out, variant, memo)
    if args.third_guesses:
        index, count = map(int, (args.slice or "0/1").split("/"))
        moves = third_guesses(service, third_positions(service, work))
        written = time.perf_counter()
        for rank, (log, guess, weight) in enumerate(moves):
            if rank % count == index:
                solve_move(service, log, guess,
                           f"(rank {rank} of {len(moves)}, {100 * weight:.3f} % of games)")
            if time.perf_counter() - written > 60:
                write(out, variant, memo)
                written = time.perf_counter()
        write(out, variant, memo)


def solve_move(service, log, guess: str, label: str) -> None:
    """Review ``guess`` after ``log`` for both objectives with no time limit, unless the memo
    (with the table it read) has it; the position's optimum is kept too (the review then needs
    no certified tree there)."""
    memo = service.reviewer()._memo
    for objective in ("worst", "expected"):
        key = memo.key(log, service.space.parse(guess), objective)
        if (kept := memo.get(key)) is None:
            t0 = time.perf_counter()
            r = service.review(log, guess, objective, Deadline(None))
            print(f"{' '.join(log.tokens())} {guess} {label} {objective}: cost {r.cost}, best "
                  f"{r.best}, exact {r.exact}, {time.perf_counter() - t0:.1f} s", flush=True)
            if not r.exact:
                continue
            kept = memo.get(key)
        position = memo.position_key(log, objective)
        if memo.get_optimum(position) is None:        # e.g. read off the certified tree
            memo.put_optimum(position, kept[2], kept[3])


def third_guesses(service, positions) -> list[tuple]:
    """(log, a guess, share), one per symmetry class of the guesses that could be the secret
    at each position after the second reply; share: the probability that a random consistent
    player's game makes that move (up to symmetry), the largest first."""
    memo = service.reviewer()._memo
    space, found = service.space, {}
    for log, weight in positions:
        cands = service.candidates(log)
        first = service.candidates(FeedbackLog(log.variant, log.entries[:1])).size
        for g in cands:
            key = memo.key(log, tuple(int(x) for x in space.codes[g]), "expected")[0]
            if key not in found:
                found[key] = [log, space.format(space.codes[g]), 0.0]
            found[key][2] += weight / (space.size * first * len(cands))
    return sorted((tuple(v) for v in found.values()), key=lambda m: -m[2])


def read(path: str) -> dict:
    """A table file as :func:`write` wrote it."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return json.load(handle)


def third_positions(service, work):
    """(log, how many of the 5040 x ... games reach it) after each second guess class and
    reply, the most frequent first."""
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


def write(out, variant, memo) -> None:
    """The memo (the table it read and what was solved) as the table file, written whole;
    gzipped when its name ends in .gz (the shipped table's does), with no time stamp."""
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"variant": variant.to_dict(), **memo.encoded()}, sort_keys=True,
                      separators=(",", ":")).replace('],"', '],\n"') + "\n"
    tmp = Path(out + ".tmp")
    if out.endswith(".gz"):
        with open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0,
                                                   filename="") as handle:
            handle.write(text.encode("utf-8"))
    else:
        tmp.write_text(text)
    tmp.replace(out)


if __name__ == "__main__":
    main()
