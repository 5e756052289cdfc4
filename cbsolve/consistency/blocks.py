"""Block enumeration shared by the solver engines.

Place in the data flow: clues -> (this module) -> answer.py; the solvers play the
:class:`Oracle`. Enumeration (:func:`enumerate_blocks`) asks a solver for one solution, then
lists every completion of its first ``N - m`` positions by brute force with the scoring core,
and blocks that prefix: each solver call yields a whole block of secrets, all re-scored exactly.
"""
from __future__ import annotations

import itertools
import time
from math import perm

import numpy as np

from ..runtime.deadline import Deadline, stopped_by
from ..game.feedback import FeedbackLog
from ..runtime.status import Status, StopReason
from ..game.variant import Variant
from .neighbours import local_neighbours
from .rescoring import Checker

#: Largest number of suffix completions checked by brute force per solver solution, and the
#: size enumeration starts from (grown while blocks are dense).
SUFFIX_BUDGET = 50_000
START_BUDGET = 200


class Oracle:
    """What :func:`enumerate_blocks` needs from a solver: :meth:`find` and :meth:`block`.
    Optional capabilities are methods whose defaults say "not supported" (or do nothing)."""

    #: Decide ``determined`` (two secrets) by :meth:`find_many` too, not only lists of 3+.
    seeded = False

    def find(self, deadline: Deadline) -> tuple[str, tuple[int, ...] | None]:
        """(FEASIBLE, code) | (INFEASIBLE, None) | (UNKNOWN, None) when the deadline hit."""
        raise NotImplementedError

    def block(self, assignment: list[tuple[int, int]]) -> None:
        """Forbid every secret with all of these (position, symbol) pairs."""
        raise NotImplementedError

    def find_many(self, want: int | None, deadline: Deadline
                  ) -> tuple[list[tuple[int, ...]], StopReason] | None:
        """Up to ``want`` secrets in one solver run, as :func:`enumerate_blocks` returns them;
        None: not supported (the caller enumerates by :meth:`find` and :meth:`block`)."""
        return None

    def note(self) -> str | None:
        """A line for the result's notes (which engine answered), or None."""
        return None

    def close(self) -> None:
        """Release what the oracle added to a shared solver (nothing by default)."""


def suffix_length(variant: Variant, budget: int) -> int:
    """Largest m < N whose completion table (D^m or D!/(D-m)!) fits ``budget`` rows."""
    d, m = variant.n_symbols, 0
    while m + 1 < variant.length:
        rows = d ** (m + 1) if variant.repeats else perm(d, m + 1)
        if rows > budget:
            break
        m += 1
    return m


class Completions:
    """All codes sharing a given prefix, as a uint8 array (suffix tables precomputed once)."""

    def __init__(self, variant: Variant, m: int):
        self.variant, self.m = variant, m
        d, n = variant.n_symbols, variant.length
        if variant.repeats:
            it = itertools.product(range(d), repeat=m)
        else:   # positions into the list of symbols the prefix leaves unused
            it = itertools.permutations(range(d - (n - m)), m)
        self.table = np.array(list(it), dtype=np.uint8).reshape(-1, m)

    def of(self, prefix) -> np.ndarray:
        n, m = self.variant.length, self.m
        table = self.table
        if not self.variant.repeats:
            free = np.setdiff1d(np.arange(self.variant.n_symbols, dtype=np.uint8),
                                np.asarray(prefix, dtype=np.uint8))
            table = free[table]
        out = np.empty((table.shape[0], n), dtype=np.uint8)
        out[:, :n - m] = np.asarray(prefix, dtype=np.uint8)
        out[:, n - m:] = table
        return out


def enumerate_blocks(oracle: Oracle, log: FeedbackLog, want: int | None, deadline: Deadline,
                     m: int = 0, lies: int = 0,
                     neighbours: bool = False) -> tuple[list[tuple[int, ...]], StopReason]:
    """Up to ``want`` (None: all) distinct secrets; returns (codes, how) with how one of
    ``StopReason.COMPLETE`` (all found, the solver proved there are no more), ``LIMIT`` (stopped
    at ``want``; more may exist) or ``TIME``.

    ``m`` is the largest suffix completed by brute force. The suffix adapts: it starts short
    (cheap when solutions are sparse) and grows while blocks come back well filled (dense sets:
    one solver call then yields hundreds of secrets). Shrinking is never needed for correctness
    and growing can only re-list secrets already seen, which the ``seen`` set drops.

    ``neighbours``: once, after the first solver secret, add its consistent one-move
    neighbours (:func:`local_neighbours`, re-scored); they are not blocked in the solver, so a
    later solution may repeat one, which ``seen`` drops, and "complete" stays exact.
    """
    if lies == 0 and not neighbours and (want is None or want > 2 or (want == 2 and oracle.seeded)):
        many = oracle.find_many(want, deadline)
        if many is not None:
            return many
    found: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()
    n = log.variant.length
    tables: dict[int, Completions] = {}
    checker = Checker(log)
    cur = min(m, suffix_length(log.variant, START_BUDGET))
    while want is None or len(found) < want:
        if neighbours and found:
            neighbours = False
            for key in local_neighbours(log, found, want, deadline, checker)[len(found):]:
                if key not in seen:
                    seen.add(key)
                    found.append(key)
            continue
        t0 = time.perf_counter()
        status, code = oracle.find(deadline)
        t_solve = time.perf_counter() - t0
        if status == Status.INFEASIBLE:
            return found, StopReason.COMPLETE
        if status == Status.UNKNOWN:
            return found, stopped_by()
        assert code is not None
        if cur == 0:
            if code not in seen:
                seen.add(code)
                found.append(code)
            oracle.block(list(enumerate(code)))
            if m > 0 and t_solve > 0.002:
                cur = 1
            continue
        t0 = time.perf_counter()
        comp = tables.get(cur) or tables.setdefault(cur, Completions(log.variant, cur))
        prefix = code[:n - cur]
        block = comp.of(prefix)
        block = block[checker.keep(block, lies)]
        # The solver's own solution must be in its block: a cheap guard on the encoding.
        assert block.shape[0] > 0, "solver returned a secret the scorer rejects"
        for row in block.tolist():
            key = tuple(row)
            if key not in seen:
                seen.add(key)
                found.append(key)
        oracle.block(list(enumerate(prefix)))
        t_fill = time.perf_counter() - t0
        # Balance brute force against solver calls: a longer suffix while completing is much
        # cheaper than solving, a shorter one when it costs more (each at most halves/doubles).
        if cur < m and 2 * t_fill < t_solve:
            cur += 1
        elif cur > 1 and t_fill > 8 * t_solve:
            cur -= 1
    return found, StopReason.LIMIT
