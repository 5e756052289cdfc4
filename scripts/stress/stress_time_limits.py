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

``--commands`` runs the commands instead, each as a whole ``python -m cbsolve`` process on a
case that cannot finish in time: with ``--time-limit L`` (the wall time from the process's
start to its exit, minus L: start-up included, as a person waits for it), and with a Ctrl-C
``--after`` seconds in (the time from the SIGINT to the exit, the exit code, and whether the
command printed its best so far). An interactive command's limit is each answer's: a case that
converses (``INPUT``) counts the overrun of its last answer from the line that asked for it;
the cases whose answers take no time run under Ctrl-C only (``CTRL_C_ONLY``). Each case gets
a verdict: ``ok``; "did not exercise the stop" (it ended before its Ctrl-C, or before its limit
without saying so: it measured nothing, which is not a slow stop); "slow stop" (past
``--allow``, 0.5 s here); a wrong exit; no answer printed; Ctrl-C called a time limit. Exit 1
when some case's verdict is not ``ok``; ``--rerun-failures`` runs those once more at the end
(under load, a slow stop is rerun before it counts) and the rerun decides.

    nice python scripts/stress/stress_time_limits.py --commands                 # every command
    nice python scripts/stress/stress_time_limits.py --commands --only bounds-huge analyze
    nice python scripts/stress/stress_time_limits.py --commands --limits 5 --only next-mm88 \
        partition-mm88 partition-all-mm88 assist-mm88 bot-mm88 play-mm88 next-40x10 \
        assist-l8x26 \
        partition-40x10 partition-l8x26                                       # large games
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
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
    from cbsolve.game.variant import Variant

    preset, options = GAMES[game]
    return Variant.from_options(preset, **options)


