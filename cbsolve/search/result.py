"""What an exact search answers: one result type for both objectives, and the kernels' verdicts.

Every search returns a :class:`SearchResult`, whatever the objective, so the CLI, bounds and
analyses read one shape. ``proved`` is True only when no pruning could have lost the optimum;
otherwise ``lower``/``upper`` bracket the objective value.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from ..errors import Expired
from ..runtime.status import Status, StopReason


class Verdict(IntEnum):
    """The worst-case kernel's answer to "can every secret of this set be found within d
    guesses?" (``feasible``): its -1/0/1, named."""

    STOPPED = -1       # the time limit or a stop request came first: nothing decided
    NO = 0             # proved: d guesses do not suffice
    YES = 1            # proved: they do


@dataclass
class SearchResult:
    objective: str                      # "worst" or "expected"
    status: Status                      # OPTIMAL when proved, FEASIBLE/UNKNOWN on a time limit
    proved: bool
    secrets: int
    worst: int | None = None            # of the best strategy found (tree)
    total: int | None = None
    histogram: dict[int, int] = field(default_factory=dict)
    lower: int | None = None            # proved bounds on the objective value:
    upper: int | None = None            # guesses (worst) or total guesses (expected)
    max_depth: int | None = None
    guesses: str = "all"
    seconds: float = 0.0
    nodes: int = 0
    tree: dict | None = None            # docs/tree-format.md
    certificate: dict | None = None     # lower-bound certificate (worst objective)
    notes: list[str] = field(default_factory=list)
    phases: dict[str, float] = field(default_factory=dict)  # seconds per search phase
    interrupted: bool = False           # stopped by Ctrl-C (the interval is what was proved)
    stop: StopReason | None = None      # why the search stopped early, as its kernel says (None: it did not)
    # worst objective's tie-break: proved interval [lower, upper] on the fewest secrets that
    # need the worst-case number of guesses (upper = the tree's count)
    at_worst: tuple[int, int] | None = None
    reply_source: str | None = None     # "matrix" or "on-the-fly" (cbsolve.search.memory)
    checkpoint: dict | None = None      # --checkpoint: where, resumed or not, writes made
    solved: int | None = None           # a log already won: the entry that had every bull

    @property
    def average(self) -> float | None:
        return None if self.total is None else self.total / self.secrets

    def to_json(self) -> dict:
        return {"objective": self.objective, "status": str(self.status), "proved": self.proved,
                "secrets": self.secrets, "worst": self.worst, "total": self.total,
                "average": self.average,
                "histogram": {str(k): v for k, v in sorted(self.histogram.items())},
                "lower": self.lower, "upper": self.upper, "max_depth": self.max_depth,
                "guesses": self.guesses, "seconds": round(self.seconds, 3), "nodes": self.nodes,
                "notes": self.notes,
                **({"interrupted": True} if self.interrupted else {}),
                **({"reply_source": self.reply_source} if self.reply_source else {}),
                **({"checkpoint": self.checkpoint} if self.checkpoint else {}),
                **({"solved": self.solved} if self.solved is not None else {}),
                "time_limit_hit": self.stop is StopReason.TIME,
                **({"stop": str(self.stop)} if self.stop is not None else {}),
                **({"at_worst": {"lower": self.at_worst[0], "upper": self.at_worst[1]}}
                   if self.at_worst is not None else {}),
                # proved: no strategy within max_depth guesses, so the worst case exceeds it
                **({"infeasible": {"max_depth": self.max_depth,
                                   "worst_at_least": self.max_depth + 1}}
                   if self.status == Status.INFEASIBLE and self.max_depth else {})}


class SearchInterrupted(Expired, KeyboardInterrupt):
    """Ctrl-C stopped a search: ``result`` holds what was proved by then (the interval
    ``lower``/``upper``, ``proved`` False unless the value itself was already proved). A stop
    of the :class:`~cbsolve.errors.Expired` family, and a KeyboardInterrupt too, so a caller
    that does not look at it still exits as interrupted: code that turns errors into
    answers lets ``KeyboardInterrupt`` through first."""

    def __init__(self, result: SearchResult):
        super().__init__("the search was interrupted (Ctrl-C)", StopReason.INTERRUPTED)
        self.result = result
