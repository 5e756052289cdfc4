"""Benchmark of the bounds: closed forms at large N and D, coefficient tables, static games.

    python scripts/bench/bench_bounds.py            # prints one line per measurement
"""
from __future__ import annotations

import time

from cbsolve.bounds import compute_bounds
from cbsolve.bounds.partition import repeats_coefficients
from cbsolve.bounds.static import solve_static
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.patterns import guess_patterns
from cbsolve.game.variant import Variant

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _median(func, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def bench(runs: int = 3, max_n: int = 9) -> list[tuple[str, float]]:
    out = []
    for label, v in (("bounds 40/26 repeats", Variant(40, LETTERS, True)),
                     ("bounds 26/26 distinct", Variant(26, LETTERS, False)),
                     ("bounds 4/10 distinct, no search/strategies", Variant.preset("bulls-cows")),
                     ("bounds 4/6 repeats, no search/strategies", Variant.preset("mastermind"))):
        out.append((label, _median(lambda v=v: compute_bounds(v, search=False, strategies=False),
                                   runs)))
    for n in range(6, max_n + 1):
        pats = guess_patterns(Variant(n, LETTERS[:n], True))

        def build(pats=pats):
            repeats_coefficients.cache_clear()
            for p in pats:
                repeats_coefficients(p)
        out.append((f"repeats closed-form coefficients, all {len(pats)} patterns of N={n}",
                    _median(build, 1)))
    for c in (5, 8):
        v = Variant(2, "123456789"[:c], True)
        out.append((f"static 2x{c}",
                    _median(lambda v=v: solve_static(v, deadline=Deadline.from_limit(60)), runs)))
    return out


def main() -> int:
    for label, seconds in bench():
        print(f"{label:60s} {seconds:8.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
