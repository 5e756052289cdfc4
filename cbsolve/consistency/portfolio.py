"""A portfolio for find-one / determined: native local search raced against CP-SAT.

Place in the data flow: FeedbackLog -> clues.Clue -> (this module: LocalSearch + CP-SAT model
from cpsat.py) -> blocks.enumerate_blocks -> answer.py. The local search
(``cbsolve._native.local_search``: min-conflicts moves, tabu, breakout clause weights and
random-walk noise; Minton et al. 1992, Glover 1989, Morris 1993, Selman et al. 1994) can only
FIND secrets, never prove there are none, so each ``find`` runs it in a native thread (the GIL
released) while CP-SAT with one worker searches in this thread; the first to answer stops the
other. CP-SAT alone can answer "none" (and so prove ``determined``). Every code the local search
returns is re-scored against the whole log with the scoring core before it is trusted.

Reproducibility: the local search is deterministic for its seed and so is one-worker CP-SAT, but
which of the two answers first depends on timing, so the secret listed may differ between runs
(the status and ``determined`` do not, short of a time limit).
"""
from __future__ import annotations

import functools
import threading
from dataclasses import dataclass, fields, replace

import numpy as np

from .._native import local_search
from ..runtime import time_policy
from ..runtime.deadline import Deadline, stop_hook
from ..game.feedback import FeedbackLog
from ..runtime.status import Status, StopReason
from . import cpsat_stop
from .blocks import Oracle
from .engine_options import PORTFOLIO_DEFAULTS, PortfolioShape  # noqa: F401 - the race's shape
from .rescoring import Checker, valid_rows

#: Byte marking "any symbol" in a forbidden pattern (a blocked prefix).
WILD = 255


@dataclass(frozen=True)
class LocalSearchOptions:
    """One kernel call's options (the native ``local_search.Options``, field for field).

    Tuning measured on N=40, 10 digits (docs/benchmarks.md, "Local-search portfolio"):
    ``noise`` the random-walk probability, ``tenure`` the base tabu tenure (tenure = base +
    uniform 0..base), ``restart`` the flips without a new best before a restart (scaled by the
    Luby sequence when ``luby``). ``swaps_only`` keeps the start code's symbol counts (a start is
    then required); ``seconds`` None is no time limit; ``want`` distinct codes stop the call."""

    seed: int = 0
    max_flips: int = 1 << 62
    seconds: float | None = None
    want: int = 1
    noise: float = 0.05
    tenure: int = 5
    restart: int = 8_000
    swaps_only: bool = False
    luby: bool = False

    def native(self, kernel):
        """The kernel's ``Options`` with these values (``seconds`` as the kernels spell it:
        :func:`cbsolve.runtime.time_policy.kernel_seconds`)."""
        out = kernel.Options()
        for f in fields(self):
            value = getattr(self, f.name)
            setattr(out, f.name, time_policy.kernel_seconds(value) if f.name == "seconds" else value)
        return out


class LocalSearch:
    """The native local-search kernel bound to one log, with re-scoring of what it returns."""

    def __init__(self, log: FeedbackLog, seed: int = 0):
        self.kernel = local_search
        self.log, self.variant = log, log.variant
        n = log.variant.length
        self.guesses = np.ascontiguousarray(log.guesses_array(), dtype=np.uint8).reshape(-1, n)
        self.bulls = np.array([e.bulls for e in log], dtype=np.int32)
        self.totals = np.array([-1 if log.variant.bulls_only else e.bulls + e.cows for e in log],
                               dtype=np.int32)
        self.checker = Checker(log)
        self.seed = seed
        self.calls = 0
        self.flips = 0

    def run(self, seconds: float | None, forbidden=(), start=None,
            stop: np.ndarray | None = None, options: LocalSearchOptions | None = None,
            **changes) -> dict:
        """Up to ``want`` consistent codes matching no row of ``forbidden`` (WILD = any symbol).
        ``options`` (default :class:`LocalSearchOptions`), with ``changes`` to its fields
        (``want``, ``max_flips``, ``swaps_only``, ...) applied; the seed is the call's own.
        Returns the kernel's dict with ``solutions`` as re-scored tuples and ``stop`` a
        :class:`StopReason`."""
        v, n = self.variant, self.variant.length
        forb = np.array(list(forbidden), dtype=np.uint8).reshape(-1, n)
        st = np.zeros(0, np.uint8) if start is None else np.asarray(start, dtype=np.uint8)
        stop = np.zeros(1, np.int32) if stop is None else stop
        # Each call gets its own seed, derived from the backend seed and the call number, so a
        # sequence of calls is reproducible.
        seed = (self.seed * 1_000_003 + self.calls) & 0xFFFFFFFFFFFF
        self.calls += 1
        opts = replace(options or LocalSearchOptions(), seed=seed, seconds=seconds, **changes)
        with stop_hook(functools.partial(stop.__setitem__, 0, 1)):   # Ctrl-C sets the flag
            r = self.kernel.solve(self.guesses, self.bulls, self.totals, v.n_symbols, v.repeats,
                                  v.no_leading_zero, st, forb, stop, opts.native(self.kernel))
        r["stop"] = StopReason(r["stop"])
        self.flips += int(r["flips"])
        sols = [tuple(int(s) for s in code) for code in r["solutions"]]
        if sols:
            codes = np.array(sols, dtype=np.uint8).reshape(-1, n)
            ok = self.checker.keep(codes) & valid_rows(v, codes)
            assert ok.all(), "local search returned a code the scorer rejects"
        r["solutions"] = sols
        return r


