"""The files of a sharded worst-case refutation (docs/optimal.md, "Sharded proofs"): the plan
and one result a first-guess orbit, each versioned, checksummed and written atomically.

Place in the data flow: :mod:`cbsolve.search.worst.shards` (plan, run a shard) and
:mod:`cbsolve.search.worst.merge` (one certificate) -> **this module** -> the directory the
shards share. A result is written to a temporary name, flushed to disk and renamed, so a
process killed at any moment leaves either the whole file or none (a stray ``*.tmp`` is
ignored and overwritten). Every file is checked on load: its format and version, a SHA-256
of its content (an accident, a truncation or an edit shows), and that it belongs to the plan
(the plan's checksum, the orbit's index and guess). The checksum guards against accidents,
not forgery: the merged certificate is the proof, and ``cbsolve verify`` checks it with the
scorer alone.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from ...errors import CbsolveError

PLAN_FORMAT, RESULT_FORMAT, SHARD_VERSION = "cbsolve-worst-shard-plan", "cbsolve-worst-shard-result", 1
PLAN_NAME, RESULTS_DIR = "plan.json", "results"
#: What a result says of its orbit.
REFUTED, NOT_REFUTED = "refuted", "not-refuted"


class ShardFileError(CbsolveError):
    """A plan or result that is missing, unreadable, tampered with, truncated or from another
    proof (bad input: exit 2)."""


def checksum(doc: dict) -> str:
    """SHA-256 of the document without its ``checksum`` key, in canonical JSON."""
    body = {k: v for k, v in doc.items() if k != "checksum"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()


def sealed(doc: dict) -> dict:
    """The document with its checksum (last key)."""
    out = {k: v for k, v in doc.items() if k != "checksum"}
    out["checksum"] = checksum(out)
    return out


def write_atomic(path: Path, text: str) -> None:
    """Write, fsync, rename, fsync the directory: the file is whole or absent after a crash."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise ShardFileError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None


def write_doc(path: Path, doc: dict) -> None:
    write_atomic(path, json.dumps(sealed(doc), separators=(",", ":")) + "\n")


def read_doc(path: Path, fmt: str, what: str) -> dict:
    """A sealed document of format ``fmt``, its checksum checked (ShardFileError otherwise)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ShardFileError(f"no {what} at {str(path)!r}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ShardFileError(f"cannot read {what} {str(path)!r}: {exc}") from None
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        raise ShardFileError(f"{what} {str(path)!r} is not whole JSON (truncated or "
                             "damaged): delete it and run its shard again") from None
    if not isinstance(doc, dict) or doc.get("format") != fmt:
        raise ShardFileError(f"{str(path)!r} is not a {what} (format {fmt})")
    if doc.get("version") != SHARD_VERSION:
        raise ShardFileError(f"{what} {str(path)!r} has version {doc.get('version')!r}; this "
                             f"cbsolve reads version {SHARD_VERSION}")
    if doc.get("checksum") != checksum(doc):
        raise ShardFileError(f"{what} {str(path)!r} does not match its checksum (tampered "
                             "with or damaged): delete it and run its shard again")
    return doc


def plan_path(directory) -> Path:
    return Path(directory) / PLAN_NAME


def result_path(directory, orbit: int) -> Path:
    return Path(directory) / RESULTS_DIR / f"orbit-{orbit:05d}.json"


def unit_path(directory, unit: int) -> Path:
    return Path(directory) / RESULTS_DIR / f"unit-{unit:05d}.json"


def job_path(directory, plan: dict, job: int) -> Path:
    """The result file of job ``job``: a unit of a deeper split, else a first-guess orbit."""
    return unit_path(directory, job) if "units" in plan else result_path(directory, job)


def read_plan(directory) -> dict:
    plan = read_doc(plan_path(directory), PLAN_FORMAT, "shard plan")
    orbits, depth = plan.get("orbits"), plan.get("depth")
    if (not isinstance(orbits, list) or not orbits or not all(isinstance(g, str) for g in orbits)
            or not isinstance(depth, int) or isinstance(depth, bool) or depth < 1
            or plan.get("objective") != "worst" or not isinstance(plan.get("variant"), dict)
            or ("units" in plan and not _units_ok(plan["units"], len(orbits)))):
        raise ShardFileError(f"shard plan {str(plan_path(directory))!r} is malformed")
    return plan


def _units_ok(units, n_orbits: int) -> bool:
    return isinstance(units, list) and bool(units) and all(
        isinstance(u, dict) and isinstance(u.get("orbit"), int) and 0 <= u["orbit"] < n_orbits
        and (set(u) == {"orbit"} or (set(u) == {"orbit", "class", "second"}
                                     and isinstance(u["class"], str)
                                     and isinstance(u["second"], str))
             or (set(u) == {"orbit", "class", "second", "reply", "third"}
                 and all(isinstance(u[k], str) for k in ("class", "second", "reply"))
                 and isinstance(u["third"], list) and bool(u["third"])
                 and all(isinstance(k, str) for k in u["third"])))
        for u in units)


def read_job(directory, plan: dict, job: int) -> dict | None:
    """Job ``job``'s result (an orbit, or a unit of a deeper split), None: not done yet."""
    if "units" not in plan:
        return read_result(directory, plan, job)
    path = unit_path(directory, job)
    if not path.exists():
        return None
    unit = plan["units"][job]
    doc = read_doc(path, RESULT_FORMAT, "shard result")
    expect = {"plan": plan["checksum"], "variant": plan["variant"], "objective": "worst",
              "guesses": plan["guesses"], "depth": plan["depth"], "unit": job,
              "guess": plan["orbits"][unit["orbit"]], **unit}
    _check_belongs(path, doc, expect)
    return doc


def check_no_strays(directory, plan: dict) -> None:
    """Refuse a result file the plan does not name (a copy, a duplicate, a file of another
    split) in ``results/``: merging around it would hide a mistake."""
    n = len(plan["units"]) if "units" in plan else len(plan["orbits"])
    expected = {job_path(directory, plan, j).name for j in range(n)}
    folder = Path(directory) / RESULTS_DIR
    if not folder.is_dir():
        return
    for path in sorted(folder.glob("*.json")):
        if path.name not in expected:
            raise ShardFileError(f"{str(path)!r} is not a result file of this plan (a duplicate "
                                 "or a copy from another plan?): move it out, then merge")


def _check_belongs(path: Path, doc: dict, expect: dict) -> None:
    for key, value in expect.items():
        if doc.get(key) != value:
            raise ShardFileError(f"shard result {str(path)!r} is from another proof ({key} "
                                 f"{doc.get(key)!r}, the plan's is {value!r})")
    if doc.get("outcome") not in (REFUTED, NOT_REFUTED):
        raise ShardFileError(f"shard result {str(path)!r} has no valid outcome")


def read_result(directory, plan: dict, orbit: int) -> dict | None:
    """Orbit ``orbit``'s result (None: not done yet), checked to belong to ``plan``."""
    path = result_path(directory, orbit)
    if not path.exists():
        return None
    doc = read_doc(path, RESULT_FORMAT, "shard result")
    expect = {"plan": plan["checksum"], "variant": plan["variant"], "objective": "worst",
              "guesses": plan["guesses"], "depth": plan["depth"], "orbit": orbit,
              "guess": plan["orbits"][orbit]}
    _check_belongs(path, doc, expect)
    return doc
