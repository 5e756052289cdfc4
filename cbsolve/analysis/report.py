"""Sweep output: ``results.csv`` (the rows), ``timings.csv``, ``results.md`` and PNG plots.

The CSV is the resumable state: rows are appended as cells finish (so an interrupted sweep
keeps its work) and the file is rewritten in table order at the end. Timings live in their own
file so ``results.csv`` is byte-identical whichever scheduler computed it.
"""
from __future__ import annotations

import csv
import json
import os
from pathlib import Path

from ..errors import CbsolveError
from ..extras import require
from .sweep import BOUNDS, COLUMNS

RESULTS, TIMINGS, MARKDOWN = "results.csv", "timings.csv", "results.md"


def read_rows(out: Path) -> dict[str, dict]:
    """Finished rows by key (status ok or skipped); torn or foreign lines are ignored."""
    path = out / RESULTS
    rows: dict[str, dict] = {}
    if not path.exists():
        return rows
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        if reader.fieldnames != COLUMNS:
            return rows
        for row in reader:
            if None in row or any(v is None for v in row.values()):
                continue  # a line cut short by an interruption
            if row.get("status") in ("ok", "skipped"):
                rows[row["key"]] = row
    return rows


class Appender:
    """Append rows (and timings) as they arrive, creating the files with headers."""

    def __init__(self, out: Path):
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:   # a file of that name, no permission, ...
            raise CbsolveError(f"cannot use output directory {str(out)!r}: "
                               f"{exc.strerror or exc}") from None
        self.out = out
        self._results = self._open(out / RESULTS, COLUMNS)
        self._timings = self._open(out / TIMINGS, ["key", "seconds", "cpu_seconds"])

    @staticmethod
    def _open(path: Path, header):
        fresh = not path.exists() or path.stat().st_size == 0
        if not fresh:  # make sure a torn last line does not swallow the next row
            with path.open("rb") as fh:
                fh.seek(-1, os.SEEK_END)
                if fh.read(1) != b"\n":
                    with path.open("a", encoding="utf-8") as fa:
                        fa.write("\n")
        fh = path.open("a", newline="", encoding="utf-8")
        writer = csv.writer(fh, lineterminator="\n")
        if fresh:
            writer.writerow(header)
        return fh, writer

    def add(self, row: dict, seconds: float, cpu_seconds: float = 0.0) -> None:
        for (fh, writer), values in ((self._results, [row[c] for c in COLUMNS]),
                                     (self._timings, [row["key"], f"{seconds:.4f}",
                                                      f"{cpu_seconds:.4f}"])):
            writer.writerow(values)
            fh.flush()

    def close(self) -> None:
        self._results[0].close()
        self._timings[0].close()


def write_results(out: Path, rows: dict[str, dict], order: list[str]) -> list[dict]:
    """Rewrite results.csv in table order (rows of other sweeps kept after); returns the rows."""
    keys = [k for k in order if k in rows] + sorted(k for k in rows if k not in set(order))
    table = [rows[k] for k in keys]
    tmp = out / (RESULTS + ".tmp")
    with tmp.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(table)
    tmp.replace(out / RESULTS)
    return table


# --- Markdown -------------------------------------------------------------------------------
def markdown(table: list[dict]) -> str:
    """One table per family: rows (N, D), a column per strategy with ``average (worst)``."""
    lines = ["# Variant sweep", "",
             "Average guesses over all secrets, worst case in parentheses (each strategy played "
             "against every secret). `bounds`: proved lower bounds on the average and worst "
             "case (`=` where the search proved the optimum).", ""]
    families = list(dict.fromkeys(r["family"] for r in table))
    for fam in families:
        rows = [r for r in table if r["family"] == fam]
        strategies = list(dict.fromkeys(r["strategy"] for r in rows))
        variants = list(dict.fromkeys((int(r["length"]), int(r["alphabet"])) for r in rows))
        cell = {(int(r["length"]), int(r["alphabet"]), r["strategy"]): r for r in rows}
        lines += [f"## {fam}", "", "| N | D | secrets | " + " | ".join(strategies) + " |",
                  "|---|---|---|" + "---|" * len(strategies)]
        for n, d in variants:
            secrets = next(r["secrets"] for r in rows if (int(r["length"]), int(r["alphabet"])) == (n, d))
            vals = [_fmt(cell.get((n, d, s))) for s in strategies]
            lines.append(f"| {n} | {d} | {secrets} | " + " | ".join(vals) + " |")
        lines.append("")
    return "\n".join(lines)


def _fmt(row: dict | None) -> str:
    if row is None:
        return ""
    if row["status"] != "ok":
        return row["status"]
    if row["strategy"] == BOUNDS:     # "=" an optimum, "≥" a lower bound, each on its own
        average, worst = _proved(row, "average"), _proved(row, "worst")
        text = "" if average is None else f"{'=' if average[1] else '≥'} {average[0]:.3f}"
        if worst is not None:
            text += f" ({'=' if worst[1] else '≥'} {worst[0]})"
        return text.strip()
    return f"{float(row['average']):.3f} ({row['worst']})"


