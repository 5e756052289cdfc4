"""Upper bounds from heuristic strategies evaluated exactly, and the order they are tried in.

Place in the data flow: :func:`cbsolve.bounds.compute_bounds` (step 4) -> **this plan** ->
:func:`cbsolve.strategy.evaluate` against every secret (never a sampled estimate).

The plan, cheapest first where the time limit may not fit them all:

* below :data:`FIRST_FIRST` secrets: minimax, expected, entropy, parts, first (seconds);
* from :data:`FIRST_FIRST`: ``first`` goes first (seconds where the scored heuristics take
  minutes), so a cell whose time runs out still has an exact-evaluation bound;
* from :data:`CANDIDATES_FIRST`: then minimax with its guesses drawn from the candidates only
  (the work per node is the candidates squared instead of all codes times the candidates:
  Bulls & Cows 6 of 10, worst 10 in about 15 s where ``first`` gives 13), then the four scored
  heuristics over all codes while time is left.

A strategy that does not finish ends the plan (the next one costs as much), and the notes name
it and those not tried.
"""
from __future__ import annotations

from ..deadline import Deadline

#: From this size on ``first`` is evaluated before the scored heuristics.
FIRST_FIRST = 20_000
#: From this size on minimax over the candidates comes next: the scored heuristics over all
#: codes need about S^2 pair scorings a level, minutes from ~10^5 secrets.
CANDIDATES_FIRST = 100_000


def strategy_plan(secrets: int, names) -> list[tuple[str, str]]:
    """The (strategy, guess set) pairs to evaluate, in order."""
    names = tuple(names)
    if secrets >= FIRST_FIRST and "first" in names:
        names = ("first", *(n for n in names if n != "first"))
    plan = [(name, "all") for name in names]
    if secrets >= CANDIDATES_FIRST and "minimax" in names:
        plan.insert(1 if names[0] == "first" else 0, ("minimax", "candidates"))
    return plan


def _label(name: str, guesses: str) -> str:
    return name if guesses == "all" else f"{name} over candidates"


def strategy_upper(out, deadline: Deadline, names, say) -> None:
    """Upper bounds (worst, total) on ``out`` (a :class:`cbsolve.bounds.Bounds`) from the
    strategies of the plan that finish before ``deadline``."""
    from ..strategy import Unfinished, evaluate

    plan = strategy_plan(out.secrets, names)
    for k, (name, guesses) in enumerate(plan):
        label = _label(name, guesses)
        rest = [_label(*p) for p in plan[k + 1:]]
        if deadline.expired():
            out.notes.append("time limit reached before strategies "
                             f"{', '.join([label, *rest])} were evaluated")
            return
        say(f"evaluating strategy {label} against all {out.secrets} secrets")
        try:
            ev = evaluate(out.variant, name, guesses=guesses, deadline=deadline, keep_tree=False)
        except Unfinished as stop:
            tail = f"; not tried: {', '.join(rest)}" if rest else ""
            out.notes.append(f"strategy {label} not finished within the time limit ({stop.settled} "
                             f"of {stop.secrets} secrets settled{tail}; raise --time-limit)")
            return
        method = f"strategy {label} (exact evaluation, first guess {ev.first})"
        out.worst.lower_upper(ev.worst, method)
        out.expected.lower_upper(ev.total, method)
