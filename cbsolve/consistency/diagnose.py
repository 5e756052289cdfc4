"""Diagnosis of an inconsistent log: a minimal conflict and the fewest corrections.

Place in the data flow: consistency backends -> (this module) -> CLI (exit 1 with ``conflict``
and ``corrections``). Two questions, each answered natively (a mismatch matrix over the
enumerated space; beyond it, for ``native`` and ``auto``, the depth-first search first: the same
deletion with each test a search, and the corrections as the fewest lies L = 1, 2, ... it lets
through) or by solvers when those cannot answer in time:

* ``conflict``: a minimal set of entries that cannot all hold -- removing any one leaves a
  consistent set. Deletion-based minimisation (the linear variant of Junker's QuickXplain,
  2004) on a failed-assumption core from PySAT (Een & Sorensson 2003 assumptions), each test an
  incremental SAT call.
* ``corrections``: the fewest replies to change, and to what. A secret contradicting the
  fewest entries is a MaxSAT optimum (maximise the number of satisfied entries; CP-SAT with
  enforcement literals); changing each contradicted reply to that secret's true score makes
  the log consistent, and no smaller change can.

``--max-lies`` (the secrets that contradict at most L entries) is :mod:`lies`.
"""
from __future__ import annotations

import math

import numpy as np

from ..game import scoring
from ..runtime import time_policy
from ..runtime.deadline import UNLIMITED, Deadline, stop_requested
from ..game.feedback import FeedbackLog
from ..game.rule import score
from ..runtime.status import Status
from . import cpsat_stop, dfs, repairs
from .backends import get_backend
from .cpsat import selector_model
from .native import filterable
from .plan import plan_for
from .query import ConsistencyResult, Query
from .repairs import correction_item, reply_text  # noqa: F401 - reply_text: the faces' import
from .sat import BuildStopped, session_for


def _native_ok(log: FeedbackLog, backend: str) -> bool:
    if not filterable(log):        # the native backend searches such spaces: solvers diagnose
        return False
    if backend == "native":
        return True
    if backend == "auto":
        return plan_for(log).backend == "native"
    return False


def _mismatch_matrix(log: FeedbackLog) -> np.ndarray:
    """(entries, codes) bool: entry i contradicted by code j."""
    codes = log.space.codes
    matrix = scoring.score_matrix(log.variant, log.guesses_array(), codes)
    return matrix != np.asarray(log.responses(), dtype=matrix.dtype)[:, None]


# --- minimal conflict -----------------------------------------------------------------------
#: Beyond the filter, ``native`` and ``auto`` diagnose with the depth-first search first (an
#: inconsistent N=10 log of 26 letters: a minimal conflict in 3 ms, where the SAT deletion had
#: not finished in 15 s); its share of the time is ``time_policy.DIAGNOSE_SEARCH_SHARE``.
DFS_BACKENDS = ("native", "auto")


def _search_then_solver(log: FeedbackLog, backend: str, deadline: Deadline,
                        by_search, by_solver):
    """Beyond the filter: ``by_search`` (the depth-first search, for ``native`` and ``auto``)
    with its share of the time, then ``by_solver`` with the time left when it could not
    answer (returned None)."""
    if backend in DFS_BACKENDS:
        found = by_search(log, deadline.share(time_policy.DIAGNOSE_SEARCH_SHARE,
                                              untimed=time_policy.DIAGNOSE_SEARCH_UNTIMED_SECONDS))
        if found is not None:
            return found
    return by_solver(log, deadline)


def conflict_search(log: FeedbackLog, backend: str = "native", *,
                    deadline: Deadline | None = None) -> tuple[list[int] | None, bool]:
    """(conflict, proved minimal). A time-out returns the smallest conflict found so far.
    ``deadline``: the caller's budget (None: no limit)."""
    if len(log) == 0:
        return None, False
    distinct = _distinct_entries(log)
    if len(distinct) < len(log):      # a minimal conflict never holds two copies of a reply
        conflict, minimal = conflict_search(log.subset(distinct), backend, deadline=deadline)
        return (None if conflict is None else [distinct[k - 1] for k in conflict]), minimal
    if _native_ok(log, backend):
        return _conflict_native(_mismatch_matrix(log)), True
    return _search_then_solver(log, backend, deadline or UNLIMITED, _conflict_dfs,
                               _conflict_solvers)


