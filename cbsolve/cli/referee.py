"""``cbsolve referee``: two bots speaking the bot protocol play each other (cbsolve/play/referee.py).

Bad arguments are one line and exit 2, as everywhere; so is a bot that cannot start (no such
program, or it exits or stays silent before its first answer), named with its last stderr line.
Faults during the games are part of the record (exit 0).
"""
from __future__ import annotations

import shlex
import time

import click

from ..runtime.deadline import stop_requested
from . import (
    EXIT_OK,
    POSITIVE,
    POSITIVE_SECONDS,
    SEED,
    app,
    emit,
    json_option,
    progress_enabled,
    variant_options,
)
from ..play.engine import check_strategy
from ..play.referee import BotProcess, bot_argv, close_all, match

GAMES = POSITIVE


@app.command("referee")
@click.option("--a", "a", default="minimax", show_default=True, metavar="STRATEGY",
              help="Strategy of bot A (a `cbsolve bot`).")
@click.option("--b", "b", default="first", show_default=True, metavar="STRATEGY",
              help="Strategy of bot B.")
@click.option("--a-cmd", default=None, metavar="COMMAND",
              help="Bot A's full command line, any program speaking the protocol (overrides "
                   "--a; the variant options are not passed to it).")
@click.option("--b-cmd", default=None, metavar="COMMAND", help="Bot B's command line.")
@click.option("--games", type=GAMES, default=10, show_default=True, help="Games to play.")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="Seed of bot A (bot B gets seed + 1).")
@click.option("--timeout", type=POSITIVE_SECONDS, default=10.0, show_default=True,
              metavar="SECONDS", help="Seconds a bot may take for each answer after its first.")
@click.option("--startup-timeout", type=POSITIVE_SECONDS, default=120.0, show_default=True,
              metavar="SECONDS",
              help="Seconds a bot may take for its first answer (it may precompute its "
                   "opening); a bot silent that long cannot start (exit 2).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@variant_options
@json_option
def referee_command(a, b, a_cmd, b_cmd, games, seed, timeout, startup_timeout, quiet, variant,
                    as_json) -> int:
    """Play bots (programs speaking the bot protocol) against each other, and score them.

    Each game: `new` to both, then rounds in which A guesses (B checks it), then B. The first
    to score all bulls wins; both in one round is a draw; a bot that answers `error`, names an
    invalid code, is called inconsistent or misses --timeout loses that game (a fault, with
    its last stderr line)."""
    sides = []
    for label, strategy, cmd, bot_seed in (("A", a, a_cmd, seed), ("B", b, b_cmd, seed + 1)):
        if cmd is None:
            check_strategy(strategy)
            argv = bot_argv(strategy, bot_seed, variant)
        else:
            try:
                argv = shlex.split(cmd)
            except ValueError as exc:
                raise click.BadParameter(f"{cmd!r}: {exc}",
                                         param_hint=f"'--{label.lower()}-cmd'") from None
            if not argv:
                raise click.BadParameter("an empty command", param_hint=f"'--{label.lower()}-cmd'")
        sides.append((argv, f"{label} ({cmd or strategy})"))
    bots = []
    started = time.perf_counter()
    try:
        for argv, name in sides:
            bots.append(BotProcess(argv, name=name, timeout=timeout,
                                   startup_timeout=startup_timeout))
        bar = _progress(games) if progress_enabled(as_json, quiet) else None
        with bar or _nothing():
            result = match(variant, bots[0], bots[1], games, stop=stop_requested,
                           progress=(lambda: bar.advance(bar.task_ids[0])) if bar else None)
    finally:
        close_all(bots)
    data = result.to_json()
    # the games' time is `seconds`; the command's, with the bots' start-up and shutdown, this
    data["wall_seconds"] = round(time.perf_counter() - started, 3)
    data["variant"] = variant.to_dict()
    data["complete"] = result.games == games
    emit(as_json, data, format_match(data))
    return EXIT_OK


class _nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def _progress(games: int):
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    bar = Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(),
                   console=Console(stderr=True), transient=True)
    bar.add_task("games", total=games)
    return bar


def format_match(data: dict) -> str:
    lines = [f"{data['games']} games, {data['draws']} draws, {data['seconds']:.1f} s of play"
             + (f" ({data['wall_seconds']:.1f} s with the bots' start-up and shutdown)"
                if "wall_seconds" in data else "")]
    lines.append(f"{'bot':32} {'wins':>5} {'faults':>6} {'solved':>6} {'avg':>6} {'worst':>5} "
                 f"{'guess ms (median/max)':>22}")
    for key in ("a", "b"):
        s = data[key]
        avg = f"{s['average_guesses']:.3f}" if s["average_guesses"] is not None else "-"
        ms = (f"{s['guess_ms_median']:.1f}/{s['guess_ms_max']:.1f}"
              if s["guess_ms_median"] is not None else "-")
        lines.append(f"{s['name'][:32]:32} {s['wins']:>5} {s['faults']:>6} {s['solved']:>6} "
                     f"{avg:>6} {str(s['worst_guesses'] or '-'):>5} {ms:>22}")
        for msg in s.get("fault_messages", []):
            lines.append(f"  fault: {msg}")
    if not data["complete"]:
        lines.append("  stopped early: the record covers the games played")
    return "\n".join(lines)
