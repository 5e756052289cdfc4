"""The worst-case kernel as the drivers see it: the native decision search
(cbsolve/_native/search_worst.cpp) over the game's codes, with its set-up (the reply matrix
or replies scored on the fly, :mod:`cbsolve.search.memory`) and its control block (named
progress counters, the stop request, why it stopped).
"""
from __future__ import annotations

import time

import numpy as np

from ...game.codes import CodeSpace
from ...runtime.deadline import Deadline, run_interruptible
from ...game.scoring import possible_responses
from ...runtime.status import StopReason
from ...game.variant import Variant
from .. import memory, setup

PRUNINGS = ("symmetry", "capacity", "obvious", "order", "memo", "dedupe")


class _Native:
    """The native search with its control block (named progress counters, stop request)."""

    def __init__(self, variant: Variant, guesses: str, prune: dict, workers: int,
                 lookahead: int = 0, memo_bytes: int | None = None, root=None,
                 plan: memory.Plan | None = None, deadline: Deadline | None = None):
        space = CodeSpace(variant)
        self.variant = variant
        self.space = space
        self.codes = space.codes
        if plan is None:   # the Dask paths: the default budget (--memory-budget, $CBSOLVE_...)
            plan = setup.default_plan(variant, space.size, "worst", workers)
        # the reply matrix, or None: the kernel scores replies on the fly (memory.plan). The
        # matrix stops at ``deadline`` or Ctrl-C: then ``setup_stopped`` says where and the
        # kernel scores on the fly (the driver reports the counting bound without searching).
        on_the_fly = plan.source == memory.ON_THE_FLY
        self.matrix, self.setup_stopped = setup.matrix_within(variant, self.codes, plan, deadline)
        self.reply_source = memory.MATRIX if self.matrix is not None else memory.ON_THE_FLY
        replies = possible_responses(variant)
        self.n_responses = len(replies)
        # the replies that occur, so the kernel need not scan the n^2 matrix for them
        self._occurring = [variant.response_index(b, c) for b, c in replies]
        opts = {k: bool(prune.get(k, True)) for k in PRUNINGS}
        opts.update(candidates_only=guesses == "candidates", threads=int(workers),
                    lookahead=int(lookahead))
        opts["memo_bytes"] = int(plan.memo_bytes)
        if on_the_fly:
            opts["table_bytes"] = int(plan.table_bytes)
        if memo_bytes is not None:
            opts["memo_bytes"] = int(memo_bytes)
        self.options = opts
        self.core = self.fresh_core()
        # The set searched and the guesses already played: the whole game, or ``root`` (a
        # :class:`cbsolve.search.position.Position`, the game from the entries of a log).
        self.all = np.arange(space.size, dtype=np.int64) if root is None else root.members
        self.empty = np.zeros(0, dtype=np.int64) if root is None else root.history
        self.phases: dict[str, float] = {}

    def fresh_core(self, extra: dict | None = None):
        """A new native search on this matrix (an empty memo, zero counters), configured with
        this kernel's options and ``extra`` (a benchmark's other configuration)."""
        from ..._native.search_worst import WorstSearch

        v = self.variant
        core = WorstSearch(self.matrix, self.codes, v.n_symbols, v.no_leading_zero,
                           v.response_slots, v.win_response, self.n_responses, self._occurring,
                           repeats=v.repeats, bulls_only=v.bulls_only)
        core.configure({**self.options, **(extra or {})})
        return core

    def set_root(self, members: np.ndarray, history: np.ndarray) -> None:
        """Search the secrets ``members`` after the guesses ``history`` from now on (the shards:
        one reply class of a first guess after another, on one matrix and one memo)."""
        self.all = np.asarray(members, dtype=np.int64)
        self.empty = np.asarray(history, dtype=np.int64)

    def replies(self, guess: int, members: np.ndarray) -> np.ndarray:
        """Reply indices of ``guess`` to the codes ``members`` (the matrix row, or scored)."""
        return setup.replies_of(self.variant, self.codes, self.matrix, guess, members)

    def stop_reason(self) -> StopReason | None:
        """Why the kernel was stopped, as its control block says (None: it was not), or why
        its set-up was."""
        if self.setup_stopped is not None:
            return self.setup_stopped.reason
        why = StopReason(self.core.stop_reason())
        return None if why is StopReason.COMPLETE else why

    def run(self, method: str, d: int, deadline: Deadline | None = None, on_wait=None):
        """Call the native method in a worker thread (GIL released); the time limit and Ctrl-C
        set the kernel's stop flag (:func:`cbsolve.runtime.deadline.run_interruptible`), ``on_wait``
        (progress) is called every poll with ``(method, d, progress)``, ``progress`` the
        kernel's named counters (``nodes``, ``top_done``, ``top_total``, ``memo_entries``)."""
        t0 = time.perf_counter()
        poll = None if on_wait is None else (lambda: on_wait(method, d, self.core.progress()))
        try:
            return run_interruptible(lambda: getattr(self.core, method)(self.all, d, self.empty),
                                     self.core.request_stop, deadline=deadline, on_wait=poll)
        finally:
            key = f"{method}({d})"
            self.phases[key] = self.phases.get(key, 0.0) + time.perf_counter() - t0
