"""The worst objective's tie-breaks: among strategies within W guesses, the fewest secrets
needing W, then the smallest total, proved by the expected-case branch and bound with per-depth
weights (module docstring of :mod:`.driver`); and a one-level lower bound on that count.
"""
from __future__ import annotations

import numpy as np

from ...certificates.tree import make_tree
from ...game.capacity import capacity
from ...runtime.deadline import Deadline
from ...game.variant import Variant
from ..result import SearchResult, Verdict
from .kernel import _Native
from .trees import _fill_stats
from .. import expected


def tie_weights(n: int, W: int) -> list[int]:
    """Per-depth weights whose sum orders W-guess strategies by (secrets at depth W, total).

    weight(k) = k + BIG * [k == W] with BIG = n*W + 1: a strategy with c secrets at depth W and
    total T (<= n*W < BIG) weighs c*BIG + T, so c decides and T breaks ties.
    """
    big = n * W + 1
    return [k + (big if k == W else 0) for k in range(1, W + 1)]


def count_weights(W: int) -> list[int]:
    """Per-depth weights counting only the secrets found with guess W: [0, ..., 0, 1]."""
    return [0] * (W - 1) + [1]


def _solve_ties(variant: Variant, result: SearchResult, W: int, guesses: str,
                deadline: Deadline, workers: int, lo: int, notes: list[str],
                mode="both", checkpoint=None):
    """Replace ``result``'s tree by one with the fewest secrets at depth W, then the smallest
    total, proved by the weighted expected-case search (see the module docstring).

    Two phases sharing ``deadline``: (1) weights :func:`count_weights` prove the fewest
    secrets at depth W alone (every subtree that needs no W-th guess costs 0, so the search
    stops at the first such tree: much cheaper than phase 2 when the total is hard); (2) weights
    :func:`tie_weights` prove (count, total). Returns the proved interval (lower, upper) on the
    fewest secrets at depth W; the tree kept is the best found (always within W guesses) and
    ``result.tree["ties"]`` says what was proved. ``checkpoint`` (the worst case's): each
    phase records its steps in a part of it (``ties_count``, ``ties_total``), as the
    expected-case search records its own, and a resumed phase skips them.
    """
    n = result.secrets
    ties = {"at_worst": result.histogram[W], "total": result.total, "proved": False,
            "at_worst_proved": False, "total_lower": None}

    def adopt(found) -> None:
        # keep the better (count at W, total) tree; both are within W guesses
        if found.total is not None and (found.histogram.get(W, 0), found.total) < (
                result.histogram[W], result.total):
            _adopt_tree(variant, result, found, guesses)

    # Phase 1: the fewest secrets at depth W.
    count = expected.solve_expected(
        variant, max_depth=W, guesses=guesses, weights=count_weights(W), deadline=deadline,
        workers=workers, progress=False,
        checkpoint=None if checkpoint is None else checkpoint.part("ties_count"))
    result.phases["ties_count"] = round(count.seconds, 3)
    nodes = count.nodes
    adopt(count)
    if count.lower is not None:
        lo = max(lo, count.lower)
    at_proved = count.proved
    if at_proved:
        lo = count.lower
    # Phase 2: the smallest total among the strategies with that count.
    if at_proved and mode != "count" and not deadline.expired():
        weights = tie_weights(n, W)
        big = weights[-1] - W
        both = expected.solve_expected(variant, max_depth=W, guesses=guesses, weights=weights,
                                       deadline=deadline, workers=workers, progress=False,
                                       checkpoint=None if checkpoint is None else
                                       checkpoint.part("ties_total"))
        result.phases["ties_total"] = round(both.seconds, 3)
        nodes += both.nodes
        adopt(both)
        if both.lower is not None and both.lower // big == lo:
            ties["total_lower"] = both.lower - lo * big   # T >= this for count lo
        if both.proved:
            ties["proved"] = True
            ties["total_lower"] = result.total
    hi = result.histogram[W]
    ties.update(at_worst=hi, total=result.total, at_worst_proved=at_proved and lo == hi)
    result.tree["ties"] = ties
    if ties["proved"]:
        notes.append(f"proved tie-breaks: {hi} secrets need {W} guesses at fewest, and "
                     f"{result.total} guesses in total is the smallest with {hi}")
    elif at_proved:
        why = "not searched" if mode == "count" else "time limit"
        notes.append(f"proved: {hi} secrets need {W} guesses at fewest; the smallest total with "
                     f"{hi} is in [{ties['total_lower'] or '?'}, {result.total}] ({why})")
    else:
        notes.append("time limit reached while proving the tie-breaks")
    return lo, hi, nodes


def _adopt_tree(variant: Variant, result: SearchResult, found: SearchResult,
                guesses: str) -> None:
    cert = result.tree.get("certificate")
    doc = make_tree(variant, "optimal-worst", guesses, found.tree["root"], found.histogram,
                    objective="worst", proved=True)
    if cert is not None:
        doc["certificate"] = cert
    result.tree = doc
    _fill_stats(result, doc)


def _at_worst_lower(variant: Variant, native: _Native, W: int) -> int | None:
    """Proved lower bound on the secrets any W-guess strategy leaves for its W-th guess.

    One level deep: for every first guess up to symmetry, each reply class C that cannot be
    settled within W-2 more guesses puts at least max(1, |C| - cap(W-2)) secrets at depth W
    (cap(W-2) secrets at most finish earlier). The bound is the minimum over first guesses.
    """
    if W <= 1:
        return 1 if len(native.all) == 1 else None
    reps = native.core.representatives(native.empty)
    cap = capacity(W - 2, native.n_responses)
    best = None
    for g in reps:
        replies = native.replies(g, native.all)
        total = 0
        hist = np.array([g], dtype=np.int64)
        for r in np.unique(replies):
            if r == variant.win_response:
                continue
            members = native.all[replies == r]
            if W - 1 == 1:
                total += len(members)
                continue
            answer = Verdict(native.core.feasible(members, W - 2, hist))
            if answer is Verdict.STOPPED:
                return None
            if answer is Verdict.NO:
                total += max(1, len(members) - cap)
        best = total if best is None else min(best, total)
        if best == 0:
            break
    return best
