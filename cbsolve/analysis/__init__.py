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

import time
from dataclasses import dataclass, field
from pathlib import Path

from ..deadline import stop_requested
from .proved import overlay
from .report import Appender, markdown, plots, read_rows, write_results
from .sweep import (
    BOUNDS,
    COLUMNS,
    DEFAULT_ALPHABETS,
    DEFAULT_FAMILIES,
    DEFAULT_LENGTHS,
    DEFAULT_STRATEGIES,
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

    def to_json(self) -> dict:
        return {"out": str(self.out), "cells": self.cells, "computed": self.computed,
                "resumed": self.skipped, "errors": self.errors,
                "seconds": round(self.seconds, 3), "files": self.files,
                **({"interrupted": True} if self.interrupted else {})}


def run_sweep(cells: list[dict], out, workers: int | None = None, scheduler: str | None = None,
              progress=None, make_plots: bool = True) -> SweepResult:
    """Compute the cells not yet in ``out``, then write the CSV, Markdown and plots.

    ``scheduler``: a Dask scheduler address (``tcp://host:8786``); otherwise a local pool of
    ``workers`` processes. ``progress(done, total)`` is called as cells finish.
    """
    from .runners import run_dask, run_local

    start = time.perf_counter()
    out = Path(out)
    done = read_rows(out)
    todo = [c for c in cells if c["key"] not in done]
    errors = computed = 0
    appender = Appender(out)
    try:
        stream = run_dask(todo, scheduler) if scheduler else run_local(todo, workers)
        for i, res in enumerate(stream, 1):
            computed = i
            row = res["row"]
            appender.add(row, res["seconds"], res.get("cpu_seconds", 0.0))
            if row["status"] == "ok" or row["status"] == "skipped":
                done[row["key"]] = row
            else:
                errors += 1
            if progress:
                progress(i, len(todo))
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
    interrupted = stop_requested()
    if make_plots and table and not interrupted:
        files += [str(p) for p in plots(table, out)]
    return SweepResult(out, len(cells), computed, len(cells) - len(todo), errors,
                       time.perf_counter() - start, table, files, interrupted)


__all__ = ["BOUNDS", "COLUMNS", "DEFAULT_ALPHABETS", "DEFAULT_FAMILIES", "DEFAULT_LENGTHS",
           "DEFAULT_STRATEGIES", "SweepResult", "make_cells", "run_cell", "run_sweep"]
