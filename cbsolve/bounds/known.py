"""What is known of a game's optimum before its exact search ends: the interval to show while
it searches and to report when it is stopped, with what proves each end.

Place in the data flow: the bounds (:func:`~cbsolve.bounds.compute_bounds`: closed forms,
constructions, the certified trees and the best tree shipped in ``models/``) and, when
they leave the interval open, a heuristic evaluated exactly -> **the known interval** ->
:func:`cbsolve.optimal` (``cbsolve optimal``: its progress lines and its stopped answer).
Every upper end reported is reproducible: a tree file ``cbsolve verify`` replays (the
``tree`` of :class:`Known`), a named bound (a construction with a proved worst case), or a
heuristic strategy (the ``strategy`` of :class:`Known`) that ``cbsolve evaluate --strategy``
plays against every secret to the same number (``--out`` writes its tree to verify).
"""
from __future__ import annotations

from dataclasses import dataclass
from ..certificates.certified import MODELS, best_shipped_tree, shipped_method
from ..runtime import time_policy
from . import atlas_file
from .compute import compute_bounds
from ..game.codes import CodeSpace
from ..runtime.deadline import stop_requested
from ..runtime.status import Status
from .from_atlas import recipe_strategy
from .strategies import CANDIDATES_FIRST


@dataclass
class Known:
    """An interval on the optimum (objective units: the worst case, or the total)."""

    lower: int | None
    upper: int | None
    lower_method: str = ""
    upper_method: str = ""
    tree: str | None = None        # a tree file reaching ``upper`` (path from the checkout)
    origin: str = "bounds"         # where the interval was read, for the notes
    #: the heuristic whose exact evaluation is ``upper``: {name, guesses, first}, the
    #: arguments of ``cbsolve evaluate`` that reproduce it
    strategy: dict | None = None


#: The heuristic evaluated for each objective's upper end: Knuth's minimax for the worst case,
#: Irving's expected size for the total (the best of the four on most games measured).
HEURISTIC = {"worst": "minimax", "expected": "expected"}


def known_interval(variant, objective: str, deadline, max_depth, guesses,
                   say=None, tell=None) -> Known | None:
    """Before the search of the whole game: with a time limit, the cheap proved ends and, if
    the upper end is open, the objective's own heuristic (:func:`budgeted`; ``tell`` hears
    each interval as it is known); without, the best shipped tree's upper end (instant) or,
    when no tree ships for the game, the objective's :data:`HEURISTIC` evaluated exactly
    within a short budget. None under a depth cap or a restricted guess set (the bounds'
    setting is every guess, no cap). ``say``: hears what the bounds work on, as ``bounds``'
    progress does."""
    if max_depth is not None or guesses != "all":
        return None
    if deadline.unlimited:
        shipped = best_shipped_tree(variant, objective)
        if shipped is None:
            known = Known(None, None, origin="an exact evaluation")
            heuristic_upper(known, variant, objective,
                            deadline.capped(time_policy.OPTIMAL_HEURISTIC_UNTIMED_SECONDS))
            return None if known.upper is None else known
        return Known(None, shipped[0], upper_method=shipped_method(shipped[1]), tree=shipped[1],
                     origin="the trees shipped in models/")
    return budgeted(variant, objective, deadline, say, tell)


def budgeted(variant, objective: str, deadline, say=None, tell=None) -> Known:
    """Under a budget, anytime, cheapest first, each interval heard as soon as it is known
    (``tell(known)``): the fast proved ends (:func:`cheap_ends` without the partition bounds
    two guesses deep: counting, closed forms, constructions, the shipped trees; within
    :data:`cbsolve.runtime.time_policy.OPTIMAL_CHEAP_SECONDS`); the partition bounds two guesses deep
    within a share of the budget; then, only while the interval is open, the objective's own
    :data:`HEURISTIC` (never a strategy the objective does not need) within a share of the
    rest. The exact search has the rest: it starts early, and its answer is never worse than
    these ends (docs/contract.md, ``optimal``)."""
    tell = tell or (lambda known: None)
    known = cheap_ends(variant, objective, deadline.capped(time_policy.OPTIMAL_CHEAP_SECONDS),
                       say, deep=False)
    atlas = atlas_ends(variant, objective)
    if atlas is not None:
        _merge(known, atlas)
    tell(known)
    steps = (lambda: _merge(known, cheap_ends(
                 variant, objective, deadline.part(time_policy.OPTIMAL_DEEP_SHARE), say)),
             lambda: _heuristic(known, variant, objective, deadline, say))
    for step in steps:
        if known.lower is not None and known.lower == known.upper or deadline.expired():
            break
        before = (known.lower, known.upper)
        step()
        if (known.lower, known.upper) != before:
            tell(known)
    return known


