"""Benchmark the streaming evaluation (cbsolve/strategy/streaming.py) on the games of mikemag's
table (Mastermind with repeats, N x D), smallest first: worst case, total, histogram, wall time and
peak memory of each game, each in its own measured process (scripts/common/child_run.py).

    python scripts/bench/bench_streaming.py                       # every game of the table
    python scripts/bench/bench_streaming.py --games 5x8,6x6 --recipe '{"heuristic": "parts"}'
    python scripts/bench/bench_streaming.py --out scripts/bench/streaming_results.jsonl
    python scripts/bench/bench_streaming.py --table     # the results file as a markdown table
    python scripts/bench/bench_streaming.py --games 7x5 --recipe '{"first": "all"}'  # every pattern
    python scripts/bench/bench_streaming.py --games 8x10-distinct,9x9-distinct  # no repeats

A game is ``NxD`` (Mastermind, repeats allowed), ``NxD-distinct`` (Bulls & Cows rules: no
symbol twice, N <= D) or ``NxD-black-peg`` (repeats allowed, bulls only).

``"first": "all"`` runs the recipe once for each first guess up to symmetry (each code pattern):
each run is a strategy evaluated exactly, and the table keeps the best.

Results are appended to ``--out`` as one JSON line a run (resumable: a game already there with
the same recipe is skipped). ``--time-limit`` is each game's Deadline; a stopped game is recorded
as stopped, with no numbers. Run it under ``nice``: the machine is shared.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "common"))

import child_run  # noqa: E402

#: mikemag/Mastermind (GitHub, 2023), the JSON files under results/: the most guesses (the last one
#: counted) of the best strategy he evaluated exactly, Mastermind with repeats, (N, D) -> worst.
MIKEMAG = {(5, 8): 7, (5, 9): 8, (5, 10): 8, (5, 11): 9, (5, 12): 9, (6, 5): 6, (6, 6): 7,
           (6, 7): 8, (6, 8): 8, (6, 9): 9, (6, 10): 9, (6, 11): 9, (6, 12): 10, (7, 4): 6,
           (7, 5): 7, (7, 6): 8, (7, 7): 8, (7, 8): 9, (7, 9): 9, (7, 10): 10, (7, 11): 10,
           (7, 12): 11, (8, 4): 7, (8, 5): 8, (8, 6): 9, (8, 7): 9, (8, 8): 10, (8, 9): 10}

SYMBOLS = "0123456789AB"
DISTINCT, BLACK_PEG = "-distinct", "-black-peg"


def game_variant(game: str):
    """The Variant a game name stands for: ``NxD`` with repeats, ``NxD-distinct`` without,
    ``NxD-black-peg`` with repeats and bulls only."""
    from cbsolve.game.variant import Variant

    m = re.fullmatch(r"(\d+)x(\d+)(%s|%s)?" % (DISTINCT, BLACK_PEG), game)
    if not m or not 1 <= int(m.group(2)) <= len(SYMBOLS):
        raise SystemExit(f"bench_streaming: game {game!r} is not NxD, NxD{DISTINCT} or "
                         f"NxD{BLACK_PEG} (D at most {len(SYMBOLS)})")
    n, d = int(m.group(1)), int(m.group(2))
    if m.group(3) == DISTINCT and n > d:
        raise SystemExit(f"bench_streaming: {game} has more positions than symbols")
    return Variant(n, SYMBOLS[:d], repeats=m.group(3) != DISTINCT,
                   feedback="bulls" if m.group(3) == BLACK_PEG else "bulls-cows")


def run_one(game: str, recipe: dict, seconds: float | None) -> dict:
    """Evaluate one game in this process; the result as JSON."""
    return child_run.evaluated(game_variant(game).to_dict(), recipe, seconds)


def first_guesses(game: str) -> list[str]:
    """One first guess per code pattern (the first guesses up to symmetry)."""
    from cbsolve.game.codes import CodeSpace
    from cbsolve.game.symmetry import Symmetry

    variant = game_variant(game)
    space = CodeSpace(variant)
    return [space.format(space.code_at(int(i))) for i in Symmetry(variant).guess_representatives([])]


def measured(game: str, recipe: dict, seconds: float | None) -> dict:
    """One game evaluated in a measured child: its result, wall, CPU, peak RSS and load, and how
    it stands against mikemag's value."""
    v = game_variant(game)
    out = child_run.streaming(v.to_dict(), recipe, seconds)
    out.update(game=game, mikemag=MIKEMAG.get((v.length, v.n_symbols)) if v.repeats else None)
    if out.get("worst") is not None and out["mikemag"] is not None:
        out["versus_mikemag"] = ("beats" if out["worst"] < out["mikemag"] else
                                 "matches" if out["worst"] == out["mikemag"] else "worse")
    return out


