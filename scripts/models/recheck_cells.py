"""Re-check the upper ends of written atlas cells against every secret (``build_atlas.py
--recheck``): a cell whose upper end is a strategy evaluated exactly, up to ``--recheck-limit``
secrets (10^6 by default, as docs/contract.md's atlas section states), is replayed whole by an
independent checker, and what was checked is recorded in the cell's ``verification``:

* a strategy of cbsolve.strategy (kind ``strategy``): its tree rebuilt and replayed by
  :func:`cbsolve.certificates.certify.verify`, which must find the claimed worst case (and total, for the
  objective whose upper end it is);
* a streaming recipe (kind ``streaming``): :func:`cbsolve.strategy.streaming_check.replay_every_secret`,
  the kernel naming each class's guess and the NumPy reference scorer splitting the classes;
  the depth histogram recounted must be the one beside the end it proves (the worst and the
  expected end may come from different recipes: each is replayed).

A check that fails raises AssertionError naming the cell: the cell must then be rebuilt.
"""
from __future__ import annotations

import time

from cbsolve.game.variant import Variant

#: Cells up to this many secrets are replayed whole (beyond, the folded sample replay stands).
RECHECK_LIMIT = 1_000_000


def recheck(record: dict, limit: int = RECHECK_LIMIT) -> dict:
    """The verification entries that replaying ``record``'s upper ends found (empty when
    none applies: too large, or an upper end that is not an evaluated strategy)."""
    if record.get("status") == "failed" or record["secrets"] > limit:
        return {}
    variant = Variant.from_dict(record["variant"])
    found: dict = {}
    done: set[str] = set()
    for obj in ("worst", "expected"):
        recipe = record[obj].get("recipe") or {}
        key = repr(sorted(recipe.items()))
        if key in done:
            continue
        if recipe.get("kind") == "streaming":    # the two ends may hold different recipes
            name = "streaming_replay_all" + ("" if "streaming_replay_all" not in found else f"_{obj}")
            found[name] = _streaming(variant, record, recipe)
        elif recipe.get("kind") == "strategy" and recipe.get("name"):
            found[f"strategy_replay_{obj}"] = replay_strategy(variant, record, recipe, obj)
        else:
            continue
        done.add(key)
    if "strategy_replay_worst" in found:
        found["strategy_replayed"] = True
    return found


def _streaming(variant: Variant, record: dict, recipe: dict) -> dict:
    from cbsolve.strategy.streaming import Recipe
    from cbsolve.strategy.streaming_check import replay_every_secret

    start = time.process_time()
    check = replay_every_secret(variant, Recipe.from_json(recipe["recipe"]))
    ends = [obj for obj in ("worst", "expected") if record[obj].get("recipe") == recipe]
    claimed = {int(k): v for k, v in (record[ends[0]].get("histogram")
                                      or _histogram(record, "streaming")).items()}
    if check.histogram != claimed:
        raise AssertionError(f"{record['id']}: the whole replay's histogram {check.histogram} "
                             f"is not the cell's {claimed}")
    for obj, value in (("worst", check.worst), ("expected", check.total)):
        if obj in ends and record[obj]["upper"] != value:
            raise AssertionError(f"{record['id']}: the replay's {obj} is {value}, the cell "
                                 f"claims {record[obj]['upper']}")
    return {"secrets": check.secrets, "classes": check.classes, "worst": check.worst,
            "total": check.total, "cpu_seconds": round(time.process_time() - start, 1),
            "checked_by": "cbsolve.strategy.streaming_check (the kernel names each class's "
                          "guess; the NumPy reference scorer splits the classes; the histogram "
                          "is recounted)"}


def replay_strategy(variant: Variant, record: dict, recipe: dict, obj: str) -> dict:
    from cbsolve.certificates.certify import verify
    from cbsolve.strategy import evaluate

    start = time.process_time()
    ev = evaluate(variant, recipe["name"], guesses=recipe.get("guesses", "all"),
                  first=recipe.get("first"), keep_tree=True)
    report = verify(ev.tree, variant)
    value = report.worst if obj == "worst" else report.total
    if not report.valid or value != record[obj]["upper"]:
        raise AssertionError(f"{record['id']}: the {recipe['name']} tree replays to {obj} "
                             f"{value} (valid: {report.valid}), the cell claims "
                             f"{record[obj]['upper']}")
    return {"strategy": recipe["name"], "guesses": recipe.get("guesses", "all"),
            "first": recipe.get("first"), "secrets": record["secrets"], "worst": report.worst,
            "total": report.total, "cpu_seconds": round(time.process_time() - start, 1),
            "checked_by": "cbsolve.certificates.certify.verify replayed the strategy's tree against every secret"}


def _histogram(record: dict, kind: str) -> dict:
    for obj in ("worst", "expected"):
        if record[obj].get("recipe", {}).get("kind") == kind and record[obj].get("histogram"):
            return record[obj]["histogram"]
    raise AssertionError(f"{record['id']}: no histogram beside the {kind} recipe")
