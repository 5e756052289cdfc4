"""CP-SAT solves that the process-wide stop request (Ctrl-C) ends at once.

Place in the data flow: deadline -> (this module) -> every module that calls CP-SAT (cpsat,
portfolio, count_vectors, diagnose), so none of them imports another for it.
"""
from __future__ import annotations

from ..runtime.deadline import stop_hook


def solve(solver, model, callback=None):
    """``solver.Solve`` that a stop request ends at once. CP-SAT's own SIGINT catching is off:
    it stopped the search silently and left SIGINT at the system default, so a later Ctrl-C
    killed the process without a word."""
    solver.parameters.catch_sigint_signal = False
    with stop_hook(solver.stop_search):
        return solver.Solve(model, callback)
