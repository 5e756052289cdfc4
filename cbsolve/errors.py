"""Typed exceptions raised at the public edge.

Every bad input raises a subclass of :class:`CbsolveError` whose message names the bad value and
what is allowed; the CLI turns these into exit code 2 with that one line on stderr.
:class:`InconsistentLog` is an *answer* (exit 1), not a usage error, and carries its diagnosis.
"""
from __future__ import annotations

from .runtime.status import StopReason


class CbsolveError(Exception):
    """Base class of every error cbsolve raises on purpose."""


class Expired(CbsolveError):
    """Work stopped before its end: nothing more was decided than the raiser reports. The one
    family of every stop (a time limit, Ctrl-C's stop request, a node or memory budget), so
    ``except CbsolveError`` catches a stop too; ``reason`` (a :class:`~cbsolve.runtime.status.StopReason`:
    ``TIME``, ``INTERRUPTED``, ``NODES``...) says which, ``None`` when the raiser cannot tell.
    Subclasses carry what the stopped work had (``Unfinished``: the secrets settled;
    ``SearchInterrupted``: the interval proved)."""

    def __init__(self, message: str = "", reason: StopReason | None = None):
        super().__init__(message)
        self.reason = reason


class InvalidVariant(CbsolveError, ValueError):
    """A variant's parameters are out of range or contradict each other."""


class InvalidCode(CbsolveError, ValueError):
    """A code does not belong to the variant's code space."""


class InvalidFeedback(CbsolveError, ValueError):
    """A feedback entry or log file is malformed or impossible for the variant."""


class UnknownName(CbsolveError, ValueError):
    """An unknown preset, backend or strategy name; the message lists the valid ones."""


class SpaceTooLarge(CbsolveError, ValueError):
    """An operation needs to enumerate a code space that is too large."""


class InvalidRecipe(CbsolveError, ValueError):
    """A strategy recipe (cbsolve.strategy.streaming) has an unknown field or a value out of range."""


class InconsistentLog(CbsolveError):
    """No secret satisfies the log. ``conflict`` holds 1-based entry numbers when known."""

    def __init__(self, message: str, conflict: list[int] | None = None,
                 corrections: list[dict] | None = None):
        super().__init__(message)
        self.conflict = conflict
        self.corrections = corrections


def unknown_name(kind: str, name: str, valid) -> UnknownName:
    """Build the standard 'unknown X' error listing the valid names."""
    return UnknownName(f"unknown {kind} {name!r}; choose one of: {', '.join(sorted(valid))}")
