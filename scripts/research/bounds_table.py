"""Bounds table: worst and expected number of guesses for N = 2..8, D = 2..12, distinct and repeats.

A pure function (:func:`bounds_table`) computes one row per variant with
:func:`cbsolve.bounds.compute_bounds` (:mod:`cbsolve.bounds.table`), each cell within the same
time budget, on a local process pool or a Dask cluster; :func:`write_outputs` writes Markdown
(headed by the budget, the machine and the wall time), CSV and PNG plots; :func:`main` parses
options. ``--smoke`` runs a tiny grid (used by the tests).

    nice python scripts/research/bounds_table.py                 # full grid, 2 workers, docs/bounds-table.*
    python scripts/research/bounds_table.py --scheduler tcp://host:8786 --cell-budget 3600
    python scripts/research/bounds_table.py --smoke --out /tmp/bt
    python scripts/research/bounds_table.py --cells 5x10d,4x9r --update   # refresh two cells in place
"""
from __future__ import annotations

import argparse
import csv
import re
import sys
import time
from pathlib import Path

from cbsolve.analysis.runners import run_dask, run_local
from cbsolve.bounds.table import FIELDS, cell_cost, table_cell, table_row
from cbsolve.runtime.machine import describe as describe_machine

#: Seconds of optional work (strategies, two-level bound, exact search) per cell by default.
#: About 50 cells use all of it (exact searches that do not close, up to the search's memory
#: limit of ~53,000 codes; strategies above ~50,000), so with 2 workers the grid takes about
#: 50 x 70 / 2 s = 30 min.
CELL_BUDGET = 70.0

#: Method labels shortened for the Markdown table (the CSV keeps the full text).
ABBREV = [("search", "X"), ("constructive", "K"), ("strategy", "H"), ("two guesses deep", "P2"),
          ("first guess", "P1"), ("counting", "C"), ("trivial", "T")]


def _cells(ns, ds, kinds):
    for kind in kinds:
        for n in ns:
            for d in ds:
                if kind == "repeats" or n <= d:
                    yield n, d, kind == "repeats"


def parse_cells(text: str) -> list[tuple[int, int, bool]]:
    """"5x10d,4x9r" -> [(5, 10, False), (4, 9, True)]: N x D, d = distinct, r = repeats."""
    out = []
    for item in text.split(","):
        m = re.fullmatch(r"\s*(\d+)x(\d+)([dr])\s*", item)
        if not m:
            raise ValueError(f"bad cell {item.strip()!r}: expected NxDd or NxDr, e.g. 5x10d,4x9r")
        n, d, repeats = int(m[1]), int(m[2]), m[3] == "r"
        if not (1 <= n and 2 <= d <= 36 and (repeats or n <= d)):
            raise ValueError(f"bad cell {item.strip()!r}: need N >= 1, 2 <= D <= 36 and, for "
                             "distinct symbols, N <= D")
        out.append((n, d, repeats))
    return out


def bounds_table(ns=range(2, 9), ds=range(2, 13), kinds=("distinct", "repeats"), *,
                 workers: int = 2, time_limit: float = CELL_BUDGET,
                 strategy_limit: int | None = None, search_limit: int | None = None,
                 scheduler: str | None = None, cells=None) -> list[dict]:
    """One row per (N, D, kind); ``time_limit`` is each cell's budget. Largest cells first.

    ``cells`` (a list of (N, D, repeats)) replaces the grid ``ns`` x ``ds`` x ``kinds``.
    ``workers <= 1`` computes the cells in this process; ``scheduler`` sends them to Dask.
    """
    options = {"time_limit": time_limit}
    if strategy_limit is not None:
        options["strategy_limit"] = strategy_limit
    if search_limit is not None:
        options["search_limit"] = search_limit
    chosen = cells if cells is not None else _cells(ns, ds, kinds)
    cells = [table_cell(n, d, r, options) for n, d, r in chosen]
    if scheduler:
        rows = list(run_dask(cells, scheduler, work=table_row, order=cell_cost))
    else:
        rows = list(run_local(cells, workers if workers > 1 else 0, work=table_row,
                              order=cell_cost))
    rows.sort(key=lambda r: (r["kind"], r["N"], r["D"]))
    return rows


# --- an existing table ----------------------------------------------------------------------
INTS = {"N", "D", "secrets", "responses", "worst_lower", "worst_upper", "total_lower", "total_upper"}
FLOATS = {"avg_lower", "avg_upper", "chvatal", "seconds"}
BOOLS = {"worst_exact", "total_exact"}


