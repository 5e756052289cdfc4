"""Bounds on the number of guesses for any N and D: proved intervals, exact where reachable.

Place in the data flow: code space sizes, scoring, strategies and the optimal search -> **bounds**
-> CLI (``cbsolve bounds``), scripts/research/bounds_table.py, analyses.

:func:`compute_bounds` gathers, cheapest first:

1. exact counts of secrets and of possible replies R (closed forms, any N and D);
2. counting lower bounds (:mod:`cbsolve.game.capacity`): ``1 + (R-1) + (R-1)**2 + ...`` and the level fill;
3. partition lower bounds (:mod:`.adaptive`) from the first-guess partitions in closed form
   (:mod:`.partition`), or read off the scorer two guesses deep when the space is small;
4. upper bounds from heuristic strategies played against every secret (exact evaluation by
   :func:`cbsolve.strategy.evaluate`, scored on the fly up to 10^6 secrets, within the time
   limit; a sampled estimate is never used as a bound), from the
   count-then-locate construction (with region splits, :mod:`.regions`) for games with
   repeats and the set-then-place one for
   distinct games with D >= 2N-1, any N (:mod:`.constructive`: worst W proved by construction,
   total <= W x S), and the trivial strategy "guess every code
   in order" (worst S, total S(S+1)/2) otherwise;
5. the exact optimum from :mod:`cbsolve.search` when the space is small and time allows.

Steps 4 and 5 are the optional work: they share the time limit, and whatever did not fit is
named in the notes. ``progress(message)`` hears what is being done (the CLI prints it on stderr).

Every end of every interval says which method produced it. The expected case is reported as the
*total* number of guesses over all secrets (an exact integer; average = total / secrets).

>>> b = compute_bounds(Variant.preset("mastermind"), search=False, strategies=False)
>>> (b.secrets, b.responses, b.worst.lower)
(1296, 14, 5)
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..runtime import time_policy
from ..game.capacity import total_lower, worst_lower
from ..game.codes import CodeSpace
from ..runtime.deadline import UNLIMITED, Deadline, stopped_by
from ..errors import CbsolveError, Expired
from ..runtime.status import StopReason
from ..game.variant import Variant
from .strategies import ORDER, StrategyOrder, strategy_upper

#: Heuristics tried for upper bounds (Knuth 1977, Irving 1979, Neuwirth 1982, Kooi 2005), and
#: the first consistent code (Shapiro 1983), which needs no scoring of guesses.
UPPER_STRATEGIES = ("minimax", "expected", "entropy", "parts", "first")
#: Largest space on which strategies are evaluated exhaustively by default (the evaluator's
#: own limit; the time limit bounds the work).
STRATEGY_LIMIT = 1_000_000
#: Largest space for the scorer-based partition bound when no closed form applies.
SCORER_LIMIT = 200_000


@dataclass
class Interval:
    """A proved interval ``[lower, upper]`` with the method behind each end."""

    lower: int
    upper: int
    lower_method: str
    upper_method: str
    #: when a heuristic's exact evaluation set ``upper``: {name, guesses, first}, the
    #: arguments of ``cbsolve evaluate`` that reproduce it
    upper_strategy: dict | None = None
    #: where each end comes from ({"lower": "proved here", "upper": ...}) and, for an atlas
    #: answer, its recipe, histogram, literature and best-known interval (docs/contract.md)
    extra: dict = field(default_factory=dict)

    @property
    def exact(self) -> int | None:
        return self.lower if self.lower == self.upper else None

    def raise_lower(self, value: int | None, method: str) -> None:
        if value is not None and value > self.lower:
            self.lower, self.lower_method = int(value), method

    def lower_upper(self, value: int | None, method: str, strategy: dict | None = None) -> None:
        if value is not None and value < self.upper:
            self.upper, self.upper_method, self.upper_strategy = int(value), method, strategy

    def to_json(self) -> dict:
        out = {"lower": self.lower, "upper": self.upper, "exact": self.exact,
               "lower_method": self.lower_method, "upper_method": self.upper_method,
               "provenance": {"lower": "proved here", "upper": "proved here"}}
        out.update(self.extra)
        return out


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
    # what the verifier confirmed of each exact search run (cbsolve.bounds.recheck)
    checks: dict[str, dict] = field(default_factory=dict)
    # every strategy evaluated exactly: {name, guesses, first, worst, total, histogram} (the
    # atlas keeps them: the recipe that replays an upper end, and quantile budgets)
    evaluated: list[dict] = field(default_factory=list)
    #: "computed" (this call's work), "atlas" (read from models/atlas.json.gz) or "atlas,
    #: improved" (an atlas cell whose ends this call's work bettered); ``atlas``: the cell read
    source: str = "computed"
    atlas: dict | None = None

    def to_json(self) -> dict:
        expected = self.expected.to_json()
        expected["unit"] = "total guesses over all secrets"
        expected["lower_average"] = self.expected.lower / self.secrets
        expected["upper_average"] = self.expected.upper / self.secrets
        return {"variant": self.variant.to_dict(), "secrets": self.secrets,
                "responses": self.responses, "worst": self.worst.to_json(), "expected": expected,
                "estimates": self.estimates, "notes": self.notes, "verification": self.checks,
                "seconds": round(self.seconds, 3), "source": self.source,
                **({"atlas": self.atlas} if self.atlas is not None else {})}


def exact_search_limit() -> int:
    """Largest space both exact searches accept within the memory budget (cbsolve.search.memory)."""
    from ..search import memory

    budget = memory.budget()      # read once: it looks at the machine (1.3 s in 46 looks, loaded)
    lo, hi = 0, memory.MAX_KERNEL_CODES      # fits() is monotone in the number of codes
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if memory.fits(mid, "worst", budget) and memory.fits(mid, "expected", budget):
            lo = mid
        else:
            hi = mid - 1
    return lo


def compute_bounds(variant: Variant, *, search: bool = True,
                   strategies: bool = True, deep: bool = True,
                   strategy_limit: int = STRATEGY_LIMIT, search_limit: int | None = None,
                   strategy_names=UPPER_STRATEGIES, workers: int | None = None,
                   progress=None, deadline: Deadline | None = None,
                   close: str | None = None, order: StrategyOrder = ORDER) -> Bounds:
    """Lower and upper bounds on the worst and the total number of guesses for ``variant``.

    ``search_limit``: largest space handed to the exact searches (None:
    :func:`exact_search_limit`). ``deadline``: the command's budget, started at its edge
    (None: no limit). ``close`` (``worst`` or ``expected``): only
    that objective is wanted, so the strategies stop once its interval is closed (``optimal``'s
    interval before its search).
    """
    from ..game.scoring import possible_responses
    from .adaptive import closed_form_feasible, deep_feasible

    start = time.perf_counter()
    deadline = deadline or UNLIMITED
    say = progress or (lambda message: None)
    if search_limit is None:
        search_limit = exact_search_limit()
    secrets = CodeSpace(variant).size
    responses = len(possible_responses(variant))
    trivial = "trivial (every code in order)"
    worst = Interval(worst_lower(secrets, responses), secrets, "counting", trivial)
    expected = Interval(total_lower(secrets, responses), secrets * (secrets + 1) // 2,
                        "counting", trivial)
    out = Bounds(variant, secrets, responses, worst, expected)

    ok, why = closed_form_feasible(variant)
    if ok:
        pb = _closed_form_bound(out, deadline)
        if pb is not None:
            worst.raise_lower(pb.worst, f"{pb.method}, {pb.best_worst}")
            expected.raise_lower(pb.total, f"{pb.method}, {pb.best_total}")
        ok = pb is not None           # else the bulls classes below stand in for it
    elif why:
        out.notes.append(f"closed-form partition bound skipped: {why}")
    from .bulls_three import raise_lower_bounds
    raise_lower_bounds(worst, expected, variant, responses, deadline)
    if not ok:                  # the bulls classes alone, where the pattern closed forms stop
        from .bulls_classes import raise_lower_bounds as raise_by_bulls_classes
        raise_by_bulls_classes(worst, expected, variant, responses)
    if secrets <= SCORER_LIMIT and (deep or not ok) and secrets > 1:
        two = deep and deep_feasible(variant, secrets)
        if two or not ok:
            say(f"partition bound {'two guesses deep' if two else 'of the first guess'} "
                f"({secrets} secrets)")
            pb = _scorer_bound(out, deadline, two)
            if pb is not None:
                worst.raise_lower(pb.worst, f"{pb.method}, first guess {pb.best_worst}")
                expected.raise_lower(pb.total, f"{pb.method}, first guess {pb.best_total}")

    if deep and secrets > 1 and not (secrets <= SCORER_LIMIT and deep_feasible(variant, secrets)):
        _second_level_lower(out, deadline, say)
    _constructive_upper(out, deadline)
    _certified(out)
    try:
        if strategies and secrets <= strategy_limit:
            strategy_upper(out, deadline, strategy_names, say, close, order)
        elif strategies:
            out.notes.append(f"strategies not evaluated: {secrets} secrets is more than the "
                             f"{strategy_limit} an exact evaluation handles")
        if search and secrets <= search_limit:
            _search_exact(out, deadline, workers, say)
        elif search:
            out.notes.append(f"exact search not run: {secrets} secrets is more than the "
                             f"{search_limit} it handles")
    except KeyboardInterrupt:             # Ctrl-C: the bounds proved so far are the answer
        out.notes.append("interrupted (Ctrl-C): the bounds proved before it")
    if worst.lower > worst.upper or expected.lower > expected.upper:
        raise AssertionError(f"contradictory bounds for {variant.describe()}: {out.to_json()}")
    out.seconds = time.perf_counter() - start
    return out


def _whole_or_noted(out: Bounds, deadline: Deadline, what: str, work):
    """``work()``, a partition bound, or None, noted, when ``deadline`` stopped it (through
    :mod:`.cutoff`): a minimum over every first guess is a bound only when whole."""
    from .cutoff import OutOfTime, within

    try:
        with within(deadline):
            return work()
    except OutOfTime:
        out.notes.append(f"{what} not finished: {stopped_by().reached()}")
        return None


def _closed_form_bound(out: Bounds, deadline: Deadline):
    """The closed-form first-guess partition bound (its coefficients take seconds from 13
    positions), or None, noted."""
    from .adaptive import closed_form_bound

    return _whole_or_noted(out, deadline, "partition bound of the first guess (closed form)",
                           lambda: closed_form_bound(out.variant, out.responses, out.secrets))


def _scorer_bound(out: Bounds, deadline: Deadline, deep: bool):
    """The scorer's partition bound (two guesses deep when ``deep``), or None, noted."""
    from .adaptive import scorer_bound

    what = f"partition bound {'two guesses deep' if deep else 'of the first guess'}"
    return _whole_or_noted(out, deadline, what,
                           lambda: scorer_bound(out.variant, out.responses, deep=deep))


