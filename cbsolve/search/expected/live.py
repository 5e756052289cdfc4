"""The interval the expected-case search has proved while it runs (objective units): the
upper end the incumbent's value, the lower end the least bound over the first guesses settled,
the one being solved (its classes' bounds so far) and the next in the scan's bound order
(every later one is at least that). The progress display and Ctrl-C read it.

Place in the data flow: the driver's loop over first guesses (:class:`.search._Search`)
records here -> the progress bar and the progress callable (every poll), and the interrupted
result (:meth:`.search._Search.interrupted`).
"""
from __future__ import annotations

import threading

from .kernel import _Class


class LiveInterval:
    """The proved interval of one run; ``first``: what the first guess costs every secret
    (the set's size times the guess's weight)."""

    def __init__(self, first: int, lock: threading.Lock) -> None:
        self.first = first
        self.lock = lock
        self.upper: int | None = None
        self.bounds: list[tuple[int, int]] | None = None   # None: the scan has not begun
        self.current = None         # (scan bound, classes) of the first guess being solved
        self.pending: int | None = None    # the next first guess's scan bound

    def partial_bound(self, classes: list[_Class], scan_bound) -> tuple[int, int]:
        """A first guess's bound from its classes' bounds so far, at least its scan bound."""
        if not classes:
            return scan_bound
        t = self.first + sum(c.lower[0] for c in classes)
        w = 1 + max((c.lower[1] for c in classes), default=0)
        return max((t, w), scan_bound)

    def interval(self) -> tuple[int | None, int | None]:
        """(lower, upper) proved so far; lower None before the scan began."""
        if self.bounds is None:
            return None, self.upper
        with self.lock:
            parts = [b[0] for b in self.bounds]
            if self.current is not None:
                parts.append(self.partial_bound(self.current[1], self.current[0])[0])
            if self.pending is not None:
                parts.append(self.pending)
        lower = min(parts) if parts else self.upper
        if lower is not None and self.upper is not None:
            lower = min(lower, self.upper)
        return lower, self.upper
