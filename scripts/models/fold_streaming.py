"""Streaming evaluations (scripts/bench/streaming_results.jsonl, :mod:`cbsolve.strategy.streaming`)
folded into the atlas cells as proved upper ends (``build_atlas.py --from-streaming FILE``).

A complete streaming run is a deterministic strategy played against every secret of the game:
its worst case and total are upper ends of the cell's worst case and expected total. For each
game the best complete run (fewest guesses at worst, then the smallest total) is taken, and each
end of the cell it beats is replaced (the other ends stay), with a recipe of kind ``"streaming"``
holding the full :class:`~cbsolve.strategy.streaming.Recipe` spelled in the cell's alphabet, so
that ``bounds --play`` replays it. Each cell is verified as it is written: a fixed-seed sample of
secrets is replayed with :func:`~cbsolve.strategy.streaming.play_streaming`, every reply scored
again by the NumPy reference scorer; each sampled game must end on the secret within the claimed
worst case, and secrets whose replies agree so far must have been given the same next guess (the
guesses form one strategy tree).
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np

from cbsolve.bounds.atlas_file import cell_key
from cbsolve.game.variant import Variant

SAMPLE = 200
SAMPLE_SEED = 0
#: Games above this many secrets replay ``LARGE_SAMPLE`` secrets instead (a replay there takes
#: seconds: each level scans the whole space); the cell records the number replayed.
LARGE_FROM = 2_000_000
LARGE_SAMPLE = 40


def best_runs(rows: list[dict]) -> dict[str, dict]:
    """Cell key -> the best complete run of that game (fewest guesses at worst, then total)."""
    best: dict[str, dict] = {}
    for row in rows:
        if not row.get("complete") or row.get("worst") is None:
            continue
        key = cell_key(Variant.from_dict(row["variant"]))
        if key not in best or (row["worst"], row["total"]) < (best[key]["worst"], best[key]["total"]):
            best[key] = row
    return best


def read_runs(path: Path) -> list[dict]:
    rows = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise SystemExit(f"build_atlas: {path}:{n} is not JSON ({e.msg})") from None
    return rows


def cell_recipe(run: dict, cell: Variant) -> dict:
    """The run's recipe in the cell's alphabet (its first guess translated symbol by symbol)."""
    recipe = dict(run["recipe"])
    theirs = Variant.from_dict(run["variant"])
    if recipe.get("first") is not None:
        recipe["first"] = recipe["first"].translate(str.maketrans(theirs.symbols, cell.symbols))
    return recipe


def method_text(recipe: dict) -> str:
    """Names the strategy by the recipe's fields that differ from the defaults (the full recipe
    is the cell's ``recipe``)."""
    from dataclasses import asdict

    from cbsolve.strategy.streaming import Recipe

    default = asdict(Recipe())
    shown = ", ".join(f"{k} {recipe[k]}" for k in default      # the Recipe's field order
                      if k not in ("heuristic", "scheme") and recipe.get(k, default[k]) != default[k])
    return (f"strategy streaming {recipe['heuristic']} (exact evaluation over every secret; "
            f"recipe {shown or 'defaults'}, scheme {recipe['scheme']})")


def verify_sample(variant: Variant, recipe: dict, worst: int, sample: int = SAMPLE,
                  seed: int = SAMPLE_SEED) -> dict:
    """Replay ``sample`` secrets drawn with ``seed``; what was checked (AssertionError if a check
    fails)."""
    from cbsolve.game.codes import CodeSpace
    from cbsolve.game.scoring import score_matrix
    from cbsolve.strategy.streaming import Recipe, play_streaming

    space = CodeSpace(variant)
    r = Recipe.from_json(recipe)
    indices = np.random.default_rng(seed).integers(0, space.size, size=min(sample, space.size))
    chosen: dict[tuple, str] = {}       # replies so far -> the guess made next
    most = 0
    for index in indices.tolist():
        secret = space.code_at(index)
        text = space.format(secret)
        guesses = play_streaming(variant, r, text)
        codes = np.array([space.parse(g) for g in guesses], dtype=np.uint8)
        replies = score_matrix(variant, codes, np.array([secret], dtype=np.uint8),
                               backend="numpy")[:, 0].tolist()
        if guesses[-1] != text or replies[-1] != variant.win_response:
            raise AssertionError(f"{variant.describe()}: the streaming recipe does not end on {text}")
        if variant.win_response in replies[:-1]:
            raise AssertionError(f"{variant.describe()}: {text} was guessed before the game ended")
        if len(guesses) > worst:
            raise AssertionError(f"{variant.describe()}: {text} takes {len(guesses)} guesses, "
                                 f"above the claimed worst case {worst}")
        for depth, guess in enumerate(guesses):
            if chosen.setdefault(tuple(replies[:depth]), guess) != guess:
                raise AssertionError(f"{variant.describe()}: two secrets with the same replies "
                                     f"got different guesses at depth {depth + 1}")
        most = max(most, len(guesses))
    return {"sampled_secrets": len(indices), "sample_seed": seed, "most_guesses": most,
            "bound": worst, "replies_checked_by": "cbsolve.game.scoring NumPy reference scorer",
            "checked": "each sampled secret ends on its secret within the worst case; equal "
                       "replies so far were given equal guesses"}


