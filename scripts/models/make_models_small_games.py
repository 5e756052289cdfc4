"""Worst-case (and, where the expected-case solver is installed, expected-case) optima of small
Mastermind and Bulls & Cows games, as a JSON model and a Markdown table for docs/optimal.md.

Pure function :func:`small_games` plus :func:`main`. The worst case is proved by
:func:`cbsolve.search.worst.solve_worst` and each tree with its certificate is re-checked by
:mod:`cbsolve.certify`; the expected column is proved by ``solve_expected`` within
``--expected-limit`` seconds per game (otherwise the proved interval is shown).

    python scripts/models/make_models_small_games.py                 # prints the table
    python scripts/models/make_models_small_games.py --write models/small-games.json
    python scripts/models/make_models_small_games.py --ties-limit 20 --write models/small-games-ties.json

``--ties-limit S`` makes the tie-break table instead: per game the worst case with its proved
tie-breaks (``solve_worst(ties=True)``, one worker, S seconds), fewest secrets at the worst
depth and the smallest total with that many (intervals when not proved within S).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from cbsolve.certify import verify
from cbsolve.codes import CodeSpace
from cbsolve.search.worst import solve_worst
from cbsolve.variant import Variant

DIGITS = "0123456789"


def games(max_length: int = 4):
    for n in range(2, max_length + 1):
        for d in range(2, 7):
            yield "mastermind", Variant(n, DIGITS[:d], repeats=True)
    for n in range(2, max_length + 1):
        for d in range(max(3, n), 11):
            yield "bulls-cows", Variant(n, DIGITS[:d], repeats=False)


def small_games(max_length: int = 4, expected_limit: float | None = 20.0) -> list[dict]:
    """One row per game: secrets, proved worst case, its tree's count at that depth and total,
    and the expected-case optimum (total guesses) when proved within the limit."""
    solve_expected = None
    if expected_limit:
        try:
            from cbsolve.search.expected import solve_expected
        except ImportError:
            pass
    rows = []
    for family, variant in games(max_length):
        t0 = time.perf_counter()
        res = solve_worst(variant, workers=1)
        report = verify(res.tree)
        if not (res.proved and report.valid and report.optimal):
            raise RuntimeError(f"{variant.describe()}: not certified ({report.message})")
        row = {"family": family, "length": variant.length, "symbols": variant.n_symbols,
               "secrets": res.secrets, "worst": res.worst,
               "tree_at_worst": res.histogram[res.worst], "tree_total": res.total,
               "worst_seconds": round(time.perf_counter() - t0, 2)}
        if solve_expected is not None:
            t0 = time.perf_counter()
            ex = solve_expected(variant, time_limit=expected_limit, workers=1)
            row.update(expected_total=ex.total if ex.proved else None,
                       expected_lower=ex.lower, expected_upper=ex.upper,
                       expected_worst=ex.worst if ex.proved else None,
                       expected_seconds=round(time.perf_counter() - t0, 2))
        rows.append(row)
    return rows


#: Games above this size are left out of the tie-break table (Bulls & Cows 4/10: see
#: docs/optimal.md for its interval).
TIES_MAX_SECRETS = 3100


def small_games_ties(max_length: int = 4, limit: float = 20.0) -> list[dict]:
    """One row per game: proved worst case W, fewest secrets needing W (interval if the time
    ran out), the smallest total with that many, each tree re-checked by the verifier."""
    rows = []
    for family, variant in games(max_length):
        if CodeSpace(variant).size > TIES_MAX_SECRETS:
            continue
        t0 = time.perf_counter()
        res = solve_worst(variant, workers=1, ties=True, ties_limit=limit)
        report = verify(res.tree)
        if not (res.proved and report.valid and report.optimal):
            raise RuntimeError(f"{variant.describe()}: not certified ({report.message})")
        ties = res.tree["ties"]
        lo, hi = res.at_worst
        rows.append({"family": family, "length": variant.length, "symbols": variant.n_symbols,
                     "secrets": res.secrets, "worst": res.worst, "at_worst_lower": lo,
                     "at_worst_upper": hi, "total": res.total, "total_lower": ties["total_lower"],
                     "ties_proved": ties["proved"],
                     "seconds": round(time.perf_counter() - t0, 2)})
        print(rows[-1], file=sys.stderr, flush=True)
    return rows


def markdown_ties(rows: list[dict]) -> str:
    lines = ["| game | N | D | secrets | worst W (proved) | fewest secrets needing W | "
             "smallest total with that many |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        lo, hi = r["at_worst_lower"], r["at_worst_upper"]
        at = f"**{hi}**" if lo == hi else f"in [{lo}, {hi}]"
        if r["ties_proved"]:
            total = f"**{r['total']}**"
        elif lo == hi:
            total = f"in [{r['total_lower'] or '?'}, {r['total']}]"
        else:
            total = f"({r['total']}, tree)"
        lines.append(f"| {r['family']} | {r['length']} | {r['symbols']} | {r['secrets']} | "
                     f"{r['worst']} | {at} | {total} |")
    return "\n".join(lines)


def markdown(rows: list[dict]) -> str:
    lines = ["| game | N | D | secrets | worst (proved) | secrets at worst (our tree) | "
             "total of that tree | expected optimum: total (average) |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if r.get("expected_total") is not None:
            ex = f"{r['expected_total']} ({r['expected_total'] / r['secrets']:.4f})"
        elif r.get("expected_lower") is not None:
            ex = f"in [{r['expected_lower']}, {r['expected_upper']}] (not proved)"
        else:
            ex = "—"
        lines.append(f"| {r['family']} | {r['length']} | {r['symbols']} | {r['secrets']} | "
                     f"{r['worst']} | {r['tree_at_worst']} | {r['tree_total']} | {ex} |")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-length", type=int, default=4)
    parser.add_argument("--expected-limit", type=float, default=20.0,
                        help="seconds per game for the expected case (0: skip)")
    parser.add_argument("--write", default=None, metavar="FILE", help="also write the rows as JSON")
    parser.add_argument("--ties-limit", type=float, default=0.0, metavar="SECONDS",
                        help="make the tie-break table instead (seconds per game)")
    args = parser.parse_args(argv)
    if args.ties_limit > 0:
        rows = small_games_ties(args.max_length, args.ties_limit)
        if args.write:
            Path(args.write).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
        print(markdown_ties(rows))
        return
    rows = small_games(args.max_length, args.expected_limit)
    if args.write:
        Path(args.write).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    print(markdown(rows))


if __name__ == "__main__":
    main()
