"""Streaming evaluations run for the atlas cells themselves (``build_atlas.py --stream``): each
chosen cell of at most ``--max-secrets`` secrets (10^8 by default) whose worst case is open gets
its family's recipes (``RECIPES``) played against every secret by
:func:`cbsolve.strategy.streaming.evaluate_streaming`, each run in its own process under an
address-space cap and a Deadline, and the best complete run folded into the cell where it beats
an upper end (scripts/models/fold_streaming.py: sampled replay with the NumPy reference scorer;
the build then replays cells up to 10^6 secrets whole).

Resumable cell by cell: every run (complete, stopped or failed) is one line of the run log
``models/atlas/streaming-runs.jsonl``, and a (cell, recipe) already there is not run again;
``--recompute`` runs it again. The log is the record of each run's wall and CPU seconds, peak
memory and the load beside it; the folded cell keeps its best run's figures in
``streaming_run``.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "common"))

import child_run  # noqa: E402

RUNS = ROOT / "models" / "atlas" / "streaming-runs.jsonl"
#: Cells up to this many secrets are streamed by default (the issue's reach on two cores).
LIMIT = 100_000_000
#: Seconds a run (each cell's runs are bounded by this, the issue's 30 minutes).
SECONDS = 1800.0
MEMORY_GB = 12.0
#: Above this many secrets the sampled replay at folding takes fewer secrets: each replay scans the
#: space level by level, and up to 10^6 secrets the build then replays the cell whole.
WHOLE_FROM = 100_000
#: The recipes tried on each family's cells, in order (fields of cbsolve.strategy.streaming.Recipe).
#: Mastermind: minimax on whole classes, as on mikemag's games. Black-peg (bulls only): every
#: first guess is equivalent (the reply is invariant under a symbol permutation in each position),
#: and the spread-out heuristics beat minimax by one to three guesses at worst on 4x10, 6x6, 7x7.
RECIPES = {
    "mastermind": [{"heuristic": "minimax"}],
    "bulls-cows": [{}],
    "black-peg": [{"heuristic": "entropy"}, {"heuristic": "parts"}],
}


def wanted(record: dict, limit: int = LIMIT) -> bool:
    """A cell worth streaming: written, not failed, at most ``limit`` secrets, worst case open,
    and of a family with recipes."""
    return (record.get("status") != "failed" and record.get("secrets", limit + 1) <= limit
            and record.get("worst", {}).get("exact") is None and record["family"] in RECIPES)


def logged(runs: Path) -> list[dict]:
    if not runs.exists():
        return []
    return [json.loads(line) for line in runs.read_text().splitlines() if line.strip()]


def resolved(recipe: dict, record: dict) -> dict:
    """``recipe`` made concrete for the cell ``record``: ``"target": "below"`` aims one guess under
    the cell's current worst-case upper end (the tight tail rule and the tail search need a
    number, and one recipe serves a whole sweep of cells)."""
    if recipe.get("target") == "below":
        return {**recipe, "target": record["worst"]["upper"] - 1}
    return recipe


def stream(ids: list[str], cells_dir: Path, runs: Path = RUNS, limit: int = LIMIT,
           seconds: float = SECONDS, memory_gb: float = MEMORY_GB, recompute: bool = False,
           extra: list[dict] | None = None, say=print, sample: int | None = None) -> list[tuple]:
    """Stream the cells ``ids`` (in the order given) and fold each one's best run; the changed
    ends as (cell id, object, old upper, new upper)."""
    from fold_streaming import LARGE_SAMPLE, SAMPLE, best_runs, fold_run

    changed = []
    for cell_id in ids:
        path = cells_dir / f"{cell_id}.json"
        if not path.exists():
            continue
        record = json.loads(path.read_text())
        if not wanted(record, limit):
            continue
        done = {json.dumps(r["asked"], sort_keys=True) for r in logged(runs)
                if r.get("cell") == cell_id and "error" not in r}
        for recipe in RECIPES[record["family"]] + list(extra or []):
            if recompute or json.dumps(recipe, sort_keys=True) not in done:
                # "asked" as given (what resuming compares); the run's own "recipe" as resolved
                row = {"cell": cell_id, "asked": recipe, **child_run.streaming(
                    record["variant"], resolved(recipe, record), seconds, memory_gb)}
                with runs.open("a") as f:
                    f.write(json.dumps(row) + "\n")
                say(f"{cell_id} {json.dumps(recipe)}: " + (f"error {row['error']}" if "error" in row
                    else f"worst {row['worst']} total {row['total']} {row['wall_seconds']} s wall, "
                         f"{row['cpu_seconds']} s CPU, {row['peak_rss_mb']} MB, load {row['load']}"))
        mine = [r for r in logged(runs) if r.get("cell") == cell_id and "error" not in r]
        best = best_runs(mine)
        if not best:
            continue
        (run,) = best.values()
        n = sample or (SAMPLE if record["secrets"] <= WHOLE_FROM else LARGE_SAMPLE)
        new = fold_run(record, run, n)
        if new is None:
            say(f"{cell_id}: streaming worst {run['worst']} total {run['total']} does not beat "
                f"[{record['worst']['upper']}, {record['expected']['upper']}]")
            continue
        new["streaming_run"] = {k: run[k] for k in ("wall_seconds", "cpu_seconds", "peak_rss_mb",
                                                    "load", "seconds") if k in run}
        path.write_text(json.dumps(new, indent=1, sort_keys=True) + "\n")
        for obj in ("worst", "expected"):
            if new[obj]["upper"] != record[obj]["upper"]:
                changed.append((cell_id, obj, record[obj]["upper"], new[obj]["upper"]))
        say(f"{cell_id}: worst [{record['worst']['lower']}, {record['worst']['upper']}] -> "
            f"[{new['worst']['lower']}, {new['worst']['upper']}]")
    return changed
