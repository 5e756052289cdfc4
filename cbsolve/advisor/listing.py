"""The secrets a log leaves, as the position service sees them: listed (sorted code indices),
listed in chunks until the deadline cuts the listing, counted by the constraint backends when
the space is too large to list, and the diagnosis of a log that leaves none.

Place in the data flow: a feedback log and a :class:`~cbsolve.runtime.deadline.Deadline` ->
:mod:`cbsolve.consistency` (the native filter; the depth-first search and the solvers beyond
listing) -> the secrets, or the labelled answer when they cannot all be listed (a consistent
code only) -> the position service (:mod:`.service`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..consistency.backends import get_backend
from ..consistency.native import FILTER_CHUNK, consistent_indices, consistent_within
from ..consistency.query import Query
from ..errors import InconsistentLog
from ..game.feedback import FeedbackLog
from ..runtime import time_policy
from ..runtime.deadline import Deadline, stop_requested
from ..runtime.status import Status
from ..strategy.advice import no_secret_left
from ..strategy.rules import require_enumerable
from . import answers as A
from .advice_form import AdviceForm

if TYPE_CHECKING:
    import numpy as np


class SecretsLeft:
    """What remains after a log in one variant: listed, counted or diagnosed."""

    def __init__(self, form: AdviceForm, chunk: int | None = None):
        self.form = form
        # codes filtered between two looks at the deadline (None: FILTER_CHUNK)
        self.chunk = FILTER_CHUNK if chunk is None else chunk
        self.variant = form.variant
        self.space = form.space

    def candidates(self, log: FeedbackLog) -> np.ndarray:
        """The consistent secrets (sorted code indices); InconsistentLog with the diagnosis
        when there is none."""
        require_enumerable(self.variant, "next-guess advice")
        cands = consistent_indices(log)
        if cands.size == 0:
            raise self.diagnose(log)
        return cands

    def listed(self, log: FeedbackLog, deadline: Deadline) -> tuple[np.ndarray, bool]:
        """(the consistent secrets, True), or those found before the deadline cut the
        listing (Mastermind 8x8: 16.7 M codes filtered in chunks) and False."""
        require_enumerable(self.variant, "next-guess advice")
        cands, listed = consistent_within(log, deadline.reserving(time_policy.ADVICE_RESERVE),
                                          self.chunk)
        if listed and cands.size == 0:
            raise self.diagnose(log)
        return cands, listed

    def unlisted(self, strategy, objective, found) -> A.Advice:
        """The answer when the deadline or Ctrl-C cut the listing of the consistent secrets:
        the first one found (a guess that may win), or none."""
        stopped = "interrupted" if stop_requested() else "time"
        remaining = A.Remaining(int(found.size) or None, False)
        if not found.size:
            return A.Advice(None, strategy, remaining, A.Provenance(
                A.CONSISTENT, objective, False, False, stopped,
                "stopped before any consistent secret was found"), self.form.guesses)
        return self.form.advice(
            self.space.format(self.space.codes_at(found[0])), strategy, remaining, found,
            objective, A.Provenance(A.CONSISTENT, objective, False, False, stopped,
                                    f"a consistent code only: the listing of the consistent "
                                    f"secrets was cut ({found.size} found so far)"))

    def consistent_only(self, log, strategy, objective, deadline) -> A.Advice:
        """A space too large to list (Mastermind 10x10, 8 of 26 letters): no guess can be
        scored against the secrets left, so the answer is one consistent code (it may win),
        found by the depth-first search within the deadline, labelled; InconsistentLog with
        the diagnosis when there is none."""
        from ..consistency.solve import consistent   # the constraint backends

        res = consistent(log, Query(limit=1, determined=False), backend="native",
                         deadline=deadline)
        if res.status == Status.INFEASIBLE:
            raise self.diagnose(log, deadline)
        stopped = None
        if not res.secrets:
            stopped = "interrupted" if stop_requested() else "time"
        note = ("a consistent code only: the space is too large to list its secrets and score "
                "guesses against them" if res.secrets else
                "stopped before any consistent secret was found")
        remaining = A.Remaining(res.count if res.exact else (res.count or None), res.exact)
        needed = self.form.needed(objective, res.count) if res.exact and res.count else None
        return A.Advice(res.secrets[0] if res.secrets else None, strategy, remaining,
                        A.Provenance(A.CONSISTENT, objective, False, stopped is None, stopped,
                                     note), self.form.guesses, {}, needed)

    def diagnose(self, log: FeedbackLog, deadline: Deadline | None = None) -> InconsistentLog:
        """The diagnosis of an inconsistent log (consistency's own: a minimal conflict and the
        corrections), as the error a face reports."""
        return no_secret_left(log, deadline)

    def remaining(self, log: FeedbackLog, deadline: Deadline | None = None) -> A.Remaining:
        """How many secrets the log leaves: exact when the space can be listed, else what the
        constraint backends prove within the deadline."""
        if not len(log):
            return A.Remaining(self.space.size, True)
        if self.space.enumerable:
            return A.Remaining(int(self.candidates(log).size), True)
        count, exact = self.counted(log, Deadline.given(deadline))
        if exact and count == 0:
            raise self.diagnose(log, deadline)
        return A.Remaining(count, exact)

    def counted(self, log: FeedbackLog, deadline: Deadline,
                backend: str = "auto") -> tuple[int | None, bool]:
        """(how many secrets ``log`` leaves, exact): the constraint backends' count within
        ``deadline``, a lower bound when not exact (None: nothing counted). A named backend
        counts alone: an empty set needs no diagnosis here (a partition's empty reply classes
        are most of them; :meth:`remaining` diagnoses its own), and the diagnosis' solver
        fallback imports OR-Tools, about a second, even after a stop."""
        from ..consistency.solve import consistent   # the constraint backends

        query = Query(count=True, limit=0)
        res = (consistent(log, query, deadline=deadline, backend=backend) if backend == "auto"
               else get_backend(backend).solve(log, query, deadline=deadline))
        if res.status == Status.INFEASIBLE:
            return 0, True
        return res.count, bool(res.exact)
