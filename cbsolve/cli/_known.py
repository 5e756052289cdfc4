"""What ``optimal`` knows of the optimum before its search ends: the interval to show while
it searches and to report when it is stopped, with what proves each end.

Place in the data flow: the bounds (:func:`cbsolve.bounds.compute_bounds`: closed forms,
constructions, the certified trees and the best tree shipped in ``models/``) -> **the known
interval** -> the progress lines and the stopped answer of ``cbsolve optimal``. Every upper
end shown is reproducible: a tree file ``cbsolve verify`` replays (the ``tree`` of
:class:`Known`), or a named bound (a construction with a proved worst case).
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass

#: Plain progress lines (``--verbose`` without a terminal): at most one per this many seconds.
LINE_SECONDS = 2.0


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
                     origin="the trees shipped in models/")
    from .. import time_policy
    from ..bounds import compute_bounds

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


def interval_text(lower, upper) -> str:
    return f"[{'?' if lower is None else lower}, {'?' if upper is None else upper}]"


def announce(known: Known | None, objective: str) -> None:
    """The known interval on stderr as the search starts, with what proves its upper end."""
    if known is None or (known.lower is None and known.upper is None):
        return
    what = "worst case" if objective == "worst" else "total guesses"
    why = f" (upper end: {known.upper_method})" if known.upper is not None else ""
    print(f"optimal: {what} in {interval_text(known.lower, known.upper)} before the search"
          f"{why}", file=sys.stderr, flush=True)


def line_printer(known: Known | None):
    """``--verbose`` without a terminal: the worst-case search's progress as plain lines on
    stderr, the interval merged with the known one, at most one every LINE_SECONDS."""
    last = [0.0]

    def update(method: str, d: int, counters, lower, upper) -> None:
        now = time.monotonic()
        if now - last[0] < LINE_SECONDS:
            return
        last[0] = now
        lo, hi = merged(known, lower, upper)
        print(f"optimal: worst case in {interval_text(lo, hi)}; {method} at depth {d}: "
              f"{counters.nodes:,} nodes", file=sys.stderr, flush=True)

    return update


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
