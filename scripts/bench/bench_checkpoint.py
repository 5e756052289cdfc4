"""What a SIGKILL costs a checkpointed `cbsolve optimal` run (docs/optimal.md, "Checkpoint
and resume"; figures in docs/benchmarks.md).

For each game: one whole run with ``--checkpoint`` (its wall and CPU seconds, W), then a
second run killed with SIGKILL at ``--at`` (default 0.6) of W, then ``--resume``: its wall and
CPU seconds (R). The target is R <= 0.5 W + the checkpoint interval. CPU is the children's
user + system seconds (``resource.getrusage``), less noisy than wall on a shared machine.

    nice python scripts/bench/bench_checkpoint.py                       # both games below
    nice python scripts/bench/bench_checkpoint.py --game mm57-worst --every 10
    nice python scripts/bench/bench_checkpoint.py --gaps     # the longest step between writes

The overhead of checkpointing itself (on against off) is measured side by side with an A/B
timer of whole processes, not here.
"""
from __future__ import annotations

import argparse
import json
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = {
    "mm57-worst": ["--variant", "mastermind", "--length", "5", "--digits", "7"],
    "bc410-expected": ["--variant", "bulls-cows", "--objective", "expected"],
    "tiny-expected": ["--variant", "bulls-cows", "--length", "3", "--digits", "6",
                      "--objective", "expected"],
}


def _cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def timed(args: list[str], kill_after: float | None = None) -> tuple[float, float, dict | None]:
    """(wall, CPU, JSON document or None when killed) of ``cbsolve optimal ARGS --json``."""
    cpu0, t0 = _cpu(), time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "cbsolve", "optimal", *args, "--json"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, _ = proc.communicate(timeout=kill_after)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
        out = None
    wall, cpu = time.perf_counter() - t0, _cpu() - cpu0
    return wall, cpu, (json.loads(out) if out else None)


def measure(game: str, every: float, at: float, workers: int) -> dict:
    base = [*GAMES[game], "--workers", str(workers), "--checkpoint-every", str(every)]
    work = Path(tempfile.mkdtemp(prefix="bench-checkpoint-"))
    try:
        whole_wall, whole_cpu, whole = timed([*base, "--checkpoint", str(work / "whole")])
        killed_wall, killed_cpu, _ = timed([*base, "--checkpoint", str(work / "cut")],
                                           kill_after=at * whole_wall)
        saved = (work / "cut" / "checkpoint.json").exists()
        # killed before its first write (start-up): the rerun starts from zero, as it must
        again = (["--resume", str(work / "cut"), "--workers", str(workers)] if saved
                 else [*base, "--checkpoint", str(work / "cut")])
        resume_wall, resume_cpu, resumed = timed(again)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    value = "worst" if "worst" in game else "total"
    return {"game": game, "every": every, "at": at, "whole_wall": round(whole_wall, 2),
            "whole_cpu": round(whole_cpu, 2), "killed_wall": round(killed_wall, 2),
            "checkpoint_before_kill": saved, "resume_wall": round(resume_wall, 2),
            "resume_cpu": round(resume_cpu, 2),
            "resume_over_whole_cpu": round(resume_cpu / whole_cpu, 3),
            "target_cpu": round(0.5 * whole_cpu + every, 2),
            "same_value": whole[value] == resumed[value] and resumed["proved"]}


def gaps(game: str, workers: int, every: float = 0.5) -> dict:
    """The unit of loss: one run writing every ``every`` s, the file's changes watched; the
    longest wall time between two writes is the longest step proved in one piece (a kill
    loses at most that plus the interval)."""
    work = Path(tempfile.mkdtemp(prefix="bench-checkpoint-"))
    path = work / "ck" / "checkpoint.json"
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "cbsolve", "optimal", *GAMES[game],
                             "--workers", str(workers), "--checkpoint", str(work / "ck"),
                             "--checkpoint-every", str(every)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen, last = [], None
    try:
        while proc.poll() is None:
            try:
                stamp = path.stat().st_mtime_ns
            except FileNotFoundError:
                stamp = None
            if stamp is not None and stamp != last:
                seen.append(time.perf_counter() - t0)
                last = stamp
            time.sleep(0.05)
        if path.exists() and path.stat().st_mtime_ns != last:   # the write on the stop
            seen.append(time.perf_counter() - t0)
    finally:
        proc.wait()
        shutil.rmtree(work, ignore_errors=True)
    steps = [b - a for a, b in zip(seen, seen[1:], strict=False)]
    return {"game": game, "every": every, "writes": len(seen),
            "first_write": round(seen[0], 2) if seen else None,
            "longest_gap": round(max(steps), 2) if steps else None,
            "run": round(time.perf_counter() - t0, 2)}


def main(argv=None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    parser.add_argument("--every", type=float, default=60.0)
    parser.add_argument("--at", type=float, default=0.6)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--gaps", action="store_true",
                        help="instead: the longest time between two writes (every 0.5 s)")
    args = parser.parse_args(argv)
    games = args.game or ["mm57-worst", "bc410-expected"]
    rows = ([gaps(g, args.workers) for g in games] if args.gaps else
            [measure(g, args.every, args.at, args.workers) for g in games])
    for row in rows:
        print(json.dumps(row))
    return rows


if __name__ == "__main__":
    main()