def _certified(out: Bounds) -> None:
    """Exact values from the certified trees in ``models/`` where the game has one (their
    claims are replayed by the tests, tests/test_certified_models.py), and the upper end of
    the best tree shipped for the game whatever its strategy; a value outside the interval
    proved here would be a bug in one of the two."""
    from ..certificates.certified import best_shipped_tree, certified_value, shipped_method

    for objective, interval in (("worst", out.worst), ("expected", out.expected)):
        found = certified_value(out.variant, objective)
        if found is not None:
            value, name = found
            if not interval.lower <= value <= interval.upper:
                raise AssertionError(f"the certified tree {name} claims {value}, outside the "
                                     f"proved [{interval.lower}, {interval.upper}]")
            method = f"certified tree models/{name}"
            interval.raise_lower(value, method)
            interval.lower_upper(value, method)
        shipped = best_shipped_tree(out.variant, objective)
        if shipped is not None:           # any shipped tree is an upper end (verify replays it)
            value, path = shipped
            if value < interval.lower:
                raise AssertionError(f"the tree {path} claims {value}, below the proved "
                                     f"lower bound {interval.lower}")
            interval.lower_upper(value, shipped_method(path))


def _constructive_upper(out: Bounds, deadline: Deadline) -> None:
    """Upper bounds from a construction with a proved worst case (any N and D). Their
    recursions take seconds on huge variants: stopped by the deadline (:mod:`.cutoff`), the
    trivial upper bound stands and a note says so."""
    from .constructions import constructive_worst
    from .constructive_expected import constructive_total
    from .cutoff import OutOfTime, within

    try:
        with within(deadline):
            found = constructive_worst(out.variant)
            if found is not None:
                w, method = found
                out.worst.lower_upper(w, method)
                out.expected.lower_upper(w * out.secrets, f"{method}, worst x secrets")
            out.expected.lower_upper(*(constructive_total(out.variant) or (None, "")))
    except OutOfTime:
        why = stopped_by()
        out.notes.append(f"constructive upper bounds not finished: stopped {why.at()}"
                         + (" (raise --time-limit for them)" if why is StopReason.TIME else ""))


