"""The checkpoint file of the exact searches (``cbsolve optimal --checkpoint DIR``,
``--resume DIR``; docs/optimal.md, "Checkpoint and resume").

Place in the data flow: the local drivers (:mod:`cbsolve.search.worst.driver`,
:mod:`cbsolve.search.expected.search`) and the Dask ones (:mod:`cbsolve.search.distributed`)
record what they have proved in a :class:`Checkpoint` (:mod:`.worst`, :mod:`.expected`,
:mod:`.distributed` say what) -> **this module** writes it to
``DIR/checkpoint.json`` every ``every`` seconds while something new was proved, and on every
stop -> a later run reads it back and skips what it holds.

The file is one sealed JSON document (the format and checksum of the sharded proofs,
:mod:`cbsolve.search.worst.shard_files`): written to a temporary name, flushed to disk and
renamed, so a process killed at any moment leaves the previous checkpoint or the new one,
whole. On load it is checked: format, version, checksum (a truncation, an edit or damage is
refused), and its identity (game, objective, guess pool, depth cap, options) against the run's.
The checksum guards against accidents, not forgery: the tree and certificate the resumed run
prints are what ``cbsolve verify`` checks with the scorer alone.
"""
from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path

from ...errors import CbsolveError, InvalidVariant
from ...game.variant import Variant
from ..worst import shard_files as files
from .checks import Contradiction, check_state
from .distributed import DaskExpectedSteps, DaskWorstSteps
from .expected import ExpectedSteps
from .worst import WorstSteps

#: Version 2: a class of a second guess being expanded may be recorded by its value
#: alone (``tree`` and ``wins`` null), which version 1 readers would not expect.
FORMAT, VERSION, FILE_NAME = "cbsolve-optimal-checkpoint", 2, "checkpoint.json"
#: The versions :func:`read` accepts (a version-1 state is a version-2 one).
READS = (1, 2)
#: Seconds between two writes while the search proves something new (--checkpoint-every).
DEFAULT_EVERY = 60.0
#: With a checkpoint, every class of a guess the parallel split expands is recorded as it is
#: solved (its value: a resumed expansion skips it); those whose solve took at least this many
#: seconds with their subtrees, read from the table (a walk that cost 7 % of Bulls & Cows
#: 4/10's CPU when every class of 40 secrets or more was recorded); the others' subtrees are
#: read from the table (solved again, in less than this each) only if their guess becomes the
#: best.
RECORD_SECONDS = 0.5


class CheckpointError(CbsolveError):
    """A checkpoint that is missing, unreadable, tampered with, truncated or from another
    search (bad input: exit 2)."""


#: Why a search is refused a checkpoint (bad input, exit 2): the one line both faces print.
NOT_CHECKPOINTED = ("checkpoints cover a whole-game search only: not from a position (entries, "
                    "--log), nor with --plan (its shard files are its checkpoint)")


def identity(variant, objective: str, guesses: str, max_depth: int | None,
             **options) -> dict:
    """What a checkpoint must match to be resumed: the game and every option that changes
    what is proved or which tree is built (not the workers, the memory or the time limit)."""
    return {"variant": variant.to_dict(), "objective": objective, "guesses": str(guesses),
            "max_depth": max_depth, "options": dict(sorted(options.items()))}


def refuse(*, position: bool, plan: bool = False) -> None:
    """InvalidVariant (:data:`NOT_CHECKPOINTED`) for a search no checkpoint covers."""
    if position or plan:
        raise InvalidVariant(NOT_CHECKPOINTED)


def search_identity(variant, objective: str, guesses: str, max_depth: int | None, *,
                    lookahead: int = 0, certificate: bool = True, distributed: bool = False,
                    ties: bool | str = False, position: bool = False, plan: bool = False
                    ) -> dict:
    """The identity of one ``optimal`` search (the CLI's and the API's, built here only):
    the worst objective's result depends on ``lookahead``, ``certificate`` and ``ties`` (the
    tie-break searches: another objective); a Dask run's state (``distributed``) is its
    drivers'. A search from a ``position`` or with a ``plan`` is refused
    (:data:`NOT_CHECKPOINTED`)."""
    refuse(position=position, plan=plan)
    options: dict = {"distributed": True} if distributed else {}
    if objective == "worst":
        options.update(lookahead=lookahead, certificate=certificate)
        if ties:   # absent without: the identity of a checkpoint made before ties had one
            options["ties"] = ties
    return identity(variant, objective, guesses, max_depth, **options)


