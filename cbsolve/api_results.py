"""The API's results that add to a package face's result what the CLI's document adds: the
advice as ``cbsolve next`` prints it (:class:`~cbsolve.advisor.answers.Move`, kept beside the
advice it extends so that a small game's ``next`` loads no NumPy; re-exported here), the exact
search with its variant and position, the verifier's report with the file's format.

Place in the data flow: beside :mod:`cbsolve.api` (loaded by the calls that return them, so
``import cbsolve.api`` stays light); each ``to_json()`` is the matching command's ``--json``
document (docs/contract.md).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from .advisor.answers import Move
from .certify import Report
from .search import SearchResult
from .variant import Variant

__all__ = ["Move", "Optimum", "PartitionTable", "Verification", "extend"]

T = TypeVar("T")


def extend(base: Any, cls: type[T], **extra: Any) -> T:
    """``base`` (a dataclass) as an instance of its subclass ``cls``, plus ``extra`` fields."""
    values = {f.name: getattr(base, f.name) for f in fields(base)}
    return cls(**values, **extra)


@dataclass
class Optimum(SearchResult):
    """The exact search's answer (:class:`cbsolve.search.SearchResult`) with the variant and
    the position it started from; ``to_json()`` is the document of ``cbsolve optimal --json``."""

    variant: Variant | None = None
    position: dict | None = None      # {"entries", "secrets"}; None: the whole game
    upper_from: dict | None = None    # a stopped search: what proves ``upper`` {method, tree}
    out: str | None = None            # the file the tree (or certificate) was written to
    dot: str | None = None            # the file the tree was drawn to (Graphviz DOT)

    def to_json(self) -> dict:
        data = super().to_json()
        if self.variant is not None:
            data["variant"] = self.variant.to_dict()
        if self.position is not None:
            data["position"] = self.position
        for name in ("out", "dot"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        if self.upper_from is not None:
            data["upper_from"] = self.upper_from
        return data


@dataclass
class Verification(Report):
    """The verifier's report (:class:`cbsolve.certify.Report`) and the file's format;
    ``to_json()`` is the document of ``cbsolve verify --json``."""

    format: str = "cbsolve"
    #: The tree or certificate as read (in cbsolve's format, whatever the file's): what
    #: ``--html`` draws and ``convert`` writes. Not part of the document.
    document: dict | None = field(default=None, repr=False)

    def to_json(self) -> dict:
        return {**super().to_json(), "format": self.format}


@dataclass
class PartitionTable:
    """Every guess up to symmetry scored (:func:`cbsolve.strategy.partition.partition_table`),
    the rows formatted best first by ``sort``; ``to_json()`` is the document of
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
