"""The worst-case optimum on a Dask cluster: first guesses decided in parallel.

Place in the data flow: ``cbsolve optimal --objective worst --scheduler ADDRESS|local`` ->
**this driver** -> tasks :func:`decide_guess` on the workers (the native decision search of
:mod:`cbsolve.search.worst` asked about the reply classes of one first guess, each a game from
a position) -> the tree of the winning guess, and the lower-bound certificate written by the
driver on its own threads (the same native certificate as on one machine) -> ``verify``.

The question "can every secret be found within d guesses?" holds for the set S when some
first guess g (up to the symmetry that fixes the guesses played) leaves only reply classes
that d-1 guesses settle. The driver tries d from the counting lower bound up to the greedy
tree's depth, as :func:`cbsolve.search.worst.solve_worst` does, and for each d sends one task
per first guess (smallest largest class first); the first task that succeeds cancels the
others (that is the shared bound: a depth proved feasible ends the round). The answer is the
single-machine one; the tree may use another of the equally good first guesses.
"""
from __future__ import annotations

import itertools
import json
import threading

import numpy as np

from ...certificates.tree import make_tree
from ...game.capacity import worst_lower
from ...runtime.deadline import UNLIMITED, Deadline, stopped_by
from ...runtime.status import Status, StopReason
from ...game.variant import Variant
from ...runtime.workers import resolve
from ..result import SearchResult, Verdict
from .cluster import _Stopped, wait_any
from .expected_tasks import _worker_name
from ..worst.kernel import _Native
from ..worst.trees import _certificate, _depth, _fill_stats, _tree_doc

_WORKER = threading.local()   # per worker thread: (game key, native worst-case search)
_SENT = itertools.count(1)    # tasks sent by this process: the last part of their keys


def _native(variant_dict: dict, guesses: str):
    key = (json.dumps(variant_dict, sort_keys=True), guesses)
    if getattr(_WORKER, "key", None) != key:
        _WORKER.key, _WORKER.native = None, None
        _WORKER.native = _Native(Variant.from_dict(variant_dict), guesses, {}, 1)
        _WORKER.key = key
    return _WORKER.native


def decide_guess(spec: dict) -> dict:
    """A Dask task: do all reply classes of guess ``spec["guess"]`` at the set ``members``
    (after ``history``) fit within ``left - 1`` more guesses? With ``tree``: also their trees
    (docs/tree-format.md nodes, depths from the class) when they do."""
    import time

    started, cpu = time.perf_counter(), time.process_time()
    out = _decide_guess(spec)
    out.update(cpu=time.process_time() - cpu, seconds=time.perf_counter() - started,
               worker=_worker_name())
    return out


def _decide_guess(spec: dict) -> dict:
    variant = Variant.from_dict(spec["variant"])
    native = _native(spec["variant"], spec["guesses"])
    g, left = int(spec["guess"]), int(spec["left"])
    members = np.asarray(spec["members"], dtype=np.int64)
    hist = np.asarray(list(spec["history"]) + [g], dtype=np.int64)
    replies = native.replies(g, members)
    classes = sorted(((int(r), members[replies == r]) for r in np.unique(replies)
                      if r != variant.win_response), key=lambda x: -len(x[1]))
    for _, sub in classes:
        if left <= 1 or Verdict(native.core.feasible(sub, left - 1, hist)) is not Verdict.YES:
            return {"ok": False}
    if not spec.get("tree"):
        return {"ok": True}
    trees = {}
    for r, sub in classes:
        raw = native.core.tree(sub, left - 1, hist)
        native.all, native.empty = sub, hist   # _tree_doc converts from the set the core solved
        doc = _tree_doc(variant, native, raw, spec["guesses"])
        trees[variant.format_response(r)] = (doc["root"], doc["stats"]["histogram"])
    return {"ok": True, "trees": trees}


