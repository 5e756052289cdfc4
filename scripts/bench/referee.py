"""Referee match: two ``cbsolve bot`` subprocesses (any strategies) play M games.

    python scripts/bench/referee.py --a minimax --b entropy --games 20
    python scripts/bench/referee.py --a first --b random --games 50 --variant mastermind --json
    python scripts/bench/referee.py --a-cmd "python -m cbsolve bot --strategy parts" --b minimax

Reports wins, draws, faults and guess counts (average and worst over solved games) and the
time each bot took to answer ``guess`` (median and max, ms). The rules are those of
:mod:`cbsolve.play.referee`.
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys


def bot_argv(strategy: str, seed: int | None, variant_args: list[str]) -> list[str]:
    argv = [sys.executable, "-m", "cbsolve", "bot", "--strategy", strategy, *variant_args]
    if seed is not None:
        argv += ["--seed", str(seed)]
    return argv


def run_match(a: str = "minimax", b: str = "first", games: int = 10,
              variant_args: list[str] | None = None, seed: int | None = 1,
              a_cmd: str | None = None, b_cmd: str | None = None,
              timeout: float = 10.0, show_progress: bool = False) -> dict:
    """Play ``games`` games between two bot subprocesses; returns the match record (JSON-able)."""
    from cbsolve.play.referee import BotProcess, match
    from cbsolve.variant import Variant

    variant_args = list(variant_args or [])
    variant = _variant_from_args(variant_args) if variant_args else Variant.preset("bulls-cows")
    argv_a = shlex.split(a_cmd) if a_cmd else bot_argv(a, seed, variant_args)
    argv_b = shlex.split(b_cmd) if b_cmd else bot_argv(b, None if seed is None else seed + 1,
                                                       variant_args)
    bot_a = BotProcess(argv_a, name=f"A ({a_cmd or a})", timeout=timeout)
    bot_b = BotProcess(argv_b, name=f"B ({b_cmd or b})", timeout=timeout)
    try:
        if show_progress and sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

            with Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(),
                          console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task("games", total=games)
                result = match(variant, bot_a, bot_b, games,
                               progress=lambda: bar.advance(task))
        else:
            result = match(variant, bot_a, bot_b, games)
    finally:
        bot_a.close()
        bot_b.close()
    data = result.to_json()
    data["variant"] = variant.to_dict()
    return data


def _variant_from_args(args: list[str]):
    """Reuse the CLI's variant options so the referee and the bots agree on the rules."""
    import click

    from cbsolve.cli import variant_options

    holder = {}

    @click.command()
    @variant_options
    def grab(variant):
        holder["variant"] = variant

    grab.main(args=args, standalone_mode=False)
    return holder["variant"]


def format_match(data: dict) -> str:
    lines = [f"{data['games']} games, {data['draws']} draws, {data['seconds']:.1f} s"]
    header = f"{'bot':32} {'wins':>5} {'faults':>6} {'solved':>6} {'avg':>6} {'worst':>5} " \
             f"{'guess ms (median/max)':>22}"
    lines.append(header)
    for key in ("a", "b"):
        s = data[key]
        avg = f"{s['average_guesses']:.3f}" if s["average_guesses"] is not None else "-"
        ms = (f"{s['guess_ms_median']:.1f}/{s['guess_ms_max']:.1f}"
              if s["guess_ms_median"] is not None else "-")
        lines.append(f"{s['name'][:32]:32} {s['wins']:>5} {s['faults']:>6} {s['solved']:>6} "
                     f"{avg:>6} {str(s['worst_guesses'] or '-'):>5} {ms:>22}")
        for msg in s.get("fault_messages", []):
            lines.append(f"  fault: {msg}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--a", default="minimax", help="strategy of bot A (default minimax)")
    p.add_argument("--b", default="first", help="strategy of bot B (default first)")
    p.add_argument("--a-cmd", default=None, help="full command line of bot A (overrides --a)")
    p.add_argument("--b-cmd", default=None, help="full command line of bot B (overrides --b)")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=1, help="seed of bot A (bot B gets seed+1)")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds allowed per answer")
    p.add_argument("--json", action="store_true")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    args, variant_args = p.parse_known_args(argv)
    data = run_match(args.a, args.b, args.games, variant_args, args.seed, args.a_cmd, args.b_cmd,
                     args.timeout, show_progress=not (args.json or args.quiet))
    print(json.dumps(data) if args.json else format_match(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
