"""Build the atlas: one verified result file a cell under models/atlas/cells/, assembled into
models/atlas.json (docs/contract.md, "The atlas").

    nice python scripts/models/build_atlas.py --budget 20               # every missing cell
    python scripts/models/build_atlas.py --recompute mastermind-5x8 --budget 600
    python scripts/models/build_atlas.py --only 'black-peg-*' --budget 60
    python scripts/models/build_atlas.py --assemble                       # cells -> atlas only
    python scripts/models/build_atlas.py --from-streaming scripts/bench/streaming_results.jsonl
    nice python scripts/models/build_atlas.py --stream --only 'black-peg-*' --max-secrets 1000000
    nice python scripts/models/build_atlas.py --recheck --only 'mastermind-*'  # whole replays

Resumable: a cell whose file exists is skipped; ``--recompute CELL`` computes it again and a
better result replaces it end by end (a higher lower end, a lower upper end; the other ends
stay). Each cell is :func:`cbsolve.bounds.compute_bounds` under ``--budget`` seconds in its own
process with an address-space cap (``--memory-gb``, RLIMIT_AS), so a runaway cell is written
as failed instead of taking the machine down; a failed cell is then computed again without
the optional work (counting, closed-form partition, constructions: seconds, little memory)
and marked ``partial``. Each cell is checked as it is written (lower <= upper, the exact
searches' trees and certificates re-checked by the independent verifier inside
``compute_bounds``, and a strategy upper end up to ``--replay-limit`` secrets replayed by
:mod:`cbsolve.certificates.certify`); the cell records what was verified, its seconds and its peak memory.
The literature values (models/atlas/literature.json) join the cells at assembly, kept apart.
``--from-streaming`` folds exact streaming evaluations in as upper ends (scripts/models/fold_streaming.py);
``--recheck`` replays the written cells' upper ends whole (scripts/models/recheck_cells.py).
``--stream`` runs the streaming strategies of each family on the chosen open cells up to
``--max-secrets`` (10^8 by default) and folds the best in (scripts/models/stream_cells.py; its
run log is models/atlas/streaming-runs.jsonl, so a rebuild resumes cell by cell).
"""
from __future__ import annotations

import argparse
import datetime
import fnmatch
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cbsolve.bounds.atlas_file import ATLAS_FILE, FORMAT, record_key, write  # noqa: E402
from cbsolve.game.variant import Variant  # noqa: E402

CELLS = ROOT / "models" / "atlas" / "cells"
LITERATURE = ROOT / "models" / "atlas" / "literature.json"
PROOFS = ROOT / "models" / "proofs"
ATLAS = ROOT / "models" / ATLAS_FILE
BUDGET = 20.0
MEMORY_GB = 4.0
#: Strategy trees up to this many secrets are rebuilt and replayed by cbsolve.certificates.certify.
REPLAY_LIMIT = 100_000
BEYOND_DIGITS = "0123456789AB"


# --- the grid -------------------------------------------------------------------------------
def _symbols(d: int, family: str) -> str:
    if d > 10:
        return BEYOND_DIGITS[:d]
    base = Variant.preset("mastermind" if family != "bulls-cows" else "bulls-cows").symbols
    return ("123456789"[:d] if base[0] == "1" and d <= 9 else "0123456789"[:d])


def atlas_cells() -> list[dict]:
    """Every cell: {id, family, variant (dict)}, in the order the table prints them."""
    cells = []

    def add(family: str, n: int, d: int, variant: Variant, cell_id: str | None = None):
        cells.append({"id": cell_id or f"{family}-{n}x{d}", "family": family,
                      "variant": variant.to_dict()})

    for n in range(1, 21):
        for d in range(1, 11):
            add("mastermind", n, d, Variant(n, _symbols(d, "mastermind"), repeats=True))
    for d in range(1, 11):
        for n in range(1, d + 1):
            add("bulls-cows", n, d, Variant(n, _symbols(d, "bulls-cows"), repeats=False))
    for n in range(1, 21):
        for d in range(1, 11):
            add("black-peg", n, d, Variant(n, _symbols(d, "black-peg"), repeats=True,
                                           feedback="bulls"))
    for d in (11, 12):
        for n in range(1, 9):
            add("mastermind", n, d, Variant(n, BEYOND_DIGITS[:d], repeats=True))
            add("bulls-cows", n, d, Variant(n, BEYOND_DIGITS[:d], repeats=False))
    for name in ("bulls-cows-no-leading-zero", "numbers"):
        v = Variant.preset(name)
        add(name, v.length, len(v.symbols), v, f"{name}-{v.length}x{len(v.symbols)}")
    return cells


