"""``--backend auto``: which engine answers a query, why, and what the probe already found.

The decision is made once, by :func:`plan_for`, and travels as a :class:`Plan` value: the
engine's name, the reason (reported under ``auto`` in the JSON), the native filter's estimated
cost, and the depth-first search's head start when a probe of it answered, which the native
backend resumes from instead of starting over. The thresholds, each with the measurement that
set it, are in native.py (the filter's cost model), dfs.py (what counts as "going") and
cbsolve/runtime/time_policy.py (the probes' and the filter's times).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..runtime import time_policy
from ..runtime.deadline import UNLIMITED, Deadline
from ..extras import installed, missing_message
from ..game.feedback import FeedbackLog
from .native import AUTO_NATIVE_LIMIT, native_estimate
from .query import Query

if TYPE_CHECKING:  # the search (and NumPy) is imported when a probe runs: a filter needs neither
    from .dfs_answer import HeadStart

#: The package each solver backend imports (an extra, cbsolve/extras.py), and its name.
SOLVER_PACKAGE = {"sat": ("pysat", "the SAT backend"), "cpsat": ("ortools", "the CP-SAT backend")}


@dataclass(frozen=True)
class Probe:
    """A probe's outcome: does the search answer the query (``ok``), why, and what it found."""

    ok: bool
    why: str
    head_start: HeadStart | None = None


@dataclass(frozen=True)
class Plan:
    """Which backend answers, why, the filter's estimated seconds, and the probe's head start."""

    backend: str
    reason: str
    native_estimate: float
    head_start: HeadStart | None = None

    def to_json(self) -> dict:
        return {"backend": self.backend, "native_estimate_seconds": round(self.native_estimate, 6),
                "reason": self.reason}


def probe_search(log: FeedbackLog, query: Query, seconds: float | None = None,
                 lies: int = 0, race_guided: bool = True,
                 deadline: Deadline | None = None, list_going: int | None = None) -> Probe:
    """Does the depth-first search answer ``query`` quickly? What it found comes with the
    answer (:class:`Probe`), so the answer does not redo it. ``race_guided``: find-one / unique
    probes on spaces of at most ``time_policy.FIND_PROBE_SMALL_SPACE`` codes race the lexicographic
    search against the guided one (:func:`dfs.race_first`; Mastermind 16x6 with 12 clues, 100
    logs, kernels alone: median / p95 8.6 / 36 ms lexicographic, 3.7 / 31 ms guided, 3.4 / 16
    ms the first of the two); False: the lexicographic search alone (benchmark baseline).
    ``seconds``: the probe's time (default ``time_policy.PROBE_SECONDS``), at most
    ``time_policy.PROBE_FRACTION`` of what is left of ``deadline`` (the query's; default: no
    limit); ``list_going``: the rate from which an unfinished listing goes on in the search
    (default :data:`dfs.PROBE_LIST_GOING`)."""
    from . import dfs
    from .dfs import COUNT, LIST
    from .dfs_answer import HeadStart, codes_wanted

    seconds = time_policy.PROBE_SECONDS if seconds is None else seconds
    probe = (deadline or UNLIMITED).share(time_policy.PROBE_FRACTION, cap=seconds,
                                          untimed=seconds)
    if query.count or query.sample:
        cap = query.count_cap + 1 if query.count and query.count_cap else None
        c = dfs.run(log, COUNT, cap, seconds=probe.left(), lies=lies)
        if c.complete:
            return Probe(True, f"depth-first search counted {c.count} secrets in {c.seconds:.3g} s",
                         HeadStart(COUNT, None, lies, c))
        if c.count >= dfs.PROBE_COUNT_GOING:
            # Counting on gives an exact count (and exact uniform samples) where SAT
            # enumeration and Ganak stop; samples fall back to CMSGen as the SAT path does.
            return Probe(True, f"depth-first search counted {c.count}+ secrets in {c.seconds:.3g} s "
                               "(too many for enumeration by SAT or for Ganak)")
        return Probe(False, f"depth-first search counted only {c.count} secrets in {c.seconds:.3g} s")
    want = codes_wanted(query)
    if want == 1 and not lies and race_guided and log.space.size <= time_policy.FIND_PROBE_SMALL_SPACE:
        c = dfs.race_first(log, want, probe)
    else:
        c = dfs.run(log, LIST, want, seconds=probe.left(), lies=lies)
    n = c.codes.shape[0]
    if c.answered:
        how = " (guided by belief propagation, raced)" if c.guided else ""
        return Probe(True, f"depth-first search{how} listed {n} secrets in {c.seconds:.3g} s",
                     HeadStart(LIST, want, lies, c))
    going = dfs.PROBE_LIST_GOING if list_going is None else list_going
    if n >= going * c.seconds and n > 1:     # the answer resumes from its cursor
        return Probe(True, f"depth-first search listed {n} secrets in {c.seconds:.3g} s and goes on "
                           f"(at least {going} secrets/s)", HeadStart(LIST, want, lies, c))
    return Probe(False, f"depth-first search listed only {n} secrets in {c.seconds:.3g} s")


