"""What the position service answers: value types with ``to_json()``, one per question.

Every advice carries its :class:`Provenance`: where the guess came from (an instant opening,
a certified tree in ``models/``, an exact search from the position, a heuristic), the objective
asked for, whether that objective was honoured (the guess is the first move of a strategy
proved optimal for it) and whether the work was complete or cut by the deadline or Ctrl-C
(then the answer is the best found so far).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields

#: The objectives a game can be played for: the fewest guesses in the worst case (Knuth 1977)
#: or on average (Irving 1979; Koyama–Lai 1993).
OBJECTIVES = ("worst", "expected")
#: The objective when none is named: the one ``cbsolve optimal`` proves by default, and the one
#: the certified trees preferred in ``models/`` are optimal for.
DEFAULT_OBJECTIVE = "worst"

#: Provenance words (the JSON's ``source``).
OPENING = "opening"          # the first guess, chosen up to symmetry in closed form
TREE = "tree"                # a certified tree in models/ (or a tree file) followed
EXACT = "exact"              # an exact search from the position
HEURISTIC = "heuristic"      # a heuristic's choice (Knuth, Irving, Neuwirth, Kooi, ...)
DETERMINED = "determined"    # one secret left: it is the guess
CONSISTENT = "consistent"    # a consistent code only (the space is too large to score guesses)


@dataclass
class Provenance:
    """Where an answer came from and how far it can be trusted."""

    source: str
    objective: str
    honoured: bool                 # a proved optimum for ``objective`` from this position
    complete: bool = True          # False: cut by the deadline or Ctrl-C (best so far)
    stopped: str | None = None     # "time" or "interrupted" when not complete
    note: str = ""

    def to_json(self) -> dict:
        return {"source": self.source, "objective": self.objective, "honoured": self.honoured,
                "complete": self.complete, **({"stopped": self.stopped} if self.stopped else {}),
                "note": self.note}


@dataclass
class Remaining:
    """The secrets consistent with a log: an exact count, or proved bounds on it."""

    count: int | None              # exact when ``exact``, else a lower bound (None: unknown)
    exact: bool
    upper: int | None = None       # a proved upper bound when not exact

    def to_json(self) -> dict:
        return {"count": self.count, "exact": self.exact,
                **({"upper": self.upper} if not self.exact else {})}


@dataclass
class Needed:
    """A proved interval on the guesses still needed from a position, for one objective:
    ``worst`` counts guesses in the worst case, ``expected`` the total over the secrets left
    (the guess played from here counts 1 for every secret)."""

    objective: str
    lower: int | None
    upper: int | None
    lower_method: str = ""
    upper_method: str = ""

    @property
    def exact(self) -> int | None:
        return self.lower if self.lower is not None and self.lower == self.upper else None

    def raise_lower(self, value: int | None, method: str) -> None:
        if value is not None and (self.lower is None or value > self.lower):
            self.lower, self.lower_method = int(value), method

    def lower_upper(self, value: int | None, method: str) -> None:
        if value is not None and (self.upper is None or value < self.upper):
            self.upper, self.upper_method = int(value), method

    def to_json(self) -> dict:
        return {"objective": self.objective, "lower": self.lower, "upper": self.upper,
                "exact": self.exact, "lower_method": self.lower_method,
                "upper_method": self.upper_method}

    def text(self) -> str:
        unit = "guesses in the worst case" if self.objective == "worst" else "guesses in total"
        lo = "?" if self.lower is None else self.lower
        hi = "?" if self.upper is None else self.upper
        return f"{lo} {unit}" if self.exact is not None else f"[{lo}, {hi}] {unit}"


@dataclass
class Advice:
    """The next guess from a position and everything known about it.

    The JSON keeps the fields ``cbsolve next`` always printed (``guess``, ``strategy``,
    ``candidates``, ``determined``, ``guesses``, ``partition``) and adds the provenance."""

    guess: str | None
    strategy: str
    remaining: Remaining
    provenance: Provenance
    guesses: str = "all"
    partition: dict = field(default_factory=dict)
    needed: Needed | None = None
    optimum: dict | None = None    # the exact optimum from here, when an exact search ran
    solved: int | None = None      # the entry whose reply had every bull: the game is over

    @property
    def candidates(self) -> int | None:
        return self.remaining.count

    @property
    def determined(self) -> bool:
        return self.remaining.exact and self.remaining.count == 1

    @property
    def source(self) -> str:
        return self.provenance.source

    @property
    def note(self) -> str:
        return self.provenance.note

    def to_json(self) -> dict:
        data = {"guess": self.guess, "strategy": self.strategy, "candidates": self.candidates,
                "exact": self.remaining.exact, "determined": self.determined,
                "guesses": self.guesses, "partition": self.partition,
                **self.provenance.to_json(),
                "needed": None if self.needed is None else self.needed.to_json()}
        if self.determined:
            data["secret"] = self.guess
        if self.optimum is not None:
            data["optimum"] = self.optimum
        if self.solved is not None:
            data["solved"] = self.solved
        return data


@dataclass
class Move(Advice):
    """The advised guess with its provenance, as the API gives it (:func:`cbsolve.api.next_guess`,
    re-exported by :mod:`cbsolve.api_results`); ``to_json()`` is the document of
    ``cbsolve next --json``. Kept here, not with the API's heavier results, so that a small
    game's advice loads no NumPy."""

    @classmethod
    def of(cls, advice: Advice) -> Move:
        """The position service's advice as the API's move (the same fields)."""
        return cls(**{f.name: getattr(advice, f.name) for f in fields(advice)})

    def to_json(self) -> dict:
        return {"consistent": True, **super().to_json()}


@dataclass
class PartitionTable:
    """Every guess up to symmetry scored (:meth:`PositionService.partition_table`), the rows
    formatted best first by ``sort``; ``to_json()`` is the document of
    ``cbsolve partition --all --json``. A deadline or Ctrl-C that cut the scoring or the
    formatting leaves the best rows scored (``stopped``: ``time`` or ``interrupted``)."""

    candidates: int
    sort: str
    guesses: list[dict]                # the rows shown, best first
    complete: bool                     # every guess up to symmetry scored
    scored: int
    total: int | None                  # guesses up to symmetry (None: classes not found)
    stopped: str | None = None         # "time" | "interrupted": fewer rows than the whole table
    time_limit: float | None = None

    def to_json(self) -> dict:
        data = {"candidates": self.candidates, "sort": self.sort, "guesses": self.guesses,
                "complete": self.complete, "scored": self.scored, "total": self.total}
        if self.stopped is not None:
            data.update(command="partition", shown=len(self.guesses), stopped=self.stopped,
                        time_limit=self.time_limit, time_limit_hit=self.stopped == "time")
        return data
