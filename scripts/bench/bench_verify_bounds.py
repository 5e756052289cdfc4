"""What verifying the exact searches costs the bounds (cbsolve/bounds/recheck.py), per cell.

For each game: the worst-case search without and with its certificates (the certificates are
written as each depth is refuted), the verifier's check of that answer (tree replayed,
certificate checked), the expected-case search (capped) and the check of its tree; then
``compute_bounds`` with a time limit, to see the whole command stay within it.

    nice python scripts/bench/bench_verify_bounds.py              # Markdown rows for docs/bounds.md
    python scripts/bench/bench_verify_bounds.py --quick           # three small games
"""
from __future__ import annotations

import argparse
import time

from cbsolve.bounds import compute_bounds
from cbsolve.bounds.recheck import check_result
from cbsolve.runtime.deadline import Deadline
from cbsolve.search.expected import solve_expected
from cbsolve.search.worst import solve_worst
from cbsolve.game.variant import Variant

DIGITS = "0123456789AB"
GAMES = [Variant(3, DIGITS[:10], True), Variant(4, DIGITS[:8], False), Variant(4, DIGITS[:7], True),
         Variant(5, DIGITS[:7], False), Variant(4, DIGITS[:9], False), Variant(5, DIGITS[:6], True),
         Variant(4, DIGITS[:10], False), Variant(4, DIGITS[:11], False)]
QUICK = GAMES[:3]


def _timed(func):
    start = time.perf_counter()
    value = func()
    return value, time.perf_counter() - start


def measure(variant: Variant, expected_limit: float, bounds_limit: float) -> dict:
    _, plain = _timed(lambda: solve_worst(variant, workers=1, certificate=False))
    worst, with_cert = _timed(lambda: solve_worst(variant, workers=1))
    checked_w = check_result(variant, worst)
    exp, exp_s = _timed(lambda: solve_expected(variant, workers=1,
                                               deadline=Deadline.from_limit(expected_limit)))
    checked_e = check_result(variant, exp)
    bounds, bounds_s = _timed(lambda: compute_bounds(variant, deadline=Deadline.from_limit(bounds_limit),
                                                     workers=1))
    return {"game": variant.describe(), "secrets": worst.secrets, "W": worst.upper,
            "search": plain, "search_cert": with_cert, "verify_worst": checked_w.seconds,
            "worst_ok": not checked_w.rejected, "expected": exp_s, "expected_proved": exp.proved,
            "verify_expected": checked_e.seconds, "expected_ok": not checked_e.rejected,
            "bounds_limit": bounds_limit, "bounds": bounds_s,
            "verification": {k: v["seconds"] for k, v in bounds.checks.items()}}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--expected-limit", type=float, default=30.0)
    parser.add_argument("--bounds-limit", type=float, default=30.0)
    args = parser.parse_args(argv)
    print("| game | secrets | worst | search s (no cert / cert) | verify worst s | expected "
          "search s | verify expected s | bounds s (limit) | verified in bounds |")
    print("|---|---|---|---|---|---|---|---|---|")
    for g in QUICK if args.quick else GAMES:
        m = measure(g, args.expected_limit, args.bounds_limit)
        exp = f"{m['expected']:.2f}" + ("" if m["expected_proved"] else " (limit)")
        ok = "" if m["worst_ok"] and m["expected_ok"] else " REJECTED"
        inside = ", ".join(f"{k} {v:.2f} s" for k, v in m["verification"].items()) or "—"
        print(f"| {m['game']} | {m['secrets']} | {m['W']} | {m['search']:.2f} / "
              f"{m['search_cert']:.2f} | {m['verify_worst']:.2f}{ok} | {exp} | "
              f"{m['verify_expected']:.2f} | {m['bounds']:.1f} ({m['bounds_limit']:g}) | "
              f"{inside} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
