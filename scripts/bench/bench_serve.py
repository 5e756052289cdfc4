"""Benchmark: ``cbsolve serve`` latency and memory (targets: median <= 5 ms a request for
``consistent --count`` on Bulls & Cows 4/10 with three entries; 10,000 requests, flat memory).

    python scripts/bench/bench_serve.py                       # 10,000 requests, one service
    python scripts/bench/bench_serve.py --requests 2000 --json

One ``python -m cbsolve serve`` is started; each request is written and its answer read before
the next (a client waiting for every answer: the round trip through both pipes is counted).
The service's resident memory (VmRSS of /proc) is read after the first 100 requests and then
every tenth of the run; "growth" is the last reading minus the one after 100 requests.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

#: Three entries of a Bulls & Cows 4/10 game (secret 5280).
ENTRIES = ["0123:1,1", "4567:0,1", "8901:1,1"]


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def run(requests: int) -> dict:
    proc = subprocess.Popen([sys.executable, "-m", "cbsolve", "serve"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, bufsize=1)
    request = json.dumps({"cmd": "consistent", "entries": ENTRIES, "count": True, "limit": 0})
    times, memory, count = [], [], None
    step = max(requests // 10, 1)
    try:
        for i in range(1, requests + 1):
            t0 = time.perf_counter()
            proc.stdin.write(request + "\n")
            proc.stdin.flush()
            answer = json.loads(proc.stdout.readline())
            times.append(time.perf_counter() - t0)
            if answer.get("exit") != 0:
                raise RuntimeError(f"unexpected answer: {answer}")
            count = answer["count"]
            if i == 100 or i % step == 0:
                memory.append((i, rss_kib(proc.pid)))
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    t = sorted(times)
    after_warmup = dict(memory)[100] if requests >= 100 else memory[0][1]
    return {"requests": requests, "count": count, "exit": proc.returncode,
            "median_ms": round(1000 * statistics.median(t), 3),
            "p90_ms": round(1000 * t[int(0.9 * (len(t) - 1))], 3),
            "max_ms": round(1000 * t[-1], 3),
            "rss_kib": memory, "growth_kib": memory[-1][1] - after_warmup}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.requests < 1:
        parser.error("--requests must be at least 1")
    result = run(args.requests)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['requests']} requests (count {result['count']}): median "
              f"{result['median_ms']} ms, p90 {result['p90_ms']} ms, max {result['max_ms']} ms")
        print("RSS KiB after request: " + ", ".join(f"{i}: {k}" for i, k in result["rss_kib"])
              + f"; growth after the first 100: {result['growth_kib']} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
