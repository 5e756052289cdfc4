"""Bounds on the number of guesses for any N and D: proved intervals, exact where reachable.

Place in the data flow: code space sizes, scoring, strategies and the optimal search -> **bounds**
-> CLI (``cbsolve bounds``), scripts/bounds_table.py, analyses.

:func:`compute_bounds` gathers, cheapest first:

1. exact counts of secrets and of possible replies R (closed forms, any N and D);
2. counting lower bounds (:mod:`.counting`): ``1 + (R-1) + (R-1)**2 + ...`` and the level fill;
3. partition lower bounds (:mod:`.adaptive`) from the first-guess partitions in closed form
   (:mod:`.partition`), or read off the scorer two guesses deep when the space is small;
4. upper bounds from heuristic strategies played against every secret (exact evaluation by
   :func:`cbsolve.strategy.evaluate`; a sampled estimate is never used as a bound), from the
   count-then-locate construction for games with repeats and the set-then-place one for
   distinct games with D >= 2N-1, any N (:mod:`.constructive`: worst W proved by construction,
   total <= W x S), and the trivial strategy "guess every code
   in order" (worst S, total S(S+1)/2) otherwise;
5. the exact optimum from :mod:`cbsolve.search` when the space is small and time allows.

Every end of every interval says which method produced it. The expected case is reported as the
*total* number of guesses over all secrets (an exact integer; average = total / secrets).

>>> b = compute_bounds(Variant.preset("mastermind"), search=False, strategies=False)
>>> (b.secrets, b.responses, b.worst.lower)
(1296, 14, 5)
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..codes import CodeSpace
from ..errors import CbsolveError
from ..variant import Variant
from .counting import total_lower, worst_lower

#: Heuristics tried for upper bounds (Knuth 1977, Irving 1979, Neuwirth 1982, Kooi 2005).
UPPER_STRATEGIES = ("minimax", "expected", "entropy", "parts")
#: Largest space on which strategies are evaluated exhaustively by default.
STRATEGY_LIMIT = 20_000
#: Largest space handed to the exact searches by default: the worst-case search's own cap
#: (its reply matrix is n^2 bytes); the time limit bounds the work, and a stopped search still
#: contributes the interval it proved.
SEARCH_LIMIT = 12_000
#: Largest space for the scorer-based partition bound when no closed form applies.
SCORER_LIMIT = 200_000


@dataclass
class Interval:
    """A proved interval ``[lower, upper]`` with the method behind each end."""

    lower: int
    upper: int
    lower_method: str
    upper_method: str

    @property
    def exact(self) -> int | None:
        return self.lower if self.lower == self.upper else None

    def raise_lower(self, value: int | None, method: str) -> None:
        if value is not None and value > self.lower:
            self.lower, self.lower_method = int(value), method

    def lower_upper(self, value: int | None, method: str) -> None:
        if value is not None and value < self.upper:
            self.upper, self.upper_method = int(value), method

    def to_json(self) -> dict:
        return {"lower": self.lower, "upper": self.upper, "exact": self.exact,
                "lower_method": self.lower_method, "upper_method": self.upper_method}


@dataclass
class Bounds:
    variant: Variant
    secrets: int
    responses: int
    worst: Interval
    expected: Interval                      # totals over all secrets
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    estimates: list[dict] = field(default_factory=list)   # sampled, labelled, never bounds

    def to_json(self) -> dict:
        expected = self.expected.to_json()
        expected["unit"] = "total guesses over all secrets"
        expected["lower_average"] = self.expected.lower / self.secrets
        expected["upper_average"] = self.expected.upper / self.secrets
        return {"variant": self.variant.to_dict(), "secrets": self.secrets,
                "responses": self.responses, "worst": self.worst.to_json(), "expected": expected,
                "estimates": self.estimates, "notes": self.notes,
                "seconds": round(self.seconds, 3)}


def compute_bounds(variant: Variant, *, time_limit: float | None = None, search: bool = True,
                   strategies: bool = True, deep: bool = True,
                   strategy_limit: int = STRATEGY_LIMIT, search_limit: int = SEARCH_LIMIT,
                   strategy_names=UPPER_STRATEGIES, workers: int | None = None,
                   progress=None) -> Bounds:
    """Lower and upper bounds on the worst and the total number of guesses for ``variant``."""
    from ..scoring import possible_responses
    from .adaptive import closed_form_bound, closed_form_feasible, deep_feasible, scorer_bound

    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    secrets = CodeSpace(variant).size
    responses = len(possible_responses(variant))
    trivial = "trivial (every code in order)"
    worst = Interval(worst_lower(secrets, responses), secrets, "counting", trivial)
    expected = Interval(total_lower(secrets, responses), secrets * (secrets + 1) // 2,
                        "counting", trivial)
    out = Bounds(variant, secrets, responses, worst, expected)

    ok, why = closed_form_feasible(variant)
    if ok:
        pb = closed_form_bound(variant, responses, secrets)
        worst.raise_lower(pb.worst, f"{pb.method}, {pb.best_worst}")
        expected.raise_lower(pb.total, f"{pb.method}, {pb.best_total}")
    elif why:
        out.notes.append(f"closed-form partition bound skipped: {why}")
    from .bulls_only import raise_lower_bounds
    raise_lower_bounds(worst, expected, variant, responses)
    if secrets <= SCORER_LIMIT and (deep or not ok) and secrets > 1:
        two = deep and deep_feasible(variant, secrets)
        if two or not ok:
            pb = scorer_bound(variant, responses, deep=two)
            worst.raise_lower(pb.worst, f"{pb.method}, first guess {pb.best_worst}")
            expected.raise_lower(pb.total, f"{pb.method}, first guess {pb.best_total}")

    _constructive_upper(out)
    if strategies and secrets <= strategy_limit:
        _strategy_upper(out, deadline, strategy_names)
    if search and secrets <= search_limit:
        _search_exact(out, deadline, workers)
    if worst.lower > worst.upper or expected.lower > expected.upper:
        raise AssertionError(f"contradictory bounds for {variant.describe()}: {out.to_json()}")
    out.seconds = time.perf_counter() - start
    return out


def _remaining(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.0, deadline - time.perf_counter())


def _constructive_upper(out: Bounds) -> None:
    """Upper bounds from a construction with a proved worst case (any N and D)."""
    from .constructions import constructive_worst

    found = constructive_worst(out.variant)
    if found is not None:
        w, method = found
        out.worst.lower_upper(w, method)
        out.expected.lower_upper(w * out.secrets, f"{method}, worst x secrets")
    from .constructive_expected import constructive_total
    out.expected.lower_upper(*(constructive_total(out.variant) or (None, "")))


def _strategy_upper(out: Bounds, deadline, names) -> None:
    """Upper bounds from heuristic strategies evaluated exactly against every secret."""
    from ..strategy import evaluate

    for name in names:
        left = _remaining(deadline)
        if left is not None and left <= 0:
            out.notes.append(f"time limit reached before strategy {name!r} was evaluated")
            return
        try:
            ev = evaluate(out.variant, name)
        except CbsolveError as exc:  # e.g. a space too large: noted; a bug is not a note
            out.notes.append(f"strategy {name!r} unavailable: {exc}")
            continue
        if ev.estimate or ev.worst is None or ev.total is None:
            continue
        method = f"strategy {name} (exact evaluation, first guess {ev.first})"
        out.worst.lower_upper(ev.worst, method)
        out.expected.lower_upper(ev.total, method)


def _search_exact(out: Bounds, deadline, workers) -> None:
    """Exact optima (or proved brackets) from the optimal searches, when they exist."""
    for objective in ("worst", "expected"):
        if (out.worst if objective == "worst" else out.expected).exact is not None:
            continue  # already pinned down by cheaper methods
        solver = _search_function(objective)
        left = _remaining(deadline)
        if left is not None and left <= 0:
            out.notes.append(f"time limit reached before the {objective}-case search")
            continue
        try:
            kwargs = {"time_limit": left, "workers": workers}
            if objective == "worst":
                kwargs["certificate"] = False   # bounds need the value, not the certificate
            res = solver(out.variant, **kwargs)
        except CbsolveError as exc:     # e.g. a space too large: noted; a bug is not a note
            out.notes.append(f"optimal {objective}-case search failed: {exc}")
            continue
        interval = out.worst if objective == "worst" else out.expected
        tag = "search (optimal, proved)" if res.proved else "search (bound proved before time limit)"
        lower = res.lower if res.lower is not None else None
        upper = res.upper
        if upper is None:
            upper = res.worst if objective == "worst" else res.total
        if res.proved:
            value = res.worst if objective == "worst" else res.total
            lower = upper = value if value is not None else upper
        else:
            out.notes.append(f"optimal {objective}-case search stopped at the time limit having "
                             f"proved [{lower}, {upper}] (raise --time-limit to go further)")
        interval.raise_lower(lower, tag)
        interval.lower_upper(upper, tag)


def _search_function(objective: str):
    """The optimal search for ``objective`` (imported here: it loads the native search core)."""
    if objective == "expected":
        from ..search.expected import solve_expected

        return solve_expected
    from ..search.worst import solve_worst

    return solve_worst


__all__ = ["Bounds", "Interval", "compute_bounds"]
