"""Checking a refutation ledger: re-run all its units, or a seeded sample, and re-check each
re-run sub-proof with the independent verifier (docs/optimal.md, "A proof as a ledger").

Place in the data flow: ``cbsolve verify DIR/ledger.jsonl [--sample K --seed S]`` -> **this
module** -> the same worst-case kernel as the run (:func:`.shards.timed_job`), then
:func:`cbsolve.certificates.certify.verify` on each unit's sub-proof -> a report (exit 0 when every unit
checked agrees, 1 when one does not).

A unit agrees when its re-run has the ledger's outcome and, on the same kernel (the same
``kernel`` id), the ledger's ``proof`` hash; on another kernel only the outcome is compared
(another build may find another, equally valid, refutation tree) and the report says so. In
both cases the re-run's sub-proof is checked by the verifier, which uses the scorer alone: a
unit that refutes its second guess by reply r is the certificate "from the position (first
guess, its class; second guess, r) D-2 guesses do not suffice"; a part of a third-level split
one such certificate a third guess; a whole-orbit unit "after (first guess, reply) D-1 do not
suffice"; a first guess that settles everything its strategy tree. A unit whose outcome is
``not-refuted`` at the second level has no sub-proof to check (it ends the refutation anyway).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from ...certificates.certify import CERT_FORMAT, CERT_VERSION
from ...certificates.certify import verify as independent
from ...runtime.deadline import Deadline
from ...errors import InvalidVariant
from ...runtime.status import StopReason
from . import ledger as ledgers
from . import shard_files as files
from .shards import job_label, open_native, plan_variant, timed_job

#: How a checked unit compares with its ledger line.
SAME_PROOF, SAME_OUTCOME, DIFFERS = "same-proof", "same-outcome", "differs"


@dataclass
class LedgerCheck:
    """What a check of a ledger found: one entry a unit checked (``agrees``: SAME_PROOF,
    SAME_OUTCOME on another kernel, or DIFFERS; ``verified``: what the verifier said of the
    re-run sub-proof), the units the ledger holds and the plan has."""

    ledger: str
    units: int
    recorded: int
    checked: list[dict] = field(default_factory=list)
    stop: StopReason | None = None
    sample: int | None = None
    seed: int | None = None

    @property
    def failed(self) -> list[dict]:
        return [c for c in self.checked if c["agrees"] == DIFFERS or c["verified"] is False]

    def to_json(self) -> dict:
        return {"ledger": self.ledger, "units": self.units, "recorded": self.recorded,
                "sample": self.sample, "seed": self.seed, "checked": self.checked,
                "failed": [c["unit"] for c in self.failed],
                "stop": None if self.stop is None else self.stop.value,
                "valid": bool(self.checked) and not self.failed and self.stop is None}


def is_ledger(path) -> bool:
    """Whether the file's first line is a ledger header (``cbsolve verify`` dispatches on it)."""
    try:
        with open(path, encoding="utf-8") as fh:
            first = fh.readline(4096)
    except (OSError, UnicodeDecodeError):
        return False
    return f'"format":"{ledgers.LEDGER_FORMAT}"' in first


def check_ledger(path, *, deadline: Deadline, sample: int | None = None, seed: int = 0,
                 workers: int | None = None, memory_budget=None,
                 on_unit=None) -> LedgerCheck:
    """Re-run and re-check the units of the ledger at ``path`` (its plan: ``plan.json`` in the
    same directory), all of them or ``sample`` drawn with ``seed``; ``on_unit(entry)`` after
    each. Stops at ``deadline`` or Ctrl-C (``stop``)."""
    path = Path(path)
    plan = files.read_plan(path.parent)
    lines = ledgers.read_ledger(path, plan)
    jobs = len(plan["units"]) if "units" in plan else len(plan["orbits"])
    report = LedgerCheck(str(path), jobs, len(lines), sample=sample,
                         seed=None if sample is None else seed)
    chosen = sorted(lines)
    if sample is not None:
        if sample < 1:
            raise InvalidVariant(f"--sample needs at least 1 unit, got {sample}")
        chosen = sorted(random.Random(seed).sample(chosen, min(sample, len(chosen))))
    native = None
    for i in chosen:
        if deadline.expired():
            report.stop = deadline.reason()
            break
        if native is None:
            native = open_native(plan_variant(plan), plan, deadline, workers, memory_budget)
            if native.setup_stopped is not None:
                report.stop = native.setup_stopped.reason
                break
        doc, entry = timed_job(native, plan, i, deadline)
        if doc is None:
            report.stop = entry["stop"]
            break
        entry = {**job_label(plan, i), "label": lines[i]["label"], "outcome": doc["outcome"],
                 "cpu": entry["cpu"], "ledger_cpu": lines[i]["cpu"],
                 "agrees": _agreement(lines[i], doc), **_verified(plan, doc)}
        report.checked.append(entry)
        if on_unit is not None:
            on_unit(entry)
    return report


def _agreement(line: dict, doc: dict) -> str:
    if line["outcome"] != doc["outcome"]:
        return DIFFERS
    if line.get("kernel") != ledgers.kernel_id():
        return SAME_OUTCOME
    return SAME_PROOF if line["proof"] == ledgers.proof_hash(doc) else DIFFERS


def _verified(plan: dict, doc: dict) -> dict:
    """``verified`` (True, False, or None: no sub-proof) and what the verifier said."""
    if "witness" in doc:      # a first guess that settles every secret: its strategy tree
        rep = independent(doc["witness"])
        ok = rep.valid and rep.worst is not None and rep.worst <= plan["depth"]
        return {"verified": ok, "nodes": rep.nodes,
                "message": rep.message or f"strategy of worst case {rep.worst}"}
    claims = _claims(plan, doc)
    if not claims:
        return {"verified": None, "nodes": 0, "message": "no sub-proof (not refuted)"}
    nodes = 0
    for entries, left, node in claims:
        cert = {"format": CERT_FORMAT, "version": CERT_VERSION, "variant": plan["variant"],
                "guesses": plan["guesses"], "responses": plan["responses"],
                "claim": {"max_guesses": left, "solvable": False},
                "position": {"entries": [{"guess": g, "reply": r} for g, r in entries]},
                "root": node if node is not None else {"left": left}}
        rep = independent(cert)
        nodes += rep.nodes
        if not rep.valid:
            return {"verified": False, "nodes": nodes, "message": rep.message}
    return {"verified": True, "nodes": nodes,
            "message": f"{len(claims)} certificate{'s' if len(claims) > 1 else ''} valid"}


def _claims(plan: dict, doc: dict) -> list[tuple[list, int, dict | None]]:
    """The refutations a result document states, each (position entries, guesses left,
    certificate node or None when counting settles it)."""
    if doc["outcome"] != files.REFUTED:
        return []
    depth, first = plan["depth"], doc["guess"]
    if "second" not in doc:           # a whole orbit: after (g, reply), D-1 do not suffice
        return [([(first, doc["reply"])], depth - 1, doc.get("node"))]
    head = [(first, doc["class"])]
    if "third" not in doc:
        return [(head + [(doc["second"], doc["reply"])], depth - 2, doc.get("node"))]
    head.append((doc["second"], doc["reply"]))
    return [(head + [(k, e["reply"])], depth - 3, e.get("node"))
            for k, e in doc["refuted"].items()]
