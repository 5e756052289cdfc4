"""A worst-case refutation split into shards: one a first-guess orbit, run anywhere, in any
order, resumable (docs/optimal.md, "Sharded proofs").

Place in the data flow: ``cbsolve optimal --plan DIR --max-depth D [--shard K/N]`` -> **this
module** -> the worst-case kernel (:mod:`.kernel`, the same decision search and certificate as
one process) -> one result file an orbit (:mod:`.shard_files`) -> :mod:`.merge` -> one
certificate that ``cbsolve verify`` checks.

"D guesses do not suffice" holds exactly when every first guess leaves a reply class that D-1
more guesses cannot settle. Up to the game's symmetry (position and symbol permutations, the
orbits of :class:`cbsolve.game.symmetry.Symmetry`) one first guess an orbit is enough, and the
orbits are independent: a shard takes every N-th orbit of the plan (orbit i goes to shard
i mod N + 1). For its orbit's representative g it tries g's non-winning reply classes in the
kernel's order (largest first, then by reply) and asks the kernel whether D-1 guesses settle
each, from the position "g played, this reply": the first class that cannot be settled
refutes g and its refutation tree is the result (a class larger than cap(D-1) needs none); if
every class is settled, g settles every secret within D, the result is that strategy (a
witness) and D is not refuted at all. A stop (time limit, Ctrl-C) keeps nothing of the orbit
in progress; orbits already written are skipped on the next run, which is the resume.
"""
from __future__ import annotations

import resource
import time
from dataclasses import dataclass, field

import numpy as np

from ...game.capacity import capacity
from ...game.codes import CodeSpace
from ...game.scoring import possible_responses
from ...runtime.deadline import Deadline
from ...errors import InvalidVariant
from ...runtime.status import StopReason
from ...game.symmetry import Symmetry
from ...game.variant import Variant
from ..options import SearchOptions
from ..result import Verdict
from . import deeper, third
from . import ledger as ledgers
from . import shard_files as files
from .kernel import PRUNINGS, _Native
from .trees import _tree_doc

#: What a shard run says of an orbit it did not finish or did not run now.
STOPPED, DONE_BEFORE = "stopped", "done-before"


def plan_refutation(variant: Variant, directory, depth: int, guesses: str = "all",
                    split: str = "orbit", split_size: int | None = None) -> dict:
    """Write the plan of refuting ``depth`` guesses (the first-guess orbits; with ``split``
    "second", also the (first, second guess) units of :mod:`.deeper`; "third", also the parts
    of at most ``split_size`` third guesses of the large ones, :mod:`.third`) into
    ``directory``; an identical plan already there is kept, another one refused."""
    from pathlib import Path

    if split not in deeper.SPLITS:
        raise InvalidVariant(f"unknown split {split!r}: choose from {', '.join(deeper.SPLITS)}")
    space = CodeSpace(variant)
    reps = Symmetry(variant).guess_representatives([])
    body = {
        "format": files.PLAN_FORMAT, "version": files.SHARD_VERSION,
        "variant": variant.to_dict(), "objective": "worst", "guesses": str(guesses),
        "depth": int(depth), "responses": len(possible_responses(variant)),
        "secrets": space.size, "orbits": [space.format(space.codes[int(g)]) for g in reps]}
    if split == "second":   # an orbit plan stays as before (no key): its checksum too
        body.update(split=split, units=deeper.plan_units(variant, body["orbits"], depth, guesses))
    elif split == "third":
        size = third.SPLIT_SIZE if split_size is None else int(split_size)
        if size < 1:
            raise InvalidVariant(f"--split-size must be at least 1, got {size}")
        units = deeper.plan_units(variant, body["orbits"], depth, guesses)
        body.update(split=split, split_size=size,
                    units=third.split_units(variant, body["orbits"], units, depth, guesses, size))
    plan = files.sealed(body)
    path = files.plan_path(directory)
    if path.exists():
        old = files.read_plan(directory)
        if old["checksum"] != plan["checksum"]:
            raise files.ShardFileError(f"{str(directory)!r} already holds another plan "
                                       f"({old['variant'].get('name')}, depth {old['depth']}): "
                                       "use a new directory")
        return old
    try:
        (Path(directory) / files.RESULTS_DIR).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise files.ShardFileError(f"cannot make {str(directory)!r}: {exc.strerror or exc}") from None
    files.write_doc(path, plan)
    return plan


