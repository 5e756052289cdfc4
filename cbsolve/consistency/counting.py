"""Model counting and sampling of the log's CNF where enumeration is hopeless.

Place in the data flow: sat.py (CNF with one model per secret) -> (this module) -> answer.py,
dfs_answer.py.

* Exact counts: Ganak (Sharma, Roy, Soos & Meel 2019; ``pyganak``), projected on the ``x``
  variables for safety although every auxiliary variable is already a function of them.
* Approximate counts with (epsilon, delta) guarantees: ApproxMC (Chakraborty, Meel & Vardi
  2013/2016; ``pyapproxmc``): ``P[count/(1+eps) <= estimate <= count*(1+eps)] >= 1 - delta``.
* Near-uniform samples: CMSGen (Golia, Soos, Chakraborty & Meel 2021; ``pycmsgen``), a
  heuristic sampler with no formal uniformity guarantee, good in published tests.

* Exact counts by the native depth-first search (:mod:`dfs`), tried before Ganak by
  :func:`exact_count_log` (the native backend's counter beyond the filter): it counts with a
  popcount at the last position, ~10^7 secrets/s, where Ganak took 2-25 s for a few thousand
  and ran past 60 s on 10^5-10^10 (docs/benchmarks.md, "Enumeration and exact counts beyond the filter").

Each library is optional: when it is missing the caller gets ``None`` and a note saying so.
Ganak and ApproxMC have no time limit and no stop hook of their own, so they run in a child
interpreter that is killed when the deadline expires or Ctrl-C's stop request comes (looked at
every ``POLL_SECONDS``), and the CNF they count is built under the same deadline.
"""
from __future__ import annotations

import importlib.util

from ..runtime import time_policy
from ..runtime.deadline import POLL_SECONDS, Deadline, stopped_by
from .clues import clues

EPSILON, DELTA = 0.8, 0.2