def fold_run(record: dict, run: dict, sample: int = SAMPLE) -> dict | None:
    """``record`` with each upper end the run beats replaced and verified, or None when it beats
    neither."""
    variant = Variant.from_dict(record["variant"])
    if cell_key(Variant.from_dict(run["variant"])) != cell_key(variant):
        raise AssertionError(f"{record['id']}: the run is of another game")
    if run["secrets"] != record["secrets"] or sum(run["histogram"].values()) != run["secrets"]:
        raise AssertionError(f"{record['id']}: the run's histogram does not cover every secret")
    if max(int(k) for k in run["histogram"]) != run["worst"] or \
            sum(int(k) * v for k, v in run["histogram"].items()) != run["total"]:
        raise AssertionError(f"{record['id']}: the run's worst or total disagrees with its histogram")
    recipe = cell_recipe(run, variant)
    better = [obj for obj, value in (("worst", run["worst"]), ("expected", run["total"]))
              if value < record[obj]["upper"]]
    if not better:
        return None
    out = copy.deepcopy(record)
    method = method_text(recipe)
    for obj in better:
        iv = out[obj]
        value = run["worst"] if obj == "worst" else run["total"]
        if value < iv["lower"]:
            raise AssertionError(f"{record['id']}: the run's {obj} {value} is below the proved "
                                 f"lower end {iv['lower']}")
        iv.update(upper=value, upper_method=method, histogram=dict(run["histogram"]),
                  recipe={"kind": "streaming", "recipe": recipe, "worst": run["worst"],
                          "total": run["total"]})
        iv.setdefault("provenance", {})["upper"] = "proved here"
        iv["exact"] = iv["lower"] if iv["lower"] == iv["upper"] else None
    check = verify_sample(variant, recipe, run["worst"], sample)
    out.setdefault("verification", {})["streaming_replay"] = check
    out.setdefault("notes", []).append(
        f"upper end of {' and '.join(better)} from a streaming evaluation "
        f"({run['seconds']} s); {check['sampled_secrets']} sampled secrets replayed")
    return out


def fold(results: Path, cells_dir: Path, sample: int = SAMPLE, say=print,
         large_sample: int = LARGE_SAMPLE) -> list[tuple]:
    """Fold the best run of each game into its cell file; (cell id, object, old, new) changed."""
    changed = []
    best = best_runs(read_runs(results))
    for path in sorted(cells_dir.glob("*.json")):
        record = json.loads(path.read_text())
        if record.get("status") == "failed":
            continue
        run = best.get(cell_key(Variant.from_dict(record["variant"])))
        if run is None:
            continue
        new = fold_run(record, run, sample if record["secrets"] <= LARGE_FROM else large_sample)
        if new is None:
            say(f"{record['id']}: streaming worst {run['worst']} total {run['total']} does not "
                f"beat [{record['worst']['upper']}, {record['expected']['upper']}]")
            continue
        path.write_text(json.dumps(new, indent=1, sort_keys=True) + "\n")
        for obj in ("worst", "expected"):
            if new[obj]["upper"] != record[obj]["upper"]:
                changed.append((record["id"], obj, record[obj]["upper"], new[obj]["upper"]))
                say(f"{record['id']}: {obj} upper {record[obj]['upper']} -> {new[obj]['upper']}")
    return changed
