"""The ledger of a sharded refutation: one short line a finished unit, small enough to commit,
so that a long proof continues from session to session (docs/optimal.md, "A proof as a
ledger").

Place in the data flow: ``cbsolve optimal --plan DIR --shard K/N --ledger`` (:mod:`.shards`
appends a line after each unit's result file) -> **this module** -> ``DIR/ledger.jsonl`` ->
``cbsolve verify DIR/ledger.jsonl`` (:mod:`.ledger_check`: re-runs units and re-checks their
sub-proofs) and ``cbsolve merge DIR --ledger`` (what the ledger proves when it is whole).

The first line is a header naming the plan (its checksum, the game, the depth, the number of
units); every other line is one unit: its index and label, outcome, refuting reply and class
size, CPU seconds, kernel nodes, the cbsolve version, the kernel's id (a SHA-256 of the
worst-case kernel's binary) and ``proof``, a SHA-256 of the unit's sub-proof (outcome, reply,
size and refutation tree, or a part's refuted third guesses, in canonical JSON), which re-running the unit on the same kernel
reproduces. Each line carries a checksum of its own content, so a damaged or edited line is
refused (one line, exit 2); the checksums guard against accidents, and re-running units
(``verify``) against anything else. Lines are appended whole under an exclusive lock and
fsynced, so several processes (shards K/N of one plan) share one ledger; a line torn by a
crash (the last one, without its newline) is ignored when read and cut off before the next
append.
"""
from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import json
import os
from functools import lru_cache
from pathlib import Path

from ... import __version__
from . import shard_files as files
from .deeper import unit_label

LEDGER_FORMAT, LEDGER_VERSION, LEDGER_NAME = "cbsolve-refutation-ledger", 1, "ledger.jsonl"
#: The keys of a result document that make up its sub-proof (hashed into ``proof``).
PROOF_KEYS = ("outcome", "reply", "size", "node", "refuted", "settles", "witness")


def ledger_path(directory) -> Path:
    return Path(directory) / LEDGER_NAME


@lru_cache(maxsize=1)
def kernel_id() -> str:
    """The first 16 hex digits of the SHA-256 of the worst-case kernel's binary: lines with
    the same id must reproduce each other's ``proof``."""
    origin = importlib.util.find_spec("cbsolve._native.search_worst").origin
    return hashlib.sha256(Path(origin).read_bytes()).hexdigest()[:16]


def proof_hash(doc: dict) -> str:
    """SHA-256 of a unit result's sub-proof (not its timing), the result files' checksum."""
    return files.checksum({k: doc[k] for k in PROOF_KEYS if k in doc})


def header(plan: dict) -> dict:
    return files.sealed({"format": LEDGER_FORMAT, "version": LEDGER_VERSION,
                         "plan": plan["checksum"], "game": plan["variant"].get("name"),
                         "depth": plan["depth"], "units": _jobs(plan)})


def entry(plan: dict, unit: int, doc: dict) -> dict:
    """The ledger line of unit ``unit`` from its result document (with cpu and nodes)."""
    line = {"unit": unit, "label": _label(plan, unit), "outcome": doc["outcome"]}
    line.update({k: doc[k] for k in ("reply", "size") if doc.get(k) is not None})
    line.update(cpu=doc["cpu"], nodes=doc["nodes"], cbsolve=__version__, kernel=kernel_id(),
                proof=proof_hash(doc))
    return files.sealed(line)


def _jobs(plan: dict) -> int:
    return len(plan["units"]) if "units" in plan else len(plan["orbits"])


def _label(plan: dict, unit: int) -> str:
    return unit_label(plan, plan["units"][unit]) if "units" in plan else plan["orbits"][unit]


def read_ledger(path, plan: dict) -> dict[int, dict]:
    """The lines of the ledger at ``path`` by unit (empty when there is no file), each checked
    against its checksum and the plan; a bad line is a :class:`ShardFileError` naming it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise files.ShardFileError(f"cannot read ledger {str(path)!r}: {exc}") from None
    lines = text.split("\n")[:-1]        # the last piece: "" or a torn line (ignored)
    if not lines:
        return {}
    if _parsed(path, 1, lines[0]) != header(plan):
        raise files.ShardFileError(f"ledger {str(path)!r} is for another plan (its first line "
                                   "names another plan checksum, game, depth or unit count)")
    out: dict[int, dict] = {}
    for number, text in enumerate(lines[1:], start=2):
        line = _parsed(path, number, text)
        unit = line.get("unit")
        if (not isinstance(unit, int) or isinstance(unit, bool) or not 0 <= unit < _jobs(plan)
                or line.get("label") != _label(plan, unit)
                or line.get("outcome") not in (files.REFUTED, files.NOT_REFUTED)
                or not str(line.get("proof", "")).startswith("sha256:")):
            raise files.ShardFileError(f"ledger {str(path)!r} line {number} does not name a unit "
                                       "of this plan with an outcome and a proof hash")
        if unit in out and out[unit]["proof"] != line["proof"]:
            raise files.ShardFileError(f"ledger {str(path)!r} line {number}: unit {unit} is "
                                       "already there with another proof")
        out.setdefault(unit, line)
    return out


def _parsed(path: Path, number: int, text: str) -> dict:
    try:
        line = json.loads(text)
    except (ValueError, RecursionError):
        line = None
    if not isinstance(line, dict) or line.get("checksum") != files.checksum(line):
        raise files.ShardFileError(f"ledger {str(path)!r} line {number} is damaged or edited "
                                   "(it does not match its checksum)")
    return line


def append(path, plan: dict, line: dict) -> None:
    """Append ``line`` whole (the header first on a new ledger), under an exclusive lock,
    fsynced; a torn last line left by a crash is cut off first."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise files.ShardFileError(f"cannot open ledger {str(path)!r}: {exc.strerror or exc}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        size = os.lseek(fd, 0, os.SEEK_END)
        if size:
            os.lseek(fd, max(0, size - 65536), os.SEEK_SET)
            tail = os.read(fd, 65536)
            if not tail.endswith(b"\n"):       # torn by a crash: keep whole lines only
                size -= len(tail) - (tail.rfind(b"\n") + 1)
                os.ftruncate(fd, size)
        text = "" if size else json.dumps(header(plan), separators=(",", ":")) + "\n"
        text += json.dumps(line, separators=(",", ":")) + "\n"
        os.lseek(fd, size, os.SEEK_SET)
        os.write(fd, text.encode("ascii"))
        os.fsync(fd)
    except OSError as exc:
        raise files.ShardFileError(f"cannot write ledger {str(path)!r}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)     # closing releases the lock
