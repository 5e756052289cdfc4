"""``bounds`` answered from the atlas: an atlas cell at once, a game outside it computed.

Place in the data flow: :mod:`cbsolve.bounds.atlas_file` (the verified data) and :func:`.compute_bounds`
-> **this choice** -> ``cbsolve bounds`` and :func:`cbsolve.api.bounds`.

* an atlas cell: its record as a :class:`~.compute.Bounds` (``source`` "atlas"), nothing
  computed;
* an atlas cell with an explicit time limit (``improve``) whose interval is open: computed
  within it, and each end the better of the two (a proof is a proof), ``source`` "atlas,
  improved" when the computation bettered one;
* ``recompute``, or a game outside the atlas: computed as before (``source`` "computed").
"""
from __future__ import annotations

from ..game.variant import Variant
from . import atlas_file as atlas
from .compute import Bounds, Interval

_END_KEYS = ("lower", "upper", "exact", "lower_method", "upper_method")


def recipe_strategy(recipe: dict | None) -> dict | None:
    """An end's recipe as the heuristic that reproduces it ({name, guesses, first}, the
    arguments of ``cbsolve evaluate``), or None when the recipe is not a heuristic's."""
    recipe = recipe or {}
    if recipe.get("kind") != "strategy":
        return None
    return {k: recipe[k] for k in ("name", "guesses", "first")}


def from_record(variant: Variant, record: dict, doc: dict) -> Bounds:
    """The atlas record as the Bounds a computation returns (same JSON, with provenance)."""
    def interval(data: dict) -> Interval:
        strategy = recipe_strategy(data.get("recipe"))
        extra = {k: v for k, v in data.items() if k not in _END_KEYS}
        return Interval(data["lower"], data["upper"], data["lower_method"], data["upper_method"],
                        strategy, extra)

    out = Bounds(variant, record["secrets"], record["responses"], interval(record["worst"]),
                 interval(record["expected"]), notes=list(record.get("notes", [])),
                 checks=dict(record.get("verification", {})), source="atlas",
                 atlas={"cell": record["id"], "status": record["status"], "built": doc["built"],
                        "version": doc["version"], "sha256": doc["sha256"],
                        "cell_seconds": record.get("seconds")})
    out.evaluated = list(record.get("strategies", []))
    return out


def bounds_for(variant: Variant, compute, *, recompute: bool = False, improve: bool = False) -> Bounds:
    """The answer for ``variant``; ``compute()`` runs :func:`.compute_bounds` with the
    caller's options when the atlas does not answer alone."""
    if recompute:
        return compute()

    record = atlas.lookup(variant)
    if record is None:
        return compute()
    cell = from_record(variant, record, atlas.header())
    closed = cell.worst.exact is not None and cell.expected.exact is not None
    if not improve or closed:
        return cell
    fresh = compute()
    better = False
    for name in ("worst", "expected"):
        mine, theirs = getattr(cell, name), getattr(fresh, name)
        if theirs.lower > mine.lower:
            mine.lower, mine.lower_method, better = theirs.lower, theirs.lower_method, True
            mine.extra.setdefault("provenance", {})["lower"] = "proved here (this call)"
        if theirs.upper < mine.upper:
            mine.upper, mine.upper_method, better = theirs.upper, theirs.upper_method, True
            mine.upper_strategy = theirs.upper_strategy
            mine.extra.pop("recipe", None)
            mine.extra.pop("histogram", None)
            mine.extra.setdefault("provenance", {})["upper"] = "proved here (this call)"
    cell.notes += fresh.notes
    cell.checks.update({f"this call: {k}": v for k, v in fresh.checks.items()})
    cell.seconds = fresh.seconds
    if better:
        cell.source = "atlas, improved"
    return cell


__all__ = ["bounds_for", "from_record"]
