"""How far past its time limit each search ends: the time-limit sweep of docs/optimal.md.

Every case (a function, a game, a limit) runs in a fresh process, so one case's memory and
threads do not slow the next; the child times the call alone (the matrix, the search, the tree
written), and the overrun is that wall time minus the limit. The functions: ``solve_worst``,
``solve_expected``, ``solve_from`` (both objectives, from the position one guess leaves),
``compute_bounds`` (the ``bounds`` command) and ``evaluate`` (the minimax strategy, the
``evaluate`` command's deadline). A search that ends before its limit (solved) has a negative
overrun; the table says how each case ended.

    nice python scripts/stress/stress_time_limits.py                       # every case (~40 min)
    nice python scripts/stress/stress_time_limits.py --limits 2 --games mm4x7 --calls worst
    nice python scripts/stress/stress_time_limits.py --limits 5 --games mm5x8 bc5 d8of8  # the large

The children import the cbsolve of this checkout (PYTHONPATH), not the installed one.

Prints one row per case and, at the end, a Markdown table; exit 1 when some case overran by
more than ``--allow`` seconds (default 1.5: the ~1 s the brief allows plus the tree reserve).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

GAMES = {
    "mm4x7": ("mastermind", {"length": 4, "symbols": "1234567", "repeats": True}),
    "mm7x4": ("mastermind", {"length": 7, "symbols": "1234", "repeats": True}),
    "mm5x8": ("mastermind", {"length": 5, "symbols": "12345678", "repeats": True}),
    "bc5": ("bulls-cows", {"length": 5}),
    "d8of8": ("bulls-cows", {"length": 8, "symbols": "01234567"}),
    "mm6x5": ("mastermind", {"length": 6, "symbols": "12345", "repeats": True}),
}
CALLS = ("worst", "expected", "from-worst", "from-expected", "bounds", "evaluate")


def variant_of(game: str):
    from cbsolve.variant import Variant

    preset, options = GAMES[game]
    return Variant.from_options(preset, **options)


def position_of(variant):
    """The position after the first code, answered as the code a third of the way in would."""
    from cbsolve.codes import CodeSpace
    from cbsolve.feedback import FeedbackLog
    from cbsolve.scoring import score_against
    from cbsolve.search.position import Position

    space = CodeSpace(variant)
    codes = space.codes
    reply = int(score_against(variant, codes[0], codes[len(codes) // 3:][:1])[0])
    entry = f"{space.format(codes[0])}:{variant.format_response(reply)}"
    return Position.from_log(FeedbackLog.parse(variant, [entry]))


def run_one(call: str, game: str, limit: float) -> dict:
    """The case in this process: wall seconds of the call and how it ended."""
    from cbsolve.deadline import Deadline

    variant = variant_of(game)
    start = time.perf_counter()
    try:
        if call == "worst":
            from cbsolve.search.worst import solve_worst
            r = solve_worst(variant, time_limit=limit)
            how = f"{r.status.value} [{r.lower}, {r.upper}]"
        elif call == "expected":
            from cbsolve.search.expected import solve_expected
            r = solve_expected(variant, time_limit=limit, progress=False)
            how = f"{r.status.value} [{r.lower}, {r.upper}]"
        elif call.startswith("from-"):
            from cbsolve.search.position import solve_from
            position = position_of(variant)
            start = time.perf_counter()   # the position's filtering is not the search's
            r = solve_from(position, call[5:], time_limit=limit)
            how = f"{r.status.value} [{r.lower}, {r.upper}]"
        elif call == "bounds":
            from cbsolve.bounds import compute_bounds
            b = compute_bounds(variant, time_limit=limit)
            how = "bounds"
            del b
        else:
            from cbsolve.strategy.evaluation import Unfinished, evaluate
            try:
                e = evaluate(variant, "minimax", deadline=Deadline(limit), keep_tree=False)
                how = f"evaluated (worst {e.worst})" if hasattr(e, "worst") else "evaluated"
            except Unfinished:
                how = "unfinished (deadline)"
    except Exception as exc:   # noqa: BLE001  (a refusal is a row of the table too)
        how = f"{type(exc).__name__}: {str(exc)[:60]}"
    wall = time.perf_counter() - start
    return {"call": call, "game": game, "limit": limit, "wall": round(wall, 2),
            "overrun": round(wall - limit, 2), "how": how}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limits", type=float, nargs="+", default=[2, 5, 10])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--calls", nargs="+", default=list(CALLS), choices=list(CALLS))
    parser.add_argument("--allow", type=float, default=1.5)
    parser.add_argument("--one", nargs=3, metavar=("CALL", "GAME", "LIMIT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(run_one(args.one[0], args.one[1], float(args.one[2]))))
        return 0
    # The children import this checkout's cbsolve (a script's own directory comes first on
    # sys.path, which would import whatever cbsolve is installed).
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [root] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])}
    rows = []
    print(f"load average {os.getloadavg()[0]:.1f}; {os.cpu_count()} cores", flush=True)
    for game in args.games:
        for call in args.calls:
            for limit in args.limits:
                out = subprocess.run([sys.executable, __file__, "--one", call, game, str(limit)],
                                     capture_output=True, text=True, env=env)
                lines = out.stdout.strip().splitlines()
                row = json.loads(lines[-1]) if out.returncode == 0 and lines else {
                    "call": call, "game": game, "limit": limit, "wall": None, "overrun": None,
                    "how": f"exit {out.returncode}: {out.stderr.strip()[-80:]}"}
                row["load"] = round(os.getloadavg()[0], 1)
                rows.append(row)
                print(json.dumps(row), flush=True)
    print("\n| game | call | limit s | wall s | overrun s | ended |\n|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['game']} | {r['call']} | {r['limit']:g} | {r['wall']} | {r['overrun']} | "
              f"{r['how']} |")
    bad = [r for r in rows if r["overrun"] is not None and r["overrun"] > args.allow]
    print(f"\n{len(bad)} of {len(rows)} cases overran by more than {args.allow} s; "
          f"load average {os.getloadavg()[0]:.1f}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