def _distinct_entries(log: FeedbackLog) -> list[int]:
    """1-based numbers of the first copy of each distinct (guess, reply) of the log."""
    first: dict[tuple, int] = {}
    for k, e in enumerate(log, 1):
        first.setdefault((e.guess, e.bulls, e.cows), k)
    return sorted(first.values())


def _deletion(numbers: list[int], consistent,
              deadline: Deadline | None = None) -> tuple[list[int], bool]:
    """Deletion-based minimisation of a set of entries proved inconsistent: drop each entry
    whose removal leaves the rest inconsistent. ``consistent`` answers True, False or None
    (unknown). Returns (kept, proved minimal); the kept set is always proved inconsistent.
    Once ``deadline`` has expired no test is made (each would build a subset of the entries
    only to answer None: quadratic in a long log).

    An entry whose test was unknown stays and is tested again once the pass has shrunk the
    set: removing a needed entry from a large set leaves a hard find-one (N=40, 32 clues: the
    hard band), the same test on a small set is easy."""
    keep, unsure, attempt = list(numbers), list(numbers), 0
    while unsure:
        retry, before = [], len(keep)
        for i in unsure:
            if deadline is not None and deadline.expired():
                return keep, False
            trial = [k for k in keep if k != i]
            answer = consistent(trial, attempt)
            if answer is None:
                retry.append(i)
            elif not answer:
                keep = trial
        if len(retry) == len(unsure) and len(keep) == before and attempt >= MAX_ATTEMPTS:
            break                           # no progress: out of time, or hard either way
        unsure, attempt = retry, attempt + 1
    return keep, not unsure


#: Passes over the entries whose test was unknown (each pass doubles a test's time cap).
MAX_ATTEMPTS = 4


def _conflict_native(bad: np.ndarray) -> list[int] | None:
    def consistent(numbers, attempt: int = 0) -> bool:
        rows = [k - 1 for k in numbers]
        return bool((~bad[rows].any(axis=0)).any()) if rows else True

    numbers = list(range(1, bad.shape[0] + 1))
    return None if consistent(numbers) else _deletion(numbers, consistent)[0]


# A deletion test alternates two engines with budgets doubling from
# time_policy.TEST_FIRST_SECONDS: the first (the search, or CP-SAT) is fast on most tests, but a
# small subset of clues (two replies to one guess and little else) leaves the search an
# exhaustive proof over a huge space, which SAT finds in ms (Mastermind 16x6: 10 s of search for
# one test, 5 ms for SAT; found by a cross-check), and CP-SAT's LP proves bulls that add up to
# more than N where SAT cannot.


def _search_test(log: FeedbackLog, numbers, deadline: Deadline) -> bool | None:
    c = dfs.first(log.subset(numbers), deadline)
    return bool(c.codes.shape[0]) if c.codes.shape[0] or c.complete else None


def _cpsat_test(log: FeedbackLog, numbers, deadline: Deadline) -> bool | None:
    r = get_backend("cpsat").solve(log.subset(numbers), Query(limit=1, determined=False),
                                   deadline=deadline)
    return r.consistent


