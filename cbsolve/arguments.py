"""The ranges of the arguments every entry point takes, checked in one place.

The CLI's option types (``cli/__init__.py``: ``SECONDS``, ``COUNT``, ``SEED``, ``WORKERS``...)
and the Python API's keywords (``api.py``) call the same checks, so ``--limit`` and ``limit=``
accept the same values and refuse the rest with the same words: the argument's name, what is
allowed, and what was given. A refusal is :class:`InvalidArgument` (a :class:`CbsolveError`),
never the TypeError or ValueError a native binding or NumPy would raise further down.

>>> whole(3, "limit")
3
>>> whole(-1, "limit")
Traceback (most recent call last):
...
cbsolve.arguments.InvalidArgument: limit must be a whole number in 0..2147483647, got -1
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Collection, Iterable
from typing import Any

from .runtime.deadline import Deadline
from .errors import CbsolveError, unknown_name

#: Sizes that become array lengths or native ints (2^31 - 1 is the native kernels' int): a typo
#: is an error, not a memory failure.
MAX_COUNT = 2**31 - 1
#: Seeds feed NumPy's generator (non-negative only) and the native kernels' 64-bit generators.
MAX_SEED = 2**64 - 1
#: Most threads (or local workers): libgomp aborts the process when it cannot create the threads
#: asked for (``--workers 100000``), and a sweep's pool of 99,999 processes is no better.
MAX_WORKERS = 256


class InvalidArgument(CbsolveError, ValueError):
    """An argument outside its range; ``name``, ``expected`` and ``got`` make the message."""

    def __init__(self, name: str, expected: str, got: Any):
        self.name, self.expected, self.got = name, expected, got
        super().__init__(f"{name} must be {expected}, got {_short(repr(got))}")


def _short(text: str, keep: int = 60) -> str:
    return text if len(text) <= keep else f"{text[:keep]}...({len(text)} characters)"


def _is_int(value: Any) -> bool:
    """A whole number as Python or NumPy spells it; True and False are flags, not numbers."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def whole(value: Any, name: str, low: int = 0, high: int = MAX_COUNT,
          from_text: bool = False) -> int:
    """``value`` as an int in ``low..high``; ``from_text``: a string of digits is read (the
    command line's words; the API takes numbers)."""
    expected = f"a whole number in {low}..{high}"
    if isinstance(value, str) and from_text:
        text = value.strip()
        if not (text.lstrip("+-").isdigit() and len(text) <= 40):
            raise InvalidArgument(name, expected, value)
        value = int(text)
    if not _is_int(value) or not low <= int(value) <= high:
        raise InvalidArgument(name, expected, value)
    return int(value)


def optional_whole(value: Any, name: str, low: int = 0, high: int = MAX_COUNT) -> int | None:
    """:func:`whole`, or None (the argument's default: no cap, drawn at random...)."""
    return None if value is None else whole(value, name, low, high)


def count(value: Any, name: str) -> int | None:
    """A size or cap: None or 0..MAX_COUNT."""
    return optional_whole(value, name)


def positive(value: Any, name: str) -> int | None:
    """A depth or a sample size: None or 1..MAX_COUNT."""
    return optional_whole(value, name, 1)


def seed(value: Any, name: str = "seed") -> int | None:
    """A random seed: None (drawn) or 0..MAX_SEED."""
    return optional_whole(value, name, 0, MAX_SEED)


def workers(value: Any, name: str = "workers", low: int = 1) -> int | None:
    """Parallel workers: None (one per core) or ``low``..MAX_WORKERS (``low`` 0: a sweep's
    "in this process")."""
    return optional_whole(value, name, low, MAX_WORKERS)


def seconds(value: Any, name: str = "time_limit", positive: bool = False) -> float | None:
    """A time in seconds: None (no limit) or a finite number >= 0 (> 0 with ``positive``).
    NaN and infinity mean nothing as a deadline and cannot be written in JSON."""
    expected = f"None or a finite number of seconds {'>' if positive else '>='} 0"
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, str)) and value is not None:
        raise InvalidArgument(name, expected, value)
    if value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise InvalidArgument(name, expected, value) from None
    if not math.isfinite(number) or number < 0 or (positive and number == 0):
        raise InvalidArgument(name, expected, value)
    return number


def flag(value: Any, name: str) -> bool:
    """A yes/no argument: True or False (1 and 0 too; not "no", which is true in Python)."""
    if isinstance(value, bool) or (_is_int(value) and value in (0, 1)):
        return bool(value)
    raise InvalidArgument(name, "True or False", value)


def choice(value: Any, name: str, allowed: Collection[str]) -> str:
    """One of ``allowed`` (an :class:`~cbsolve.errors.UnknownName` listing them otherwise)."""
    if not isinstance(value, str):
        raise InvalidArgument(name, f"one of {', '.join(sorted(allowed))}", value)
    if value not in allowed:
        raise unknown_name(name, value, allowed)
    return value


def text(value: Any, name: str) -> str:
    """A string argument (a code, a name)."""
    if not isinstance(value, str):
        raise InvalidArgument(name, "a string", value)
    return value


def optional_text(value: Any, name: str) -> str | None:
    """:func:`text`, or None (the argument's default)."""
    if value is not None and not isinstance(value, str):
        raise InvalidArgument(name, "a string or None", value)
    return value


def path(value: Any, name: str, optional: bool = True):
    """A file or directory name: a non-empty str or os.PathLike (None with ``optional``)."""
    import os

    if value is None and optional:
        return None
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str) or not value.strip():
        raise InvalidArgument(name, "a file name (str or path)" + (" or None" if optional else ""),
                              value)
    return value


def callback(value: Any, name: str) -> Any:
    """A progress callback: None or a callable."""
    if value is not None and not callable(value):
        raise InvalidArgument(name, "None or a callable", value)
    return value


def items(value: Any, name: str, default: Collection, check) -> list:
    """A list argument (``lengths=``, ``strategies=``): ``default`` for None, else each item
    of ``value`` (an iterable, one string standing for itself) passed through ``check``."""
    if value is None:
        return list(default)
    if isinstance(value, str):
        value = [value]
    if isinstance(value, (bytes, dict)) or not isinstance(value, Iterable):
        raise InvalidArgument(name, "None or a list", value)
    return [check(item) for item in value]


def deadline(value: Any, name: str = "deadline"):
    """None or a :class:`~cbsolve.runtime.deadline.Deadline` (a number of seconds is ``time_limit=``)."""
    if value is not None and not isinstance(value, Deadline):
        hint = " (for seconds, pass time_limit=)" if isinstance(value, numbers.Real) else ""
        raise InvalidArgument(name, f"None or a cbsolve.Deadline{hint}", value)
    return value


__all__ = ["InvalidArgument", "MAX_COUNT", "MAX_SEED", "MAX_WORKERS", "callback", "choice",
           "count", "deadline", "flag", "items", "optional_whole", "path", "positive", "seconds", "seed",
           "optional_text", "text", "whole", "workers"]