def cell_by_id() -> dict[str, dict]:
    return {c["id"]: c for c in atlas_cells()}


# --- one cell, in its own process -------------------------------------------------------------
def compute_cell(cell: dict, budget: float, replay_limit: int = REPLAY_LIMIT,
                 optional: bool = True, deep: bool = True) -> dict:
    """The cell's record: ``compute_bounds`` within ``budget`` seconds (``optional`` False:
    without strategies, searches and the scorer's partition bound; ``deep`` False: without
    the two-guess partition bounds, which can take a small budget whole on long codes over
    few symbols and leave the strategies no time), checked."""
    from cbsolve.bounds import compute_bounds
    from cbsolve.runtime.deadline import Deadline

    start = time.perf_counter()
    variant = Variant.from_dict(cell["variant"])
    b = compute_bounds(variant, deadline=Deadline(budget), workers=1, search=optional,
                       strategies=optional, deep=optional and deep)
    record = {"id": cell["id"], "family": cell["family"], "variant": variant.to_dict(),
              "secrets": b.secrets, "responses": b.responses,
              "worst": _interval(b.worst, b.evaluated, "worst"),
              "expected": _interval(b.expected, b.evaluated, "total"),
              "strategies": b.evaluated, "notes": b.notes,
              "verification": {"searches": b.checks}}
    record["verification"].update(_replay(variant, record, replay_limit))
    if not (record["worst"]["lower"] <= record["worst"]["upper"]
            and record["expected"]["lower"] <= record["expected"]["upper"]):
        raise AssertionError(f"{cell['id']}: lower above upper")
    record["seconds"] = round(time.perf_counter() - start, 2)
    record["budget"] = budget
    record["status"] = "done" if optional else "partial"
    return record


def _interval(iv, evaluated: list[dict], key: str) -> dict:
    out = {"lower": iv.lower, "upper": iv.upper, "exact": iv.exact,
           "lower_method": iv.lower_method, "upper_method": iv.upper_method,
           "provenance": {"lower": "proved here", "upper": "proved here"},
           "recipe": _recipe(iv, evaluated, key)}
    if out["recipe"] and out["recipe"]["kind"] == "strategy":
        out["histogram"] = out["recipe"].pop("histogram")
    return out


def _recipe(iv, evaluated: list[dict], key: str) -> dict | None:
    """How the upper end replays: a strategy (name, guess set, first guess), a tree file, a
    construction (its method), a search's tree (not stored), or the trivial strategy."""
    m = iv.upper_method
    if iv.upper_strategy is not None:
        s = iv.upper_strategy
        for e in evaluated:
            if (e["name"], e["guesses"], e["first"]) == (s["name"], s["guesses"], s["first"]) \
                    and e[key] == iv.upper:
                return {"kind": "strategy", "name": s["name"], "guesses": s["guesses"],
                        "first": s["first"], "worst": e["worst"], "total": e["total"],
                        "histogram": e["histogram"]}
        return {"kind": "strategy", **s}
    if m.startswith("certified tree ") or m.startswith("tree "):
        return {"kind": "tree", "path": m.split()[2] if m.startswith("certified") else m.split()[1]}
    if m.startswith("search"):
        return {"kind": "search", "stored": False}
    if m.startswith("trivial"):
        return {"kind": "trivial"}
    return {"kind": "construction", "method": m}