def plan_for(log: FeedbackLog, query: Query | None = None, probe: bool = True,
             lies: int = 0, race_guided: bool = True, deadline: Deadline | None = None,
             probe_seconds: float | None = None, list_going: int | None = None) -> Plan:
    """``auto``: brute force wins whenever the space can be listed within the budget. Beyond
    it, for enumeration-heavy queries (lists, counts, samples), the native depth-first search
    (consistency/dfs.py) when a short probe of it answers the query (or, for a count, is
    already past what SAT enumeration and Ganak can count; measured 10-1000x faster than
    PySAT listing where it works, docs/benchmarks.md, "Enumeration and exact counts beyond the
    filter"); else PySAT for counts, samples and unbounded lists, CP-SAT (raced against local
    search) for find-one / unique / none and bounded lists. Find-one gets a shorter probe.
    ``probe=False`` skips the probe; ``lies``: the query tolerates that many wrong replies
    (``--max-lies``); ``race_guided``, ``deadline``, ``list_going``: see :func:`probe_search`;
    ``probe_seconds``: every probe's time (None: the time policy's for the query)."""
    est = native_estimate(log)
    if log.space.size <= AUTO_NATIVE_LIMIT and est <= time_policy.FILTER_SECONDS:
        return Plan("native", f"{log.space.size} codes: filtering all is estimated at {est:.3g} s "
                              f"<= {time_policy.FILTER_SECONDS:g} s", est)
    query = query or Query()
    many = query.count or bool(query.sample) or query.limit is None or query.limit > 2
    too_many = f"{log.space.size} codes: too many to filter within {time_policy.FILTER_SECONDS:g} s"
    if probe:
        from . import dfs

        # Find-one / unique too: the search answers distinct and short-code logs in
        # milliseconds where CP-SAT's tail is 10x its median (docs/benchmarks.md, "Find one and
        # `determined`").
        seconds = probe_seconds if probe_seconds is not None else (
            time_policy.PROBE_SECONDS if many else dfs.find_probe_seconds(log))
        found = probe_search(log, query, seconds, lies, race_guided, deadline, list_going)
        if found.ok:
            return Plan("native", f"{too_many}; native depth-first search: {found.why}", est,
                        found.head_start)
        too_many += f"; {found.why}"
    # A bounded list goes to CP-SAT's block enumeration raced with local search: measured
    # (docs/benchmarks.md, "`auto`: cost model and probes") 10-100x faster than PySAT on long
    # codes and never far behind; PySAT keeps counts, samples and unbounded lists.
    unbounded = query.count or bool(query.sample) or query.limit is None
    name = "sat" if unbounded else "cpsat"
    why = "enumeration engine for counts, samples and whole lists" if unbounded else \
        "find-one / unique / bounded lists (CP-SAT raced with local search)"
    package, feature = SOLVER_PACKAGE[name]
    if not installed(package):          # the solvers are extras: the search goes on instead
        return Plan("native", f"{too_many}; native depth-first search for the rest of the time "
                              f"({missing_message(package, feature)})", est)
    return Plan(name, f"{too_many}; {name}: {why}", est)


def auto_choice(log: FeedbackLog, query: Query | None = None, probe: bool = True,
                lies: int = 0, deadline: Deadline | None = None,
                probe_seconds: float | None = None) -> dict:
    """:func:`plan_for` as JSON: {"backend", "reason", "native_estimate_seconds"}."""
    return plan_for(log, query, probe, lies, deadline=deadline,
                    probe_seconds=probe_seconds).to_json()
