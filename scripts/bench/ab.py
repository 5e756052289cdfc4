"""Two checkouts side by side: the one harness of the benchmarks that compare code bases.

A checkout is a directory holding a ``cbsolve`` package with its built kernels (another
worktree, or ``git archive <commit> cbsolve | tar -x`` with the ``.so`` files copied in). Every
run is a fresh process whose ``cbsolve`` is that checkout's (``PYTHONPATH`` and working
directory), so two code bases never share a process or a cache. :func:`together` starts the
runs at the same time, so both see the same load of a shared machine (the local search's
ratio wandered by +-15% one after the other, stayed within +-5% together);
:func:`alternating` orders runs one at a time A B B A, so a drift of the load cancels.
Used by ``bench_toolkit.py``, ``bench_setup.py`` and ``bench_verify_certificates.py``.

From the command line, ``python scripts/bench/ab.py CHECKOUT ARG...`` becomes ``python ARG...``
with CHECKOUT's cbsolve (the same process, by ``exec``: nothing of this script stays to be
timed), so an outside timer that runs two commands in turn compares two checkouts:

    ab.py . -m cbsolve evaluate ...        # this checkout
    ab.py /path/to/baseline -m cbsolve evaluate ...
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


def environment(checkout: Path) -> dict:
    """The environment of a process that imports ``checkout``'s cbsolve."""
    return dict(os.environ, PYTHONPATH=str(checkout))


def _start(checkout: Path, argv: list[str]) -> subprocess.Popen:
    # stderr to a file: a pipe left unread while stdout is read could fill and block the child
    env = environment(checkout)
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


def main(argv: list[str] | None = None) -> None:
    """``ab.py CHECKOUT ARG...``: become ``python ARG...`` run in and with CHECKOUT."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 2:
        raise SystemExit("usage: ab.py CHECKOUT ARG... (python ARG... with CHECKOUT's cbsolve)")
    checkout = Path(argv[0]).resolve()
    if not (checkout / "cbsolve").is_dir():
        raise SystemExit(f"{checkout}: no cbsolve package here")
    os.chdir(checkout)
    os.execve(sys.executable, [sys.executable, *argv[1:]], environment(checkout))


if __name__ == "__main__":
    main()
