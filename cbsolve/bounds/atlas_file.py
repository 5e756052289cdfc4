"""The atlas: proved worst- and expected-case intervals for every game of the grid, read as data.

Place in the data flow: scripts/models/build_atlas.py (each cell by ``compute_bounds`` in its own
capped process, verified, one small file a cell under ``models/atlas/cells/``) -> the assembled
``models/atlas.json`` (build date, version, content hash) -> **this reader** -> ``cbsolve
bounds`` (an atlas cell answered at once), ``--table``, ``--play``, ``cb.atlas()``.

Light on purpose: ``bounds`` on an atlas cell must start as fast as ``score``, so nothing here
imports NumPy, the scorer or the bounds package, and a lookup parses one line: the file is one
JSON document laid out one cell a line (docs/contract.md, "The atlas"). A game is found by its
rules, not its symbols: any alphabet of D symbols (digits, letters, a custom set) is the cell of
D symbols. The file is refused when its content hash does not match its cells.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from ..data import models_dir
from ..errors import CbsolveError
from ..game.variant import Variant

FORMAT = "cbsolve-atlas"
ATLAS_FILE = "atlas.json"
REBUILD = "python scripts/models/build_atlas.py --assemble"
#: What opens the cells: the header's fields come first on line 1, then one cell a line, so a
#: lookup parses one line and the hash is taken over the lines as written (no re-serialising).
CELLS_OPEN = '"cells":['


class DamagedAtlas(CbsolveError):
    """The atlas file is unreadable or its hash does not match its cells: never used."""


def atlas_path() -> Path:
    return models_dir() / ATLAS_FILE


def cell_key(variant: Variant) -> str:
    """What identifies a cell: the rules, with the alphabet by its size only."""
    return _key(variant.feedback, variant.length, len(variant.symbols), variant.repeats,
                variant.no_leading_zero)


def _key(feedback: str, length: int, size: int, repeats: bool, no_leading_zero: bool) -> str:
    return (f"{feedback}/{length}/{size}/{'repeats' if repeats else 'distinct'}"
            f"{'/no-leading-zero' if no_leading_zero else ''}")


def record_key(record: dict) -> str:
    v = record["variant"]
    return _key(v["feedback"], v["length"], len(v["symbols"]), v["repeats"], v["no_leading_zero"])


def canonical(cell: dict) -> str:
    return json.dumps(cell, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def content_hash(cells: list[dict]) -> str:
    """sha256 over the canonical serialisation of the cells: the list in compact JSON with
    sorted keys, ASCII only (``json.dumps(cells, sort_keys=True, separators=(",", ":"))``)."""
    return _hash_lines([canonical(c) for c in cells])


def _hash_lines(lines: list[str]) -> str:
    try:    # the C core hashlib wraps, without loading OpenSSL (start-up); _sha2 from 3.12
        from _sha256 import sha256
    except ImportError:
        try:
            from _sha2 import sha256
        except ImportError:
            from hashlib import sha256
    return sha256(("[" + ",".join(lines) + "]").encode("ascii")).hexdigest()


def write(doc: dict, path: Path) -> str:
    """``doc`` (format, built, version, ..., cells) laid out as :func:`load` reads it, its
    ``sha256`` set from the cells; the hash."""
    lines = [canonical(c) for c in doc["cells"]]
    head = {k: v for k, v in doc.items() if k != "cells"}
    head["sha256"] = _hash_lines(lines)
    text = json.dumps(head, sort_keys=True, separators=(",", ":"), ensure_ascii=True)[:-1]
    path.write_text(text + "," + CELLS_OPEN + "\n" + ",\n".join(lines) + "\n]}\n",
                    encoding="ascii")
    return head["sha256"]


def _lines(path: Path) -> tuple[dict, list[str]]:
    """(the header, the cells' lines), the hash checked; :class:`DamagedAtlas` otherwise."""
    where = _shown(path)
    try:
        text = path.read_text(encoding="ascii")
    except FileNotFoundError:
        raise DamagedAtlas(f"the atlas {where} is missing; rebuild it: {REBUILD}") from None
    except (OSError, ValueError) as exc:
        raise DamagedAtlas(f"the atlas {where} cannot be read ({exc}); rebuild it: {REBUILD}") from None
    rows = text.split("\n")
    try:
        if not rows[0].endswith("," + CELLS_OPEN) or rows[-2:] != ["]}", ""]:
            raise ValueError("not laid out one cell a line")
        head = json.loads(rows[0][:-len(CELLS_OPEN) - 1] + "}")
        lines = [r[:-1] if r.endswith(",") else r for r in rows[1:-2]]
    except ValueError as exc:
        raise DamagedAtlas(f"the atlas {where} is damaged ({exc}); rebuild it: {REBUILD}") from None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise DamagedAtlas(f"the atlas {where} is not a {FORMAT} file; rebuild it: {REBUILD}")
    if _hash_lines(lines) != head.get("sha256"):
        raise DamagedAtlas(f"the atlas {where} does not match its content hash (damaged or "
                           f"edited); rebuild it: {REBUILD}")
    return head, lines


@cache
def _checked(path: Path | None = None) -> tuple[dict, dict[str, str]]:
    """The header and each cell's line by key (only a line asked for is parsed)."""
    head, lines = _lines(atlas_path() if path is None else path)
    index = {}
    for line in lines:
        at = line.find('"key":"') + 7
        index[line[at:line.index('"', at)]] = line
    return head, index


@cache
def load(path: Path | None = None) -> dict:
    """The whole atlas document, its hash checked; :class:`DamagedAtlas` if it cannot be trusted."""
    head, index = _checked(path)
    try:
        cells = [json.loads(line) for line in index.values()]
    except ValueError as exc:
        raise DamagedAtlas(f"the atlas is damaged ({exc}); rebuild it: {REBUILD}") from None
    return {**head, "cells": cells}


def header(path: Path | None = None) -> dict:
    return _checked(path)[0]


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(models_dir().parent))
    except ValueError:
        return str(path)


