"""How ``optimal`` shows the interval known before its search ends (:mod:`cbsolve.bounds.known`)
on stderr: the line as the search starts, and ``--verbose``'s progress lines without a terminal.
"""
from __future__ import annotations

import sys
import time

from ..bounds.known import Known, merged

#: Plain progress lines (``--verbose`` without a terminal): at most one per this many seconds.
LINE_SECONDS = 2.0


def interval_text(lower, upper) -> str:
    return f"[{'?' if lower is None else lower}, {'?' if upper is None else upper}]"


def announce(known: Known | None, objective: str) -> None:
    """The known interval on stderr as the search starts, with what proves its upper end."""
    if known is None or (known.lower is None and known.upper is None):
        return
    what = "worst case" if objective == "worst" else "total guesses"
    why = f" (upper end: {known.upper_method})" if known.upper is not None else ""
    print(f"optimal: {what} in {interval_text(known.lower, known.upper)} before the search"
          f"{why}", file=sys.stderr, flush=True)


def line_printer(known: Known | None):
    """``--verbose`` without a terminal: the worst-case search's progress as plain lines on
    stderr, the interval merged with the known one, at most one every LINE_SECONDS."""
    last = [0.0]

    def update(method: str, d: int, counters, lower, upper) -> None:
        now = time.monotonic()
        if now - last[0] < LINE_SECONDS:
            return
        last[0] = now
        lo, hi = merged(known, lower, upper)
        print(f"optimal: worst case in {interval_text(lo, hi)}; {method} at depth {d}: "
              f"{counters.nodes:,} nodes", file=sys.stderr, flush=True)

    return update
