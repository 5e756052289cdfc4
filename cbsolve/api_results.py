"""The API's results that add to a package face's result what the CLI's document adds: the
advice as ``cbsolve next`` prints it (:class:`~cbsolve.advisor.answers.Move`, kept beside the
advice it extends so that a small game's ``next`` loads no NumPy), the position service's
optimum (:class:`~cbsolve.advisor.optimum.Optimum`) and table of every guess
(:class:`~cbsolve.advisor.answers.PartitionTable`), all three re-exported here; the verifier's
report with the file's format.

Place in the data flow: beside :mod:`cbsolve.api` (loaded by the calls that return them, so
``import cbsolve.api`` stays light); each ``to_json()`` is the matching command's ``--json``
document (docs/contract.md).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from .advisor.answers import Move, PartitionTable
from .advisor.optimum import Optimum
from .certificates.certify import Report

__all__ = ["Move", "Optimum", "PartitionTable", "Verification", "extend"]

T = TypeVar("T")


def extend(base: Any, cls: type[T], **extra: Any) -> T:
    """``base`` (a dataclass) as an instance of its subclass ``cls``, plus ``extra`` fields."""
    values = {f.name: getattr(base, f.name) for f in fields(base)}
    return cls(**values, **extra)


@dataclass
class Verification(Report):
    """The verifier's report (:class:`cbsolve.certificates.certify.Report`) and the file's format;
    ``to_json()`` is the document of ``cbsolve verify --json``."""

    format: str = "cbsolve"
    #: The tree or certificate as read (in cbsolve's format, whatever the file's): what
    #: ``--html`` draws and ``convert`` writes. Not part of the document.
    document: dict | None = field(default=None, repr=False)

    def to_json(self) -> dict:
        return {**super().to_json(), "format": self.format}