class PortfolioOracle(Oracle):
    """Find/block oracle (:class:`blocks.Oracle`) racing local search against CP-SAT.

    ``block`` forwards to CP-SAT and keeps the blocked assignment as a forbidden pattern for the
    local search, so both engines search the same remaining set and ``enumerate_blocks`` stays
    exact. ``wins`` counts which engine produced each answer (for the notes and benchmarks)."""

    def __init__(self, cpsat_oracle, log: FeedbackLog, seed: int = 0,
                 shape: PortfolioShape = PORTFOLIO_DEFAULTS):
        self.cp = cpsat_oracle
        self.cm = cpsat_oracle.cm
        self.ls = LocalSearch(log, seed)
        self.n = log.variant.length
        self.shape = shape
        self.patterns: list[list[int]] = []
        self.last: tuple[int, ...] | None = None
        self.wins = {"local search": 0, "CP-SAT": 0}

    def block(self, assignment) -> None:
        self.cp.block(assignment)
        row = [WILD] * self.n
        for p, s in assignment:
            row[p] = int(s)
        self.patterns.append(row)

    def _found(self, code, engine: str):
        self.wins[engine] += 1
        self.cm.hint(code)
        self.last = code
        return Status.FEASIBLE, code

    def find(self, deadline: Deadline):
        left = deadline.left()
        if left is not None and left <= 0:
            return Status.UNKNOWN, None
        # Phase 1: a flip-bounded burst of local search alone (deterministic for the seed).
        shape = self.shape
        burst = shape.burst if self.last is None else min(shape.burst, shape.burst_after_first)
        if burst:
            r = self.ls.run(left, self.patterns, start=self.last, max_flips=burst)
            if r["solutions"]:
                return self._found(r["solutions"][0], "local search")
            if shape.hint_best and self.last is None:
                self.cm.hint(tuple(int(v) for v in r["best"]))   # its lowest-cost code
            left = deadline.left()
            if left is not None and left <= 0:
                return Status.UNKNOWN, None
        # Phase 2: CP-SAT, raced by the local search in a native thread.
        return self._race(deadline) if shape.race else self._cpsat(deadline)

    def _cpsat(self, deadline: Deadline):
        status, code = self.cp.find(deadline)
        return self._found(code, "CP-SAT") if status == Status.FEASIBLE else (status, None)

    def _race(self, deadline: Deadline):
        self.cp.ready(deadline)
        left = deadline.left()
        solver = self.cm.solver(left, self.cp.workers, self.cp.seed, self.cp.options.params)
        stop = np.zeros(1, np.int32)
        done = threading.Event()
        box: dict = {}

        budget = left
        after = self.shape.race_after_first
        if self.last is not None and after is not None:
            budget = after if left is None else min(left, after)

        def local():
            try:
                box["r"] = self.ls.run(budget, self.patterns, start=self.last, stop=stop)
            except BaseException as exc:   # re-raised in the caller's thread after the join
                box["error"] = exc
                return
            if box["r"]["solutions"]:
                # CP-SAT may not have entered Solve yet: keep asking it to stop until it returns.
                while not done.is_set():
                    solver.stop_search()
                    done.wait(0.002)

        thread = threading.Thread(target=local, name="cbsolve-local-search", daemon=True)
        thread.start()
        status = cpsat_stop.solve(solver, self.cm.model)
        done.set()
        stop[0] = 1
        thread.join()
        if "error" in box:
            raise box["error"]
        sols = box.get("r", {}).get("solutions", [])
        kind, code = self.cp.outcome(solver, status)
        assert not (sols and kind == Status.INFEASIBLE), "CP-SAT proved none, local search found one"
        if kind == Status.FEASIBLE:
            return self._found(code, "CP-SAT")
        if sols:
            return self._found(sols[0], "local search")
        return kind, None

    def note(self) -> str | None:
        used = [f"{k} {v}" for k, v in self.wins.items() if v]
        if not used:
            return None
        return ("secrets found by " + ", ".join(used) + " (local search raced against CP-SAT; "
                f"{self.ls.flips} local-search flips)")