def solve_worst_distributed(client, variant: Variant, *, guesses: str = "all",
                            max_depth: int | None = None, certificate: bool = True,
                            workers: int | None = None, root=None,
                            deadline: Deadline | None = None, trace=None,
                            checkpoint=None) -> SearchResult:
    """Fewest guesses in the worst case (from ``root``, a position, when given), decided on the
    cluster of ``client``; tree and certificate as :func:`cbsolve.search.worst.solve_worst`.
    Stopped by ``deadline`` (None: no limit) or Ctrl-C: the interval proved (the
    depths refuted so far, the greedy tree's depth) and, after a time limit, the greedy tree.
    ``trace``: a :class:`.trace.Trace` that records the tasks (a group a depth).
    ``checkpoint`` (:class:`cbsolve.search.checkpoint.Checkpoint`, whole game): the decided
    tasks recorded there, those it holds not sent again; written on every stop."""
    import time

    started = time.perf_counter()
    deadline = deadline or UNLIMITED
    steps = None if checkpoint is None else checkpoint.dask_worst_steps()
    result = None
    try:
        result = _solve(client, variant, guesses, max_depth, certificate, workers, root,
                        deadline, started, trace, steps)
        return result
    except (_Stopped, KeyboardInterrupt) as stop:
        result = getattr(stop, "result", None)
        if result is None:      # stopped before the interval existed
            raise
        result = _stopped(variant, result, guesses, started)
        return result
    finally:
        if checkpoint is not None:
            checkpoint.close() if result is None else checkpoint.report(result)


def _stopped(variant, result, guesses, started):
    import time

    result.stop = stopped_by()
    result.interrupted = result.stop is StopReason.INTERRUPTED
    native, greedy = result.native, result.greedy
    # Ctrl-C leaves at once, without a tree; so does a time limit once a better strategy
    # than the greedy one is proved (its tree was not built)
    if not result.interrupted and _depth(greedy) <= result.upper:
        result.tree = _tree_doc(variant, native, greedy, guesses)
        _fill_stats(result, result.tree)
    result.status = Status.FEASIBLE
    what = "interrupted" if result.interrupted else "time limit"
    result.notes.append(f"{what}: worst case in [{result.lower}, {result.upper}]"
                        + (" (no tree)" if result.tree is None else ""))
    result.seconds, result.nodes = time.perf_counter() - started, int(native.core.nodes())
    del result.native, result.greedy
    return result


def _solve(client, variant, guesses, max_depth, certificate, workers, root, deadline, started,
           trace=None, steps=None):
    import time

    threads = resolve(workers)
    native = _Native(variant, guesses, {}, threads, root=root, deadline=deadline)
    members, history = native.all, native.empty
    n = len(members)
    result = SearchResult(objective="worst", status=Status.UNKNOWN, proved=False, secrets=n,
                          guesses=guesses, max_depth=max_depth)
    lower = worst_lower(n, native.n_responses)
    if native.setup_stopped is not None:   # the counting bound, as a stop right after it
        return native.setup_stopped.report(result, lower, started)
    greedy = native.run("greedy", 0) if steps is None else \
        steps.greedy(lambda: native.run("greedy", 0))
    upper = _depth(greedy)
    result.lower, result.upper = lower, upper
    order = _first_guesses(variant, native, members, history, guesses)
    tasks, optimum, winner = 0, None, None
    try:
        for d in range(lower, upper):
            if max_depth is not None and d > max_depth:
                break
            winner, sent = _decide(client, variant, guesses, members, history, order, d,
                                   deadline, trace, steps)
            tasks += sent
            if winner is not None:
                optimum = d
                break
            result.lower = d + 1
    except (_Stopped, KeyboardInterrupt) as stop:
        if optimum is None and result.lower < upper:   # else the answer is proved: finish
            result.native, result.greedy = native, greedy
            stop.result = result
            raise
    if optimum is None and (max_depth is None or upper <= max_depth):
        optimum = upper
    try:
        _finish(client, variant, guesses, certificate, max_depth, native, greedy, winner,
                optimum, result, deadline, trace)
    except (_Stopped, KeyboardInterrupt) as stop:
        # the value is decided; a stop while the tree or certificate is built reports it
        # with neither (nothing unverifiable is printed)
        if optimum is not None:
            result.lower = result.upper = optimum
        result.native, result.greedy = native, greedy
        stop.result = result
        raise
    result.notes.append(f"distributed: {tasks} first-guess decisions on the cluster; the "
                        "certificate written here")
    result.seconds, result.nodes = time.perf_counter() - started, int(native.core.nodes())
    return result


def _finish(client, variant, guesses, certificate, max_depth, native, greedy, winner, optimum,
            result, deadline, trace=None) -> None:
    """The decided answer's tree and certificate (``optimum`` None: none within max_depth),
    both within ``deadline`` (a tree cut short raises _Stopped: the caller reports the value)."""
    if optimum is None:   # no strategy within max_depth: certificate for max_depth
        result.notes.append(f"no strategy finds every secret within {max_depth} guesses")
        if certificate:
            result.certificate = _certificate(variant, native, max_depth, guesses, deadline,
                                              None)
            _note_missing_certificate(result)
        result.status, result.proved = Status.INFEASIBLE, True
        return
    if winner is None:
        doc = _tree_doc(variant, native, greedy, guesses)
    else:
        doc = _winning_tree(client, variant, native, guesses, winner, optimum, deadline, trace)
    if certificate and optimum > 1:
        result.certificate = _certificate(variant, native, optimum - 1, guesses, deadline, None)
        if result.certificate is not None:
            doc["certificate"] = result.certificate
        _note_missing_certificate(result)
    result.tree = doc
    _fill_stats(result, doc)
    result.lower = result.upper = optimum
    result.status, result.proved = Status.OPTIMAL, True


