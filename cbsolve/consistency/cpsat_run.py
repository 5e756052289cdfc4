"""One CP-SAT solve that the command's stop request (Ctrl-C) ends at once.

Below every module that runs CP-SAT (the engine, the count-vector enumeration, the diagnosis),
so none of them imports another to reach it.
"""
from __future__ import annotations

from ..deadline import stop_hook


def solve(solver, model, callback=None):
    """``solver.Solve`` that a stop request (Ctrl-C) ends at once. CP-SAT's own SIGINT
    catching is off: it stopped the search silently and left SIGINT at the system default, so a
    later Ctrl-C killed the process without a word."""
    solver.parameters.catch_sigint_signal = False
    with stop_hook(solver.stop_search):
        return solver.Solve(model, callback)
