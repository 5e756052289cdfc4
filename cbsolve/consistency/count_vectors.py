"""The symbol count vectors a feedback log allows: n_s = how often the secret holds symbol s.

Place in the data flow: FeedbackLog -> (this) -> redundant constraints and search guidance for
the solvers (cpsat.py, marginals.py). A clue's total matches depends on the counts alone,
``m_g = sum_s min(k_gs, n_s)`` (k_gs: the guess's count of s), so the totals constrain the count
vector without any positional reasoning. On long codes a few dozen random clues leave one
vector (N=40, 10 digits: 1-4 vectors at 20-90 clues, docs/journal.md, "2026-11-22 08:14 · Local-search
portfolio for find-one, `determined` and the hard band"), and fixing it makes
CP-SAT's positional search markedly easier. Every vector of a consistent secret is returned
(the enumeration is exact), so constraints built from the list are implied, never guesses.

Encoded for CP-SAT: ``n_s`` integer, ``y_st <=> n_s >= t`` chained, ``m_g = sum_{s, t <= k_gs}
y_st``: the same unary encoding as the positional model (cpsat.py).
"""
from __future__ import annotations

from ..extras import require
from ..game.feedback import FeedbackLog
from .clues import clues
from .cpsat_stop import solve


def count_vectors(log: FeedbackLog, cap: int = 16, seconds: float = 1.0) -> list[tuple[int, ...]] | None:
    """All count vectors meeting every clue's total, sorted; ``None`` when there are more than
    ``cap``, when the time ran out first, or when the log has no totals (bulls-only games).

    An empty list means no count vector fits: the log is inconsistent.
    """
    cp_model = require("ortools.sat.python.cp_model", "the CP-SAT backend")

    variant = log.variant
    all_clues = clues(log)
    if variant.bulls_only or not all_clues:
        return None
    n, d = variant.length, variant.n_symbols
    model = cp_model.CpModel()
    top = n if variant.repeats else 1
    counts = [model.NewIntVar(0, top, f"n{s}") for s in range(d)]
    model.Add(sum(counts) == n)
    if variant.no_leading_zero:
        model.Add(counts[0] <= n - 1)
    need = [max([c.counts.get(s, 0) for c in all_clues] + [0]) for s in range(d)]
    at_least = []
    for s in range(d):
        ys = []
        for t in range(1, min(need[s], top) + 1):
            y = model.NewBoolVar(f"y{s}_{t}")
            model.Add(counts[s] >= t).OnlyEnforceIf(y)
            model.Add(counts[s] <= t - 1).OnlyEnforceIf(y.Not())
            if ys:
                model.AddImplication(y, ys[-1])
            ys.append(y)
        at_least.append(ys)
    for clue in all_clues:
        model.Add(sum(at_least[s][t] for s, k in clue.counts.items()
                      for t in range(min(k, top))) == clue.total)

    class Collect(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.found: list[tuple[int, ...]] = []
            self.overflow = False

        def on_solution_callback(self):
            self.found.append(tuple(self.Value(c) for c in counts))
            if len(self.found) > cap:
                self.overflow = True
                self.StopSearch()

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = max(seconds, 0.001)
    collect = Collect()
    status = solve(solver, model, collect)
    if collect.overflow or status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        return None
    return sorted(collect.found)


def pin_counts(cm, log: FeedbackLog, seconds: float = 1.0) -> list[tuple[int, ...]] | None:
    """Add the count vectors' implications to a CP-SAT model (cpsat.CpSatModel): each symbol's
    count between its least and greatest value over the vectors (equal when only one is left,
    the usual case on long codes). Redundant, so the set of solutions is unchanged; returns the
    vectors (None when not enumerated). Measured on the hard band: N=40, 50 clues, 22 seeds,
    10 s: 11 found vs 6 without (docs/journal.md, "2026-11-22 12:06 · Hard band: every backend side by
    side")."""
    vecs = count_vectors(log, seconds=seconds)
    if not vecs:            # unknown, or none: CP-SAT proves the log inconsistent on its own
        return vecs
    n = log.variant.length
    for s in range(log.variant.n_symbols):
        lo, hi = min(v[s] for v in vecs), max(v[s] for v in vecs)
        column = sum(cm.x[p][s] for p in range(n))
        if lo == hi:
            cm.model.Add(column == lo)
        else:
            cm.model.AddLinearConstraint(column, lo, hi)
    return vecs