def path_of(directory) -> Path:
    return Path(directory) / FILE_NAME


def directory_of(directory) -> Path:
    """``directory`` as a Path, refused (CheckpointError) when it names something that is
    not a directory (a checkpoint is a directory holding ``checkpoint.json``)."""
    path = Path(directory)
    if path.exists() and not path.is_dir():
        raise CheckpointError(f"{str(directory)!r} is a file, not a directory (a checkpoint is "
                              f"a directory holding {FILE_NAME})")
    return path


def read(directory) -> dict:
    """The checkpoint document in ``directory``: UTF-8 JSON of the checkpoint format, of a
    version this cbsolve reads, matching its checksum (CheckpointError otherwise: one line)."""
    path = path_of(directory_of(directory))
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise CheckpointError(f"no checkpoint at {str(path)!r}") from None
    except OSError as exc:
        raise CheckpointError(f"cannot read checkpoint {str(path)!r}: "
                              f"{exc.strerror or exc}") from None
    try:
        doc = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise CheckpointError(f"{str(path)!r} is not a checkpoint (not UTF-8 text)") from None
    except (ValueError, RecursionError):
        raise CheckpointError(f"{str(path)!r} is not a checkpoint: not whole JSON (truncated "
                              "or damaged): delete it and start without it") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise CheckpointError(f"{str(path)!r} is not a checkpoint (format {FORMAT})")
    if doc.get("version") not in READS:
        raise CheckpointError(f"checkpoint {str(path)!r} has version {doc.get('version')!r}; "
                              f"this cbsolve reads versions {', '.join(map(str, READS))}")
    if doc.get("checksum") != files.checksum(doc):
        raise CheckpointError(f"checkpoint {str(path)!r} does not match its checksum (tampered "
                              "with or damaged): delete it and start without it")
    if not isinstance(doc.get("identity"), dict) or not isinstance(doc.get("state"), dict):
        raise CheckpointError(f"checkpoint {str(path)!r} is malformed")
    return doc


def describe(ident: dict) -> str:
    try:
        name = Variant.from_dict(ident["variant"]).describe()
    except (KeyError, TypeError, ValueError, CbsolveError):
        name = ident.get("variant")
    return (f"{name}, objective {ident.get('objective')}, guesses {ident.get('guesses')}, "
            f"max depth {ident.get('max_depth')}, options {ident.get('options')}")


