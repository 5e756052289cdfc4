"""The constructions' time check: the closed-form constructions recurse over splits, and on huge
variants that takes seconds (64 of 26 letters with repeats: 7.6 s, most of it in the weighing
and balance recursions). Under a command's Deadline they stop instead and are reported as not
computed, never half computed: :func:`check` raises :class:`OutOfTime`, and ``functools.cache``
keeps no value for a call that raised, so every value cached is whole.
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterator

from ..runtime.deadline import Deadline
from ..errors import Expired


class OutOfTime(Expired):
    """The deadline of :func:`within` expired inside a construction."""


#: The deadline the running construction answers to (one at a time: ``bounds`` computes its
#: constructions in the command's thread).
_ACTIVE: list[Deadline] = []


@contextlib.contextmanager
def within(deadline: Deadline) -> Iterator[None]:
    """While the block runs, :func:`check` raises :class:`OutOfTime` once ``deadline`` expired."""
    _ACTIVE.append(deadline)
    try:
        yield
    finally:
        _ACTIVE.pop()


def check() -> None:
    """Called by each step of a construction's recursion (a few thousand on the largest)."""
    if _ACTIVE and _ACTIVE[-1].expired():
        raise OutOfTime("a construction stopped", _ACTIVE[-1].reason())