def _conflict_by_tests(log: FeedbackLog, deadline: Deadline, first_engine,
                       numbers: list[int] | None = None,
                       first_seconds: float | None = None) -> tuple[list[int] | None, bool] | None:
    """Deletion from ``numbers`` (default all entries), each test decided by ``first_engine``
    (``_search_test`` or ``_cpsat_test``) or, where it is slow, the SAT engine, alternating with
    doubling budgets from ``first_seconds`` (default ``time_policy.TEST_FIRST_SECONDS``); all
    are exact. None when the whole set could not be decided."""
    import contextlib

    first_seconds = time_policy.TEST_FIRST_SECONDS if first_seconds is None else first_seconds

    with contextlib.ExitStack() as stack:
        session = None

        def consistent(subset, attempt: int | None = 0) -> bool | None:
            """Decided within a cap that doubles with each pass of the deletion: a test left
            unknown waits for the next pass, on a smaller set, instead of taking all the time
            (``attempt`` None: no cap but the deadline)."""
            nonlocal session
            budget = first_seconds
            left = deadline.left()
            cap = math.inf if attempt is None else 2 ** attempt * (
                time_policy.TEST_UNTIMED_CAP if left is None
                else time_policy.deletion_test_cap(left, len(subset)))
            while not deadline.expired() and budget <= max(cap, first_seconds):
                answer = first_engine(log, subset, deadline.capped(budget))
                if answer is not None:
                    return answer
                if session is None:
                    try:
                        session = stack.enter_context(session_for(log, deadline=deadline))
                    except BuildStopped:        # the deadline came while it was built
                        return None
                answer = session.solve([session.selectors[k - 1] for k in subset],
                                       deadline.capped(budget))
                if answer is not None:
                    return answer
                budget *= 2
            return None

        numbers = numbers or list(range(1, len(log) + 1))
        answer = consistent(numbers, None)          # the whole set: all the time it needs
        if answer is None:
            return None
        if answer:
            return None, False
        return _deletion(numbers, consistent, deadline)


def _conflict_dfs(log: FeedbackLog, deadline: Deadline) -> tuple[list[int] | None, bool] | None:
    """The filter's deletion with each test decided by the depth-first search (or SAT)."""
    return _conflict_by_tests(log, deadline, _search_test)


def _conflict_solvers(log: FeedbackLog, deadline: Deadline) -> tuple[list[int] | None, bool]:
    """PySAT's core (``time_policy.SAT_CORE_SHARE`` of the time) and deletion; where it could
    not finish, the deletion by CP-SAT tests (its LP proves what CDCL cannot: a black-peg or
    N=40 log whose bulls add up to more than N) from the smallest set proved so far."""
    try:
        session = session_for(log, deadline=deadline)
    except BuildStopped:                # the deadline came while it was built: nothing proved
        return None, False
    with session as s:
        conflict, minimal = session_conflict(s, deadline.share(
            time_policy.SAT_CORE_SHARE, untimed=time_policy.SAT_CORE_UNTIMED_SECONDS))
    if minimal:
        return conflict, True
    found = _conflict_by_tests(log, deadline, _cpsat_test, conflict,
                               time_policy.CPSAT_TEST_FIRST_SECONDS)
    if found is None:
        return conflict, False
    return found


def session_conflict(s, deadline: Deadline) -> tuple[list[int] | None, bool]:
    """Minimal conflict among a :class:`~.sat.SatSession`'s entries: the failed-assumption core,
    then deletion-based minimisation, shrinking further by each new core."""
    number = {sel: i + 1 for i, sel in enumerate(s.selectors)}
    answer = s.solve(s.selectors, deadline)
    if answer is None or answer:
        return None, False
    core = sorted(s.solver.get_core(), key=number.get)
    i = 0
    while i < len(core):
        trial = core[:i] + core[i + 1:]
        answer = s.solve(trial, deadline)
        if answer is None:
            return [number[c] for c in core], False
        if answer:
            i += 1                          # needed: keep it
        else:                               # not needed; the new core may drop even more
            small = set(s.solver.get_core())
            core = [c for c in trial if c in small]
    return [number[c] for c in core], True


# --- corrections ----------------------------------------------------------------------------
def corrections_for(log: FeedbackLog, secret) -> list[dict]:
    """The replies that ``secret`` contradicts, each with the reply that would fit: one fix
    (``option`` 1) changing ``replies`` replies at once."""
    wrong = []
    for i, e in enumerate(log, 1):
        b, c = score(log.variant, secret, e.guess)
        if (b, c) != (e.bulls, e.cows):
            wrong.append((i, b, c))
    out = []
    for i, b, c in wrong:
        item = correction_item(log, i, b, c, [w for w in wrong if w[0] != i])
        item.update(option=1, replies=len(wrong), secrets=None)
        out.append(item)
    return out