def read_rows(path: Path) -> list[dict]:
    """The rows of a table's CSV, typed as :func:`bounds_table` returns them."""
    with path.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        for key in INTS & r.keys():
            r[key] = int(r[key])
        for key in FLOATS & r.keys():
            r[key] = float(r[key])
        for key in BOOLS & r.keys():
            r[key] = r[key] == "True"
    return rows


def merge_rows(old: list[dict], new: list[dict]) -> list[dict]:
    """``old`` with the rows of the same cells replaced by ``new`` (new cells added), sorted
    as the full table is."""
    def key(r):
        return r["kind"], r["N"], r["D"]
    fresh = {key(r): r for r in new}
    rows = [fresh.pop(key(r), r) for r in old] + list(fresh.values())
    rows.sort(key=key)
    return rows


def split_header(markdown_text: str) -> str:
    """The header paragraph of a written table (everything before the legend)."""
    head, sep, _ = markdown_text.partition("\n\nWorst case:")
    return head.strip() if sep else ""


# --- output ---------------------------------------------------------------------------------
def _abbrev(method: str) -> str:
    for key, short in ABBREV:
        if key in method:
            return short
    return "?"


def _interval(lo, hi, exact, lo_m, hi_m, fmt=str) -> str:
    if exact:
        return f"**{fmt(lo)}** ({_abbrev(lo_m)}/{_abbrev(hi_m)})"
    if hi_m.startswith("trivial"):   # S or S(S+1)/2: true but useless, shown as unknown
        return f"{fmt(lo)}–? ({_abbrev(lo_m)})"
    return f"{fmt(lo)}–{fmt(hi)} ({_abbrev(lo_m)}/{_abbrev(hi_m)})"


def markdown(rows: list[dict], header: str = "") -> str:
    out = [header, ""] if header else []
    out += ["Worst case: guesses including the final one. Expected: average guesses over all "
           "secrets (total / secrets). **Bold** = exact (lower = upper). In brackets the method of "
           "each end: C counting, P1 first-guess partition (closed form), P2 partition two "
           "guesses deep (scorer), H heuristic strategy evaluated exactly, K construction with a "
           "proved worst case (count-then-locate, set-then-place), X exact search; "
           "'?' = no upper bound better than the trivial one (every code in order; only "
           "above 10^6 secrets, where no strategy is evaluated exactly). "
           "Chvátal = N log D / log C(N+2, 2). An X end is used only once the independent "
           "verifier confirmed it (the search's tree replayed, its lower-bound certificate "
           "checked; the CSV's `verified` column); † = an exact search's answer was rejected "
           "by the verifier and the other methods' interval is shown (the CSV's notes say why).",
           ""]
    for kind in ("distinct", "repeats"):
        part = [r for r in rows if r["kind"] == kind]
        if not part:
            continue
        out += [f"### {kind}", "",
                "| N | D | secrets | replies | worst | expected (average) | Chvátal |",
                "|---|---|---|---|---|---|---|"]
        for r in part:
            worst = _interval(r["worst_lower"], r["worst_upper"], r["worst_exact"],
                              r["worst_lower_method"], r["worst_upper_method"])
            exp = _interval(r["avg_lower"], r["avg_upper"], r["total_exact"],
                            r["total_lower_method"], r["total_upper_method"],
                            fmt=lambda x: f"{x:.3f}")
            verdict = r.get("verified", "")
            worst += " †" if "worst: rejected" in verdict else ""
            exp += " †" if "expected: rejected" in verdict else ""
            out.append(f"| {r['N']} | {r['D']} | {r['secrets']} | {r['responses']} | {worst} | "
                       f"{exp} | {r['chvatal']:.2f} |")
        out.append("")
    return "\n".join(out)


def write_outputs(rows: list[dict], outdir: Path, stem: str = "bounds-table",
                  header: str = "") -> list[Path]:
    """Write ``stem``.md, ``stem``.csv and two PNG plots into ``outdir``; return the paths."""
    outdir.mkdir(parents=True, exist_ok=True)
    paths = [outdir / f"{stem}.md", outdir / f"{stem}.csv"]
    paths[0].write_text(markdown(rows, header) + "\n")
    with paths[1].open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    paths += plot(rows, outdir, stem)
    return paths


