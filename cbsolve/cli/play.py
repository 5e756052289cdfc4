"""``cbsolve play``: play against the computer in the terminal (see :mod:`cbsolve.play.terminal`)."""
from __future__ import annotations

import sys

import click

from ..errors import unknown_name
from ..runtime import time_policy
from ..runtime.deadline import Turns
from . import EXIT_OK, SECONDS, SEED, app, emit, json_option, variant_options
from ._interrupt import interactive
from ._help import OBJECTIVE_HELP, TIME_HELP
from ..play.engine import check_strategy
from ..play.inputs import Console
from ..play.terminal import MODES, play
from ..advisor import check_objective


@app.command("play")
@click.option("--mode", default="both", metavar="MODE",
              help="both (default: you and the computer guess in turns), guess (you guess its "
                   "secret) or host (it guesses yours).")
@click.option("--strategy", default="minimax", show_default=True, metavar="NAME",
              help="How the computer guesses: minimax, expected, entropy, parts, first, random, "
                   "optimal (for --objective).")
@click.option("--objective", default="worst", show_default=True, metavar="worst|expected",
              help=OBJECTIVE_HELP)
@click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS", help=TIME_HELP)
@click.option("--seed", type=SEED, default=None, help="Seed for the computer's secret and choices.")
@click.option("--secret", default=None, metavar="CODE",
              help="Fix the computer's secret (teaching, testing).")
@click.option("--coach", is_flag=True,
              help="After each of your guesses, say what it costs against the best guess from "
                   "that position (on average and in the worst case; exact when at most 500 "
                   "candidates remain, else from a heuristic; labelled).")
@click.option("--host", default="honest", show_default=True, metavar="honest|evil|adversary",
              help="The computer as code-maker: honest (a fixed secret), evil (keeps the most "
                   "secrets, Absurdle) or adversary (keeps the hardest class); guess and both "
                   "modes.")
@click.option("--quiet", is_flag=True, help="Accepted for symmetry; play shows no progress bars.")
@variant_options
@json_option
def play_command(mode, strategy, objective, time_limit, seed, secret, coach, host, quiet,
                 variant, as_json) -> int:
    """Play Bulls and Cows (or any variant) against the computer.

    At every prompt: help, undo (any depth), hint, again, fix K SCORE, confirm K, quit.
    With --json the conversation goes to stderr and one JSON record of the game to stdout;
    end of input (also a closed stdin) ends the game, exit 0.
    """
    interactive()     # Ctrl-C ends the game at once

    if mode not in MODES:
        raise unknown_name("mode", mode, MODES)
    check_strategy(strategy)

    check_objective(objective)
    seconds = time_policy.ASSIST_SECONDS if time_limit is None else (time_limit or None)
    console = Console(stdin=sys.stdin, stdout=sys.stderr if as_json else sys.stdout)
    result = play(variant, mode, console, strategy=strategy, seed=seed, secret=secret,
                  coach=coach, objective=objective, turns=Turns(seconds), host=host)
    if as_json:
        emit(True, result.to_json(), "")
    return EXIT_OK
