"""Refutation ledgers (``models/proofs/*/``, docs/optimal.md "A proof as a ledger") folded into
the atlas cells as proved lower ends of the worst case (``build_atlas.py --from-ledgers``).

A ledger whose every unit is refuted proves that no strategy finds every secret within the
plan's depth D; ``cbsolve merge DIR --ledger --tree FILE`` writes that result to
``DIR/result.json``. Here each result is read with its checksum and its ledger's digest checked
(the ledger beside it must be the one it was composed from, every line whole), and where it
raises the cell's worst-case lower end (only a plan over every guess: a plan of consistent
guesses only bounds those strategies alone) the cell's lower end becomes D+1, its method naming
the ledger and how to re-check it, and the worst case is exact where it meets the upper end
(the shipped tree the result names, which the cell's own upper end replays).
"""
from __future__ import annotations

import json
from pathlib import Path

from cbsolve.bounds.atlas_file import cell_key
from cbsolve.search.worst import ledger as ledgers
from cbsolve.search.worst.ledger_result import read_result
from cbsolve.search.worst.shard_files import read_plan
from cbsolve.game.variant import Variant


def method_text(where: str, result: dict) -> str:
    return (f"refutation ledger {where} ({result['units']:,} units refuted, "
            f"{result['cpu_seconds'] / 3600:.2f} core-hours; cbsolve verify {where}/"
            f"{ledgers.LEDGER_NAME} [--sample K] re-runs them)")


def fold_result(record: dict, result: dict, where: str) -> dict | None:
    """The cell ``record`` with the ledger result's lower end, or None when it is not
    stronger (or is about consistent guesses only)."""
    worst = record["worst"]
    if result["guesses"] != "all" or result["lower"] <= worst["lower"]:
        return None
    if result["lower"] > worst["upper"]:
        raise SystemExit(f"build_atlas: {where} proves the worst case >= {result['lower']}, "
                         f"above the cell {record['id']}'s upper end {worst['upper']}")
    out = json.loads(json.dumps(record))
    w = out["worst"]
    w["lower"], w["lower_method"] = result["lower"], method_text(where, result)
    w["exact"] = w["lower"] if w["lower"] == w["upper"] else None
    w.setdefault("provenance", {})["lower"] = f"ledger {where}"
    return out


def fold(proofs_dir: Path, cells_dir: Path, say=print, root: Path | None = None) -> list[str]:
    """Fold every ``proofs_dir/*/result.json`` into its cell; the ids of the cells changed."""
    by_key = {}
    for path in sorted(cells_dir.glob("*.json")):
        record = json.loads(path.read_text())
        by_key[cell_key(Variant.from_dict(record["variant"]))] = path
    changed = []
    for result_path in sorted(proofs_dir.glob("*/result.json")):
        directory = result_path.parent
        result = read_result(directory)
        ledgers.read_ledger(ledgers.ledger_path(directory), read_plan(directory))  # every line
        where = str(directory.relative_to(root)) if root else str(directory)
        cell = by_key.get(cell_key(Variant.from_dict(result["variant"])))
        if cell is None:
            say(f"{where}: no atlas cell for its game")
            continue
        record = json.loads(cell.read_text())
        new = fold_result(record, result, where)
        if new is None:
            say(f"{where}: not stronger than the cell {record['id']}")
            continue
        cell.write_text(json.dumps(new, indent=1, sort_keys=True) + "\n")
        say(f"{record['id']}: worst case >= {result['lower']} by {where}"
            + (f" (exact: {new['worst']['exact']})" if new["worst"]["exact"] else ""))
        changed.append(record["id"])
    return changed