def lookup(variant: Variant, path: Path | None = None) -> dict | None:
    """The atlas record of ``variant``'s game (any alphabet of its size), or None."""
    line = _checked(path)[1].get(cell_key(variant))
    return None if line is None else json.loads(line)




# --- the records and their filters ----------------------------------------------------------
def records(path: Path | None = None) -> list[dict]:
    """Every cell as ``{variant, length, symbols, repeats, feedback, ...}`` (``--table --json``)."""
    out = []
    for c in load(path)["cells"]:
        v = c["variant"]
        out.append({"id": c["id"], "variant": v.get("name") or c["family"], "family": c["family"],
                    "length": v["length"], "symbols": v["symbols"], "repeats": v["repeats"],
                    "no_leading_zero": v["no_leading_zero"], "feedback": v["feedback"],
                    "secrets": c["secrets"], "responses": c["responses"], "status": c["status"],
                    "worst": c["worst"], "expected": c["expected"]})
    return out


def matching(filters: dict, path: Path | None = None) -> list[dict]:
    """The records whose fields equal every given filter (``None`` values ignored); the
    alphabet filter ``n_symbols`` compares sizes."""
    out = []
    for r in records(path):
        ok = True
        for key, value in filters.items():
            if value is None:
                continue
            have = len(r["symbols"]) if key == "n_symbols" else r[key]
            ok = ok and have == value
        if ok:
            out.append(r)
    return out


def markdown(rows: list[dict]) -> str:
    """The records as one Markdown table (worst and expected, each end's method)."""
    head = ("| variant | N | D | repeats | feedback | secrets | worst | worst: lower / upper method "
            "| expected (average) | literature |")
    lines = [head, "|" + "---|" * 10]
    for r in rows:
        w, e, s = r["worst"], r["expected"], r["secrets"]
        worst = f"**{w['lower']}**" if w["lower"] == w["upper"] else f"{w['lower']}–{w['upper']}"
        lo, hi = e["lower"] / s, e["upper"] / s
        avg = f"**{lo:.3f}**" if e["lower"] == e["upper"] else f"{lo:.3f}–{hi:.3f}"
        lit = "; ".join(f"{x.get('objective', 'worst')} {_lit_value(x)} ({x['citation']})"
                        for x in w.get("literature", []) + e.get("literature", []))
        lines.append(f"| {r['variant']} | {r['length']} | {len(r['symbols'])} | "
                     f"{'yes' if r['repeats'] else 'no'} | {r['feedback']} | {s} | {worst} | "
                     f"{w['lower_method']} / {w['upper_method']} | {avg} | {lit} |")
    return "\n".join(lines)


def _lit_value(x: dict) -> str:
    if x.get("exact") is not None:
        return f"= {x['exact']}"
    return f"≤ {x['upper']}" if x.get("upper") is not None else f"≥ {x['lower']}"


CSV_FIELDS = ["id", "variant", "length", "n_symbols", "symbols", "repeats", "no_leading_zero",
              "feedback", "secrets", "responses", "status", "worst_lower", "worst_upper",
              "worst_lower_method", "worst_upper_method", "worst_literature_upper",
              "total_lower", "total_upper", "total_lower_method", "total_upper_method"]


def csv_text(rows: list[dict]) -> str:
    import csv
    import io

    buf = io.StringIO()
    writer = csv.DictWriter(buf, CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for r in rows:
        w, e = r["worst"], r["expected"]
        lit = [x["upper"] for x in w.get("literature", []) if x.get("upper") is not None]
        writer.writerow({"id": r["id"], "variant": r["variant"], "length": r["length"],
                         "n_symbols": len(r["symbols"]), "symbols": r["symbols"],
                         "repeats": r["repeats"], "no_leading_zero": r["no_leading_zero"],
                         "feedback": r["feedback"], "secrets": r["secrets"],
                         "responses": r["responses"], "status": r["status"],
                         "worst_lower": w["lower"], "worst_upper": w["upper"],
                         "worst_lower_method": w["lower_method"],
                         "worst_upper_method": w["upper_method"],
                         "worst_literature_upper": min(lit) if lit else "",
                         "total_lower": e["lower"], "total_upper": e["upper"],
                         "total_lower_method": e["lower_method"],
                         "total_upper_method": e["upper_method"]})
    return buf.getvalue()


def python_literal(rows: list[dict]) -> str:
    """``{(length, symbols, repeats): upper}`` of the bulls-and-cows-feedback cells (no
    leading-zero rule): the worst case's upper end proved here, a budget no optimal player
    exceeds."""
    pairs = sorted((r["length"], len(r["symbols"]), r["repeats"], r["worst"]["upper"])
                   for r in rows if r["feedback"] == "bulls-cows" and not r["no_leading_zero"])
    body = "".join(f"    ({n}, {d}, {rep}): {up},\n" for n, d, rep, up in pairs)
    return "{\n" + body + "}"


__all__ = ["DamagedAtlas", "atlas_path", "cell_key", "content_hash", "csv_text", "header",
           "load", "lookup", "markdown", "matching", "python_literal", "records", "write"]
