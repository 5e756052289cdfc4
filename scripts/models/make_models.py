"""Make the models in models/: one tool, one subcommand a family of models.

    python scripts/models/make_models.py worst [--only NAME] [--workers N]
        the certified worst-case trees (with lower-bound certificates): Mastermind 4/6 (tie-breaks
        proved: 539 secrets at 5, total 5627) and Bulls & Cows 4/10; deterministic, so a rerun
        reproduces the files byte for byte (tests/test_certify_models.py verifies them)
    python scripts/models/make_models.py expected [--bulls-cows SECONDS]
        the certified expected-case trees: Mastermind 4/6 (5625) and depth 5 (5626), Bulls & Cows
        4/10 if proved in time; each replayed against every secret before it is written
    python scripts/models/make_models.py small [--write models/small-games.json] [--ties-limit S]
        worst-case (and expected-case) optima of small Mastermind and Bulls & Cows games, as JSON
        and the Markdown table of docs/optimal.md; ``--ties-limit S`` makes the tie-break table
    python scripts/models/make_models.py certified [--list | --table | --only NAME ...]
        the "Certified results" of docs/optimal.md: exact optima of larger games, each in its
        own process (its peak memory its own), trees gzipped to models/certified/NAME.json.gz,
        rows in models/certified-results.json (rows of entries not rerun are kept)

Every tree is checked before it is written (the verifier, or a replay with the scoring rule);
``cbsolve verify`` checks any of them with the scorer alone.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from cbsolve.certificates.certify import verify
from cbsolve.game.codes import CodeSpace
from cbsolve.runtime.deadline import Deadline
from cbsolve.search.expected import solve_expected
from cbsolve.search.worst import solve_worst
from cbsolve.certificates.tree import histogram_of, write_tree
from cbsolve.game.variant import Variant

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "models"
DIGITS = "0123456789"


# --- worst: the certified worst-case trees --------------------------------------------------------
WORST_MODELS = {
    # name -> (variant preset, output file, lookahead of the tie-break, tie-breaks proved
    # (solve_worst ties=True)); .gz files are read by `cbsolve verify` directly
    "mastermind": ("mastermind", "mastermind-worst.json", 0, True),
    "bulls-cows": ("bulls-cows", "bulls-cows-worst.json.gz", 4, False),
    # the first tie-break only: 50 secrets at 7 proved in ~25 min on 2 shared cores
    "bulls-cows-ties": ("bulls-cows", "bulls-cows-worst-ties.json.gz", 0, "count"),
}


def make_worst(out_dir: Path, names=tuple(WORST_MODELS), workers: int | None = None) -> list[dict]:
    """Solve each model, write it, and return one summary row per file."""
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for name in names:
        preset, filename, lookahead, ties = WORST_MODELS[name]
        # the tie-break search's tree may depend on thread timing among equal optima: one
        # worker keeps the file reproducible byte for byte
        one = ties is True  # Mastermind: fast enough for one worker
        result = solve_worst(Variant.preset(preset), workers=1 if one else workers,
                             lookahead=lookahead, ties=ties)
        if not result.proved or result.certificate is None:
            raise RuntimeError(f"{name}: optimum not proved ({result.notes})")
        if ties and not result.tree["ties"]["proved" if ties is True else "at_worst_proved"]:
            raise RuntimeError(f"{name}: tie-breaks not proved ({result.notes})")
        text = json.dumps(result.tree, separators=(",", ":"), sort_keys=False) + "\n"
        path = out_dir / filename
        data = text.encode("utf-8")
        if filename.endswith(".gz"):
            data = gzip.compress(data, compresslevel=9, mtime=0)  # mtime 0: reproducible bytes
        path.write_bytes(data)
        rows.append({"model": name, "file": str(path), "worst": result.worst,
                     "total": result.total, "at_worst": result.at_worst,
                     "seconds": round(result.seconds, 2), "bytes": len(data)})
    return rows


def cmd_worst(args) -> None:
    start = time.perf_counter()
    for row in make_worst(Path(args.out), tuple(args.only or WORST_MODELS), args.workers):
        print(row)
    print(f"done in {time.perf_counter() - start:.1f} s")


# --- expected: the certified expected-case trees --------------------------------------------------
def make_expected(name: str, variant: Variant, max_depth: int | None = None,
                  time_limit: float | None = None, out_dir: Path = MODELS) -> Path | None:
    """Solve, replay, write ``<out_dir>/<name>.json``; None if not proved within the limit."""
    result = solve_expected(variant, max_depth=max_depth,
                            deadline=Deadline.from_limit(time_limit or None), progress=False)
    if not result.proved or result.tree is None:
        print(f"{name}: not proved within {time_limit} s: total in [{result.lower}, {result.upper}]")
        return None
    if histogram_of(variant, result.tree["root"]) != result.histogram:
        raise SystemExit(f"{name}: the tree does not replay to its statistics")
    path = out_dir / f"{name}.json"
    write_tree(result.tree, path)
    print(f"{name}: total {result.total}, worst {result.worst}, {result.seconds:.1f} s -> {path}")
    return path


def cmd_expected(args) -> None:
    mm = Variant.preset("mastermind")
    make_expected("mastermind-4-6-expected", mm)
    make_expected("mastermind-4-6-expected-depth5", mm, max_depth=5)
    if args.bulls_cows > 0:
        make_expected("bulls-cows-4-10-expected", Variant.preset("bulls-cows"),
                      time_limit=args.bulls_cows)


# --- small: optima of small games -----------------------------------------------------------------
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
        if expected_limit:
            t0 = time.perf_counter()
            ex = solve_expected(variant, deadline=Deadline.from_limit(expected_limit), workers=1)
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


def cmd_small(args) -> None:
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


# --- certified: exact optima of larger games ------------------------------------------------------
OUT = ROOT / "models" / "certified"
RESULTS = ROOT / "models" / "certified-results.json"
POLISHED = ROOT / "models" / "polished-results.json"

MM = "123456789"
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
    from cbsolve.runtime.machine import describe as describe_machine
    from cbsolve.certificates.tree import write_tree
    from cbsolve.game.variant import Variant

    (length, symbols, repeats, nlz), objective, published, source = ENTRIES[name]
    variant = Variant(length, symbols, repeats, nlz)
    start = time.perf_counter()
    if objective == "worst":
        # --time-limit 0: no limit, as the command's option
        result = solve_worst(variant, deadline=Deadline.from_limit(time_limit or None), workers=workers)
    else:
        result = solve_expected(variant, deadline=Deadline.from_limit(time_limit or None), workers=workers,
                                progress=False)
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
    args = [sys.executable, __file__, "certified", "--child", name]
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


def cmd_certified(args) -> int:
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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="family", required=True)
    p = sub.add_parser("worst", help="the certified worst-case trees")
    p.add_argument("--out", default=str(MODELS))
    p.add_argument("--only", choices=sorted(WORST_MODELS), action="append")
    p.add_argument("--workers", type=int, default=None)
    p = sub.add_parser("expected", help="the certified expected-case trees")
    p.add_argument("--bulls-cows", type=float, default=0.0, metavar="SECONDS",
                   help="also try Bulls & Cows 4/10 within this time limit (0: skip)")
    p = sub.add_parser("small", help="optima of small games, JSON and the docs table")
    p.add_argument("--max-length", type=int, default=4)
    p.add_argument("--expected-limit", type=float, default=20.0,
                   help="seconds per game for the expected case (0: skip)")
    p.add_argument("--write", default=None, metavar="FILE", help="also write the rows as JSON")
    p.add_argument("--ties-limit", type=float, default=0.0, metavar="SECONDS",
                   help="make the tie-break table instead (seconds per game)")
    p = sub.add_parser("certified", help="the exact optima of larger games (docs/optimal.md)")
    p.add_argument("--only", nargs="+", choices=sorted(ENTRIES), default=None)
    p.add_argument("--time-limit", type=float, default=None, help="seconds per entry")
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--list", action="store_true")
    p.add_argument("--table", action="store_true", help="print the docs table and exit")
    p.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    run = {"worst": cmd_worst, "expected": cmd_expected, "small": cmd_small,
           "certified": cmd_certified}[args.family]
    return run(args) or 0


if __name__ == "__main__":
    sys.exit(main())