def available(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def cnf_of(log, lies: int = 0, deadline: Deadline | None = None):
    """(clauses, x variables, decode) of the log with every entry asserted, or at most
    ``lies`` entries violated; :class:`~.sat.BuildStopped` when ``deadline`` expires first."""
    from .sat import SatSession

    # counters: see SatOptions.symbol_sum
    with SatSession(log.variant, redundant=False, deadline=deadline) as session:
        sels = [session.add_clue(c) for c in clues(log)]
        if lies:
            act = session.new_var("lies")
            session.lies_at_most(lies, act)
            session.clause([act])
        else:
            for s in sels:
                session.clause([s])
        clauses = list(session.clauses)
        xs = session.x_vars
        x = session.x

    def decode(model) -> tuple[int, ...]:
        true = set(v for v in model if v > 0)
        return tuple(next(s for s, v in enumerate(row) if v in true) for row in x)

    return clauses, xs, decode


#: Child-process programs: read {"clauses", "xs", ...} as JSON on stdin, print the count.
_GANAK = """
import json, sys, pyganak
job = json.load(sys.stdin)
c = pyganak.Counter()
c.new_vars(job["nvars"])
c.add_clauses(job["clauses"])
c.set_sampling_set(job["xs"])
print(int(c.count()))
"""
_APPROXMC = """
import json, sys, pyapproxmc
job = json.load(sys.stdin)
c = pyapproxmc.Counter(seed=job["seed"], epsilon=job["epsilon"], delta=job["delta"])
c.add_clauses(job["clauses"])
cells, hashes = c.count(job["xs"])
print(int(cells) * 2 ** int(hashes))
"""


def _run(program: str, job: dict, deadline: Deadline) -> int | None:
    """Run ``program`` in a fresh interpreter; its integer, or None when it failed or
    ``deadline`` expired first (a time limit or a stop request: the child is killed then).

    A plain subprocess, not multiprocessing: nothing of the parent (solver threads, the CLI's
    ``__main__``) is re-imported or forked."""
    import json
    import subprocess
    import sys

    if deadline.expired():
        return None
    job = {"nvars": max([abs(v) for cl in job["clauses"] for v in cl] + job["xs"]), **job}
    given = json.dumps(job)
    with subprocess.Popen([sys.executable, "-c", program], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as child:
        while True:
            try:
                # Retrying after a timeout loses no output; the input went in the first call.
                out, _ = child.communicate(given, timeout=POLL_SECONDS)
                break
            except subprocess.TimeoutExpired:
                given = None
                if deadline.expired():
                    child.kill()
                    child.communicate()
                    return None
    lines = out.strip().splitlines()
    if child.returncode != 0 or not lines:
        return None
    return int(lines[-1])


def exact_count(clauses, xs, deadline: Deadline) -> int | None:
    """Exact number of assignments of ``xs`` extendable to a model (Ganak); None if missing
    or out of time."""
    if not available("pyganak"):
        return None
    return _run(_GANAK, {"clauses": clauses, "xs": xs}, deadline)


def exact_count_log(log, seconds: float | None = None, lies: int = 0, *,
                    deadline: Deadline | None = None) -> tuple[int, bool, str]:
    """(count, exact, method) before ``deadline`` (else within ``seconds``): the native
    depth-first search first (no lies;
    ``time_policy.SEARCH_COUNT_SHARE`` of the time, all of it when Ganak is missing), then Ganak
    on the CNF for the rest, unless the search had already counted more than Ganak finishes on:
    then the search goes on from where it stopped for the rest of the time. When not exact,
    ``count`` is a lower bound (what the search counted)."""
    from . import dfs

    deadline = Deadline.given(deadline, seconds)
    have_ganak = available("pyganak")
    n = 0
    if not lies:
        c = dfs.count(log, deadline.part(time_policy.SEARCH_COUNT_SHARE if have_ganak else 1.0).left())
        if c.complete:
            return c.count, True, "native depth-first search"
        n = c.count
        if n >= dfs.PROBE_COUNT_GOING:
            more = dfs.run(log, dfs.COUNT, start=c.cursor, seconds=deadline.left())
            if more.complete:
                return n + more.count, True, "native depth-first search"
            return n + more.count, False, f"native depth-first search (stopped {stopped_by().at()})"
    if not have_ganak:
        return n, False, "native depth-first search (stopped; pip install 'cbsolve[counting]' for Ganak)"
    exact = ganak_count(log, lies, deadline.share(1.0, untimed=time_policy.UNTIMED_COUNT_SECONDS))
    if exact is not None:
        return exact, True, "Ganak model counter (projected on x)"
    return n, False, f"depth-first search and Ganak (both stopped {stopped_by().at()})"


def ganak_count(log, lies: int, deadline: Deadline) -> int | None:
    """Ganak's exact count of the log's secrets (at most ``lies`` entries broken), the CNF
    built and counted before ``deadline``; None when missing, stopped or out of time."""
    from .sat import BuildStopped

    if not available("pyganak"):
        return None
    try:
        clauses, xs, _ = cnf_of(log, lies, deadline)
    except BuildStopped:
        return None
    return exact_count(clauses, xs, deadline)


def approx_count(clauses, xs, deadline: Deadline, epsilon: float = EPSILON,
                 delta: float = DELTA, seed: int = 1) -> int | None:
    """ApproxMC estimate (PAC: within factor 1+epsilon with probability >= 1-delta)."""
    if not available("pyapproxmc"):
        return None
    return _run(_APPROXMC, {"clauses": clauses, "xs": xs, "epsilon": epsilon, "delta": delta,
                           "seed": seed}, deadline)


def near_uniform(clauses, k: int, seed: int | None, seconds: float | None):
    """Up to ``k`` models drawn by CMSGen (with replacement); None if pycmsgen is missing."""
    if not available("pycmsgen"):
        return None
    import pycmsgen

    kwargs = {"seed": int(seed or 0)}
    if seconds is not None:
        kwargs["time_limit"] = max(seconds, 0.01)
    solver = pycmsgen.Solver(**kwargs)
    solver.add_clauses(clauses)
    models = []
    for _ in range(k):
        sat, _ = solver.solve()
        if not sat:
            break
        models.append(list(solver.get_model()))   # signed literals
    return models