def table(rows: list[dict]) -> str:
    """Each game's best complete run (fewest guesses at worst, then total) as markdown, and the
    stopped ones."""
    best: dict[str, dict] = {}
    for row in rows:
        if row.get("complete"):
            key = (row["worst"], row["total"])
            if row["game"] not in best or key < (best[row["game"]]["worst"], best[row["game"]]["total"]):
                best[row["game"]] = row
    lines = ["| game | secrets | worst | mikemag | total | average | histogram (guesses: secrets) "
             "| wall s | CPU s | peak RSS MB | load | recipe |", "|" + "---|" * 12]
    for game, row in sorted(best.items(), key=lambda kv: kv[1]["secrets"]):
        hist = ", ".join(f"{k}: {v}" for k, v in row["histogram"].items())
        asked = {k: v for k, v in row["recipe"].items() if k != "scheme"}
        lines.append(f"| {game} | {row['secrets']:,} | {row['worst']} ({row.get('versus_mikemag')}) "
                     f"| {row['mikemag']} | {row['total']:,} | {row['average']:.4f} | {hist} "
                     f"| {row['wall_seconds']} | {row['cpu_seconds']} | {row['peak_rss_mb']} "
                     f"| {row['load']:.1f} | `{json.dumps(asked)}` |")
    stopped = sorted({row["game"] for row in rows if not row.get("complete")} - set(best))
    if stopped:
        lines.append(f"\nStopped before the end (no bound): {', '.join(stopped)}.")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", help="N x D list, e.g. 5x8,6x6 (default: mikemag's table)")
    parser.add_argument("--recipe", default="{}", help="recipe fields as JSON")
    parser.add_argument("--time-limit", type=float, default=1800.0, help="seconds a game")
    parser.add_argument("--out", default=str(ROOT / "scripts/bench/streaming_results.jsonl"))
    parser.add_argument("--table", action="store_true", help="print --out as a markdown table")
    args = parser.parse_args()
    recipe = json.loads(args.recipe)
    if args.table:
        print(table([json.loads(line) for line in Path(args.out).read_text().splitlines()]))
        return
    games = (args.games.split(",") if args.games else
             [f"{n}x{d}" for n, d in sorted(MIKEMAG, key=lambda g: g[1] ** g[0])])
    for game in games:
        game_variant(game)          # a bad name stops here, before any run
    out = Path(args.out)
    done = set()
    if out.exists():
        for line in out.read_text().splitlines():
            row = json.loads(line)
            if row.get("complete"):
                done.add((row["game"], json.dumps(row.get("asked", {}), sort_keys=True)))
    for game in games:
        asked = ([dict(recipe, first=f) for f in first_guesses(game)]
                 if recipe.get("first") == "all" else [recipe])
        for one in asked:
            if (game, json.dumps(one, sort_keys=True)) in done:
                continue
            row = measured(game, one, args.time_limit)
            row["asked"] = one
            with out.open("a") as f:
                f.write(json.dumps(row) + "\n")
            print(game, one.get("first"), row.get("worst"), row.get("mikemag"),
                  row.get("versus_mikemag"), row.get("total"), row.get("wall_seconds"),
                  row.get("peak_rss_mb"), flush=True)


if __name__ == "__main__":
    main()
