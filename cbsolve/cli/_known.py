"""How ``optimal`` shows its progress on stderr: the interval known before the search (with what
proves its upper end) as the search starts, then the search's interval as it tightens, a rich
status line under a terminal or plain lines with ``--verbose``. The interval heard is already
merged with the known one (:func:`cbsolve.optimal` merges it).
"""
from __future__ import annotations

import sys
import time

from ..bounds.known import Known

#: Plain progress lines (``--verbose`` without a terminal): at most one per this many seconds.
LINE_SECONDS = 2.0
#: The worst-case search's phases, in words.
WORDS = {"greedy": "greedy upper bound", "feasible": "deciding whether {d} guesses suffice",
         "tree": "building the depth-{d} tree", "certificate": "certifying that {d} do not suffice"}


def interval_text(lower, upper) -> str:
    return f"[{'?' if lower is None else lower}, {'?' if upper is None else upper}]"


def announce(known: Known | None, objective: str) -> None:
    """The known interval on stderr as the search starts, with what proves its upper end."""
    if known is None or (known.lower is None and known.upper is None):
        return
    what = "worst case" if objective == "worst" else "total guesses"
    why = f" (upper end: {known.upper_method})" if known.upper is not None else ""
    print(f"optimal: {what} in {interval_text(known.lower, known.upper)} before the search"
          f"{why}", file=sys.stderr, flush=True)   # again each time it improves


def progress_display(objective: str, show: bool, verbose: bool):
    """(the progress callable for :func:`cbsolve.optimal` or None, a function that ends the
    display): a rich status line when ``show`` (a terminal), plain lines at most one every
    LINE_SECONDS when ``verbose``."""
    if not (show or verbose):
        return None, lambda: None
    what = "worst case" if objective == "worst" else "total guesses"
    status = None
    last = [0.0]

    def update(phase: str, d: int, counters, lower, upper) -> None:
        nonlocal status
        if phase == "known":
            announce(counters, objective)
            return
        if phase == "bounds":           # what `bounds` works on before the search
            if verbose:
                print(f"optimal: {counters} (before the search) ...", file=sys.stderr, flush=True)
                return
            status = status or _status()
            status.update(f"before the search: {counters}")
            return
        where = _where(phase, d, counters)
        if verbose:
            now = time.monotonic()
            if now - last[0] < LINE_SECONDS:
                return
            last[0] = now
            print(f"optimal: {what} in {interval_text(lower, upper)}; {where}: "
                  f"{counters.nodes:,} nodes", file=sys.stderr, flush=True)
            return
        status = status or _status()
        memo = (f", {counters.memo_entries:,} sets memoised" if objective == "worst" else "")
        status.update(f"{what} in {interval_text(lower, upper)}; {where}: "
                      f"{counters.nodes:,} nodes{memo}{_top(phase, counters)}")

    def stop() -> None:
        if status is not None:
            status.stop()

    return update, stop


def _status():
    from rich.console import Console

    status = Console(stderr=True).status("starting")
    status.start()
    return status


def _where(phase: str, d: int, counters) -> str:
    if phase == "first":     # the expected-case search solving its first guesses in order
        return (f"first guess {counters.guess} ({d}/{counters.top_total}), classes "
                f"{counters.classes_done}/{counters.classes_total}")
    if phase in WORDS:
        return WORDS[phase].format(d=d)
    return f"{phase} at depth {d}"


def _top(phase: str, counters) -> str:
    total = getattr(counters, "top_total", 0)
    if phase == "first" or not total:
        return ""
    return f", top guesses {counters.top_done}/{total}"
