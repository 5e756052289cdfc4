"""Reproduce the "Certified results" of docs/optimal.md: exact optima of larger games.

Each entry runs in its own process (so its peak memory is its own), writes its tree (worst
case: with the lower-bound certificate) gzipped to models/certified/NAME.json.gz, and records a
row in models/certified-results.json: the value proved or the interval proved before the time
limit, seconds, peak memory (max RSS), the machine and, where one exists, the published value
with its source. Rows of entries not rerun are kept, so entries can be run one at a time:

    python scripts/models/make_certified_models.py --list
    python scripts/models/make_certified_models.py --table     # the docs table from the stored rows
    nice python scripts/models/make_certified_models.py --only mm-5x4-expected mm-4x7-expected
    nice python scripts/models/make_certified_models.py --only mm-5x7-worst --time-limit 3600

`cbsolve verify models/certified/NAME.json.gz` checks a tree with the scorer alone
(tests/test_certified_models.py does it for every stored file).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "models" / "certified"
RESULTS = ROOT / "models" / "certified-results.json"
POLISHED = ROOT / "models" / "polished-results.json"

MM = "123456789"
DIGITS = "0123456789"
#: name -> (variant fields, objective, published value or None, its source)
ENTRIES = {
    # expected case (total guesses over all secrets)
    "mm-5x4-expected": ((5, MM[:4], True, False), "expected", None, None),
    "mm-6x3-expected": ((6, MM[:3], True, False), "expected", None, None),
    "mm-4x7-expected": ((4, MM[:7], True, False), "expected", 11228,
                        "G. Ville, An optimal Mastermind (4,7) strategy and more results in the "
                        "expected case, arXiv:1305.1010 (2013)"),
    "bc-4-9-expected": ((4, DIGITS[:9], False, False), "expected", 14914,
                        "fancidev/mastermind, published optimal-strategy results (Bulls & Cows "
                        "4 of 9 digits)"),
    "mm-5x5-expected": ((5, MM[:5], True, False), "expected", None, None),
    "mm-6x4-expected": ((6, MM[:4], True, False), "expected", None, None),
    "mm-4x8-expected": ((4, MM[:8], True, False), "expected", 20471,
                        "G. Ville (2013), arXiv:1305.1010"),
    "bc-nlz-expected": ((4, DIGITS, False, True), "expected", None, None),
    "numbers-expected": ((4, DIGITS, True, True), "expected", None, None),
    # worst case with the certificate that one guess less fails
    "numbers-worst": ((4, DIGITS, True, True), "worst", None, None),
    "bc-nlz-worst": ((4, DIGITS, False, True), "worst", None, None),
    "mm-5x6-worst": ((5, MM[:6], True, False), "worst", None, None),
    "mm-5x7-worst": ((5, MM[:7], True, False), "worst", None, None),
    "mm-5x8-worst": ((5, MM[:8], True, False), "worst", None, None),
    "mm-6x6-worst": ((6, MM[:6], True, False), "worst", None, None),
    "bc-5-9-worst": ((5, DIGITS[:9], False, False), "worst", None, None),
    "bc-5-10-worst": ((5, DIGITS, False, False), "worst", None, None),
}


def command(name: str, time_limit: float | None) -> str:
    (length, symbols, repeats, nlz), objective, _, _ = ENTRIES[name]
    parts = ["cbsolve optimal", f"--objective {objective}", f"--length {length}",
             f"--symbols {symbols}", "--repeats" if repeats else "--distinct"]
    if nlz:
        parts.append("--no-leading-zero")
    if time_limit:
        parts.append(f"--time-limit {time_limit:g}")
    return " ".join(parts + [f"--out {name}.json"])


def solve_one(name: str, time_limit: float | None, workers: int | None) -> dict:
    """Run one entry in this process; write its tree; return the row (without memory)."""
    from cbsolve.machine import describe as describe_machine
    from cbsolve.tree import write_tree
    from cbsolve.variant import Variant

    (length, symbols, repeats, nlz), objective, published, source = ENTRIES[name]
    variant = Variant(length, symbols, repeats, nlz)
    start = time.perf_counter()
    if objective == "worst":
        from cbsolve.search.worst import solve_worst

        result = solve_worst(variant, time_limit=time_limit, workers=workers)
    else:
        from cbsolve.search.expected import solve_expected

        result = solve_expected(variant, time_limit=time_limit, workers=workers, progress=False)
    seconds = time.perf_counter() - start
    value = (result.worst if objective == "worst" else result.total) if result.proved else None
    row = {"name": name, "objective": objective, "variant": variant.to_dict(),
           "secrets": result.secrets, "proved": result.proved, "value": value,
           "lower": result.lower, "upper": result.upper, "seconds": round(seconds, 1),
           "command": command(name, time_limit), "machine": describe_machine(),
           "published": published, "source": source, "file": None}
    if result.tree is not None and result.proved:
        OUT.mkdir(parents=True, exist_ok=True)
        path = OUT / f"{name}.json.gz"
        write_tree(result.tree, path)
        row["file"] = str(path.relative_to(ROOT))
        row["total"], row["worst"] = result.total, result.worst
    return row


def run_child(name: str, time_limit: float | None, workers: int | None) -> dict:
    """Solve ``name`` in a child process; add its peak memory (max RSS) to the row."""
    args = [sys.executable, __file__, "--child", name]
    if time_limit:
        args += ["--time-limit", str(time_limit)]
    if workers:
        args += ["--workers", str(workers)]
    # this checkout's cbsolve, not whichever one is installed
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, cwd=ROOT, text=True, env=env)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise RuntimeError(f"{name}: child failed with status {status}")
    row = json.loads(out.strip().splitlines()[-1])
    row["max_rss_mib"] = round(usage.ru_maxrss / 1024)   # Linux: kilobytes
    row["cpu_seconds"] = round(usage.ru_utime + usage.ru_stime, 1)
    return row


def label(name: str) -> str:
    """'mm-5x7-worst' -> 'Mastermind 5×7' (the game, as the docs name it)."""
    game = name.rsplit("-", 1)[0]
    if game.startswith("mm-"):
        pegs, colours = game[3:].split("x")
        return f"Mastermind {pegs}×{colours}" + (" (Logik)" if game == "mm-5x8" else "")
    return {"bc-4-9": "Bulls & Cows 4/9", "bc-5-9": "Bulls & Cows 5/9", "bc-5-10": "Bulls & Cows 5/10",
            "bc-nlz": "Bulls & Cows 4/10, no leading zero",
            "numbers": "numbers (4 digits 1000–9999, repeats)"}[game]


def narrowed(row: dict) -> str:
    """For an expected-case interval the polisher has narrowed (scripts/research/polish_tree.py), the
    narrower one, so the table never shows a stale interval alone."""
    polished = json.loads(POLISHED.read_text()) if POLISHED.exists() else {}
    for p in polished.values():
        if row["objective"] == "expected" and p["variant"] == row["variant"] and p.get("lower"):
            return (f"; polished tree and first-guess bound: [{p['lower']['bound']}, "
                    f"{p['total']}] (\"Best verified trees\")")
    return ""


def table(rows: dict) -> str:
    """The "Certified results" table of docs/optimal.md from the stored rows."""
    lines = ["| game | objective | secrets | ours | published | wall s (CPU s) | peak memory | "
             "command |", "|---|---|---|---|---|---|---|---|"]
    for name in ENTRIES:
        if name not in rows:
            continue
        r = rows[name]
        game = label(name)
        ours = (f"**{r['value']}** (proved)" if r["proved"]
                else f"[{r['lower']}, {r['upper']}] (time limit)" + narrowed(r))
        published = ("—" if r["published"] is None
                     else f"{r['published']} ({r['source'].split(',')[0]})")  # full: below
        lines.append(f"| {game} | {r['objective']} | {r['secrets']:,} | {ours} | {published} | "
                     f"{r['seconds']:g} ({r.get('cpu_seconds', '?')}) | "
                     f"{r.get('max_rss_mib', '?')} MiB | `{r['command']}` |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="+", choices=sorted(ENTRIES), default=None)
    ap.add_argument("--time-limit", type=float, default=None, help="seconds per entry")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--table", action="store_true", help="print the docs table and exit")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.list:
        for name in ENTRIES:
            print(name, command(name, None))
        return 0
    if args.table:
        print(table(json.loads(RESULTS.read_text())))
        return 0
    if args.child:
        print(json.dumps(solve_one(args.child, args.time_limit, args.workers)))
        return 0
    for name in args.only or list(ENTRIES):
        row = run_child(name, args.time_limit, args.workers)
        # read again: another run of this script may have added rows meanwhile
        rows = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
        rows[name] = row
        RESULTS.write_text(json.dumps(rows, indent=1, sort_keys=True) + "\n")
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
