"""Upper bounds from heuristic strategies evaluated exactly, and the order they are tried in.

Place in the data flow: :func:`cbsolve.bounds.compute_bounds` (step 4) -> **this plan** ->
:func:`cbsolve.strategy.evaluate` against every secret (never a sampled estimate).

The plan, cheapest first where the time limit may not fit them all:

* below :data:`FIRST_FIRST` secrets: minimax, expected, entropy, parts, first (seconds);
* from :data:`FIRST_FIRST`: ``first`` goes first (seconds where the scored heuristics take
  minutes), so a cell whose time runs out still has an exact-evaluation bound;
* from :data:`CANDIDATES_FIRST`: minimax with its guesses drawn from the candidates only goes
  first (the work per node is the candidates squared instead of all codes times the
  candidates: Bulls & Cows 6 of 10, worst 10 in about 15 s where ``first`` gives 13), keeping
  ``first``'s time (:data:`cbsolve.runtime.time_policy.FIRST_SECONDS_PER_SECRET`); ``first`` runs only
  if it did not finish (when it did, its bound is the better one on every such cell of the
  table, and the seconds ``first`` took cost the full minimax of 5 x 11 with repeats its
  finish); then the four scored heuristics over all codes while time is left.

A strategy that does not finish ends the plan (the next one costs as much), except minimax
over the candidates, which hands over to ``first``; the notes name it and those not tried.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..runtime import time_policy
from ..runtime.deadline import Deadline, stopped_by

#: From this size on ``first`` is evaluated before the scored heuristics.
FIRST_FIRST = 20_000
#: From this size on minimax over the candidates comes next: the scored heuristics over all
#: codes need about S^2 pair scorings a level, minutes from ~10^5 secrets.
CANDIDATES_FIRST = 100_000


@dataclass(frozen=True)
class StrategyOrder:
    """Where the plan's order changes: ``first`` first from ``first_first`` secrets, minimax
    over the candidates first from ``candidates_first`` (the constants above by default)."""

    first_first: int = FIRST_FIRST
    candidates_first: int = CANDIDATES_FIRST


ORDER = StrategyOrder()


def strategy_plan(secrets: int, names, order: StrategyOrder = ORDER) -> list[tuple[str, str]]:
    """The (strategy, guess set) pairs to evaluate, in order."""
    names = tuple(names)
    if secrets >= order.first_first and "first" in names:
        names = ("first", *(n for n in names if n != "first"))
    plan = [(name, "all") for name in names]
    if secrets >= order.candidates_first and "minimax" in names:
        plan.insert(0, ("minimax", "candidates"))
    return plan


def _label(name: str, guesses: str) -> str:
    return name if guesses == "all" else f"{name} over candidates"


def strategy_upper(out, deadline: Deadline, names, say, close: str | None = None,
                   order: StrategyOrder = ORDER) -> None:
    """Upper bounds (worst, total) on ``out`` (a :class:`cbsolve.bounds.Bounds`) from the
    strategies of the plan that finish before ``deadline``; ``close`` (``worst`` or
    ``expected``): stop once that objective's interval is closed (no strategy can improve it);
    ``order``: where the plan puts ``first`` and minimax over the candidates first."""
    from ..strategy import Unfinished, evaluate

    plan = strategy_plan(out.secrets, names, order)
    wanted = {"worst": out.worst, "expected": out.expected}.get(close)
    while plan and not (wanted is not None and wanted.exact is not None):
        (name, guesses), rest = plan[0], plan[1:]
        label = _label(name, guesses)
        # minimax over the candidates keeps first's time; first runs only if it did not finish
        hands_over = (name, guesses) == ("minimax", "candidates") and rest[:1] == [("first", "all")]
        if deadline.expired():
            out.notes.append(f"{stopped_by().reached()} before strategies "
                             f"{', '.join([label, *(_label(*p) for p in rest)])} were evaluated")
            return
        budget = deadline
        if hands_over and deadline.left() is not None:
            keep = (time_policy.FIRST_RESERVE_FACTOR * time_policy.FIRST_SECONDS_PER_SECRET
                    * out.secrets)
            budget = deadline.reserving(keep)
        say(f"evaluating strategy {label} against all {out.secrets} secrets")
        try:
            ev = evaluate(out.variant, name, guesses=guesses, deadline=budget, keep_tree=False)
        except Unfinished as stop:
            plan = rest[:1] if hands_over else []     # first runs in the time kept; then stop
            not_tried = [_label(*p) for p in rest[len(plan):]]
            tail = f"; not tried: {', '.join(not_tried)}" if not_tried else ""
            out.notes.append(f"strategy {label} not finished: {stopped_by().reached()} ({stop.settled} "
                             f"of {stop.secrets} secrets settled{tail}; raise --time-limit)")
            continue
        plan = rest[1:] if hands_over else rest      # when minimax finished, first is not needed
        method = f"strategy {label} (exact evaluation, first guess {ev.first})"
        played = {"name": name, "guesses": guesses, "first": ev.first}
        out.evaluated.append({**played, "worst": ev.worst, "total": ev.total,
                              "histogram": {int(k): int(v) for k, v in ev.histogram.items()}})
        out.worst.lower_upper(ev.worst, method, played)
        out.expected.lower_upper(ev.total, method, played)
