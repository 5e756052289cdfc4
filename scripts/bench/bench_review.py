"""How fast ``cbsolve review`` grades games, and how many moves it grades exactly
(docs/benchmarks.md, "Reviewing transcripts").

    python scripts/bench/bench_review.py                      # 20 games of Bulls & Cows 4/10
    python scripts/bench/bench_review.py --games 5 --seed 3 --move-time 0.5
    python scripts/bench/bench_review.py --length 3 --digits 6 --games 50

Games of random consistent players (each guess drawn uniformly from the secrets the replies
so far allow, the secret drawn uniformly; one NumPy generator seeded ``--seed``), reviewed one
after another by one position service, as ``cbsolve review`` does, with the per-move budget
``--move-time`` (the command's default). Prints per game the wall and CPU seconds and the exact
share, then the means with the load average before and after, and per turn the exact share
(the target: <= 0.5 s a game on average with >= 95 % of moves exact). The games can be written as JSON lines
(``--write FILE``) for ``cbsolve review FILE``.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import time

import numpy as np

from cbsolve.game.codes import CodeSpace
from cbsolve.game.scoring import score_against
from cbsolve.game.variant import Variant


def random_games(variant: Variant, count: int, seed: int) -> list[dict]:
    """``count`` games of a random consistent player, as ``review`` lines."""
    space = CodeSpace(variant)
    codes, rng = space.codes, np.random.default_rng(seed)
    games = []
    for _ in range(count):
        secret = int(rng.integers(space.size))
        cands, entries = np.arange(space.size), []
        while True:
            g = int(rng.choice(cands))
            r = int(score_against(variant, codes[g], codes[[secret]])[0])
            b, c = variant.response_of(r)
            entries.append({"guess": space.format(codes[g]), "bulls": b}
                           | ({} if variant.bulls_only else {"cows": c}))
            if g == secret:
                break
            cands = cands[score_against(variant, codes[g], codes[cands]) == r]
        games.append({"variant": variant.to_dict(), "entries": entries})
    return games


def bench(variant: Variant, count: int, seed: int, move_time: float | None) -> dict:
    """Review each game; per game (wall, CPU, moves, exact moves), per turn (seconds, exact)."""
    from cbsolve.advisor import PositionService
    from cbsolve.runtime.deadline import Deadline
    from cbsolve.play.game_review import review_game
    from cbsolve.play.transcripts import read_game

    service = PositionService(variant)
    per_game, per_turn = [], {}
    for line, game in enumerate(random_games(variant, count, seed), 1):
        transcript = read_game(json.dumps(game), line, variant)
        t0, c0 = time.perf_counter(), time.process_time()
        done = review_game(service, transcript, Deadline(None), move_time)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        per_game.append({"wall": wall, "cpu": cpu, "moves": len(done.moves),
                         "exact": sum(m.exact for m in done.moves)})
        for m in done.moves:
            per_turn.setdefault(m.number, []).append(m.exact)
    return {"games": per_game, "turns": per_turn}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="bulls-cows")
    parser.add_argument("--length", type=int, default=None)
    parser.add_argument("--digits", type=int, default=None)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--move-time", type=float, default=None,
                        help="Per-move budget (default: the command's); 0: none.")
    parser.add_argument("--write", default=None, metavar="FILE",
                        help="Write the games as JSON lines and stop.")
    args = parser.parse_args(argv)
    from cbsolve.runtime.time_policy import REVIEW_MOVE_SECONDS

    variant = Variant.from_options(args.variant, length=args.length, digits=args.digits)
    if args.write:
        with open(args.write, "w", encoding="utf-8") as fh:
            fh.writelines(json.dumps(g) + "\n" for g in random_games(variant, args.games,
                                                                     args.seed))
        return
    move_time = REVIEW_MOVE_SECONDS if args.move_time is None else (args.move_time or None)
    load = os.getloadavg()[0]
    out = bench(variant, args.games, args.seed, move_time)
    games = out["games"]
    for k, g in enumerate(games, 1):
        print(f"game {k:3d}: {g['wall']:.3f} s wall, {g['cpu']:.3f} s CPU, "
              f"{g['exact']}/{g['moves']} moves exact")
    moves, exact = sum(g["moves"] for g in games), sum(g["exact"] for g in games)
    print(f"{variant.describe()}, {len(games)} games (seed {args.seed}), move budget "
          f"{move_time} s: mean {statistics.fmean(g['wall'] for g in games):.3f} s wall, "
          f"{statistics.fmean(g['cpu'] for g in games):.3f} s CPU a game "
          f"(max {max(g['wall'] for g in games):.3f} s); {exact}/{moves} moves exact "
          f"({100 * exact / max(moves, 1):.1f} %); load {load:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after")
    for turn, flags in sorted(out["turns"].items()):
        print(f"  turn {turn}: {len(flags)} moves, {100 * sum(flags) / len(flags):.0f} % exact")


if __name__ == "__main__":
    main()