# --- plots ----------------------------------------------------------------------------------
def plots(table: list[dict], out: Path) -> list[Path]:
    """PNG plots: average and worst against D (one panel per N), histograms of guess counts."""
    matplotlib = require("matplotlib", "analyze's PNG plots (--no-plots skips them)")

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    for fam in dict.fromkeys(r["family"] for r in table):
        rows = [r for r in table if r["family"] == fam and r["status"] == "ok"]
        if not rows:
            continue
        slug = "".join(c if c.isalnum() else "-" for c in fam).strip("-")
        lengths = sorted({int(r["length"]) for r in rows})
        strategies = list(dict.fromkeys(r["strategy"] for r in rows if r["strategy"] != BOUNDS))
        for measure in ("average", "worst"):
            fig, axes = plt.subplots(1, len(lengths), figsize=(4.2 * len(lengths), 3.6),
                                     squeeze=False, sharey=False)
            for ax, n in zip(axes[0], lengths, strict=False):
                for s in strategies:
                    pts = sorted((int(r["alphabet"]), _measure(r, measure)) for r in rows
                                 if int(r["length"]) == n and r["strategy"] == s)
                    if pts:
                        ax.plot(*zip(*pts, strict=False), marker="o", ms=3, label=s)
                _draw_proved(ax, [r for r in rows
                                  if int(r["length"]) == n and r["strategy"] == BOUNDS], measure)
                ax.set_title(f"N = {n}")
                ax.set_xlabel("alphabet size D")
                ax.grid(alpha=0.3)
            axes[0][0].set_ylabel(f"{measure} guesses")
            # one legend for every panel's lines (a lower bound may show in one panel only)
            handles = {}
            for ax in axes[0]:
                for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
                    handles.setdefault(label, handle)
            axes[0][-1].legend(handles.values(), handles.keys(), fontsize=7)
            fig.suptitle(f"{fam}: {measure} number of guesses")
            fig.tight_layout()
            path = out / f"{slug}-{measure}.png"
            fig.savefig(path, dpi=110)
            plt.close(fig)
            written.append(path)
        # histograms for the largest variant of the family
        big = max(rows, key=lambda r: int(r["secrets"]))
        sel = [r for r in rows if (r["length"], r["alphabet"]) == (big["length"], big["alphabet"])
               and r["strategy"] != BOUNDS and r["histogram"]]
        if sel:
            fig, ax = plt.subplots(figsize=(7, 3.8))
            width = 0.8 / len(sel)
            for i, r in enumerate(sel):
                hist = {int(k): v for k, v in json.loads(r["histogram"]).items()}
                xs = sorted(hist)
                ax.bar([x + (i - len(sel) / 2 + 0.5) * width for x in xs], [hist[x] for x in xs],
                       width=width, label=r["strategy"])
            ax.set_xlabel("guesses needed")
            ax.set_ylabel("secrets")
            ax.set_title(f"{fam}, N = {big['length']}, D = {big['alphabet']}: guess counts")
            ax.legend(fontsize=7)
            ax.grid(alpha=0.3, axis="y")
            fig.tight_layout()
            path = out / f"{slug}-histograms.png"
            fig.savefig(path, dpi=110)
            plt.close(fig)
            written.append(path)
    return written


def _measure(row: dict, measure: str) -> float:
    return float(row["average"]) if measure == "average" else int(row["worst"])


def _proved(row: dict, measure: str) -> tuple[float, bool] | None:
    """(value, is it the optimum) of a bounds row: the optimum where proved, else the proved
    lower bound; None when neither is known."""
    column = "total" if measure == "average" else "worst"
    exact = row[f"{column}_exact"] != ""
    v = row[f"{column}_exact"] if exact else row[f"{column}_lower"]
    if v == "":
        return None
    return (int(v) / int(row["secrets"]) if measure == "average" else int(v)), exact


def _draw_proved(ax, rows: list[dict], measure: str) -> None:
    """Proved optima as a solid black line with dots; proved lower bounds (optimum not known)
    as separate upward triangles on a dotted line: a bound is never drawn as an optimum."""
    points = sorted((int(r["alphabet"]), *p) for r in rows
                    if (p := _proved(r, measure)) is not None)
    optima = [(d, v) for d, v, exact in points if exact]
    lower = [(d, v) for d, v, exact in points if not exact]
    if optima:
        ax.plot(*zip(*optima, strict=True), "k-", lw=1.2, marker="o", ms=4,
                label="optimum (proved)", zorder=3)
    if lower:
        ax.plot(*zip(*lower, strict=True), "k:", lw=1, marker="^", ms=6, mfc="white",
                label="lower bound (proved; optimum unknown)", zorder=3)
