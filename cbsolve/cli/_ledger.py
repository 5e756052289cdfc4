"""A refutation ledger on the command line (docs/optimal.md, "A proof as a ledger"):

* ``cbsolve verify DIR/ledger.jsonl [--sample K --seed S]`` re-runs its units and re-checks
  their sub-proofs (cbsolve/search/worst/ledger_check.py). Exit 0 when every unit checked
  agrees with its line and its sub-proof is valid, 1 when one does not (named), 130 on Ctrl-C
  (the units checked so far are reported).
* ``cbsolve merge DIR --ledger [--tree FILE]`` writes what a whole ledger proves to
  ``DIR/result.json`` (cbsolve/search/worst/ledger_result.py). Exit 0 when written, 1 when
  units are missing or not refuted (counted, and named).

Both exit 2 when the ledger or its plan cannot be read or a line is damaged. Thin: calls the
library and prints.
"""
from __future__ import annotations

import click

import json
from pathlib import Path

from ..search.worst.ledger_check import DIFFERS, SAME_OUTCOME, check_ledger
from ..search.worst.ledger_result import RESULT_NAME, compose
from ..search.worst.shard_files import write_atomic
from . import EXIT_NONE, EXIT_OK, emit

EXIT_INTERRUPTED = 130


def verify_ledger(file: str, *, sample, seed, deadline, workers, as_json) -> int:
    report = check_ledger(file, deadline=deadline, sample=sample, seed=seed, workers=workers,
                          on_unit=None if as_json else _say)
    emit(as_json, report.to_json(), _summary(report))
    if report.stop is not None and report.stop.value == "interrupted":
        return EXIT_INTERRUPTED
    ok = report.checked and not report.failed and report.stop is None
    return EXIT_OK if ok else EXIT_NONE


def _say(entry: dict) -> None:
    what = {"same-proof": "same proof hash", "same-outcome": "same outcome (another kernel: "
            "the hash is not compared)", "differs": "DIFFERS from the ledger"}[entry["agrees"]]
    check = {True: "sub-proof valid", False: "sub-proof INVALID", None: "no sub-proof"}
    click.echo(f"  unit {entry['unit']} {entry['label']}: {entry['outcome']}, {what}, "
               f"{check[entry['verified']]} ({entry['nodes']} nodes), {entry['cpu']:.2f} s CPU",
               err=True)


def _summary(report) -> str:
    chosen = (f"a sample of {report.sample} (seed {report.seed})" if report.sample is not None
              else "all")
    n = len(report.checked)
    lines = [f"{report.ledger}: {report.recorded} of {report.units} units recorded; {chosen} "
             f"re-run: {n} checked"]
    other = sum(c["agrees"] == SAME_OUTCOME for c in report.checked)
    if other:
        lines.append(f"  {other} recorded by another kernel: outcome compared, sub-proof checked, "
                     "hash not compared")
    for c in report.failed:
        why = ("its outcome or proof hash differs from the ledger" if c["agrees"] == DIFFERS
               else f"its sub-proof is invalid: {c['message']}")
        lines.append(f"  unit {c['unit']} {c['label']}: {why}")
    if report.stop is not None:
        lines.append(f"  stopped ({report.stop.value}) after {n} units: the rest is unchecked")
    elif not report.checked:
        lines.append("  no unit to check: the ledger records none yet")
    elif not report.failed:
        lines.append(f"  every unit checked agrees with its line and its sub-proof is valid "
                     f"({sum(c['cpu'] for c in report.checked):.1f} s CPU)")
    return "\n".join(lines)


def merge_ledger(directory, out, tree, as_json) -> int:
    result = compose(directory, tree)
    data = result.to_json()
    if result.document is None:
        shown = " ".join(result.missing[:10]) + (" ..." if len(result.missing) > 10 else "")
        lines = [f"{directory}: no result ({result.units} units, refuting {result.depth} guesses)"]
        if result.not_refuted:
            lines.append(f"  not refuted: {' '.join(result.not_refuted)}")
        if result.missing:
            lines.append(f"  missing from the ledger ({len(result.missing)} of {result.units}, "
                         f"unit:label): {shown}")
        emit(as_json, data, "\n".join(lines))
        return EXIT_NONE
    doc = result.document
    path = Path(out) if out else Path(directory) / RESULT_NAME
    write_atomic(path, json.dumps(doc, indent=1) + "\n")
    data["out"] = str(path)
    worst = (f"the worst case is exactly {doc['worst']} (with the tree {doc['upper']['file']})"
             if doc.get("worst") else
             f"worst case >= {doc['lower']}" + (f", <= {doc['upper']['worst']} by the tree"
                                                if "upper" in doc else ""))
    emit(as_json, data, f"{directory}: all {doc['units']} units refuted: no strategy finds every "
                        f"secret within {result.depth} guesses; {worst}; "
                        f"{doc['cpu_seconds']:.0f} s of unit CPU; written to {path}; re-check "
                        f"with: cbsolve verify {Path(directory) / 'ledger.jsonl'} [--sample K]")
    return EXIT_OK
