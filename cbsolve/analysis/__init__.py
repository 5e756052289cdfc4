"""Variant analyses: sweep variants x strategies (and bounds) into CSV, Markdown and PNG plots.

Place in the data flow: the last stop, on top of strategies (:func:`cbsolve.strategy.evaluate`)
and bounds (:func:`cbsolve.bounds.compute_bounds`). A sweep is a list of independent cells
(:mod:`.sweep`), run on a local process pool or a Dask distributed cluster (:mod:`.runners`),
written as they finish and resumable (:mod:`.report`): cells already in the output directory are
skipped on a rerun.

>>> cells = make_cells(["mastermind"], lengths=[2], alphabets=[3], strategies=["minimax"],
...                    bounds=False)
>>> [c["key"] for c in cells]
['N=2 D=3 repeats symbols=123 minimax']
"""
from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..runtime.deadline import UNLIMITED, Deadline, request_stop
from ..runtime.status import StopReason
from .proved import overlay
from .report import Appender, markdown, plots, read_rows, write_results
from .runners import run_dask, run_local
from .sweep import (
    BOUNDS,
    COLUMNS,
    DEFAULT_ALPHABETS,
    DEFAULT_FAMILIES,
    DEFAULT_LENGTHS,
    DEFAULT_STRATEGIES,
    STOPPED,
    make_cells,
    run_cell,
)


@dataclass
class SweepResult:
    out: Path
    cells: int
    computed: int
    skipped: int                 # already in the output (resumed)
    errors: int
    seconds: float
    rows: list[dict] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    interrupted: bool = False    # Ctrl-C: the cells computed so far are kept, no plots drawn
    time_limit_hit: bool = False  # --time-limit: likewise
    time_limit: float | None = None

    @property
    def complete(self) -> bool:
        return self.skipped + self.computed == self.cells

    def to_json(self) -> dict:
        return {"out": str(self.out), "cells": self.cells, "computed": self.computed,
                "resumed": self.skipped, "errors": self.errors,
                "seconds": round(self.seconds, 3), "files": self.files,
                **({"interrupted": True} if self.interrupted else {}),
                **({"time_limit": self.time_limit} if self.time_limit is not None else {}),
                **({"time_limit_hit": True, "complete": self.complete}
                   if self.time_limit_hit else {})}


def run_sweep(cells: list[dict], out, workers: int | None = None, scheduler: str | None = None,
              progress=None, make_plots: bool = True, *,
              deadline: Deadline | None = None) -> SweepResult:
    """Compute the cells not yet in ``out``, then write the CSV, Markdown and plots.

    ``scheduler``: a Dask scheduler address (``tcp://host:8786``); otherwise a local pool of
    ``workers`` processes. ``progress(done, total)`` is called as cells finish. ``deadline``
    (None: no limit): when it expires, or on Ctrl-C, the running cells are
    ended and not kept, and the report is written from the cells finished.
    """
    start = time.perf_counter()
    deadline = deadline or UNLIMITED
    out = Path(out)
    done = read_rows(out)
    todo = [c for c in cells if c["key"] not in done]
    errors = computed = 0
    appender = Appender(out)
    try:
        if scheduler:
            stream = run_dask(todo, scheduler, deadline=deadline)
        else:   # a cell in this process hears the deadline; a pool's workers are ended at it
            stream = run_local(todo, workers, deadline=deadline,
                               work=functools.partial(run_cell, deadline=deadline)
                               if workers == 0 else run_cell)
        for res in stream:
            row = res["row"]
            if row["status"] == STOPPED:                 # cut short: computed again next time
                continue
            computed += 1
            appender.add(row, res["seconds"], res.get("cpu_seconds", 0.0))
            if row["status"] == "ok" or row["status"] == "skipped":
                done[row["key"]] = row
            else:
                errors += 1
            if progress:
                progress(computed, len(todo))
    except KeyboardInterrupt:
        # Ctrl-C landed in this thread (a cell in this process did not stop within the grace
        # period): the cells finished so far are the answer, reported below
        request_stop()
    finally:
        appender.close()
    # the report shows the project's best proved values (the bounds table, certified models)
    done = {key: overlay(row) for key, row in done.items()}
    table = write_results(out, done, [c["key"] for c in cells])
    files = [str(out / "results.csv"), str(out / "timings.csv")]
    (out / "results.md").write_text(markdown(table), encoding="utf-8")
    files.append(str(out / "results.md"))
    # after Ctrl-C the plots (seconds of matplotlib) would outlast the grace period and lose
    # the report; the next run draws them
    why = deadline.reason()
    if make_plots and table and why is None:
        files += [str(p) for p in plots(table, out)]
    return SweepResult(out, len(cells), computed, len(cells) - len(todo), errors,
                       time.perf_counter() - start, table, files,
                       interrupted=why is StopReason.INTERRUPTED, time_limit_hit=why is StopReason.TIME,
                       time_limit=deadline.seconds)


__all__ = ["BOUNDS", "COLUMNS", "DEFAULT_ALPHABETS", "DEFAULT_FAMILIES", "DEFAULT_LENGTHS",
           "DEFAULT_STRATEGIES", "SweepResult", "make_cells", "run_cell", "run_sweep"]