def plot(rows: list[dict], outdir: Path, stem: str) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = []
    for what, lo, hi, label in (("worst", "worst_lower", "worst_upper", "guesses (worst case)"),
                                ("expected", "avg_lower", "avg_upper", "average guesses")):
        fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
        for ax, kind in zip(axes, ("distinct", "repeats"), strict=True):
            ns = sorted({r["N"] for r in rows if r["kind"] == kind})
            for i, n in enumerate(ns):
                part = [r for r in rows if r["kind"] == kind and r["N"] == n]
                ds = [r["D"] for r in part]
                colour = plt.cm.viridis(i / max(1, len(ns) - 1))
                ax.plot(ds, [r[lo] for r in part], "-o", ms=3, color=colour, label=f"N={n}")
                known = [(r["D"], r[hi]) for r in part
                         if not r[f"{'worst' if what == 'worst' else 'total'}_upper_method"]
                         .startswith("trivial")]
                if known:
                    ax.plot(*zip(*known, strict=True), "--", color=colour, lw=1)
                ax.plot(ds, [r["chvatal"] for r in part], ":", color=colour, lw=0.8)
            ax.set_title(f"{kind}: lower (solid), upper (dashed), Chvátal (dotted)", fontsize=9)
            ax.set_xlabel("D (alphabet size)")
            ax.grid(alpha=0.3)
        axes[0].set_ylabel(label)
        axes[1].legend(fontsize=7, ncol=2)
        fig.tight_layout()
        path = outdir / f"{stem}-{what}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)
    return paths


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="run the cells on this Dask scheduler instead (e.g. tcp://host:8786)")
    parser.add_argument("--smoke", action="store_true",
                        help="tiny grid N=2..3, D=2..4 (or --cells) with small limits")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[2] / "docs")
    parser.add_argument("--cell-budget", "--time-limit", dest="budget", type=float,
                        default=CELL_BUDGET, metavar="SECONDS",
                        help=f"optional work per cell (default {CELL_BUDGET:.0f} s)")
    parser.add_argument("--cells", default=None, metavar="LIST",
                        help="only these cells, e.g. 5x10d,4x9r (N x D, d distinct, r repeats)")
    parser.add_argument("--update", action="store_true",
                        help="with --cells: recompute them into the table already in --out, "
                             "keeping its other rows")
    args = parser.parse_args(argv)
    try:
        cells = parse_cells(args.cells) if args.cells else None
        if args.update and cells is None:
            raise ValueError("--update needs --cells (the cells to recompute)")
        old_rows, old_header = _existing(args.out) if args.update else ([], "")
    except ValueError as exc:
        print(f"bounds_table: {exc}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    grid = {}
    if args.smoke:   # the tiny grid (or the chosen cells) with small limits
        args.budget = min(args.budget, 10.0)
        grid = {"ns": range(2, 4), "ds": range(2, 5), "strategy_limit": 100, "search_limit": 30}
    rows = bounds_table(workers=args.workers, time_limit=args.budget, scheduler=args.scheduler,
                        cells=cells, **grid)
    wall = time.perf_counter() - start
    where = f"Dask at {args.scheduler}" if args.scheduler else f"{args.workers} local workers"
    now = time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())
    if args.update:
        header = (f"{old_header} Updated {now}: cells {args.cells} recomputed by `python "
                  f"scripts/research/bounds_table.py --cells {args.cells} --update --cell-budget "
                  f"{args.budget:g}` in {wall:.0f} s on {where} ({describe_machine()}).")
        rows = merge_rows(old_rows, rows)
    else:
        header = (f"Generated {now} by `python scripts/research/bounds_table.py --cell-budget "
                  f"{args.budget:g}{' --cells ' + args.cells if cells else ''}` in "
                  f"{wall / 60:.1f} min on {where}; machine: {describe_machine()}. Each cell had "
                  f"{args.budget:g} s for the optional work (strategies evaluated exactly, the "
                  "two-level partition bound, the exact searches); the CSV's notes column names "
                  "what did not fit.")
    paths = write_outputs(rows, args.out, header=header)
    exact = sum(r["worst_exact"] for r in rows), sum(r["total_exact"] for r in rows)
    print(f"{len(rows)} cells ({len(cells) if cells else len(rows)} computed in {wall:.1f} s); "
          f"exact worst {exact[0]}, exact expected {exact[1]}; wrote "
          f"{', '.join(str(p) for p in paths)}")
    return 0


def _existing(outdir: Path, stem: str = "bounds-table") -> tuple[list[dict], str]:
    """The rows and header of the table in ``outdir`` (ValueError if there is none)."""
    csv_path, md_path = outdir / f"{stem}.csv", outdir / f"{stem}.md"
    if not csv_path.exists() or not md_path.exists():
        raise ValueError(f"--update: no table to update in {outdir} ({csv_path.name} and "
                         f"{md_path.name} are needed)")
    return read_rows(csv_path), split_header(md_path.read_text())

if __name__ == "__main__":
    raise SystemExit(main())