def _second_level_lower(out: Bounds, deadline: Deadline, say) -> None:
    """The two-level partition bound with second guesses up to symmetry (large spaces)."""
    from .second_level import SECOND_LEVEL_LIMIT, second_level_bound

    if out.secrets > SECOND_LEVEL_LIMIT:
        return
    say(f"partition bound two guesses deep, up to symmetry ({out.secrets} secrets)")
    pb = second_level_bound(out.variant, out.responses, deadline.part(time_policy.SECOND_LEVEL_SHARE))
    if pb is None:
        out.notes.append(f"partition bound two guesses deep not finished: {stopped_by().reached()}")
        return
    out.worst.raise_lower(pb.worst, f"{pb.method}, first guess {pb.best_worst}")
    out.expected.raise_lower(pb.total, f"{pb.method}, first guess {pb.best_total}")


def _search_exact(out: Bounds, deadline: Deadline, workers, say) -> None:
    """Exact optima (or proved brackets) from the optimal searches, each end used only once
    the independent verifier confirmed it (:mod:`.recheck`)."""
    from .recheck import check_result, verify_reserve

    reserve = verify_reserve(out.secrets)
    for objective in ("worst", "expected"):
        interval = out.worst if objective == "worst" else out.expected
        if interval.exact is not None:
            continue  # already pinned down by cheaper methods
        left = deadline.left()
        if left is not None and left <= reserve:
            out.notes.append(f"{stopped_by().reached()} before the {objective}-case search")
            continue
        say(f"exact {objective}-case search")
        # the search leaves the verifier its time: the worst case's certificate can take as
        # long to check as the search took
        budget = (deadline.part(time_policy.WORST_SEARCH_SHARE) if objective == "worst"
                  else deadline.reserving(reserve))
        try:
            if objective == "worst":
                from ..search.worst import solve_worst

                # the certificate is what lets the verifier confirm the lower end
                res = solve_worst(out.variant, deadline=budget, workers=workers)
            else:
                from ..search.expected import solve_expected

                res = solve_expected(out.variant, deadline=budget, workers=workers)
        except Expired:              # Ctrl-C (SearchInterrupted): the command reports it
            raise
        except CbsolveError as exc:  # e.g. a space too large: noted; a bug is not a note
            out.notes.append(f"exact {objective}-case search not run: {exc}")
            continue
        say(f"verifying the {objective}-case search's tree"
            + (" and certificate" if objective == "worst" else ""))
        checked = check_result(out.variant, res, deadline)
        out.checks[objective] = checked.to_json()
        if checked.rejected:
            out.notes.append(f"exact {objective}-case search result rejected by the verifier "
                             f"({checked.problem}); the other methods' interval stands")
            continue
        if not res.proved:
            # the kernel says why it stopped: a time limit, or Ctrl-C's stop request
            out.notes.append(f"optimal {objective}-case search "
                             + ("interrupted" if res.interrupted else "stopped at the time limit")
                             + f" having proved [{res.lower}, {res.upper}]"
                             + ("" if res.interrupted else " (raise --time-limit to go further)"))
        what = "optimal, proved" if res.proved else "bound proved before time limit"
        if checked.lower is not None:
            interval.raise_lower(checked.lower, f"search ({what}; {checked.lower_how})")
        elif res.lower is not None and res.lower > interval.lower:
            why = checked.unconfirmed or "no certificate for it was written within the time limit"
            out.notes.append(f"the {objective}-case search's lower bound {res.lower} is not "
                             f"used: {why}")
        if checked.upper is not None:
            # a proved optimum whose tree was not built in time comes with the greedy tree
            if res.proved and checked.upper != res.upper:
                what = "bound proved before time limit"
            interval.lower_upper(checked.upper, f"search ({what}; {checked.upper_how})")


__all__ = ["Bounds", "Interval", "compute_bounds", "exact_search_limit"]
