"""The expected-case Dask driver's tasks, as they run on a worker: the exact optimum of one
set (:func:`solve_class`) and one guess's expansion at a set (:func:`solve_guess`), each with
its account (thread CPU, process CPU, wall, worker).

Place in the data flow: :mod:`cbsolve.search.distributed.expected` (the driver) sends these
by reference; each worker thread keeps one search (reply matrix and transposition table) per
game across tasks (:func:`_search`).
"""
from __future__ import annotations

import json
import threading
import time

import numpy as np

from ...runtime.deadline import Deadline
from ...game.variant import Variant
from ..expected.kernel import INF_T
from ..position import expected_search, solve_set, subtree

#: On a worker thread: its search for the current game ((variant, cap, guesses), search). One
#: per thread, as a search builds trees in Python-side state (a threaded worker would race).
_WORKER = threading.local()


def _search(variant_dict: dict, max_depth, guesses: str):
    """This thread's search for the game (built once, its table reused across tasks)."""
    key = (json.dumps(variant_dict, sort_keys=True), max_depth, guesses)
    if getattr(_WORKER, "key", None) != key:
        _WORKER.key, _WORKER.search = None, None      # free the previous game's matrix first
        start = time.thread_time()
        _WORKER.search = expected_search(Variant.from_dict(variant_dict), max_depth, guesses)
        _WORKER.key = key
        _WORKER.setup = time.thread_time() - start    # the task that built it says so
    return _WORKER.search


def _setup_cpu() -> float:
    """The CPU this thread spent building its search in the current task (0: reused); read
    once a task."""
    setup, _WORKER.setup = getattr(_WORKER, "setup", 0.0), 0.0
    return setup


def _worker_name() -> str:
    """The Dask worker running this task (its address), for the per-worker CPU account."""
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):
        return "local"


class _TaskClock:
    """A task's account: ``cpu``, the CPU of the thread that runs it (the search runs in that
    thread: ``solve_set(interruptible=False)``), the work the task needed; ``setup``, the part
    of it that built the worker's search (its reply matrix: once a worker); ``process_cpu``, its
    worker process's meanwhile, adding the worker's own threads (event loop, heartbeats) and
    the other tasks of a worker of several threads; wall ``seconds``; the worker."""

    def __init__(self):    # the process's interval encloses the thread's
        self.wall, self.process = time.perf_counter(), time.process_time()
        self.thread = time.thread_time()

    def read(self) -> dict:
        cpu = time.thread_time() - self.thread
        return {"cpu": cpu, "setup": _setup_cpu(),
                "process_cpu": time.process_time() - self.process,
                "seconds": time.perf_counter() - self.wall, "worker": _worker_name()}


def solve_class(spec: dict) -> dict:
    """A Dask task: the exact optimum of one set within a budget, with its tree when exact.

    ``spec``: variant (dict), max_depth, guesses, members and history (code indices), depth
    (guesses left under the cap, 0: none), budget [total, worst], seconds (time left or None).
    """
    clock = _TaskClock()
    search = _search(spec["variant"], spec["max_depth"], spec["guesses"])
    solver = search.solver
    nodes = solver.nodes    # cumulative over this thread's tasks
    members = np.asarray(spec["members"], dtype=np.int32)
    history, depth = list(spec["history"]), int(spec["depth"])
    budget = tuple(spec["budget"])
    greedy = solver.greedy_value(members, depth, search.played_mask(history))
    if greedy is not None and (greedy[0], greedy[1] + 1) < budget:
        budget = (greedy[0], greedy[1] + 1)   # the greedy strategy bounds the optimum
    if spec.get("seconds"):     # a task's edge: the time left when the driver sent it
        search.set_deadline(Deadline.from_limit(spec["seconds"]))
    try:
        out = solve_set(search, members, history, budget, depth=depth, interruptible=False)
    finally:
        search.set_deadline(None)
    if out is None:
        return {**clock.read(), "nodes": int(solver.nodes - nodes), "stopped": True}
    total, worst, exact = out
    res = {"stopped": False, "total": int(min(total, INF_T)), "worst": int(worst),
           "exact": bool(exact)}
    if exact:
        tree, hist = subtree(search, members, history, depth)
        res.update(tree=tree, histogram=hist)
    return {**res, **clock.read(), "nodes": int(solver.nodes - nodes)}


def solve_guess(spec: dict) -> dict:
    """A Dask task: guess ``spec["guess"]`` at a set, its classes solved here one by one within
    the budget (the expansion step of the core's best-first search); exact value and subtree
    when it beats the budget, else a proved lower bound >= the budget."""
    clock = _TaskClock()
    search = _search(spec["variant"], spec["max_depth"], spec["guesses"])
    solver = search.solver
    nodes = solver.nodes
    g, depth, best = int(spec["guess"]), int(spec["depth"]), tuple(spec["budget"])
    members = np.asarray(spec["members"], dtype=np.int32)
    history = list(spec["history"])
    child = history + [g]
    cd = depth - 1 if search.max_depth else 0
    resp = search.replies(g, members)
    win = search.variant.win_response
    replies = [int(r) for r in np.unique(resp) if r != win]
    subs = sorted(((r, members[resp == r]) for r in replies), key=lambda x: len(x[1]))
    bounds = [solver.lower_bound(sub, cd, search.played_mask(child), search.native_history(child))
              for _, sub in subs]
    if spec.get("seconds"):     # a task's edge: the time left when the driver sent it
        search.set_deadline(Deadline.from_limit(spec["seconds"]))
    done, wmax, rest = len(members), 1, sum(b[0] for b in bounds)
    out = None
    try:
        for (_, sub), bound in zip(subs, bounds, strict=True):
            rest -= bound[0]
            cb = (best[0] - done - rest, best[1] - 1)
            value = (bound[0], bound[1])
            if value < cb and not bound[2]:
                got = solve_set(search, sub, child, cb, depth=cd, interruptible=False)
                if got is None:
                    out = {"stopped": True}
                    break
                value = (got[0], got[1])
            if value >= cb:
                out = {"stopped": False, "exact": False, "total": int(done + value[0] + rest),
                       "worst": int(max(wmax, 1 + value[1]))}
                break
            done, wmax = done + value[0], max(wmax, 1 + value[1])
    finally:
        search.set_deadline(None)
    if out is None:
        children, hist = {}, {1: 1} if np.any(resp == win) else {}
        for r, sub in sorted(subs, key=lambda x: x[0]):
            tree, h = subtree(search, sub, child, cd)
            children[search.variant.format_response(r)] = tree
            for k, v in h.items():
                hist[k + 1] = hist.get(k + 1, 0) + v
        out = {"stopped": False, "exact": True, "total": int(done), "worst": int(wmax),
               "tree": {"guess": search.space.format(search.codes[g]), "children": children},
               "histogram": dict(sorted(hist.items()))}
    out.update(clock.read(), nodes=int(solver.nodes - nodes))
    return out
