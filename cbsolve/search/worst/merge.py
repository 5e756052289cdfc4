"""Compose the results of a sharded worst-case refutation into one lower-bound certificate
(docs/optimal.md, "Sharded proofs"), which ``cbsolve verify`` checks as a whole.

Place in the data flow: the shard results (:mod:`.shards`, :mod:`.shard_files`) -> **this
module** -> a certificate in the one-process format (docs/tree-format.md) -> :mod:`cbsolve.certificates.certify`.

The root of the certificate has D guesses left. Each orbit refuted by a class that needs a
sub-proof becomes a ``refuted`` entry (its representative, the reply, the orbit's refutation
tree); every other guess of such an orbit is ``mapped`` onto its representative by an
explicit position/symbol permutation (the verifier checks each map). Orbits refuted by
counting are left out, as the one-process certificate leaves them out: the verifier settles
them itself. The document depends only on the plan and the results' proofs, read in orbit
order, so shards run in any order, on any machines, merge to the same bytes.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...game.codes import CodeSpace
from ...game.symmetry import Symmetry
from . import shard_files as files
from .deeper import mapped_entries, merge_units, unit_label
from .shards import plan_variant
from .third import collapse
from .trees import CERT_FORMAT, CERT_VERSION


@dataclass
class Merged:
    """The certificate (None unless every orbit is refuted), and what kept it from being one."""

    certificate: dict | None
    orbits: int
    missing: list[str]
    not_refuted: list[str]
    depth: int
    units: int | None = None    # the units of a deeper split (None: one job an orbit)

    def to_json(self) -> dict:
        out = {"depth": self.depth, "orbits": self.orbits,
               "complete": self.certificate is not None, "missing": self.missing,
               "not_refuted": self.not_refuted}
        if self.units is not None:
            out["units"] = self.units
        return out


def merge_shards(directory) -> Merged:
    """Read the plan and every result in ``directory`` (each checked: ShardFileError) and
    compose the certificate that the plan's depth does not suffice."""
    plan = files.read_plan(directory)
    variant = plan_variant(plan)
    reps, depth = plan["orbits"], plan["depth"]
    files.check_no_strays(directory, plan)
    units = plan.get("units")
    results = [files.read_job(directory, plan, i)
               for i in range(len(reps) if units is None else len(units))]
    if units is None:
        missing = [f"{i}:{reps[i]}" for i, doc in enumerate(results) if doc is None]
        not_refuted = [reps[i] for i, doc in enumerate(results)
                       if doc is not None and doc["outcome"] == files.NOT_REFUTED]
    else:
        missing = [f"{i}:{unit_label(plan, units[i])}" for i, doc in enumerate(results)
                   if doc is None]
        # the parts of a split second guess merge as one second-level result first
        unit_refuted, not_refuted = ({}, []) if missing else \
            merge_units(plan, collapse(plan, results))
    merged = Merged(None, len(reps), missing, not_refuted, depth)
    merged.units = None if units is None else len(units)
    if missing or not_refuted:
        return merged
    root: dict = {"left": depth}
    if units is None:
        refuted = {doc["guess"]: {"reply": doc["reply"], "node": doc["node"]}
                   for doc in results if "node" in doc}
    else:
        refuted = unit_refuted
    if refuted:
        root["refuted"] = refuted
        space = CodeSpace(variant)
        root.update(mapped_entries(space, Symmetry(variant), [], set(refuted)))
    merged.certificate = {"format": CERT_FORMAT, "version": CERT_VERSION,
                          "variant": plan["variant"], "guesses": plan["guesses"],
                          "responses": plan["responses"],
                          "claim": {"max_guesses": depth, "solvable": False}, "root": root}
    return merged