def position_of(variant):
    """The position after the first code, answered as the code a third of the way in would."""
    from cbsolve.game.codes import CodeSpace
    from cbsolve.game.feedback import FeedbackLog
    from cbsolve.game.scoring import score_against
    from cbsolve.search.position import Position

    space = CodeSpace(variant)
    codes = space.codes
    reply = int(score_against(variant, codes[0], codes[len(codes) // 3:][:1])[0])
    entry = f"{space.format(codes[0])}:{variant.format_response(reply)}"
    return Position.from_log(FeedbackLog.parse(variant, [entry]))


def run_one(call: str, game: str, limit: float) -> dict:
    """The case in this process: wall seconds of the call and how it ended."""
    from cbsolve.runtime.deadline import Deadline

    variant = variant_of(game)
    start = time.perf_counter()
    try:
        if call == "worst":
            from cbsolve.search.worst import solve_worst
            r = solve_worst(variant, deadline=Deadline.from_limit(limit))
            how = f"{r.status.value} [{r.lower}, {r.upper}]"
        elif call == "expected":
            from cbsolve.search.expected import solve_expected
            r = solve_expected(variant, deadline=Deadline.from_limit(limit), progress=False)
            how = f"{r.status.value} [{r.lower}, {r.upper}]"
        elif call.startswith("from-"):
            from cbsolve.search.position import solve_from
            position = position_of(variant)
            start = time.perf_counter()   # the position's filtering is not the search's
            r = solve_from(position, call[5:], deadline=Deadline.from_limit(limit))
            how = f"{r.status.value} [{r.lower}, {r.upper}]"
        elif call == "bounds":
            from cbsolve.bounds import compute_bounds
            b = compute_bounds(variant, deadline=Deadline.from_limit(limit))
            how = "bounds"
            del b
        else:
            from cbsolve.strategy.evaluation import Unfinished, evaluate
            try:
                e = evaluate(variant, "minimax", deadline=Deadline.from_limit(limit),
                             keep_tree=False)
                how = f"evaluated (worst {e.worst})" if hasattr(e, "worst") else "evaluated"
            except Unfinished:
                how = "unfinished (deadline)"
    except Exception as exc:   # noqa: BLE001  (a refusal is a row of the table too)
        how = f"{type(exc).__name__}: {str(exc)[:60]}"
    wall = time.perf_counter() - start
    return {"call": call, "game": game, "limit": limit, "wall": round(wall, 2),
            "overrun": round(wall - limit, 2), "how": how}


#: Three replies on Bulls & Cows 7/10 that leave 7,132 secrets: past the third guess the
#: symmetry classes are trivial, so `partition --all` scores all 604,800 guesses (about 7 s here).
DEEP7 = "0123456:0,4 1357924:0,5 2468013:0,4"
#: Three replies on Bulls & Cows 8/10 (secret 98765012) that leave 45,686 secrets: `next` and
#: `partition GUESS`'s best scores beside score 1,814,400 guesses, no symmetry left (over 40 s
#: of wall here; 7/10 answered within the Ctrl-C's 3 s once the kernels got faster).
DEEP8 = "01234567:0,6 12345678:1,5 23456789:0,6"
#: ``--commands``: name -> (arguments, what it needs). Each case is long on the 2-core machine
#: (its command alone runs for minutes), so both a time limit and a Ctrl-C stop it early.
#: ``{log40}`` is a 20-clue log of 40 digits (made here), ``{out}`` a fresh directory.
MM88 = ["--variant", "mastermind", "--length", "8", "--digits", "8"]
COMMANDS = {
    "consistent": ["consistent", "--log", "{log40}", "--length", "40", "--digits", "10",
                   "--repeats", "--count", "--backend", "sat"],
    "consistent-lies": ["consistent", "--log", "{log40}", "--length", "40", "--digits", "10",
                        "--repeats", "--max-lies", "1", "--count"],
    "static": ["static", "--length", "5", "--digits", "10"],
    "bounds-huge": ["bounds", "--length", "64", "--letters", "26", "--repeats"],
    "bounds": ["bounds", "--length", "5", "--digits", "10"],
    "optimal-worst": ["optimal", "--objective", "worst", "--length", "5", "--digits", "8"],
    "optimal-expected": ["optimal", "--objective", "expected"],
    # the bounds' strategies, then the worst-case search on the fly: its greedy tree's row
    # table (1.4 GB, 3 s to build) held a 2 s limit to 8.8 s before the build saw the deadline
    "optimal-bc610": ["optimal", "--objective", "worst", "--length", "6", "--digits", "10"],
    "evaluate": ["evaluate", "--variant", "mastermind", "--length", "6", "--digits", "7"],
    # lengths 4-6: 4-5 alone (about 3 s on two quiet cores) ended before its Ctrl-C at 3 s
    "analyze": ["analyze", "--family", "mastermind", "--lengths", "4-6", "--alphabets", "9-10",
                "--out", "{out}", "--no-plots", "--quiet"],
    "analyze-inline": ["analyze", "--family", "mastermind", "--lengths", "4-5", "--alphabets",
                       "9-10", "--out", "{out}", "--no-plots", "--quiet", "--workers", "0"],
    "assist": ["assist", "--length", "6", "--digits", "10"],
    "next": ["next", *DEEP8.split(), "--length", "8", "--digits", "10"],
    "partition": ["partition", "01234567", *DEEP8.split(), "--length", "8", "--digits", "10"],
    "partition-all": ["partition", "--all", *DEEP7.split(), "--length", "7", "--digits",
                      "10"],
    "play": ["play", "--mode", "host", "--length", "6", "--digits", "10"],
    "bot": ["bot", "--length", "6", "--digits", "10"],
    # the advising faces on large games after replies (the position service's listing of
    # 16.7 M codes, its sampled ranking and exact scoring; a consistent code beyond listing).
    # After one reply 8x8 keeps 951 symmetry classes and answers within 3 s: after two or
    # three the classes are millions (`next`, `partition`'s best scores: over 30 s here).
    "next-mm88": ["next", "12345678:0,8", "11223344:1,3", *MM88],
    "partition-mm88": ["partition", "13572468", "12345678:0,8", "11223344:1,3",
                       "55667788:1,3", *MM88],
    # every guess up to symmetry after one reply: 7,014 classes of 16.7 M codes found by the
    # union-find under the limit, then scored in blocks (the NumPy orbits overran it by 3 s)
    "partition-all-mm88": ["partition", "--all", "11223344:1,2", *MM88],
    "assist-mm88": ["assist", "12345678:2,3", *MM88],
    "bot-mm88": ["bot", *MM88],
    "play-mm88": ["play", "--mode", "host", *MM88],
    # beyond listing, a consistent code: Mastermind 10x10 finds one in 0.2 s whatever the log
    # (14 clues tried), the 40-digit log none in minutes
    "next-40x10": ["next", "--log", "{log40}", "--length", "40", "--digits", "10", "--repeats"],
    "assist-l8x26": ["assist", "ABCDEFGH:1,1", "IJKLMNOP:0,2", "--variant", "mastermind",
                     "--length", "8", "--letters", "26", "--repeats"],
    # beyond the listing: each reply class counted under the limit (Mastermind 10x10 counts
    # them within 3 s after two or eight replies; the 40-digit log does not in minutes)
    "partition-40x10": ["partition", "0123456789" * 4, "--log", "{log40}", "--length", "40",
                        "--digits", "10", "--repeats"],
    "partition-l8x26": ["partition", "IJKLMNOP", "ABCDEFGH:1,1", "--variant", "mastermind",
                        "--length", "8", "--letters", "26", "--repeats"],
}
#: Protocol lines sent (the pipe left open) to the commands that read them, each once the
#: previous one is answered (one line of output each): the bot's second guess is computed under
#: its own ``--time-limit`` (a limit is per answer in the interactive commands), so its
#: overrun is counted from that line, not from the process's start.
INPUT = {"bot-mm88": ["guess", "score 2 3", "guess"]}
#: Ctrl-C sooner than ``--after`` for the cases that end on their own by then (64 of 26
#: letters answers in about 2.4 s: the constructions are skipped).
AFTER = {"bounds-huge": 1.0}
#: Ctrl-C only: in the interactive commands ``--time-limit`` is each answer's, and these cases
#: compute none that takes time (an opening from the book, a host that only scores guesses, a
#: bot sent no line, 8 of 26 advised at once after its two replies): the limit has nothing to
#: stop there (their run ends with their input at once). `assist-mm88` and `bot-mm88` run it.
CTRL_C_ONLY = {"assist", "play", "bot", "play-mm88", "assist-l8x26"}
#: Commands that read a person's input: given none (an open pipe), they wait in their loop.
READS_INPUT = {"assist", "play", "bot", "assist-mm88", "bot-mm88", "play-mm88", "assist-l8x26"}


def _log40(path: str) -> None:
    """A consistent 20-clue log of 40 digits: no engine counts it in minutes."""
    import random

    from cbsolve.game.codes import CodeSpace
    from cbsolve.game.scoring import score
    from cbsolve.game.variant import Variant

    v = Variant(40, "0123456789", True)
    rng = random.Random(7)
    secret = "".join(rng.choice("0123456789") for _ in range(40))
    space = CodeSpace(v)
    with open(path, "w", encoding="utf-8") as fh:
        for _ in range(20):
            g = "".join(rng.choice("0123456789") for _ in range(40))
            fh.write("{}:{},{}\n".format(g, *score(v, space.parse(secret), space.parse(g))))


def run_command(name: str, argv: list[str], env: dict, limit: float | None,
                after: float | None, allow: float = 0.5) -> dict:
    """One command as a whole process: with ``--time-limit limit``, or Ctrl-C after ``after``
    seconds. Wall time from the start to the exit; for Ctrl-C, from the SIGINT to the exit."""
    with tempfile.TemporaryDirectory() as tmp:
        log40 = os.path.join(tmp, "log40.txt")
        _log40(log40)
        args = [a.format(log40=log40, out=os.path.join(tmp, "out")) for a in argv]
        if limit is not None:
            args += ["--time-limit", f"{limit:g}"]
        start = time.perf_counter()
        # run from the checkout: ``-m`` puts the working directory first on sys.path
        root = env["PYTHONPATH"].split(os.pathsep)[0]
        child = subprocess.Popen([sys.executable, "-m", "cbsolve", *args], env=env, cwd=root,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        output = {"out": [], "err": []}
        readers = [threading.Thread(target=_pump, args=(stream, output[key]), daemon=True)
                   for stream, key in ((child.stdout, "out"), (child.stderr, "err"))]
        for reader in readers:
            reader.start()
        cap = start + (after if after is not None else 120)
        asked = _converse(child, INPUT.get(name, []), output["out"], cap)
        sent = None
        if after is not None:
            try:
                child.wait(max(0.0, cap - time.perf_counter()))
            except subprocess.TimeoutExpired:
                sent = time.perf_counter()
                child.send_signal(signal.SIGINT)
        child.stdin.close()
        try:
            child.wait(120)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        end = time.perf_counter()
        for reader in readers:
            reader.join()
        out = "".join(line for _, line in output["out"])
        err = "".join(line for _, line in output["err"])
    row = {"command": name, "limit": limit, "ctrl_c_after": after, "exit": child.returncode,
           "wall": round(end - start, 2), "printed": bool(out.strip()),
           "stderr": err.strip().splitlines()[-1][:80] if err.strip() else ""}
    said = "time limit" in (out + err).lower()
    if limit is not None and asked is not None:
        # the last answer's own limit: from the line that asked for it to its reply
        row["overrun"] = round(asked - limit, 2)
        row["exercised"] = asked >= limit - allow   # answers keep a reserve before it
    elif limit is not None:
        row["overrun"] = round(end - start - limit, 2)
        # ended before its limit without saying it stopped there: it finished (or its input
        # ended), so the limit's stop path did not run (an answer keeps a reserve, about 0.3 s,
        # before the limit: ending within ``allow`` of it is its stop)
        row["exercised"] = said or end - start >= limit - allow
    elif sent is not None:
        row["overrun"] = round(end - sent, 2)          # SIGINT to exit
        row["exercised"] = True
        # Ctrl-C is never reported as a time limit (with no limit set, it was)
        row["says_time_limit"] = said
    else:
        row["overrun"] = None                          # it ended before the Ctrl-C
        row["exercised"] = False
    row["verdict"] = verdict(name, row, allow)
    return row


def _pump(stream, lines: list) -> None:
    """Reads ``stream`` to its end, each line with the time it came."""
    for line in stream:
        lines.append((time.perf_counter(), line))


def _converse(child, lines: list[str], replies: list, cap: float) -> float | None:
    """Sends ``lines`` one at a time, each once the previous one has its reply (a line of
    output), until ``cap``; the seconds the last line took to be answered (None when there
    were none, or it was not answered by ``cap``)."""
    took = None
    for line in lines:
        waiting_for = len(replies) + 1
        asked = time.perf_counter()
        child.stdin.write(line + "\n")
        child.stdin.flush()
        while len(replies) < waiting_for and child.poll() is None and time.perf_counter() < cap:
            time.sleep(0.01)
        if len(replies) < waiting_for:
            return None
        took = replies[waiting_for - 1][0] - asked
    return took


#: Commands whose standard output holds no answer of their own on Ctrl-C: a bot prints its
#: replies to the protocol's lines, and it was sent none.
NO_ANSWER_ON_CTRL_C = {"bot"}


def verdict(name: str, row: dict, allow: float = 0.5) -> str:
    """How the case ended: ``ok``, or what it failed at. "did not exercise the stop" (it
    ended before its Ctrl-C, or before its limit without saying so) is told apart from a slow
    stop: it measured nothing."""
    if not row["exercised"]:
        return "did not exercise the stop"
    if row["overrun"] > allow:
        return "slow stop"
    if row["limit"] is not None:
        return "ok" if row["exit"] in (0, 1) else f"exit {row['exit']}"
    if row["exit"] != 130:
        return f"exit {row['exit']}"
    if row["says_time_limit"]:
        return "said time limit"
    if not row["printed"] and name not in NO_ANSWER_ON_CTRL_C:
        return "no answer printed"
    return "ok"


def main_commands(args, env) -> int:
    names = args.only or list(COMMANDS)
    rows = []
    print(f"load average {os.getloadavg()[0]:.1f}; {os.cpu_count()} cores", flush=True)

    def run(name, limit, after, rerun=False):
        row = run_command(name, COMMANDS[name], env, limit, after, args.allow)
        row["load"] = round(os.getloadavg()[0], 1)
        if rerun:
            row["rerun"] = True
        rows.append(row)
        print(json.dumps(row), flush=True)
        return row

    for name in names:
        cases = [(None, AFTER.get(name, args.after))]
        if name not in CTRL_C_ONLY and not args.ctrl_c_only:
            cases = [(limit, None) for limit in args.limits] + cases
        for limit, after in cases:
            run(name, limit, after)
    # a failure under load is run again (once, later, at whatever load there is then) before
    # it counts; both rows are kept, the last one decides
    if args.rerun_failures:
        for row in [r for r in rows if r["verdict"] != "ok"]:
            run(row["command"], row["limit"], row["ctrl_c_after"], rerun=True)
    print("\n| command | stopped by | wall s | overrun s | exit | printed | says \"time limit\" "
          "| load | verdict |\n|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        how = (f"--time-limit {r['limit']:g}" if r["limit"] is not None
               else f"Ctrl-C at {r['ctrl_c_after']:g} s")
        said = "" if "says_time_limit" not in r else ("yes" if r["says_time_limit"] else "no")
        print(f"| {r['command']} | {how}{' (rerun)' if r.get('rerun') else ''} | {r['wall']} | "
              f"{r['overrun']} | {r['exit']} | {'yes' if r['printed'] else 'no'} | {said} | "
              f"{r['load']} | {r['verdict']} |")
    last = {(r["command"], r["limit"], r["ctrl_c_after"]): r for r in rows}
    bad = [r for r in last.values() if r["verdict"] != "ok"]
    idle = [r for r in bad if r["verdict"] == "did not exercise the stop"]
    print(f"\n{len(bad)} of {len(last)} cases failed ({len(idle)} did not exercise the stop; the "
          f"others overran by more than {args.allow} s, printed no answer, exited otherwise or "
          f"on Ctrl-C said \"time limit\"); load average {os.getloadavg()[0]:.1f}")
    return 1 if bad else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limits", type=float, nargs="+", default=[2, 5, 10])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--calls", nargs="+", default=list(CALLS), choices=list(CALLS))
    parser.add_argument("--allow", type=float, default=1.5)
    parser.add_argument("--one", nargs=3, metavar=("CALL", "GAME", "LIMIT"), help=argparse.SUPPRESS)
    parser.add_argument("--commands", action="store_true",
                        help="Run the commands as processes (time limit and Ctrl-C).")
    parser.add_argument("--only", nargs="+", choices=list(COMMANDS), default=None,
                        help="With --commands: these commands only.")
    parser.add_argument("--after", type=float, default=3.0,
                        help="With --commands: Ctrl-C this many seconds in.")
    parser.add_argument("--ctrl-c-only", action="store_true",
                        help="With --commands: the Ctrl-C arm only (no --time-limit runs).")
    parser.add_argument("--rerun-failures", action="store_true",
                        help="With --commands: run each failed case once more at the end.")
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(run_one(args.one[0], args.one[1], float(args.one[2]))))
        return 0
    # The children import this checkout's cbsolve (a script's own directory comes first on
    # sys.path, which would import whatever cbsolve is installed).
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [root] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])}
    if args.commands:
        if args.allow == parser.get_default("allow"):
            args.allow = 0.5       # a command stops within 0.5 s of its limit and of Ctrl-C
        if args.limits == parser.get_default("limits"):
            args.limits = [2.0]
        return main_commands(args, env)
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