def _likeliest_fix(log: FeedbackLog, wrong: np.ndarray) -> int:
    """The code (index) whose corrections are likeliest what the player meant: the fewest
    replies changed; among those, a code that is not a guess played before the last one (it
    would turn that guess's reply into a win, though the game went on), then the newest replies
    changed (a mistyped score is usually the one just typed), then the first code in alphabet
    order."""
    lies = wrong.sum(axis=0)
    best = np.flatnonzero(lies == lies.min())
    played_on = [log.space.index_of(e.guess) for e in list(log)[:-1]]
    unplayed = best[~np.isin(best, played_on)]
    if unplayed.size:
        best = unplayed
    for k in range(len(log) - 1, -1, -1):      # newest first: keep the codes that change it
        changes = wrong[k, best]
        if changes.any() and not changes.all():
            best = best[changes]
    return int(best[0])


def corrections(log: FeedbackLog, backend: str = "native", *, deadline: Deadline | None = None
                ) -> tuple[list[dict] | None, bool, tuple[int, ...] | None]:
    """(fewest corrections, proved fewest, witness secret). None when nothing was found.
    ``deadline``: the caller's budget (None: no limit)."""
    if len(log) == 0:
        return [], True, None
    if _native_ok(log, backend):
        j = _likeliest_fix(log, _mismatch_matrix(log))
        secret = tuple(int(v) for v in log.space.codes[j])
        return corrections_for(log, secret), True, secret
    return _search_then_solver(log, backend, deadline or UNLIMITED, _corrections_dfs,
                               _corrections_cpsat)


def _corrections_dfs(log: FeedbackLog, deadline: Deadline):
    """The depth-first search with L = 1, 2, ... lies allowed: the first L that lets a code
    through is the fewest replies to change, since L - 1 was searched exhaustively. None when
    a search ran out of time."""
    for lies in range(1, len(log) + 1):
        c = dfs.run(log, dfs.LIST, 1, seconds=deadline.left(), lies=lies)
        if c.codes.shape[0]:
            dfs.recheck(log, c.codes, lies)
            secret = tuple(int(v) for v in c.codes[0])
            return corrections_for(log, secret), True, secret
        if not c.complete:
            return None
    return None


def _corrections_cpsat(log: FeedbackLog, deadline: Deadline):
    cm, sels = selector_model(log)
    cm.model.Maximize(sum(sels))
    solver = cm.solver(deadline.left(), workers=2)
    status = cpsat_stop.solve(solver, cm.model)
    cp = cm.cp
    if status not in (cp.OPTIMAL, cp.FEASIBLE):
        return None, False, None
    secret = cm.decode(solver)
    return corrections_for(log, secret), status == cp.OPTIMAL, secret


def _counting_engine(backend: str) -> repairs.CountingEngine:
    """How :mod:`repairs` lists, finds and counts beyond the filter: the depth-first search
    (its counting mode) for ``native`` and ``auto``, else the named backend's own answers."""
    if backend in DFS_BACKENDS:
        def list_codes(log: FeedbackLog, limit: int, deadline: Deadline):
            c = dfs.list_codes(log, limit + 1, seconds=deadline.left())
            return c.codes[:limit], c.complete and c.codes.shape[0] <= limit

        def first(log: FeedbackLog, deadline: Deadline):
            c = dfs.first(log, deadline)
            return (tuple(int(x) for x in c.codes[0]) if c.codes.shape[0] else None), c.complete

        def count(log: FeedbackLog, deadline: Deadline):
            c = dfs.count(log, seconds=deadline.left())
            return c.count, c.complete

        return repairs.CountingEngine(list_codes, first, count)

    def solved(log: FeedbackLog, query: Query, deadline: Deadline):
        return get_backend(backend).solve(log, query, deadline=deadline)

    def list_solved(log: FeedbackLog, limit: int, deadline: Deadline):
        r = solved(log, Query(limit=limit), deadline)
        codes = np.array([log.space.parse(x) for x in r.secrets], dtype=np.uint8)
        return codes.reshape(-1, log.variant.length), r.status == Status.OPTIMAL and not r.truncated

    def first_solved(log: FeedbackLog, deadline: Deadline):
        r = solved(log, Query(limit=1, determined=False), deadline)
        return (log.space.parse(r.secrets[0]) if r.secrets else None), r.consistent is not None

    def count_solved(log: FeedbackLog, deadline: Deadline):
        r = solved(log, Query(count=True, limit=0), deadline)
        return r.count or 0, r.exact

    return repairs.CountingEngine(list_solved, first_solved, count_solved, kind="solver")


