"""The OR-Tools CP-SAT engine: find one, prove unique, prove none, optimise (corrections).

Place in the data flow: FeedbackLog -> clues.Clue -> (this model) -> answer.py. Same one-hot
``x[pos][sym]`` as the SAT backend. Each symbol's count ``n_sym = sum_pos x[pos][sym]`` is an
integer variable with unary indicators ``y[sym][t] <=> n_sym >= t`` (reified bounds, chained
``y[t] -> y[t-1]``); a clue's total matches is then ``sum_{sym, t <= k_sym} y[sym][t]`` --
exact with repeats, and CP-SAT propagates it better than one AddMinEquality a symbol. A redundant
``sum_sym n_sym = N`` links the counts.

CP-SAT is the robust engine for "find one", "is there a second?" and "prove none" at large N
(Perron & Didier, OR-Tools CP-SAT); it is not incremental, so enumeration re-solves after each
blocking constraint with the previous solution as a hint, one block of completions per solve.
"""
from __future__ import annotations

from ..extras import require
from ..runtime import time_policy
from ..runtime.deadline import Deadline, stopped_by
from ..game.feedback import FeedbackLog
from ..runtime.status import Status, StopReason
from .blocks import Oracle
from .clues import Clue, clues
from .count_vectors import pin_counts
from .cpsat_stop import solve
from .engine_options import (  # noqa: F401 - the engine's options
    CPSAT_DEFAULTS,
    LOCAL_SEARCH,
    WORKERS,
    CpSatOptions,
)
from .marginals import marginals


class CpSatModel:
    """The CP-SAT model of a variant and its clues; entries may carry an enforcement literal."""

    def __init__(self, variant):
        cp_model = require("ortools.sat.python.cp_model", "the CP-SAT backend")

        self.cp = cp_model
        self.variant = variant
        self.model = cp_model.CpModel()
        n, d = variant.length, variant.n_symbols
        m = self.model
        self.x = [[m.NewBoolVar(f"x{p}_{s}") for s in range(d)] for p in range(n)]
        for p in range(n):
            m.AddExactlyOne(self.x[p])
        if not variant.repeats:
            for s in range(d):
                m.AddAtMostOne([self.x[p][s] for p in range(n)])
        if variant.no_leading_zero:
            m.Add(self.x[0][0] == 0)
        self.n_sym: dict[int, object] = {}
        self.y: dict[int, list] = {}
        self.enforce: list = []
        self.guided = False
        if variant.repeats and not variant.bulls_only:
            for s in range(d):
                self._count(s)
            m.Add(sum(self.n_sym.values()) == n)
        else:
            # Redundant: n symbols in all. Without it, presolve loses the row sums' total and a
            # black-peg log whose single-symbol guesses count n - 1 pegs in all, plus four other
            # clues, stayed unknown after 10 s (16 x 6; audit_inconsistent.py); with it the LP
            # proves it at the root.
            m.Add(sum(self.x[p][s] for p in range(n) for s in range(d)) == n)

    def _count(self, s: int):
        if s not in self.n_sym:
            n = self.variant.length
            var = self.model.NewIntVar(0, n, f"n{s}")
            self.model.Add(var == sum(self.x[p][s] for p in range(n)))
            self.n_sym[s] = var
            self.y[s] = []
        return self.n_sym[s]

    def at_least(self, s: int, t: int):
        """Boolean ``n_sym >= t`` (created on demand, chained to the smaller thresholds)."""
        ys = self.y[s]
        while len(ys) < t:
            k = len(ys) + 1
            y = self.model.NewBoolVar(f"y{s}_{k}")
            self.model.Add(self.n_sym[s] >= k).OnlyEnforceIf(y)
            self.model.Add(self.n_sym[s] <= k - 1).OnlyEnforceIf(y.Not())
            if ys:
                self.model.AddImplication(y, ys[-1])
            ys.append(y)
        return ys[t - 1]

    def add_clue(self, clue: Clue, enforce=None) -> None:
        """Encode one entry (only when ``enforce`` is true, if given)."""
        m, x, n = self.model, self.x, self.variant.length
        bulls = m.Add(sum(x[p][s] for p, s in enumerate(clue.guess)) == clue.bulls)
        cons = [bulls]
        if clue.total is not None:
            if self.variant.repeats:
                lits = [self.at_least(s, t) for s, k in sorted(clue.counts.items())
                        for t in range(1, k + 1)]
            else:   # at most one of each symbol: presence is the column sum
                lits = [x[p][s] for s in sorted(clue.counts) for p in range(n)]
            cons.append(m.Add(sum(lits) == clue.total))
        if enforce is not None:
            for c in cons:
                c.OnlyEnforceIf(enforce)
        self.enforce.append(enforce)

    def guide(self, marginals) -> None:
        """Branch on x[p][s] = 1 in decreasing order of ``marginals[p, s]`` (estimates only: the
        order changes the search's path, never its answers)."""
        order = sorted((-float(marginals[p][s]), p, s) for p in range(len(self.x))
                        for s in range(len(self.x[p])))
        self.model.AddDecisionStrategy([self.x[p][s] for _, p, s in order],
                                       self.cp.CHOOSE_FIRST, self.cp.SELECT_MAX_VALUE)
        self.guided = True

    def solver(self, seconds: float | None, workers: int = WORKERS, seed: int = 0,
               params: tuple[tuple[str, object], ...] = ()):
        s = self.cp.CpSolver()
        if self.guided:
            s.parameters.search_branching = self.cp.FIXED_SEARCH
        if seconds is not None:
            s.parameters.max_time_in_seconds = max(seconds, 0.001)
        s.parameters.num_workers = workers
        s.parameters.random_seed = seed
        for k, v in params:
            setattr(s.parameters, k, v)
        return s

    def decode(self, solver) -> tuple[int, ...]:
        return tuple(next(s for s, v in enumerate(row) if solver.BooleanValue(v)) for row in self.x)

    def hint(self, code) -> None:
        self.model.ClearHints()
        for p, row in enumerate(self.x):
            for s, v in enumerate(row):
                self.model.AddHint(v, int(code[p] == s))


