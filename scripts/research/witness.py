"""A witness for an upper bound: a strategy that wins within a depth, found by a capped search.

Place in the data flow: the worst-case kernel (:class:`cbsolve.search.worst.kernel._Native`, one reply
matrix for the whole game) -> **this heuristic driver** -> a native-format tree that
:func:`cbsolve.search.worst.trees._tree_doc` writes out and ``cbsolve verify`` checks.

Why: the complete search (``feasible``) proves "d guesses suffice" only after refuting every
better-ordered guess, and on a large set it can spend all its time refuting bad guesses. A
witness needs one working guess per node, not a proof about all of them, so here each node
tries its guesses (one per symmetry orbit, best partition first) and gives every class a short
time cap (after the greedy tree, which often fits already): the first guess whose classes are
all settled wins; a class that only times out is
searched again one level deeper in the same way. Nothing here is a proof of optimality: the
tree it returns is a claim ``cbsolve verify`` checks, secret by secret.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from cbsolve.runtime.deadline import Deadline
from cbsolve.search.result import Verdict


@dataclass
class WitnessLog:
    """What the search did, per node tried: (history, guess, outcome, seconds, classes)."""

    rows: list[tuple] = field(default_factory=list)
    nodes: int = 0
    #: called with each row as it is recorded (progress on stderr), or None
    echo: object = None

    def add(self, *row) -> None:
        self.rows.append(row)
        if self.echo is not None:
            self.echo(row)


def ordered_guesses(native, members: np.ndarray, history: list[int]) -> list[int]:
    """One guess per orbit of the symmetry the history leaves, best partition first
    (smallest largest class, then most classes, then guesses that may win)."""
    reps = native.core.representatives(np.asarray(history, dtype=np.int64))
    win = native.variant.win_response
    inside = set(int(x) for x in members)
    keyed = []
    for g in reps:
        counts = np.bincount(native.replies(int(g), members))
        counts_lose = counts.copy()
        if win < counts_lose.size:
            counts_lose[win] = 0
        keyed.append((int(counts_lose.max()), -int(np.count_nonzero(counts)),
                      int(g) not in inside, int(g)))
    keyed.sort()
    return [k[-1] for k in keyed]


def by_greedy_misses(native, members: np.ndarray, depth: int, history: list[int],
                     guesses: list[int], deadline: Deadline | None = None) -> list[int]:
    """``guesses`` reordered by what the greedy tree leaves undone after each: the classes
    (then their secrets) its greedy subtrees do not settle within ``depth - 1`` guesses."""
    win = native.variant.win_response
    keyed = []
    for rank, g in enumerate(guesses):
        if deadline is not None and deadline.expired():
            keyed.extend((10**9, 0, r, h) for r, h in enumerate(guesses[rank:], rank))
            break
        replies = native.replies(g, members)
        missed, secrets = 0, 0
        for r in np.unique(replies):
            cls = members[replies == r]
            if r != win and cls.size > 1 and _greedy(native, cls, depth - 1, history + [g]) is None:
                missed, secrets = missed + 1, secrets + int(cls.size)
        keyed.append((missed, secrets, rank, g))
    keyed.sort()
    return [k[-1] for k in keyed]


def _decide(native, members: np.ndarray, depth: int, history: list[int], cap: float) -> Verdict:
    """The kernel's answer for ``members`` within ``depth`` guesses (STOPPED: the time cap)."""
    core = native.core
    core.set_deadline(cap)
    try:
        return Verdict(core.feasible(np.asarray(members, dtype=np.int64), depth,
                                     np.asarray(history, dtype=np.int64)))
    finally:
        core.set_deadline(0)


def _greedy(native, members: np.ndarray, depth: int, history: list[int]) -> dict | None:
    """The kernel's greedy minimax tree when it stays within ``depth`` (cheap: no proof)."""
    from cbsolve.search.worst.trees import _depth

    core = native.core
    core.set_deadline(0)
    tree = core.greedy(np.asarray(members, dtype=np.int64), 0, np.asarray(history, dtype=np.int64))
    return tree if tree is not None and _depth(tree) <= depth else None


