"""Polish a heuristic strategy tree for the expected case (scripts/research/polish.py) and record it.

The input is a tree file (``cbsolve evaluate --out``) or, without ``--tree``, the tree of
``--strategy`` (default entropy) built here. The polished tree is written (gzipped when the
name ends in .gz), replayed secret by secret with the scorer, and with ``--record NAME`` its
row (total, time, CPU, peak memory, machine, load) goes into models/polished-results.json,
from which ``--table`` prints the "Best verified trees" table of docs/optimal.md:

    nice python scripts/research/polish_tree.py --length 5 --symbols 12345678 --repeats \\
        --exact-max 300 --node-seconds 10 --out models/certified/mm-5x8-polished.json.gz \\
        --record mm-5x8-polished
    python scripts/research/polish_tree.py --table
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cbsolve.runtime.machine import describe as describe_machine  # noqa: E402
from cbsolve.strategy.evaluation import evaluate  # noqa: E402
from cbsolve.certificates.tree import histogram_of, make_tree, read_tree, write_tree  # noqa: E402
from cbsolve.game.variant import Variant  # noqa: E402

from polish import Polisher  # noqa: E402

RESULTS = ROOT / "models" / "polished-results.json"


def polish_file(variant: Variant, tree: dict | None, strategy: str, first: str | None,
                settings: dict, log) -> tuple[dict, Polisher]:
    """(polished tree document, the polisher) for ``tree`` (None: ``strategy``'s tree)."""
    if tree is None:
        tree = evaluate(variant, strategy, first=first).tree
        log(f"{strategy} tree: total {tree['stats']['total']}")
    polisher = Polisher(variant, log=log, **settings)
    root, total = polisher.polish(tree["root"])
    hist = histogram_of(variant, root)   # the independent replay (cbsolve.certificates.certify)
    replayed = sum(k * v for k, v in hist.items())
    if replayed != total:
        raise AssertionError(f"internal error: polished tree replays to {replayed}, "
                             f"the polisher counted {total}")
    doc = make_tree(variant, "polished", "all", root, hist, objective="expected",
                    polished={"from": tree.get("strategy"), "input_total": polisher.stats.before,
                              **settings})
    return doc, polisher


def table(rows: dict) -> str:
    lines = ["| game | secrets | input tree | polished total (average) | worst | proved lower "
             "bound | wall s (CPU s) | peak memory | load | command |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows.values():
        low = f"{r['lower']['bound']:,}" if r.get("lower") else "—"
        lines.append(f"| {r['game']} | {r['secrets']:,} | {r['input']} {r['input_total']:,} | "
                     f"**{r['total']:,}** ({r['total'] / r['secrets']:.4f}) | {r['worst']} | {low} | "
                     f"{r['seconds']:g} ({r['cpu_seconds']:g}) | {r['max_rss_mib']} MiB | "
                     f"{r['load']} | `{r['command']}` |")
    return "\n".join(lines)


def measured(started: float, load: float, argv: list[str]) -> dict:
    """A run's cost for its row: wall and CPU seconds since ``started``, peak memory, the load
    average before (``load``) and now, and the command."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {"seconds": round(time.perf_counter() - started, 1),
            "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1),
            "max_rss_mib": round(usage.ru_maxrss / 1024),
            "load": f"{load:.1f}-{os.getloadavg()[0]:.1f}",
            "command": "python scripts/research/polish_tree.py " + shlex.join(argv)}


def lower_only(variant: Variant, args, argv: list[str]) -> int:
    """Prove the first-guess lower bound alone and add it to the recorded row."""
    from first_guess_bound import game_bound

    started, load = time.perf_counter(), os.getloadavg()[0]
    bound = game_bound(variant, max_class=args.lower_bound, seconds=args.lower_seconds,
                       time_limit=args.lower_time_limit,
                       log=lambda msg: print(msg, file=sys.stderr, flush=True)).to_json()
    bound.update(measured(started, load, argv))
    print(json.dumps(bound), flush=True)
    if args.record:
        rows = json.loads(RESULTS.read_text())
        rows[args.record]["lower"] = bound
        RESULTS.write_text(json.dumps(rows, indent=1, sort_keys=True) + "\n")
    return 0


def first_value(variant: Variant, args, argv: list[str]) -> int:
    """Solve the classes of one first guess (--first-value) and add the result to the row
    --record names; with every class exact, write the tree (--out) and say whether the
    recorded lower bound of every other first guess settles the game."""
    from first_guess_value import first_guess_value

    started, load = time.perf_counter(), os.getloadavg()[0]
    polisher = Polisher(variant)
    # the input tree's class totals as budgets (its first guess must match)
    uppers = polisher.class_totals(read_tree(args.tree)["root"]) if args.tree else None
    value = first_guess_value(variant, args.first_value, seconds=args.class_seconds,
                              uppers=uppers, search=polisher.search,
                              log=lambda msg: print(msg, file=sys.stderr, flush=True))
    row = value.to_json() | measured(started, load, argv)
    if value.exact and args.out:
        hist = histogram_of(variant, value.root)
        write_tree(make_tree(variant, "first-guess-value", "all", value.root, hist,
                             objective="expected"), args.out)
        row["file"] = os.path.relpath(args.out, ROOT)
    rows = json.loads(RESULTS.read_text()) if args.record else {}
    lower = (rows.get(args.record) or {}).get("lower")
    if value.exact and lower:   # settled when no other first guess can do better
        others = [g["bound"] for g in lower["first_guesses"] if g["guess"] != value.guess]
        row["settled"] = all(b >= value.value for b in others)
    print(json.dumps(row), flush=True)
    if args.record:
        rows[args.record]["first_value"] = row
        RESULTS.write_text(json.dumps(rows, indent=1, sort_keys=True) + "\n")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--length", type=int, default=4)
    ap.add_argument("--symbols", default="123456")
    ap.add_argument("--repeats", action="store_true")
    ap.add_argument("--no-leading-zero", action="store_true")
    ap.add_argument("--tree", help="input tree file (default: build --strategy's tree)")
    ap.add_argument("--strategy", default="entropy")
    ap.add_argument("--first", help="first guess of --strategy's tree")
    ap.add_argument("--exact-max", type=int, default=300)
    ap.add_argument("--node-seconds", type=float, default=10.0)
    ap.add_argument("--alternatives", type=int, default=0)
    ap.add_argument("--alt-max", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=None)
    ap.add_argument("--lower-bound", type=int, default=0, metavar="MAX_CLASS",
                    help="also prove a lower bound first guess by first guess, probing classes "
                         "of at most MAX_CLASS secrets (scripts/research/first_guess_bound.py)")
    ap.add_argument("--lower-seconds", type=float, default=30.0, help="cap per class search")
    ap.add_argument("--lower-time-limit", type=float, default=None,
                    help="seconds for the whole lower bound")
    ap.add_argument("--lower-only", action="store_true",
                    help="only the lower bound (--lower-bound), added to the row --record names")
    ap.add_argument("--first-value", metavar="GUESS",
                    help="solve each reply class of GUESS exactly (cbsolve.search."
                         "first_guess_value; budgets from --tree's classes when given)")
    ap.add_argument("--class-seconds", type=float, default=60.0,
                    help="cap per class with --first-value")
    ap.add_argument("--out")
    ap.add_argument("--record", metavar="NAME", help="add the run to " + str(RESULTS.name))
    ap.add_argument("--game", help="the game's name in the table (with --record)")
    ap.add_argument("--table", action="store_true", help="print the docs table and exit")
    args = ap.parse_args(argv)
    if args.table:
        print(table(json.loads(RESULTS.read_text())))
        return 0
    variant = Variant(args.length, args.symbols, args.repeats, args.no_leading_zero)
    if args.lower_only:
        return lower_only(variant, args, argv or sys.argv[1:])
    if args.first_value:
        return first_value(variant, args, argv or sys.argv[1:])
    if not args.out:
        ap.error("--out is required")
    started, load = time.perf_counter(), os.getloadavg()[0]

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    tree = read_tree(args.tree) if args.tree else None
    settings = {"exact_max": args.exact_max, "node_seconds": args.node_seconds,
                "alternatives": args.alternatives, "alt_max": args.alt_max,
                "time_limit": args.time_limit}
    doc, polisher = polish_file(variant, tree, args.strategy, args.first, settings, log)
    report = polisher.stats.to_json()
    write_tree(doc, args.out)
    cost = measured(started, load, argv or sys.argv[1:])
    usage = resource.getrusage(resource.RUSAGE_SELF)
    lower = None
    if args.lower_bound:
        from first_guess_bound import game_bound

        lower = game_bound(variant, max_class=args.lower_bound, seconds=args.lower_seconds,
                           time_limit=args.lower_time_limit, search=polisher.search, log=log).to_json()
        after = resource.getrusage(resource.RUSAGE_SELF)
        lower["cpu_seconds"] = round(after.ru_utime + after.ru_stime - usage.ru_utime
                                     - usage.ru_stime, 1)
    row = {"game": args.game or variant.describe(), "variant": variant.to_dict(),
           "secrets": doc["stats"]["secrets"], "total": doc["stats"]["total"],
           "worst": doc["stats"]["worst"], "input": doc["polished"]["from"],
           "input_total": report["before"], "report": report, **cost,
           "machine": describe_machine(), "file": os.path.relpath(args.out, ROOT),
           "lower": lower}
    print(json.dumps(row), flush=True)
    if args.record:
        rows = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
        rows[args.record] = row
        RESULTS.write_text(json.dumps(rows, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
