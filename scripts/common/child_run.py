"""One measured child process, shared by the scripts that record what a run cost (the streaming
benchmark, the atlas build's streamed cells): the child runs under ``/usr/bin/time -v``, which
reports its own CPU seconds and peak memory (``RUSAGE_CHILDREN`` would mix every child this
process ever waited for), optionally under an address-space cap, and prints its result as the
last line of its stdout, in JSON.

    python scripts/common/child_run.py --streaming VARIANT_JSON RECIPE_JSON SECONDS

runs one streaming evaluation (:func:`cbsolve.strategy.streaming.evaluate_streaming`) and prints
its result; :func:`streaming` runs that in a measured child.
"""
from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def measured(args: list[str], memory_gb: float | None = None,
             timeout: float | None = None) -> dict:
    """``python args`` in a child under ``/usr/bin/time -v`` (and an address-space cap of
    ``memory_gb``): its last stdout line as JSON, with ``wall_seconds``, ``cpu_seconds``,
    ``peak_rss_mb`` and the ``load`` beside it; on a failure, ``error`` (the child's last line of
    its own on stderr) with the wall seconds and load."""
    def cap():
        size = int(memory_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    run = subprocess.run(["/usr/bin/time", "-v", sys.executable, *args], env=env,
                         preexec_fn=cap if memory_gb is not None else None,
                         capture_output=True, text=True, check=False, timeout=timeout)
    row = {"wall_seconds": round(time.perf_counter() - start, 1),
           "load": round(os.getloadavg()[0], 2)}
    if run.returncode != 0:
        lines = run.stderr.strip().splitlines() or [f"exit {run.returncode}"]
        # /usr/bin/time's report is indented, or starts "Command ...": the child's line is before
        own = [line for line in lines if not line.startswith(("\t", "Command "))] or lines
        return {**row, "error": own[-1][:300]}
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr)
    cpu = [float(x) for x in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", run.stderr)]
    return {**json.loads(run.stdout.strip().splitlines()[-1]), **row,
            "cpu_seconds": round(sum(cpu), 1),
            "peak_rss_mb": round(int(rss.group(1)) / 1024, 1) if rss else None}


def streaming(variant: dict, recipe: dict, seconds: float | None,
              memory_gb: float | None = None) -> dict:
    """One streaming evaluation of ``variant`` (``Variant.to_dict``) by ``recipe`` (fields of
    ``Recipe``) under a Deadline of ``seconds`` (None: none), measured in a child (a stopped run
    is a result too, with ``complete`` false); the wait is bounded ten minutes past it."""
    return measured([__file__, "--streaming", json.dumps(variant), json.dumps(recipe),
                     json.dumps(seconds)], memory_gb,
                    timeout=None if seconds is None else seconds + 600)


def evaluated(variant: dict, recipe: dict, seconds: float | None) -> dict:
    """The streaming evaluation itself, in this process: its result as JSON."""
    from cbsolve.game.variant import Variant
    from cbsolve.runtime.deadline import Deadline
    from cbsolve.strategy.streaming import Recipe, evaluate_streaming

    return evaluate_streaming(Variant.from_dict(variant), Recipe.from_json(recipe),
                              deadline=Deadline(seconds)).to_json()


if __name__ == "__main__" and sys.argv[1:2] == ["--streaming"]:
    print(json.dumps(evaluated(*(json.loads(a) for a in sys.argv[2:5]))))