def atlas_ends(variant, objective: str) -> Known | None:
    """The objective's interval proved here in the atlas's cell for ``variant`` (read at once;
    literature ends are not in it), or None outside the atlas or when its file is damaged (a
    damaged atlas is never used; ``bounds`` says so)."""
    try:
        record = atlas_file.lookup(variant)
    except atlas_file.DamagedAtlas:
        return None
    if record is None:
        return None
    end = record["worst" if objective == "worst" else "expected"]
    recipe = end.get("recipe") or {}
    trivial = end["upper_method"].startswith("trivial")
    return Known(end["lower"], None if trivial else end["upper"], end["lower_method"],
                 "" if trivial else end["upper_method"],
                 tree=recipe.get("path") if recipe.get("kind") == "tree" else None,
                 origin="the atlas", strategy=recipe_strategy(recipe))


def _heuristic(known: Known, variant, objective: str, deadline, say) -> None:
    if say is not None:
        say(f"evaluating the {objective} objective's strategy {HEURISTIC[objective]} against "
            "every secret, if its share of the time covers it")
    heuristic_upper(known, variant, objective, deadline.part(time_policy.OPTIMAL_HEURISTIC_SHARE))


def _merge(known: Known, more: Known) -> None:
    """``known`` with the better end of ``more`` at each end (and what proves it)."""
    if more.lower is not None and (known.lower is None or more.lower > known.lower):
        known.lower, known.lower_method = more.lower, more.lower_method
    if more.upper is not None and (known.upper is None or more.upper < known.upper):
        known.upper, known.upper_method = more.upper, more.upper_method
        known.tree, known.strategy = more.tree, more.strategy


def cheap_ends(variant, objective: str, deadline, say=None, deep: bool = True) -> Known:
    """What ``bounds --no-search`` proves without evaluating strategies, under ``deadline``
    (``deep``: with the partition bounds two guesses deep): the objective's interval with its
    methods (the trivial upper end left out: "every code in order" tells a person nothing)."""
    b = compute_bounds(variant, deadline=deadline, search=False, strategies=False, deep=deep,
                       close=objective, progress=say)
    interval = b.worst if objective == "worst" else b.expected
    known = Known(interval.lower, interval.upper, interval.lower_method, interval.upper_method)
    if interval.upper_method.startswith("trivial"):
        known.upper, known.upper_method = None, ""
    else:
        known.tree = tree_of(known.upper_method)
    return known


def heuristic_upper(known: Known, variant, objective: str, budget,
                    per_secret: tuple[float, float] | None = None) -> None:
    """Lower ``known.upper`` to the objective's :data:`HEURISTIC` evaluated against every
    secret, when ``budget`` covers its estimated time and it finishes there. From the size
    where ``bounds`` draws minimax's guesses from the candidates (a tenth of the work per
    secret: :data:`cbsolve.bounds.strategies.CANDIDATES_FIRST`), the worst case does too.
    ``per_secret``: the estimate's seconds a secret over every code and over the candidates
    (None: :data:`cbsolve.runtime.time_policy.HEURISTIC_SECONDS_PER_SECRET` and
    ``HEURISTIC_CANDIDATES_SECONDS_PER_SECRET``)."""
    try:
        ev = _evaluated(variant, objective, budget, per_secret)
    except KeyboardInterrupt:
        if not stop_requested():
            raise
        return       # the CLI's Ctrl-C: the search that follows stops at once and reports
    if ev is None:
        return
    value = ev.worst if objective == "worst" else ev.total
    if value is not None and (known.upper is None or value < known.upper):
        known.upper, known.tree = value, None
        known.strategy = {"name": ev.strategy, "guesses": ev.guesses, "first": ev.first}
        known.upper_method = played_method(known.strategy)


def played_method(strategy: dict) -> str:
    """The upper end's method for a heuristic played against every secret, with the command
    that plays it again."""
    name, guesses, first = strategy["name"], strategy["guesses"], strategy["first"]
    options = f"--strategy {name}" + ("" if guesses == "all" else f" --guesses {guesses}")
    return (f"strategy {name}{'' if guesses == 'all' else ' over candidates'} (exact "
            f"evaluation, first guess {first}; `cbsolve evaluate {options} --first {first}` "
            f"plays it)")


