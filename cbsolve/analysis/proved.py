"""The project's best proved values, laid over a sweep's ``bounds`` rows.

A sweep's ``bounds`` cell proves what fits a cell (the exact search up to 800 secrets), but
the project has proved more: the bounds table (``docs/bounds-table.csv``, made by
``scripts/bounds_table.py``: searches with certificates checked, far beyond 800 secrets) and
the certified models (``models/certified-results.json``, each tree and lower-bound certificate
verified by the tests). Where either is stronger than the cell, the report shows it: a higher
lower bound, or the optimum where one was proved, with its source in the row's ``note``.

The overlay is applied when the report is written (not in the cells, which run on any worker and
must give the same rows everywhere), only ever strengthens a row, and is idempotent.
"""
from __future__ import annotations

import csv
import json
import shlex
from functools import cache
from pathlib import Path

from ..data import models_dir

ROOT = Path(__file__).resolve().parents[2]
BOUNDS_TABLE = ROOT / "docs" / "bounds-table.csv"
CERTIFIED = models_dir() / "certified-results.json"   # package data (cbsolve.data)

#: (length, alphabet size, repeats, no_leading_zero, feedback) of a game.
Key = tuple[int, int, bool, bool, str]


def _key(length, alphabet, repeats, no_leading_zero=False, feedback="bulls-cows") -> Key:
    return (int(length), int(alphabet), bool(int(repeats)), bool(int(no_leading_zero)), feedback)


@cache
def best_proved(table: Path = BOUNDS_TABLE, certified: Path = CERTIFIED) -> dict[Key, dict]:
    """Key -> {"worst": (lower, exact or None, source), "total": (...)} from both sources
    (missing files: nothing)."""
    best: dict[Key, dict] = {}

    def offer(key: Key, objective: str, lower: int, exact: int | None, source: str) -> None:
        have = best.setdefault(key, {}).get(objective)
        if have is None or (exact is not None and have[1] is None) or lower > have[0]:
            best[key][objective] = (lower, exact, source)

    if table.exists():
        with table.open(newline="", encoding="utf-8") as fh:
            for r in csv.DictReader(fh):
                key = _key(r["N"], r["D"], r["kind"] == "repeats")
                for objective in ("worst", "total"):
                    lower = int(r[f"{objective}_lower"])
                    exact = lower if r[f"{objective}_exact"] == "True" else None
                    offer(key, objective, lower, exact,
                          f"{_shown(table)}: {r[f'{objective}_lower_method']}")
    if certified.exists():
        for name, entry in json.loads(certified.read_text(encoding="utf-8")).items():
            key = _command_key(entry.get("command", ""))
            if key is None or not entry.get("proved"):
                continue
            objective = "worst" if entry["objective"] == "worst" else "total"
            offer(key, objective, int(entry["lower"]), int(entry["lower"]),
                  f"certified model {entry.get('file') or name}")
    return best


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


def _command_key(command: str) -> Key | None:
    """The game of a recorded ``cbsolve optimal ...`` command line (None: not one we read)."""
    words = shlex.split(command)
    opts = {w.split("=", 1)[0] if w.startswith("--") else w: i for i, w in enumerate(words)}
    try:
        length = int(words[opts["--length"] + 1])
        alphabet = len(words[opts["--symbols"] + 1])
    except (KeyError, IndexError, ValueError):
        return None
    feedback = words[opts["--feedback"] + 1] if "--feedback" in opts else "bulls-cows"
    return _key(length, alphabet, "--repeats" in opts, "--no-leading-zero" in opts, feedback)


def overlay(row: dict, best: dict[Key, dict] | None = None) -> dict:
    """``row`` (a ``bounds`` row of results.csv, strings) with the best proved values laid over
    it; the same row when nothing is stronger."""
    if row.get("strategy") != "bounds" or row.get("status") != "ok":
        return row
    best = best_proved() if best is None else best
    known = best.get(_key(row["length"], row["alphabet"], row["repeats"],
                          row["no_leading_zero"], row["feedback"]))
    if not known:
        return row
    row = dict(row)
    sources = []
    secrets = int(row["secrets"])
    for objective, value_column in (("worst", "worst"), ("total", "total")):
        if objective not in known:
            continue
        lower, exact, source = known[objective]
        own_lower = int(row[f"{objective}_lower"]) if row[f"{objective}_lower"] != "" else None
        own_exact = row[f"{objective}_exact"] != ""
        if own_exact or (exact is None and own_lower is not None and lower <= own_lower):
            continue                                   # the cell proved as much
        row[f"{objective}_lower"] = str(max(lower, own_lower or 0))
        if exact is not None:
            row[f"{objective}_exact"] = row[value_column] = str(exact)
            if objective == "total":
                row["average"] = f"{exact / secrets:.6f}"
        sources.append(f"{objective} {'optimum' if exact is not None else 'lower bound'} "
                       f"from {source}")
    if sources:
        note = f"best proved: {'; '.join(sources)}"
        if note not in row["note"]:
            row["note"] = f"{row['note']}; {note}" if row["note"] else note
    return row
