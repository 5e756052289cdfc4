"""Two checkouts side by side: the one harness of the benchmarks that compare code bases.

A checkout is a directory holding a ``cbsolve`` package with its built kernels (another
worktree, or ``git archive <commit> cbsolve | tar -x`` with the ``.so`` files copied in). Every
run is a fresh process whose ``cbsolve`` is that checkout's (``PYTHONPATH`` and working
directory), so two code bases never share a process or a cache. :func:`together` starts the
runs at the same time, so both see the same load of a shared machine (the local search's
ratio wandered by +-15% one after the other, stayed within +-5% together);
:func:`alternating` orders runs one at a time A B B A, so a drift of the load cancels.
Used by ``bench_toolkit.py``, ``bench_setup.py`` and ``bench_verify_certificates.py``.
"""
from __future__ import annotations

import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

#: This checkout: the root above scripts/.
THIS = Path(__file__).resolve().parents[2]


@dataclass
class Run:
    """One process: its checkout, what it printed, its wall and CPU seconds (user + system)."""

    checkout: Path
    stdout: str
    wall: float
    cpu: float

    def last_line(self) -> str:
        return self.stdout.strip().splitlines()[-1]


def _start(checkout: Path, argv: list[str]) -> subprocess.Popen:
    # stderr to a file: a pipe left unread while stdout is read could fill and block the child
    env = dict(os.environ, PYTHONPATH=str(checkout))
    errors = tempfile.TemporaryFile("w+")
    proc = subprocess.Popen([sys.executable, *argv], cwd=checkout, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=errors)
    proc.errors = errors
    return proc


def run(checkout: Path, argv: list[str]) -> Run:
    """``python ARGV`` with ``checkout``'s cbsolve, to the end."""
    return together([checkout], argv)[0]


def together(checkouts: list[Path], argv: list[str]) -> list[Run]:
    """``python ARGV`` once per checkout, all started at the same time; the runs in order."""
    started = time.perf_counter()
    procs = [_start(Path(c), argv) for c in checkouts]
    runs = []
    for checkout, proc in zip(checkouts, procs, strict=True):
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)     # the child's own CPU seconds
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - started
        if proc.returncode:
            proc.errors.seek(0)
            last = (proc.errors.read().strip().splitlines() or ["(no stderr)"])[-1]
            raise SystemExit(f"{checkout}: {' '.join(argv[:2])} failed: {last}")
        proc.errors.close()
        runs.append(Run(Path(checkout), out, wall, usage.ru_utime + usage.ru_stime))
    return runs


def alternating(checkouts: list[Path], rounds: int) -> list[Path]:
    """The checkouts in A B B A order, ``rounds`` times (B A A B every other round)."""
    order = []
    for r in range(rounds):
        one = list(checkouts) if r % 2 == 0 else list(checkouts)[::-1]
        order += one + one[::-1]
    return order


def ratio(mine: list[float], theirs: list[float]) -> float:
    """The geometric mean of the rounds' ratios mine / theirs (paired rounds)."""
    return math.exp(statistics.fmean(math.log(a / b) for a, b in zip(mine, theirs, strict=True)))
