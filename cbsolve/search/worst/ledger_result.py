"""What a whole refutation ledger proves (``cbsolve merge DIR --ledger [--tree FILE]``;
docs/optimal.md, "A proof as a ledger").

Place in the data flow: ``DIR/plan.json`` and ``DIR/ledger.jsonl`` (:mod:`.ledger`) -> **this
module** -> ``DIR/result.json`` -> the atlas (``scripts/models/build_atlas.py --from-ledgers``)
and ``cbsolve bounds``.

The plan refutes D guesses when every one of its units is refuted: a first-guess orbit is
refuted when each of its units is (a whole orbit, or every second guess of its split class,
each second guess by all its parts), as :mod:`.merge` composes them into a certificate. So a
ledger with a line for every unit, all ``refuted``, proves "the worst case is at least D+1".
With a strategy tree whose worst case the verifier replays as D+1 (``--tree``, e.g. a shipped
certified tree), the worst case is exactly D+1. The result names the plan, a SHA-256 of the
ledger's bytes (a later change to the ledger shows), the units, their CPU and the kernels that
ran them; it is as strong as the ledger's lines, which ``cbsolve verify DIR/ledger.jsonl``
re-runs and re-checks (all, or ``--sample K``).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from ...certificates.certify import verify_file
from ...errors import CbsolveError
from ...game.variant import Variant
from . import ledger as ledgers
from . import shard_files as files
from .deeper import unit_label

RESULT_FORMAT, RESULT_VERSION, RESULT_NAME = "cbsolve-ledger-result", files.SHARD_VERSION, "result.json"


@dataclass
class LedgerResult:
    """The document (None unless every unit is recorded and refuted) and what is missing."""

    document: dict | None
    depth: int
    units: int
    missing: list[str] = field(default_factory=list)
    not_refuted: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"depth": self.depth, "units": self.units, "complete": self.document is not None,
                "missing": len(self.missing), "not_refuted": self.not_refuted,
                "result": self.document}


def ledger_digest(path) -> str:
    return "sha256:" + hashlib.sha256(Path(path).read_bytes()).hexdigest()


def compose(directory, tree: str | None = None) -> LedgerResult:
    """Read ``DIR/plan.json`` and ``DIR/ledger.jsonl`` (each line checked) and, when the
    ledger is whole and every unit refuted, the result document; ``tree``: a strategy tree
    file for the same game, replayed by the verifier, for the upper end."""
    plan = files.read_plan(directory)
    path = ledgers.ledger_path(directory)
    lines = ledgers.read_ledger(path, plan)
    units = plan.get("units")
    n = len(units) if units is not None else len(plan["orbits"])

    def label(i: int) -> str:
        return unit_label(plan, units[i]) if units is not None else plan["orbits"][i]

    out = LedgerResult(None, plan["depth"], n,
                       missing=[f"{i}:{label(i)}" for i in range(n) if i not in lines],
                       not_refuted=[lines[i]["label"] for i in sorted(lines)
                                    if lines[i]["outcome"] != files.REFUTED])
    if out.missing or out.not_refuted:
        return out
    depth = plan["depth"]
    doc = {"format": RESULT_FORMAT, "version": RESULT_VERSION, "variant": plan["variant"],
           "guesses": plan["guesses"], "plan": plan["checksum"], "ledger": ledger_digest(path),
           "units": n, "cpu_seconds": round(sum(x["cpu"] for x in lines.values()), 1),
           "kernels": sorted({x["kernel"] for x in lines.values()}),
           "claim": {"max_guesses": depth, "solvable": False}, "lower": depth + 1}
    if tree is not None:
        worst = _tree_worst(tree, plan)
        doc["upper"] = {"file": str(tree), "worst": worst}
        doc["worst"] = worst if worst == depth + 1 else None
    out.document = files.sealed(doc)
    return out


def _tree_worst(tree: str, plan: dict) -> int:
    rep = verify_file(tree, Variant.from_dict(plan["variant"]))
    if not rep.valid or rep.worst is None:
        raise CbsolveError(f"--tree {tree!r} is not a valid strategy tree for the plan's game: "
                           f"{rep.message or 'no worst case replayed'}")
    if plan["guesses"] == "candidates" and rep.guesses != "candidates":
        raise CbsolveError(f"--tree {tree!r} plays guesses that cannot be the secret; the "
                           "ledger refutes strategies of consistent guesses only")
    if rep.worst <= plan["depth"]:
        raise CbsolveError(f"--tree {tree!r} finds every secret within {rep.worst} guesses, "
                           f"which the ledger says is impossible: look at both")
    return int(rep.worst)


def read_result(directory) -> dict:
    """``DIR/result.json``, its checksum and its ledger's digest checked (ShardFileError)."""
    directory = Path(directory)
    doc = files.read_doc(directory / RESULT_NAME, RESULT_FORMAT, "ledger result")
    if doc.get("ledger") != ledger_digest(ledgers.ledger_path(directory)):
        raise files.ShardFileError(f"{str(directory / RESULT_NAME)!r} was composed from another "
                                   "ledger than the one beside it: run `cbsolve merge "
                                   f"{directory} --ledger` again")
    return doc