def _replay(variant: Variant, record: dict, limit: int) -> dict:
    """The worst case's strategy rebuilt and replayed by the independent verifier (up to
    ``limit`` secrets): the tree must reach its claimed worst case."""
    from recheck_cells import replay_strategy

    recipe = record["worst"]["recipe"]
    if not recipe or recipe["kind"] != "strategy" or record["secrets"] > limit:
        return {"strategy_replayed": False}
    check = replay_strategy(variant, record, recipe, "worst")
    return {"strategy_replayed": True, "strategy_replay": f"cbsolve.certificates.certify replayed the "
            f"{recipe['name']} tree against all {record['secrets']} secrets: worst {check['worst']}"}


def _worker(cell_id: str, budget: float, out: Path, optional: bool, replay_limit: int,
            deep: bool) -> None:
    record = compute_cell(cell_by_id()[cell_id], budget, replay_limit, optional, deep)
    record["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    out.write_text(json.dumps(record))


def run_capped(cell_id: str, budget: float, memory_gb: float, optional: bool = True,
               replay_limit: int = REPLAY_LIMIT, deep: bool = True,
               cells_dir: Path = CELLS) -> tuple[dict | None, str]:
    """The cell computed in a child process under an address-space cap and a wall guard:
    (record, "") or (None, why it failed); its scratch file sits beside ``cells_dir``."""
    out = cells_dir.parent / f".{cell_id}.tmp"
    cap = int(memory_gb * 2**30)

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    cmd = [sys.executable, __file__, "--worker", cell_id, "--budget", str(budget),
           "--worker-out", str(out), "--replay-limit", str(replay_limit)]
    if not optional:
        cmd.append("--no-optional")
    if not deep:
        cmd.append("--shallow")
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    guard = 2 * budget + 45     # a cell past its budget this much is runaway work (seconds)
    try:
        proc = subprocess.run(cmd, preexec_fn=limit, env=env, capture_output=True, text=True,
                              timeout=guard)
    except subprocess.TimeoutExpired:
        return None, f"no answer within {guard:.0f} s (killed)"
    if proc.returncode != 0 or not out.exists():
        tail = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
        if "MemoryError" in proc.stderr or "bad_alloc" in proc.stderr or proc.returncode == -6:
            tail = f"over the {memory_gb:g} GB memory cap ({tail})"
        return None, tail[:300]
    record = json.loads(out.read_text())
    out.unlink()
    return record, ""


# --- a better result replaces a cell, end by end -------------------------------------------------
def merge(old: dict | None, new: dict) -> dict:
    """``new`` with each end of ``old`` kept where it was better (a proof stays a proof)."""
    if old is None or old.get("status") == "failed":
        return new
    if new.get("status") == "failed":
        return old
    merged = dict(new)
    for obj in ("worst", "expected"):
        a, b = old[obj], dict(new[obj])
        if a["lower"] > b["lower"]:
            b["lower"], b["lower_method"] = a["lower"], a["lower_method"]
        if a["upper"] < b["upper"]:
            for k in ("upper", "upper_method", "recipe", "histogram"):
                if k in a:
                    b[k] = a[k]
                else:
                    b.pop(k, None)
        b["exact"] = b["lower"] if b["lower"] == b["upper"] else None
        merged[obj] = b
        if obj == "worst" and a["upper"] < new[obj]["upper"]:   # its replay check goes with it
            merged["verification"] = {**new.get("verification", {}),
                                      **{k: v for k, v in old.get("verification", {}).items()
                                         if k.startswith(("strategy_replay", "streaming_replay"))}}
    if merged["worst"] != new["worst"] or merged["expected"] != new["expected"]:
        merged["status"] = "done" if "done" in (old["status"], new["status"]) else new["status"]
        merged.setdefault("notes", []).append("ends kept from an earlier build where better")
    return merged


def build(ids: list[str], budget: float, memory_gb: float, recompute: bool,
          replay_limit: int = REPLAY_LIMIT, say=print, deep: bool = True,
          cells_dir: Path = CELLS) -> list[dict]:
    """Compute the cells ``ids`` into ``cells_dir`` (skipping written ones unless
    ``recompute``); the records."""
    cells_dir.mkdir(parents=True, exist_ok=True)
    cells = cell_by_id()
    done = []
    for cell_id in ids:
        path = cells_dir / f"{cell_id}.json"
        old = json.loads(path.read_text()) if path.exists() else None
        if old is not None and not recompute:
            continue
        start = time.perf_counter()
        record, why = run_capped(cell_id, budget, memory_gb, True, replay_limit, deep, cells_dir)
        if record is None:          # the cheap methods alone, capped the same way
            record, why2 = run_capped(cell_id, budget, memory_gb, False, 0, cells_dir=cells_dir)
            if record is None:
                record = {"id": cell_id, **{k: cells[cell_id][k] for k in ("family", "variant")},
                          "status": "failed", "budget": budget, "notes": [why, why2]}
            else:
                record["notes"].insert(0, f"full computation failed: {why}; the cheap methods only")
        record["wall_seconds"] = round(time.perf_counter() - start, 2)
        record["built"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        record = merge(old, record)
        path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
        w = record.get("worst")
        say(f"{cell_id}: {record['status']}"
            + (f" worst [{w['lower']}, {w['upper']}]" if w else "")
            + f" {record['wall_seconds']} s")
        done.append(record)
    return done


def recheck_written(ids: list[str], limit: int | None = None, cells_dir: Path = CELLS) -> None:
    """Replay the upper ends of the written cells ``ids`` (in ``cells_dir``) whole and record
    what was checked."""
    from recheck_cells import RECHECK_LIMIT, recheck

    for cell_id in order_by_size(ids):
        path = cells_dir / f"{cell_id}.json"
        if not path.exists():
            continue
        record = json.loads(path.read_text())
        start = time.perf_counter()
        found = recheck(record, RECHECK_LIMIT if limit is None else limit)
        if not found:
            continue
        record.setdefault("verification", {}).update(found)
        path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
        print(f"{cell_id}: {', '.join(sorted(found))} "
              f"({time.perf_counter() - start:.1f} s)", flush=True)


# --- assembly -------------------------------------------------------------------------------
def assemble(out: Path = ATLAS, cells_dir: Path = CELLS, literature: Path = LITERATURE) -> dict:
    """The cell files (in grid order) with the literature values beside them, hashed."""
    from cbsolve.bounds.atlas_file import cell_key

    lit = json.loads(literature.read_text()) if literature.exists() else {"values": []}
    by_key: dict[tuple, list] = {}
    for item in lit["values"]:
        by_key.setdefault(cell_key(Variant.from_dict(item["variant"])), []).append(item)
    cells, missing, seconds = [], [], 0.0
    for spec in atlas_cells():
        path = cells_dir / f"{spec['id']}.json"
        if not path.exists():
            missing.append(spec["id"])
            continue
        record = json.loads(path.read_text())
        if record["status"] == "failed":
            missing.append(spec["id"])
            continue
        seconds += record.get("wall_seconds", 0.0) + record.get("streaming_run", {}).get("wall_seconds", 0.0)
        for item in by_key.get(cell_key(Variant.from_dict(record["variant"])), []):
            _add_literature(record, item)
        for obj in ("worst", "expected"):
            record[obj]["known"] = _known(record[obj])
        record["key"] = record_key(record)
        cells.append(record)
    doc = {"format": FORMAT, "built": datetime.datetime.now(datetime.timezone.utc)
           .strftime("%Y-%m-%d %H:%M UTC"), "version": _version(), "cells_total": len(atlas_cells()),
           "missing": missing, "build_seconds": round(seconds, 1), "cells": cells}
    doc["sha256"] = write(doc, out)
    return doc


def _version() -> str:
    import cbsolve

    return cbsolve.__version__


def _add_literature(record: dict, item: dict) -> None:
    """A published value beside the cell's proof, never in its place; a published exact value
    outside the interval proved here is a contradiction to look at, so the build stops."""
    obj = item["objective"]
    iv = record["worst" if obj == "worst" else "expected"]
    entry = {k: item[k] for k in ("lower", "upper", "exact", "citation") if k in item}
    entry["objective"] = obj
    low = item.get("exact", item.get("lower"))
    high = item.get("exact", item.get("upper"))
    if (low is not None and low > iv["upper"]) or (high is not None and high < iv["lower"]):
        raise AssertionError(f"{record['id']}: {item['citation']} says {entry}, outside the "
                             f"proved [{iv['lower']}, {iv['upper']}]")
    iv.setdefault("literature", []).append(entry)


def _known(iv: dict) -> dict:
    """The best interval known, each end saying where it comes from (proved here first)."""
    lower, lower_from = iv["lower"], "proved here"
    upper, upper_from = iv["upper"], "proved here"
    for x in iv.get("literature", []):
        lo, hi = x.get("exact", x.get("lower")), x.get("exact", x.get("upper"))
        if lo is not None and lo > lower:
            lower, lower_from = lo, f"literature: {x['citation']}"
        if hi is not None and hi < upper:
            upper, upper_from = hi, f"literature: {x['citation']}"
    return {"lower": lower, "upper": upper, "lower_from": lower_from, "upper_from": upper_from}


# --- command line ---------------------------------------------------------------------------
def _open(cell_id: str, trivial_only: bool) -> bool:
    """The cell is written and its worst case open (with ``trivial_only``: its upper end the
    trivial one)."""
    path = CELLS / f"{cell_id}.json"
    if not path.exists():
        return False
    w = json.loads(path.read_text()).get("worst")
    return w is not None and w["exact"] is None and \
        (not trivial_only or w["upper_method"].startswith("trivial"))


def select(patterns: list[str] | None) -> list[str]:
    ids = [c["id"] for c in atlas_cells()]
    if not patterns:
        return ids
    chosen = [i for i in ids if any(fnmatch.fnmatch(i, p) for p in patterns)]
    unknown = [p for p in patterns if not any(fnmatch.fnmatch(i, p) for i in ids)]
    if unknown:
        raise SystemExit(f"build_atlas: no cell matches {', '.join(unknown)} (ids look like "
                         "mastermind-4x6, bulls-cows-4x10, black-peg-5x3, numbers-4x10)")
    return chosen


def order_by_size(ids: list[str]) -> list[str]:
    """Small cells first: the cheap part of the grid is written before the budget-bound one."""
    from cbsolve.game.codes import CodeSpace

    cells = cell_by_id()
    return sorted(ids, key=lambda i: CodeSpace(Variant.from_dict(cells[i]["variant"])).size)


def _stream(args) -> None:
    from stream_cells import LIMIT, stream

    ids = order_by_size(select(args.recompute or args.only))
    changed = stream(ids, CELLS, limit=args.max_secrets or LIMIT, seconds=args.stream_seconds,
                     memory_gb=args.stream_memory_gb, recompute=bool(args.recompute),
                     extra=args.stream_recipe, say=lambda m: print(m, flush=True))
    print(f"{len(changed)} upper ends improved by streaming evaluations", flush=True)
    recheck_written(sorted({c[0] for c in changed}))   # whole replays up to 10^6 secrets


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget", type=float, default=BUDGET, help="seconds of work per cell")
    ap.add_argument("--memory-gb", type=float, default=MEMORY_GB, help="address-space cap a cell")
    ap.add_argument("--only", action="append", help="cell ids (shell patterns), repeatable")
    ap.add_argument("--recompute", action="append", metavar="CELL",
                    help="compute CELL again; a better result replaces it end by end")
    ap.add_argument("--max-secrets", type=int, default=None, help="skip larger cells")
    ap.add_argument("--replay-limit", type=int, default=REPLAY_LIMIT)
    ap.add_argument("--assemble", action="store_true", help="only assemble the atlas")
    ap.add_argument("--shallow", action="store_true",
                    help="skip the two-guess partition bounds (their time goes to the strategies)")
    ap.add_argument("--trivial-only", action="store_true",
                    help="of the chosen cells, recompute those whose worst-case upper end is "
                         "still the trivial one")
    ap.add_argument("--open-only", action="store_true",
                    help="of the chosen cells, recompute those whose worst case is still open")
    ap.add_argument("--from-streaming", type=Path, metavar="FILE",
                    help="fold the best complete streaming run of each game (a results file of "
                         "scripts/bench/bench_streaming.py) into its cell where it beats an upper end")
    ap.add_argument("--from-ledgers", action="store_true",
                    help="fold the results of whole refutation ledgers (models/proofs/*/result.json, "
                         "`cbsolve merge DIR --ledger`) into their cells as worst-case lower ends")
    ap.add_argument("--streaming-sample", type=int, default=200,
                    help="secrets replayed to verify each folded streaming recipe")
    ap.add_argument("--streaming-sample-large", type=int, default=40,
                    help="the same for a game of more than 2 million secrets")
    ap.add_argument("--stream", action="store_true",
                    help="run the streaming strategies (scripts/models/stream_cells.py) on the chosen "
                         "open cells up to --max-secrets (default 10^8) and fold the best in")
    ap.add_argument("--stream-seconds", type=float, default=1800.0, help="seconds a streaming run")
    ap.add_argument("--stream-memory-gb", type=float, default=12.0, help="address-space cap a run")
    ap.add_argument("--stream-recipe", action="append", type=json.loads, metavar="JSON",
                    help="a further streaming recipe to try on each chosen cell, repeatable; "
                         "\"target\": \"below\" aims one guess under the cell's upper end")
    ap.add_argument("--recheck", action="store_true",
                    help="replay the upper ends of the chosen written cells (--only; default all) "
                         "against every secret with the independent checkers, up to "
                         "--recheck-limit secrets (scripts/models/recheck_cells.py)")
    ap.add_argument("--recheck-limit", type=int, default=None, metavar="SECRETS")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--worker-out", help=argparse.SUPPRESS)
    ap.add_argument("--no-optional", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        _worker(args.worker, args.budget, Path(args.worker_out), not args.no_optional,
                args.replay_limit, not args.shallow)
        return 0
    if args.stream:
        _stream(args)
    elif args.recheck:
        recheck_written(select(args.only), args.recheck_limit)
    elif args.from_ledgers:
        from fold_ledgers import fold as fold_ledgers

        changed = fold_ledgers(PROOFS, CELLS, say=lambda m: print(m, flush=True), root=ROOT)
        print(f"{len(changed)} lower ends raised by refutation ledgers", flush=True)
    elif args.from_streaming:
        from fold_streaming import fold

        if not args.from_streaming.is_file():
            raise SystemExit(f"build_atlas: no results file {args.from_streaming}")
        changed = fold(args.from_streaming, CELLS, args.streaming_sample,
                       say=lambda m: print(m, flush=True), large_sample=args.streaming_sample_large)
        print(f"{len(changed)} upper ends improved by streaming evaluations", flush=True)
        recheck_written(sorted({c[0] for c in changed}))   # whole replays up to 10^6 secrets
    elif not args.assemble:
        ids = order_by_size(select(args.recompute or args.only))
        if args.trivial_only or args.open_only:
            ids = [i for i in ids if _open(i, trivial_only=args.trivial_only)]
        if args.max_secrets is not None:
            from cbsolve.game.codes import CodeSpace

            cells = cell_by_id()
            ids = [i for i in ids
                   if CodeSpace(Variant.from_dict(cells[i]["variant"])).size <= args.max_secrets]
        start = time.perf_counter()
        done = build(ids, args.budget, args.memory_gb, bool(args.recompute or args.trivial_only or args.open_only),
                     args.replay_limit, say=lambda m: print(m, flush=True), deep=not args.shallow)
        print(f"{len(done)} cells in {time.perf_counter() - start:.1f} s", flush=True)
    doc = assemble()
    print(f"atlas: {len(doc['cells'])} of {doc['cells_total']} cells, {len(doc['missing'])} "
          f"missing, sha256 {doc['sha256'][:12]}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
