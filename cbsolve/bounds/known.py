"""What is known of a game's optimum before its exact search ends: the interval to show while
it searches and to report when it is stopped, with what proves each end.

Place in the data flow: the bounds (:func:`~cbsolve.bounds.compute_bounds`: closed forms,
constructions, the certified trees and the best tree shipped in ``cbsolve/models/``) -> **the known
interval** -> ``cbsolve optimal`` (its progress lines and its stopped answer) and
``cbsolve.optimal``. Every upper end reported is reproducible: a tree file ``cbsolve verify``
replays (the ``tree`` of :class:`Known`), or a named bound (a construction with a proved
worst case).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Known:
    """An interval on the optimum (objective units: the worst case, or the total)."""

    lower: int | None
    upper: int | None
    lower_method: str = ""
    upper_method: str = ""
    tree: str | None = None        # a tree file reaching ``upper`` (path from the checkout)
    origin: str = "bounds"         # where the interval was read, for the notes


def known_interval(variant, objective: str, deadline, max_depth, guesses) -> Known | None:
    """Before the search of the whole game: with a time limit, what ``bounds`` proves within
    its share of it (the search never reports less); without, the best shipped tree's upper
    end (instant). None under a depth cap or a restricted guess set (the bounds' setting is
    every guess, no cap)."""
    from ..certified import best_shipped_tree

    if max_depth is not None or guesses != "all":
        return None
    if deadline.unlimited:
        shipped = best_shipped_tree(variant, objective)
        if shipped is None:
            return None
        return Known(None, shipped[0], upper_method=_tree_method(shipped[1]), tree=shipped[1],
                     origin="the trees shipped in cbsolve/models/")
    from .. import time_policy
    from .compute import compute_bounds

    deep = deadline.left() >= time_policy.OPTIMAL_DEEP_BOUNDS_SECONDS
    b = compute_bounds(variant, deadline=deadline.part(time_policy.OPTIMAL_BOUNDS_SHARE),
                       search=False, strategies=False, deep=deep)
    interval = b.worst if objective == "worst" else b.expected
    known = Known(interval.lower, interval.upper, interval.lower_method, interval.upper_method)
    if interval.upper_method.startswith("trivial"):
        known.upper, known.upper_method = None, ""  # "every code in order" tells a person nothing
    else:
        known.tree = tree_of(known.upper_method)
    return known


def tree_of(method: str) -> str | None:
    """The tree file a bound's method names (the bounds' wording: ``tree PATH (...)`` or
    ``certified tree PATH``), or None."""
    words = method.split()
    for lead in (["tree"], ["certified", "tree"]):
        if words[:len(lead)] == lead and len(words) > len(lead):
            return words[len(lead)]
    return None


def _tree_method(path: str) -> str:
    return f"tree {path} (cbsolve verify replays it)"


def merged(known: Known | None, lower, upper) -> tuple[int | None, int | None]:
    """The search's interval so far, each end the better of it and the known one."""
    if known is None:
        return lower, upper
    if known.lower is not None and (lower is None or known.lower > lower):
        lower = known.lower
    if known.upper is not None and (upper is None or known.upper < upper):
        upper = known.upper
    return lower, upper


def apply(result, known: Known | None, out: str | None = None) -> dict | None:
    """Raise a stopped search's interval to the known one (notes say which end came from
    where); the ``upper_from`` of the answer: what proves its upper end (None: the search
    proved the value, or no upper end is known). ``out``: the file the search's tree goes to."""
    if result.proved:
        return None
    from_known = False
    if known is not None:
        if known.lower is not None and (result.lower is None or known.lower > result.lower):
            result.lower = known.lower
            result.notes.append(f"lower bound {known.lower} from {known.origin} "
                                f"({known.lower_method})")
        if known.upper is not None and (result.upper is None or known.upper < result.upper):
            result.upper = known.upper
            result.notes.append(f"upper bound {known.upper} from {known.origin} "
                                f"({known.upper_method})")
            from_known = True
    if from_known:
        return {"method": known.upper_method, "tree": known.tree}
    if result.upper is None:
        return None
    written = out if out and result.tree is not None else None
    return {"method": "this search" + ("" if written or result.tree is None
                                       else " (--out FILE writes its tree)"), "tree": written}
