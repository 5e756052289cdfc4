"""Consistency: which secrets agree with a feedback log, by one of several backends.

Every backend implements :class:`Backend` (``solve(log, query) -> ConsistencyResult``) and is
found by name with :func:`get_backend`; all return the same result type so the CLI and JSON are
identical whichever answered. ``native`` filters the enumerated space with the scoring core
(beyond it, a depth-first search); ``cpsat`` and ``sat`` encode the log as constraints and work
where enumeration is impossible. The modules are stacked one way (docs/architecture.md,
"Consistency, layer by layer"); this file only re-exports the public names, each loaded on
first use, so a caller of the native filter alone (:mod:`.native`: a small game's ``next`` and
``partition``) loads neither the backends nor the planner.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names

_LAZY = {"InconsistentLog": "..errors", "Backend": ".backend", "NotSupported": ".backend",
         "BACKEND_CHOICES": ".backends", "BACKENDS": ".backends", "Engines": ".backends",
         "get_backend": ".backends", "Plan": ".plan", "auto_choice": ".plan",
         "plan_for": ".plan", "ConsistencyResult": ".query", "Query": ".query",
         "consistent": ".solve"}

if TYPE_CHECKING:     # what type checkers and IDEs see; at run time __getattr__ loads them
    from ..errors import InconsistentLog
    from .backend import Backend, NotSupported
    from .backends import BACKEND_CHOICES, BACKENDS, Engines, get_backend
    from .plan import Plan, auto_choice, plan_for
    from .query import ConsistencyResult, Query
    from .solve import consistent

__getattr__, __dir__ = lazy_names(__name__, _LAZY, globals())

__all__ = ["BACKENDS", "BACKEND_CHOICES", "Backend", "ConsistencyResult", "Engines", "InconsistentLog",
           "NotSupported", "Plan", "Query", "auto_choice", "consistent", "get_backend", "plan_for"]