def _first_guesses(variant, native, members, history, guesses) -> list[int]:
    """One guess per orbit of the played guesses' stabiliser, useless guesses left out
    (one reply for the whole set and not a secret), smallest largest class first."""
    reps = [int(g) for g in native.core.representatives(history)]
    if guesses == "candidates":
        inside = set(int(m) for m in members)
        reps = [g for g in reps if g in inside]
    keyed = []
    for g in reps:
        replies = native.replies(g, members)
        counts = np.bincount(replies, minlength=variant.response_slots)
        won = counts[variant.win_response] > 0
        if np.count_nonzero(counts) == 1 and not won:
            continue
        counts[variant.win_response] = 0
        keyed.append((int(counts.max()), not won, g))
    return [g for *_, g in sorted(keyed)]


def _spec(variant, guesses, members, history, g, d, tree=False) -> dict:
    return {"variant": variant.to_dict(), "guesses": guesses, "members": members.tolist(),
            "history": [int(h) for h in history], "guess": int(g), "left": d, "tree": tree}


def _submit(client, spec: dict, priority: int, size: int, trace):
    """A task keyed by its inputs and its number in the process: the scheduler re-runs a lost
    worker's task as the same computation (the task is pure: a worker's search is a cache),
    and a task cancelled and sent again gets a fresh key."""
    from dask.base import tokenize

    key = f"cbsolve-decide_guess-{tokenize(spec)}-{next(_SENT)}"
    if trace is not None:
        trace.submitted(key, "decide_guess", size)
    return client.submit(decide_guess, spec, key=key, priority=priority)


def _decide(client, variant, guesses, members, history, order, d, deadline,
            trace=None, steps=None) -> tuple[int | None, int]:
    """(a first guess with which ``d`` guesses suffice, or None: proved, none does; the tasks
    sent). With ``steps`` (a checkpoint's), only the guesses it has not decided are sent."""
    if steps is not None:
        if steps.depth_refuted(d) or steps.winner(d) is not None:
            return steps.winner(d), 0
        order = steps.open_guesses(d, order)
    if trace is not None:
        trace.group(f"depth {d}")
    futures = {_submit(client, _spec(variant, guesses, members, history, g, d),
                       len(order) - i, len(members), trace): g
               for i, g in enumerate(order)}
    pending, winner = list(futures), None
    try:
        while pending and winner is None:
            for fut in wait_any(pending, deadline):
                pending.remove(fut)
                if trace is not None:
                    trace.finished(fut.key, fut.result())
                if fut.result()["ok"]:
                    winner = futures[fut]
                    break
                if steps is not None:
                    steps.guess_refuted(d, futures[fut])
    finally:
        for fut in futures:
            fut.cancel()
    if steps is not None:
        steps.decided(d, winner)
    return winner, len(futures)


def _note_missing_certificate(result) -> None:
    if result.certificate is None:
        result.notes.append("time limit reached while writing the lower-bound certificate")


def _winning_tree(client, variant, native, guesses, g, d, deadline, trace=None) -> dict:
    """The tree of winning guess ``g``, built by a task; waited for in short steps (a blocked
    ``result()`` held Ctrl-C for seconds), cancelled at the deadline or on a stop."""
    if trace is not None:
        trace.group("tree")
    fut = _submit(client, _spec(variant, guesses, native.all, native.empty, g, d, tree=True),
                  0, len(native.all), trace)
    try:
        wait_any([fut], deadline)
    except BaseException:
        fut.cancel()
        raise
    res = fut.result()
    if trace is not None:
        trace.finished(fut.key, res)
    hist: dict[int, int] = {}
    if np.any(native.replies(g, native.all) == variant.win_response):
        hist[1] = 1
    children = {}
    for reply, (node, h) in sorted(res["trees"].items()):
        children[reply] = node
        for k, v in h.items():
            hist[int(k) + 1] = hist.get(int(k) + 1, 0) + v
    root = {"guess": native.space.format(native.codes[g]), "children": children}
    return make_tree(variant, "optimal-worst", guesses, root, dict(sorted(hist.items())),
                     objective="worst", proved=True)

