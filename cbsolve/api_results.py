"""The API's results that add to a package face's result what the CLI's document adds: the
advice as ``cbsolve next`` prints it (:class:`~cbsolve.advisor.answers.Move`, kept beside the
advice it extends so that a small game's ``next`` loads no NumPy; re-exported here), the exact
search with its variant and position, the verifier's report with the file's format.

Place in the data flow: beside :mod:`cbsolve.api` (loaded by the calls that return them, so
``import cbsolve.api`` stays light); each ``to_json()`` is the matching command's ``--json``
document (docs/contract.md).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .advisor.answers import Move
from .certify import Report
from .search import SearchResult
from .variant import Variant

__all__ = ["Move", "Optimum", "Verification"]


@dataclass
class Optimum(SearchResult):
    """The exact search's answer (:class:`cbsolve.search.SearchResult`) with the variant and
    the position it started from; ``to_json()`` is the document of ``cbsolve optimal --json``."""

    variant: Variant | None = None
    position: dict | None = None      # {"entries", "secrets"}; None: the whole game
    upper_from: dict | None = None    # a stopped search: what proves ``upper`` {method, tree}

    def to_json(self) -> dict:
        data = super().to_json()
        if self.variant is not None:
            data["variant"] = self.variant.to_dict()
        if self.position is not None:
            data["position"] = self.position
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
