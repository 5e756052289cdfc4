"""Compose the results of a sharded worst-case refutation into one lower-bound certificate
(docs/optimal.md, "Sharded proofs"), which ``cbsolve verify`` checks as a whole.

Place in the data flow: the shard results (:mod:`.shards`, :mod:`.shard_files`) -> **this
module** -> a certificate in the one-process format (docs/optimal.md) -> :mod:`cbsolve.certify`.

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

import numpy as np

from ...codes import CodeSpace
from ...symmetry import Symmetry
from . import shard_files as files
from .shards import plan_variant
from .trees import CERT_FORMAT, CERT_VERSION


@dataclass
class Merged:
    """The certificate (None unless every orbit is refuted), and what kept it from being one."""

    certificate: dict | None
    orbits: int
    missing: list[str]
    not_refuted: list[str]
    depth: int

    def to_json(self) -> dict:
        return {"depth": self.depth, "orbits": self.orbits, "complete": self.certificate is not None,
                "missing": self.missing, "not_refuted": self.not_refuted}


def merge_shards(directory) -> Merged:
    """Read the plan and every result in ``directory`` (each checked: ShardFileError) and
    compose the certificate that the plan's depth does not suffice."""
    plan = files.read_plan(directory)
    variant = plan_variant(plan)
    reps, depth = plan["orbits"], plan["depth"]
    results = [files.read_result(directory, plan, i) for i in range(len(reps))]
    missing = [f"{i}:{reps[i]}" for i, doc in enumerate(results) if doc is None]
    not_refuted = [reps[i] for i, doc in enumerate(results)
                   if doc is not None and doc["outcome"] == files.NOT_REFUTED]
    merged = Merged(None, len(reps), missing, not_refuted, depth)
    if missing or not_refuted:
        return merged
    root: dict = {"left": depth}
    refuted = {doc["guess"]: {"reply": doc["reply"], "node": doc["node"]}
               for doc in results if "node" in doc}
    if refuted:
        root["refuted"] = refuted
        root.update(_mapped(variant, set(refuted)))
    merged.certificate = {"format": CERT_FORMAT, "version": CERT_VERSION,
                          "variant": plan["variant"], "guesses": plan["guesses"],
                          "responses": plan["responses"],
                          "claim": {"max_guesses": depth, "solvable": False}, "root": root}
    return merged


def _mapped(variant, representatives: set[str]) -> dict:
    """``mapped`` and ``perms`` of the root: every other guess of the orbits named, with the
    permutation taking it onto its representative (the lowest code of the orbit, which is the
    plan's representative)."""
    space = CodeSpace(variant)
    codes_idx, rep_idx, perms = Symmetry(variant).orbit_map([])
    rep_text = np.array(space.format_many(space.codes[rep_idx]), dtype=object)
    mapped, perm_ids, perm_list = {}, {}, []
    for k in range(len(codes_idx)):
        if codes_idx[k] == rep_idx[k] or rep_text[k] not in representatives:
            continue
        key = tuple(map(tuple, perms[k].to_json()))
        if key not in perm_ids:
            perm_ids[key] = len(perm_list)
            perm_list.append(perms[k].to_json())
        mapped[space.format(space.codes[codes_idx[k]])] = [perm_ids[key], str(rep_text[k])]
    return {"mapped": mapped, "perms": perm_list} if mapped else {}