class CpSatOracle(Oracle):
    """Find/block interface for :func:`blocks.enumerate_blocks`."""

    def __init__(self, cm: CpSatModel, workers: int = WORKERS, seed: int = 0,
                 seeded: bool = False, log: FeedbackLog | None = None,
                 options: CpSatOptions = CPSAT_DEFAULTS):
        self.cm, self.workers, self.seed = cm, workers, seed
        self.options = options
        #: The log whose count vectors are pinned before the first solve (count_vectors.py);
        #: lazily, so answers found without CP-SAT (the local search) do not pay for them.
        self.pin_log = log
        self.solves = 0
        #: Decide ``determined`` (two secrets) by the hinted enumeration of :meth:`find_many`
        #: rather than a second full solve with a blocking constraint. Measured side by side
        #: (docs/journal.md, "2026-11-22 04:29 · Find-one alone vs find-one + `determined`") it is no
        #: faster for two secrets, so it is off; lists of 3+
        #: always use the hinted enumeration.
        self.seeded = seeded

    def ready(self, deadline: Deadline) -> None:
        """Add the redundant count-vector bounds once, before CP-SAT's first solve."""
        if self.pin_log is not None:
            left = deadline.left()
            vecs = pin_counts(self.cm, self.pin_log, time_policy.PIN_SECONDS if left is None else
                              min(time_policy.PIN_SECONDS, time_policy.PIN_SHARE * left))
            if self.options.guide and vecs and len(vecs) == 1:
                self.cm.guide(marginals(self.pin_log, vecs[0], sweeps=self.options.guide_sweeps))
            self.pin_log = None

    def find(self, deadline: Deadline):
        self.ready(deadline)
        left = deadline.left()
        if left is not None and left <= 0:
            return Status.UNKNOWN, None
        solver = self.cm.solver(left, self.workers, self.seed, self.options.params)
        return self.outcome(solver, solve(solver, self.cm.model))

    def outcome(self, solver, status) -> tuple[Status, tuple[int, ...] | None]:
        """(FEASIBLE, code) | (INFEASIBLE, None) | (UNKNOWN, None) for a finished Solve; a found
        code becomes the hint of the next solve."""
        cp = self.cm.cp
        self.solves += 1
        if status in (cp.OPTIMAL, cp.FEASIBLE):
            code = self.cm.decode(solver)
            self.cm.hint(code)
            return Status.FEASIBLE, code
        return (Status.INFEASIBLE, None) if status == cp.INFEASIBLE else (Status.UNKNOWN, None)

    def find_many(self, want: int | None, deadline: Deadline):
        """Up to ``want`` solutions: one ordinary solve (with presolve: the fast way to a first
        secret), then one CP-SAT run with ``enumerate_all_solutions`` hinted with that secret.
        The enumeration (one worker, no presolve) starts at the hint and finds its neighbours by
        backtracking, far faster than re-solving once per secret on large N."""
        cp, cm = self.cm.cp, self.cm
        status, first = self.find(deadline)       # also sets the hint
        if status != Status.FEASIBLE:
            return [], StopReason.COMPLETE if status == Status.INFEASIBLE else stopped_by()
        if want is not None and want <= 1:
            return [first], StopReason.LIMIT
        left = deadline.left()
        if left is not None and left <= 0:
            return [first], stopped_by()
        found: list[tuple[int, ...]] = [first]
        seen = {first}

        class Collect(cp.CpSolverSolutionCallback):
            def on_solution_callback(self):
                code = tuple(next(s for s, v in enumerate(row) if self.BooleanValue(v))
                             for row in cm.x)
                if code not in seen:
                    seen.add(code)
                    found.append(code)
                if want is not None and len(found) >= want:
                    self.StopSearch()

        solver = cm.solver(left, 1, self.seed, self.options.params)
        solver.parameters.enumerate_all_solutions = True
        status = solve(solver, cm.model, Collect())
        self.solves += 1
        if status in (cp.OPTIMAL, cp.INFEASIBLE) and (want is None or len(found) < want):
            return found, StopReason.COMPLETE
        if want is not None and len(found) >= want:
            return found, StopReason.LIMIT
        return found, stopped_by()

    def block(self, assignment) -> None:
        self.cm.model.AddBoolOr([self.cm.x[p][v].Not() for p, v in assignment])


def model_for(log: FeedbackLog) -> CpSatModel:
    cm = CpSatModel(log.variant)
    for clue in clues(log):
        cm.add_clue(clue)
    return cm


def selector_model(log: FeedbackLog):
    """CP-SAT model of the log with each entry enforced only by its own selector literal."""
    cm = CpSatModel(log.variant)
    sels = []
    for i, clue in enumerate(clues(log)):
        sel = cm.model.NewBoolVar(f"sel{i}")
        cm.add_clue(clue, enforce=sel)
        sels.append(sel)
    return cm, sels