def single_repairs(log: FeedbackLog, conflict: list[int] | None, backend: str,
                   deadline: Deadline, confirmed=()) -> tuple[list, list[str]]:
    """Every reply that alone could be wrong (:mod:`repairs`) with each score that fits it and
    its secret count: exact over the filter; beyond it, for each entry of the conflict found,
    counted within ``deadline`` (exact, else "at least", and notes on what was left undecided)."""
    if _native_ok(log, backend):
        return repairs.single_repairs_enumerated(log, confirmed), []
    if not conflict:
        return [], []
    return repairs.single_repairs_counted(log, conflict, deadline, _counting_engine(backend),
                                          confirmed, extra=time_policy.REPAIRS_COUNT_SECONDS)


def diagnose(log: FeedbackLog, result: ConsistencyResult, backend: str = "native", *,
             deadline: Deadline | None = None, confirmed=()) -> ConsistencyResult:
    """Fill ``conflict`` and ``corrections`` of an infeasible result (the conflict gets
    ``time_policy.CONFLICT_SHARE`` of the time, the corrections the rest). ``corrections``
    lists every single reply that could alone be wrong, each score that fits it and the
    secrets it leaves (beyond the filter: exact, or at least so many where the time ran out),
    likeliest first (:mod:`repairs`); when no single reply explains the
    log, the fewest replies to change at once. Replies in ``confirmed`` (entry numbers the
    player said are right) are not proposed. ``deadline``: the caller's budget (None: no
    limit)."""
    assert result.status == Status.INFEASIBLE
    deadline = deadline or UNLIMITED
    conflict, minimal = conflict_search(log, backend,
                                        deadline=deadline.part(time_policy.CONFLICT_SHARE))
    result.conflict = conflict
    if conflict is None:
        result.notes.append(f"{_limit()}: no conflicting set of replies found")
    elif not minimal:
        result.notes.append(f"{_limit()}: the conflict shown may not be minimal")
    found, undecided = single_repairs(log, conflict, backend,
                                      deadline.part(time_policy.REPAIRS_SHARE), confirmed)
    result.notes.extend(undecided)
    if found:
        result.corrections = repairs.repair_corrections(log, found)
        secret = found[0].example
        result.notes.append(f"fewest replies to change: 1; then {log.space.format(secret)} "
                            "fits every reply")
        return result
    if _native_ok(log, backend):
        joints, total = repairs.fewest_repairs_enumerated(log, confirmed)
        result.corrections = repairs.joint_corrections(log, joints)
        if joints:
            more = f"; {total - len(joints)} more such fixes not listed" if total > len(joints) else ""
            result.notes.append(f"fewest replies to change: {len(joints[0].changes)}; then "
                                f"{log.space.format(joints[0].example)} fits every reply{more}")
        return result
    fixes, proved, secret = corrections(log, backend, deadline=deadline)
    proved = proved or (fixes is not None and len(fixes) == 1)   # none fits: at least one
    result.corrections = fixes
    if fixes is not None and secret is not None:
        k = len(fixes)
        result.notes.append(
            f"fewest replies to change: {k}" + ("" if proved else f" (not proved fewest: {_limit()})")
            + f"; then {log.space.format(secret)} fits every reply")
    elif fixes is None:
        result.notes.append(f"{_limit()}: no correction found")
    return result


def _limit() -> str:
    """What cut the diagnosis short, as its notes begin: "time limit" or "interrupted"."""
    return "interrupted (Ctrl-C)" if stop_requested() else "time limit"