def _evaluated(variant, objective: str, budget, per_secret: tuple[float, float] | None = None):
    """The objective's heuristic (else ``first``) evaluated against every secret, or None when
    the budget covers neither's estimated time or it did not finish there."""
    from ..strategy import Unfinished, evaluate

    secrets = CodeSpace(variant).size
    if secrets < time_policy.OPTIMAL_HEURISTIC_MIN_SECRETS:
        return None
    name = HEURISTIC[objective]
    guesses = "candidates" if objective == "worst" and secrets >= CANDIDATES_FIRST else "all"
    every, among = per_secret or (time_policy.HEURISTIC_SECONDS_PER_SECRET,
                                  time_policy.HEURISTIC_CANDIDATES_SECONDS_PER_SECRET)
    per_secret = among if guesses == "candidates" else every
    left = budget.left()
    if left is not None and left < secrets * per_secret:
        # where the scored heuristic does not fit, the cheapest one, as `bounds` plays it
        # first on large games (Bulls & Cows 6/10: 13 at worst, about 3 s)
        name, guesses = "first", "all"
        if left < secrets * time_policy.FIRST_SECONDS_PER_SECRET:
            return None
    try:
        return evaluate(variant, name, guesses=guesses, deadline=budget, keep_tree=False)
    except Unfinished:
        return None


def tree_of(method: str) -> str | None:
    """The tree file a bound's method names (the bounds' wording: ``tree PATH (...)`` or
    ``certified tree PATH``), or None."""
    words = method.split()
    for lead in (["tree"], ["certified", "tree"]):
        if words[:len(lead)] == lead and len(words) > len(lead):
            return words[len(lead)]
    return None


def merged(known: Known | None, lower, upper) -> tuple[int | None, int | None]:
    """The search's interval so far, each end the better of it and the known one."""
    if known is None:
        return lower, upper
    if known.lower is not None and (lower is None or known.lower > lower):
        lower = known.lower
    if known.upper is not None and (upper is None or known.upper < upper):
        upper = known.upper
    return lower, upper


def closed(result, known: Known | None) -> None:
    """A stopped search whose interval the known ends close (lower = upper): the value is
    proved, so the answer says so (``proved``, status optimal), and its ``worst``/``total``
    are the value's: the shipped tree that proves the upper end is the answer's tree (its
    stats, which ``cbsolve verify`` replays), else the search's tree if it reaches the value,
    else the objective's field alone (the search's tree, greedy where it stopped, would report
    another strategy's numbers beside a proved value)."""
    if result.proved or result.lower is None or result.lower != result.upper:
        return
    value = result.lower
    result.proved, result.status = True, Status.OPTIMAL
    result.notes.append(f"proved: the known ends meet, {_unit(result.objective)} {value}")
    mine = result.worst if result.objective == "worst" else result.total
    if result.tree is not None and mine == value:
        return
    doc = _shipped_doc(None if known is None else known.tree, result.objective, value)
    if doc is not None:
        hist = {int(k): int(v) for k, v in doc["stats"]["histogram"].items()}
        result.tree, result.histogram = doc, hist
        result.worst, result.total = max(hist), sum(k * v for k, v in hist.items())
        result.notes.append(f"its tree is {known.tree}, which proves the upper end")
        return
    if result.tree is not None:
        result.notes.append(f"the search's tree ({_unit(result.objective)} {mine}, greedy where "
                            "it stopped) is left out: it is not optimal")
    result.tree, result.histogram = None, {}
    result.worst = value if result.objective == "worst" else None
    result.total = value if result.objective == "expected" else None


def _unit(objective: str) -> str:
    return "worst case" if objective == "worst" else "total"


def _shipped_doc(tree: str | None, objective: str, value: int) -> dict | None:
    """The shipped tree ``tree`` (``models/...``, under the models folder's parent) when it
    reaches ``value``: its document, whose stats the tests replay; else None."""
    if tree is None:
        return None
    from ..certificates.certify import UnreadableFile, load

    try:
        doc = load(MODELS.parent / tree)
    except (UnreadableFile, OSError):
        return None
    stats = doc.get("stats") if isinstance(doc, dict) else None
    key = "worst" if objective == "worst" else "total"
    if not isinstance(stats, dict) or stats.get(key) != value or "histogram" not in stats:
        return None
    return doc


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
        found = {"method": known.upper_method, "tree": known.tree}
        if known.strategy is not None:
            found["strategy"] = known.strategy
        closed(result, known)
        return found
    closed(result, known)
    if result.upper is None:
        return None
    written = out if out and result.tree is not None else None
    return {"method": "this search" + ("" if written or result.tree is None
                                       else " (--out FILE writes its tree)"), "tree": written}