class Checkpoint:
    """The proved state of one search and its file. ``state`` is the objective's (a JSON
    dict); the driver mutates it under :attr:`lock` and calls :meth:`changed`; a timer thread
    writes it every ``every`` seconds while it changed; :meth:`flush` writes it now (on a stop)."""

    def __init__(self, directory, ident: dict, every: float = DEFAULT_EVERY,
                 resume: bool = True, record_seconds: float = RECORD_SECONDS) -> None:
        self.directory, self.ident, self.every = directory_of(directory), ident, float(every)
        self.record_seconds = record_seconds     # a split's class with its subtree from here
        self.lock = threading.RLock()      # the state's
        self._writing = threading.Lock()   # the file's
        self.state: dict = {}
        self.resumed = False
        self.writes = 0
        self._dirty = False
        self._stop = threading.Event()
        self._timer: threading.Thread | None = None
        if path_of(directory).exists():
            if not resume:
                raise CheckpointError(f"{str(directory)!r} already holds a checkpoint")
            doc = read(directory)
            if doc["identity"] != ident:
                raise CheckpointError(
                    f"the checkpoint in {str(directory)!r} is for another search "
                    f"({describe(doc['identity'])}), not this one ({describe(ident)}): "
                    "use another directory, or --resume DIR alone")
            _check(doc, directory)
            self.state, self.resumed = doc["state"], True
        else:
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise CheckpointError(f"cannot make {str(directory)!r}: "
                                      f"{exc.strerror or exc}") from None

    # --- writing ---------------------------------------------------------------------------
    def changed(self) -> None:
        """Something new is proved: the next timed write takes it."""
        self._dirty = True

    def flush(self) -> None:
        """Write the state now if it changed since the last write. One write at a time, and
        a write in progress (the timer's) is finished before this one starts: the last
        flush of a stop must not return while the timer's file is still a temporary one."""
        with self._writing:
            with self.lock:
                if not self._dirty:
                    return
                self._dirty = False
                text = _sealed_text({"format": FORMAT, "version": VERSION,
                                     "identity": self.ident, "state": self.state})
            try:
                files.write_atomic(path_of(self.directory), text)
            except files.ShardFileError as exc:
                self._dirty = True
                raise CheckpointError(str(exc)) from None
            self.writes += 1

    def start(self) -> Checkpoint:
        """Write every ``every`` seconds (a daemon thread) until :meth:`close`."""
        if self._timer is None:
            self._timer = threading.Thread(target=self._run, name="cbsolve-checkpoint",
                                           daemon=True)
            self._timer.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.flush()
            except CheckpointError:
                pass   # reported by the flush on the stop, which raises it

    def close(self) -> None:
        """Stop the timer and write what is left (every stop: the end, a time limit, Ctrl-C)."""
        self._stop.set()
        if self._timer is not None and self._timer is not threading.current_thread():
            self._timer.join()
        self.flush()

    # --- the drivers' views of the state (imported here: the drivers import no checkpoint) ----
    def worst_steps(self, native, variant, guesses: str, deadline, report):
        """The worst-case decisions recorded here (:class:`.worst.WorstSteps`)."""
        return WorstSteps(self, native, variant, guesses, deadline, report)

    def expected_steps(self, search):
        """The expected-case decisions recorded here (:class:`.expected.ExpectedSteps`)."""
        return ExpectedSteps(self, search)

    def dask_worst_steps(self):
        """The worst-case Dask driver's decisions (:class:`.distributed.DaskWorstSteps`)."""
        return DaskWorstSteps(self)

    def dask_expected_steps(self):
        """The expected-case Dask driver's results (:class:`.distributed.DaskExpectedSteps`)."""
        return DaskExpectedSteps(self)

    def part(self, name: str) -> Part:
        """The checkpoint of a search run inside this one (the tie-break searches after the
        worst case): its state ``state[name]``, written with this one's."""
        return Part(self, name)

    def summary(self) -> dict:
        """The JSON report's ``checkpoint`` field (docs/contract.md)."""
        return {"dir": str(self.directory), "resumed": self.resumed, "writes": self.writes,
                "every": self.every}

    def report(self, result) -> None:
        """Close, then say so in ``result`` (its ``checkpoint`` field and a note)."""
        self.close()
        result.checkpoint = self.summary()
        if not path_of(self.directory).exists():
            result.notes.append(f"checkpoint: nothing proved yet, nothing written in "
                                f"{str(self.directory)!r}")
            return
        how = "resumed, " if self.resumed else ""
        result.notes.append(f"checkpoint {str(path_of(self.directory))!r} ({how}{self.writes} "
                            f"writes): `cbsolve optimal --resume {self.directory}` continues")


class Part:
    """One search's view of a part of a :class:`Checkpoint`: its state is the parent's
    ``state[name]``; the parent's lock, timer and file serve it, and the parent's stop writes
    and reports it (so :meth:`close` and :meth:`report` leave that to the parent)."""

    def __init__(self, parent: Checkpoint, name: str) -> None:
        self.parent, self.lock = parent, parent.lock
        with parent.lock:
            self.state = parent.state.setdefault(name, {})

    def changed(self) -> None:
        self.parent.changed()

    def close(self) -> None:
        """Written by the parent's stop."""

    def report(self, result) -> None:
        """Reported by the parent's stop."""

    def expected_steps(self, search):
        return ExpectedSteps(self, search)


def _check(doc: dict, directory) -> None:
    """Refuse (CheckpointError, one line) a state that contradicts itself (:mod:`.checks`)."""
    try:
        check_state(doc["identity"], doc["state"])
    except Contradiction as exc:
        raise CheckpointError(f"the checkpoint in {str(directory)!r} contradicts itself: {exc}; "
                              "delete it and start without it") from None


def _sealed_text(body: dict) -> str:
    """``body`` sealed as :func:`files.sealed` seals it (the checksum of its canonical JSON
    as the last key), serialised once: a checkpoint of Mastermind 5x7 is 2 MB of JSON."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    digest = "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()
    return f'{text[:-1]},"checksum":"{digest}"}}\n'


def started(directory, ident: dict, every: float = DEFAULT_EVERY) -> Checkpoint:
    """A checkpoint in ``directory`` for the search ``ident`` (resumed if the directory holds
    one for it), its timer running."""
    return Checkpoint(directory, ident, every).start()