def _tree(native, members: np.ndarray, depth: int, history: list[int]) -> dict:
    core = native.core
    core.set_deadline(0)
    return core.tree(np.asarray(members, dtype=np.int64), depth,
                     np.asarray(history, dtype=np.int64))


def find_witness(native, members: np.ndarray, depth: int, history: list[int], *,
                 cap: float = 5.0, levels: int = 1, max_guesses: int | None = None,
                 log: WitnessLog | None = None, deadline: Deadline | None = None,
                 deeper_guesses: int | None = None, rank_by_greedy: bool = False,
                 survey: bool = False, only: list[int] | None = None) -> dict | None:
    """A native tree that finds every secret of ``members`` within ``depth`` guesses, or None.

    ``history``: the guesses played (code indices; they fix the symmetry used). Each class a
    guess leaves is decided by the exact kernel capped at ``cap`` seconds; ``levels`` more
    times a class that only timed out is searched by this function again. ``max_guesses``
    caps the guesses tried per node (``deeper_guesses`` below the first level);
    ``only``: the guesses to try at this node (default: one per orbit, best partition first).
    ``survey``: decide every class of every guess tried, also after one fails (the log then
    says, per guess, which classes are settled, refuted or unknown: the evidence of a failed
    attempt). ``rank_by_greedy``: at this node, try first the guesses whose classes the greedy tree
    leaves fewest secrets too deep in (:func:`by_greedy_misses`); ``deadline`` stops it.
    """
    log = log if log is not None else WitnessLog()
    members = np.asarray(members, dtype=np.int64)
    if depth <= 0:
        return None
    if members.size == 1:
        return {"guess": int(members[0]), "children": []}
    win = native.variant.win_response
    guesses = (list(only) if only else ordered_guesses(native, members, history))[:max_guesses]
    if rank_by_greedy:
        guesses = by_greedy_misses(native, members, depth, history, guesses, deadline)
    for g in guesses:
        if deadline is not None and deadline.expired():
            return None
        t0 = time.perf_counter()
        replies = native.replies(g, members)
        children, outcome = [], "proved"
        for r in np.unique(replies):
            if r == win:
                continue
            cls = members[replies == r]
            hist = history + [g]
            quick = _greedy(native, cls, depth - 1, hist) if cls.size > 1 else None
            if quick is not None:
                children.append((int(r), quick))
                continue
            t1 = time.perf_counter()
            answer = _decide(native, cls, depth - 1, hist, cap)
            log.nodes += 1
            if answer is Verdict.YES:
                children.append((int(r), _tree(native, cls, depth - 1, hist)))
                # the classes the kernel settles are where the time goes: say which, how long
                log.add(list(history), g, f"settled class {native.variant.format_response(int(r))} "
                        f"({cls.size} secrets)", time.perf_counter() - t1)
                continue
            if answer is Verdict.STOPPED and levels > 0:
                sub = find_witness(native, cls, depth - 1, hist, cap=cap, levels=levels - 1,
                                   max_guesses=deeper_guesses or max_guesses, log=log,
                                   deadline=deadline, deeper_guesses=deeper_guesses)
                if sub is not None:
                    children.append((int(r), sub))
                    continue
            outcome = "refuted" if answer is Verdict.NO else "unknown"
            log.add(list(history), g, f"{outcome} at class {native.variant.format_response(int(r))} "
                    f"({cls.size} secrets)", time.perf_counter() - t0)
            if not survey:
                break
            t0 = time.perf_counter()
        if outcome == "proved":
            log.add(list(history), g, "proved", time.perf_counter() - t0)
            return {"guess": int(g), "children": children}
        if survey:
            lost = int(np.count_nonzero(replies != win))
            done = sum(int(np.count_nonzero(replies == r)) for r, _ in children)
            log.add(list(history), g, f"survey: {len(children)} classes settled "
                    f"({done} of {lost} secrets)", 0.0)
    return None
