"""Incremental consistency for a growing log (assistant, bot): add one entry, ask again.

Place in the data flow: FeedbackLog entries -> (this module) -> strategies / play. The PySAT
engine keeps one solver for the whole game: each entry adds its clauses once, guarded by a
selector, so learnt clauses survive between questions; queries run under assumptions and every
enumeration's blocking clauses sit under their own activation literal, retired afterwards. The
previous secret is passed as preferred phases, so the next search starts next to it. The
CP-SAT engine, which is not incremental, keeps its model and adds the new constraints, with the
previous secret as a solution hint.

>>> from cbsolve.variant import Variant
>>> with IncrementalSolver(Variant.preset("bulls-cows")) as inc:
...     _ = inc.add("0123", 0, 0)
...     first = inc.determined()
...     _ = inc.add("4567:4,0")
...     first, inc.find(), inc.determined()
(False, '4567', True)
"""
from __future__ import annotations

from ..feedback import Feedback, FeedbackLog
from ..status import Status
from ..variant import Variant
from . import ConsistencyResult, Query
from .encoding import Deadline, clue_of

ENGINES = ("sat", "cpsat")


class IncrementalSolver:
    """Consistency questions over a log that grows one entry at a time."""

    def __init__(self, variant: Variant, engine: str = "sat"):
        if engine not in ENGINES:
            from ..errors import unknown_name

            raise unknown_name("incremental engine", engine, ENGINES)
        self.variant = variant
        self.engine = engine
        self.log = FeedbackLog(variant)
        self._last: tuple[int, ...] | None = None
        if engine == "sat":
            from .sat import SatSession

            self.session = SatSession(variant)
        else:
            from .cpsat import CpSatModel

            self.model = CpSatModel(variant)

    # --- lifecycle ------------------------------------------------------------------------
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:
        if self.engine == "sat":
            self.session.close()

    # --- growing the log ------------------------------------------------------------------
    def add(self, guess, bulls: int | None = None, cows: int | None = None) -> Feedback:
        """Add an entry: a :class:`Feedback`, a token ``"0123:1,2"``, or guess text + reply."""
        if isinstance(guess, Feedback):
            entry = guess
            self.log.entries.append(entry)
        elif bulls is None:
            entry = self.log.parse_token(guess, len(self.log) + 1)
            self.log.entries.append(entry)
        else:
            entry = self.log.add(guess, bulls, cows)
        clue = clue_of(self.variant, entry.guess, entry.bulls, entry.cows)
        if self.engine == "sat":
            self.session.add_clue(clue)
        else:
            self.model.add_clue(clue)
        return entry

    def __len__(self) -> int:
        return len(self.log)

    # --- questions ------------------------------------------------------------------------
    def _find_code(self, deadline: Deadline) -> tuple[str, tuple[int, ...] | None]:
        if self.engine == "sat":
            s = self.session
            if self._last is not None:
                s.solver.set_phases([s.x[p][v] for p, v in enumerate(self._last)])
            answer = s.solve(s.selectors, deadline)
            if answer is None:
                return "unknown", None
            if not answer:
                return "unsat", None
            code = s.decode(s.solver.get_model())
        else:
            from .cpsat import CpSatOracle

            if self._last is not None:
                self.model.hint(self._last)
            status, code = CpSatOracle(self.model).find(deadline)
            if status != "sat":
                return status, None
        self._last = code
        return "sat", code

    def find(self, time_limit: float | None = None) -> str | None:
        """One consistent secret (None when there is none or the time ran out)."""
        status, code = self._find_code(Deadline(time_limit))
        return None if code is None else self.log.space.format(code)

    def consistent(self, time_limit: float | None = None) -> bool | None:
        """True / False, or None when the time limit hit first."""
        status, _ = self._find_code(Deadline(time_limit))
        return {"sat": True, "unsat": False}.get(status)

    def query(self, query: Query = Query()) -> ConsistencyResult:
        """Any :class:`Query` on the current log, reusing the live solver."""
        import time

        from .answer import answer_query
        from .cpsat import CpSatOracle

        start = time.perf_counter()
        deadline = Deadline(query.time_limit)
        if self.engine == "sat":
            oracle = self.session.oracle()
        else:
            # CP-SAT blocking constraints cannot be retracted: enumerate on a copy.
            from .cpsat import CpSatModel
            from .encoding import clues

            cm = CpSatModel(self.variant)
            for clue in clues(self.log):
                cm.add_clue(clue)
            if self._last is not None:
                cm.hint(self._last)
            oracle = CpSatOracle(cm)
        result = answer_query(f"{self.engine} (incremental)", self.log, query, deadline, oracle)
        if result.status == Status.INFEASIBLE:
            result.conflict = self.conflict(query.time_limit)
        result.seconds = time.perf_counter() - start
        return result

    def count(self, time_limit: float | None = None, cap: int | None = None) -> tuple[int | None, bool]:
        """(count, exact); a capped or timed-out count is a lower bound."""
        r = self.query(Query(count=True, limit=0, time_limit=time_limit, count_cap=cap))
        return r.count, r.exact

    def determined(self, time_limit: float | None = None) -> bool | None:
        """True iff exactly one secret remains (None: unknown in time)."""
        r = self.query(Query(limit=1, time_limit=time_limit))
        return r.determined

    def conflict(self, time_limit: float | None = None) -> list[int] | None:
        """A minimal set of entry numbers that cannot all hold (None if consistent/unknown)."""
        from .diagnose import conflict_search

        if self.engine != "sat":   # CP-SAT keeps no selectors: diagnose with a fresh PySAT
            conflict, minimal = conflict_search(self.log, "sat", time_limit)
            return conflict if minimal else None
        from .diagnose import session_conflict

        conflict, minimal = session_conflict(self.session, Deadline(time_limit))
        return conflict if minimal else None
