"""Bounds table: worst and expected number of guesses for N = 2..8, D = 2..12, distinct and repeats.

A pure function (:func:`bounds_table`) computes one row per variant with
:func:`cbsolve.bounds.compute_bounds`; :func:`write_outputs` writes Markdown, CSV and PNG plots;
:func:`main` parses options. ``--smoke`` runs a tiny grid (used by the tests).

    python scripts/bounds_table.py                 # full grid, both cores, writes docs/bounds-table.*
    python scripts/bounds_table.py --smoke --out /tmp/bt
"""
from __future__ import annotations

import argparse
import csv
import math
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from cbsolve.bounds import compute_bounds
from cbsolve.variant import Variant

LETTERS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
FIELDS = ["N", "D", "kind", "secrets", "responses", "worst_lower", "worst_upper", "worst_exact",
          "worst_lower_method", "worst_upper_method", "total_lower", "total_upper", "total_exact",
          "total_lower_method", "total_upper_method", "avg_lower", "avg_upper", "chvatal",
          "seconds"]

#: Method labels shortened for the Markdown table (the CSV keeps the full text).
ABBREV = [("search", "X"), ("constructive", "K"), ("strategy", "H"), ("two guesses deep", "P2"),
          ("first guess", "P1"), ("counting", "C"), ("trivial", "T")]


def chvatal(n: int, d: int) -> float:
    """Chvátal's (1983) counting bound for n positions and d colours: n log d / log C(n+2, 2)."""
    return n * math.log(d) / math.log(math.comb(n + 2, 2))


def one_row(n: int, d: int, repeats: bool, options: dict) -> dict:
    variant = Variant(n, LETTERS[:d], repeats)
    b = compute_bounds(variant, workers=1, **options)
    w, e = b.worst, b.expected
    return {"N": n, "D": d, "kind": "repeats" if repeats else "distinct", "secrets": b.secrets,
            "responses": b.responses, "worst_lower": w.lower, "worst_upper": w.upper,
            "worst_exact": w.exact is not None, "worst_lower_method": w.lower_method,
            "worst_upper_method": w.upper_method, "total_lower": e.lower, "total_upper": e.upper,
            "total_exact": e.exact is not None, "total_lower_method": e.lower_method,
            "total_upper_method": e.upper_method, "avg_lower": e.lower / b.secrets,
            "avg_upper": e.upper / b.secrets, "chvatal": chvatal(n, d),
            "seconds": round(b.seconds, 2)}


def _cells(ns, ds, kinds):
    for kind in kinds:
        for n in ns:
            for d in ds:
                if kind == "repeats" or n <= d:
                    yield n, d, kind == "repeats"


def bounds_table(ns=range(2, 9), ds=range(2, 13), kinds=("distinct", "repeats"), *,
                 workers: int = 2, time_limit: float = 10.0, strategy_limit: int = 16_000,
                 search_limit: int = 6_000) -> list[dict]:
    """One row per (N, D, kind). Cells run in a process pool, largest spaces first."""
    options = {"time_limit": time_limit, "strategy_limit": strategy_limit,
               "search_limit": search_limit}
    cells = sorted(_cells(ns, ds, kinds),
                   key=lambda c: -(c[1] ** c[0] if c[2] else math.perm(c[1], c[0])))
    if workers <= 1:
        rows = [one_row(n, d, r, options) for n, d, r in cells]
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(one_row, n, d, r, options) for n, d, r in cells]
            rows = [f.result() for f in futures]
    rows.sort(key=lambda r: (r["kind"], r["N"], r["D"]))
    return rows


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


def markdown(rows: list[dict]) -> str:
    out = ["Worst case: guesses including the final one. Expected: average guesses over all "
           "secrets (total / secrets). **Bold** = exact (lower = upper). In brackets the method of "
           "each end: C counting, P1 first-guess partition (closed form), P2 partition two "
           "guesses deep (scorer), H heuristic strategy evaluated exactly, K construction with a "
           "proved worst case (count-then-locate, set-then-place), X exact search; "
           "'?' = no upper bound better than the trivial one (every code in order). "
           "Chvátal = N log D / log C(N+2, 2).", ""]
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
            out.append(f"| {r['N']} | {r['D']} | {r['secrets']} | {r['responses']} | {worst} | "
                       f"{exp} | {r['chvatal']:.2f} |")
        out.append("")
    return "\n".join(out)


def write_outputs(rows: list[dict], outdir: Path, stem: str = "bounds-table") -> list[Path]:
    """Write ``stem``.md, ``stem``.csv and two PNG plots into ``outdir``; return the paths."""
    outdir.mkdir(parents=True, exist_ok=True)
    paths = [outdir / f"{stem}.md", outdir / f"{stem}.csv"]
    paths[0].write_text(markdown(rows) + "\n")
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
    parser.add_argument("--smoke", action="store_true", help="tiny grid N=2..3, D=2..4")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "docs")
    parser.add_argument("--time-limit", type=float, default=10.0, help="search seconds per cell")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.smoke:
        rows = bounds_table(range(2, 4), range(2, 5), workers=args.workers,
                            time_limit=args.time_limit, strategy_limit=100, search_limit=30)
    else:
        rows = bounds_table(workers=args.workers, time_limit=args.time_limit)
    paths = write_outputs(rows, args.out)
    exact = sum(r["worst_exact"] for r in rows), sum(r["total_exact"] for r in rows)
    print(f"{len(rows)} cells in {time.perf_counter() - start:.1f} s; exact worst {exact[0]}, "
          f"exact expected {exact[1]}; wrote {', '.join(str(p) for p in paths)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