def parse_shard(text: str) -> tuple[int, int]:
    """``K/N`` (1 <= K <= N) -> (K, N); anything else is bad input."""
    try:
        k, n = (int(x) for x in str(text).split("/"))
    except ValueError:
        raise InvalidVariant(f"--shard needs K/N (e.g. 2/8), got {text!r}") from None
    if not 1 <= k <= n:
        raise InvalidVariant(f"--shard K/N needs 1 <= K <= N, got {text!r}")
    return k, n


def plan_variant(plan: dict) -> Variant:
    try:
        return Variant.from_dict(plan["variant"])
    except (KeyError, TypeError, ValueError) as exc:
        raise files.ShardFileError(f"the shard plan's variant is not valid: {exc}") from None


@dataclass
class ShardRun:
    """What one run of a shard did: an entry per job of the shard, a first-guess orbit or a
    unit of a deeper split (``outcome``: refuted, not-refuted, done-before, stopped; jobs
    after a stop are not listed)."""

    shard: tuple[int, int]
    depth: int
    orbits: list[dict] = field(default_factory=list)
    stop: StopReason | None = None
    seconds: float = 0.0

    @property
    def complete(self) -> bool:
        return self.stop is None

    @property
    def not_refuted(self) -> list[str]:
        return [o["guess"] for o in self.orbits if o["outcome"] == files.NOT_REFUTED]

    def to_json(self) -> dict:
        return {"shard": f"{self.shard[0]}/{self.shard[1]}", "depth": self.depth,
                "complete": self.complete, "stop": None if self.stop is None else self.stop.value,
                "not_refuted": self.not_refuted, "orbits": self.orbits,
                "seconds": round(self.seconds, 3),
                "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}


def run_shard(directory, shard: tuple[int, int], variant: Variant, *, deadline: Deadline,
              workers: int | None = None, memory_budget=None, on_orbit=None,
              ledger: bool = False) -> ShardRun:
    """Refute the orbits of shard ``K/N`` of the plan in ``directory`` that have no result yet,
    writing one result file each; ``variant`` must be the plan's. ``on_orbit(entry)`` is called
    after each orbit. Stops at ``deadline`` or Ctrl-C (``stop`` says which). With ``ledger``,
    a job is done when ``DIR/ledger.jsonl`` has its line (:mod:`.ledger`), and each finished
    job appends its line there after writing its result file."""
    start = time.perf_counter()
    plan = files.read_plan(directory)
    if plan_variant(plan) != variant:
        raise InvalidVariant(f"the plan in {str(directory)!r} is for {plan_variant(plan).describe()}, "
                             f"not {variant.describe()}: give the plan's variant options")
    k, n = shard
    run = ShardRun(shard, plan["depth"])
    jobs = len(plan["units"]) if "units" in plan else len(plan["orbits"])
    book = ledgers.ledger_path(directory) if ledger else None
    done = ledgers.read_ledger(book, plan) if ledger else {}
    todo = []
    for i in range(k - 1, jobs, n):
        finished = i in done if ledger else files.read_job(directory, plan, i) is not None
        if finished:
            run.orbits.append({**job_label(plan, i), "outcome": DONE_BEFORE})
        else:
            todo.append(i)
    native = None
    for i in todo:
        if deadline.expired():
            run.stop = deadline.reason()
            break
        if native is None:   # the reply matrix once a run, only when there is work
            native = open_native(variant, plan, deadline, workers, memory_budget)
            if native.setup_stopped is not None:
                run.stop = native.setup_stopped.reason
                break
        doc, entry = timed_job(native, plan, i, deadline)
        if doc is None:
            run.stop = entry.pop("stop")
            run.orbits.append(entry)
            if on_orbit is not None:
                on_orbit(entry)
            break
        path = files.job_path(directory, plan, i)
        path.parent.mkdir(exist_ok=True)    # a plan copied to a machine without results/
        files.write_doc(path, doc)
        if ledger:
            ledgers.append(book, plan, ledgers.entry(plan, i, doc))
        run.orbits.append(entry)
        if on_orbit is not None:
            on_orbit(entry)
    run.seconds = time.perf_counter() - start
    return run


def job_label(plan: dict, i: int) -> dict:
    """How a report names job ``i``: an orbit, or a unit of a deeper split."""
    units = plan.get("units")
    if units is None:
        return {"orbit": i, "guess": plan["orbits"][i]}
    return {"unit": i, "orbit": units[i]["orbit"], "guess": deeper.unit_label(plan, units[i])}


def open_native(variant: Variant, plan: dict, deadline: Deadline, workers: int | None = None,
                memory_budget=None) -> _Native:
    """The worst-case kernel set up for the plan's game, guess pool and depth."""
    options = SearchOptions.checked(variant, "worst", PRUNINGS, guesses=plan["guesses"],
                                    max_depth=plan["depth"], workers=workers,
                                    memory_budget=memory_budget)
    return _Native(variant, options.guesses, options.prune, max(1, options.workers),
                   plan=options.plan, deadline=deadline)


def timed_job(native: _Native, plan: dict, i: int, deadline: Deadline) -> tuple[dict | None, dict]:
    """Run job ``i``: (its result document with seconds, cpu and nodes, its report entry);
    the document is None when stopped, and the entry then says how far it got and ``stop``."""
    t0, cpu0, nodes0 = time.perf_counter(), time.process_time(), int(native.core.nodes())
    reached: dict = {}
    units = plan.get("units")
    stop = None
    try:
        if units is None:
            doc = _refute_orbit(native, plan, i, deadline, reached)
        elif "third" in units[i]:
            doc = third.refute_third(native, plan, i, deadline, reached)
        elif "second" in units[i]:
            doc = deeper.refute_second(native, plan, i, deadline, reached)
        else:    # a whole-orbit unit of a deeper plan: refuted as the orbit plan does
            doc = _refute_orbit(native, plan, units[i]["orbit"], deadline, reached)
            doc = None if doc is None else {**doc, "unit": i, **units[i]}
    except KeyboardInterrupt:
        doc, stop = None, StopReason.INTERRUPTED
    entry = {**job_label(plan, i), "seconds": round(time.perf_counter() - t0, 3),
             "cpu": round(time.process_time() - cpu0, 3),
             "nodes": int(native.core.nodes()) - nodes0}
    if doc is None:
        stop = stop or native.stop_reason() or deadline.reason() or StopReason.STOPPED
        entry.update(outcome=STOPPED, stop=stop, **reached)
        return None, entry
    doc.update(seconds=entry["seconds"], cpu=entry["cpu"], nodes=entry["nodes"])
    entry.update(outcome=doc["outcome"], reply=doc.get("reply"), size=doc.get("size"))
    return doc, entry


def _refute_orbit(native: _Native, plan: dict, orbit: int, deadline: Deadline,
                  reached: dict) -> dict | None:
    """Orbit ``orbit``'s result document (without timing), or None when stopped; ``reached``
    says how far it got (for a stopped orbit's report: the cost of what is left)."""
    variant, space = native.variant, native.space
    depth = plan["depth"]
    g = space.index_of(space.parse(plan["orbits"][orbit]))
    everyone = np.arange(space.size, dtype=np.int64)
    replies = native.replies(g, everyone)
    classes = [(int(r), everyone[replies == r]) for r in np.unique(replies)
               if r != variant.win_response]
    classes.sort(key=lambda c: -len(c[1]))     # the kernel's order: largest first (stable)
    doc = {"format": files.RESULT_FORMAT, "version": files.SHARD_VERSION,
           "plan": plan["checksum"], "variant": plan["variant"], "objective": "worst",
           "guesses": plan["guesses"], "depth": depth, "orbit": orbit,
           "guess": plan["orbits"][orbit]}
    if classes and len(classes[0][1]) > capacity(depth - 1, native.n_responses):
        r, members = classes[0]   # counting: the verifier needs no sub-proof
        return {**doc, "outcome": files.REFUTED, "reply": variant.format_response(r),
                "size": len(members)}
    settled = []
    try:
        for r, members in classes:
            reached.update(classes=len(classes), settled=len(settled), deciding=len(members))
            verdict, node = deeper.decide_class(native, members, np.array([g], dtype=np.int64),
                                         depth - 1, deadline)
            if verdict is Verdict.STOPPED:
                return None
            if verdict is Verdict.NO:
                return {**doc, "outcome": files.REFUTED, "reply": variant.format_response(r),
                        "size": len(members), "node": node}
            settled.append((r, members))
        # every class settled: g finds every secret within depth (a witness strategy)
        children = []
        for r, members in settled:
            native.set_root(members, np.array([g], dtype=np.int64))
            tree = native.run("tree", depth - 1, deadline)
            if tree is None:
                return None
            children.append((r, tree))
    finally:
        native.set_root(everyone, np.zeros(0, dtype=np.int64))
    witness = _tree_doc(variant, native, {"guess": g, "children": children}, plan["guesses"],
                        proved=False, name="shard-witness")
    return {**doc, "outcome": files.NOT_REFUTED, "witness": witness}
