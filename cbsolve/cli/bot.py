"""``cbsolve bot``: the referee line protocol on stdin/stdout (see :mod:`cbsolve.play.bot`)."""
from __future__ import annotations

import click

from ..runtime import time_policy
from ..runtime.deadline import Turns
from . import EXIT_OK, SECONDS, SEED, app, variant_options
from ._budget import TimeLimit
from ._interrupt import interactive
from ._help import OBJECTIVE_HELP, TIME_HELP
from ..advisor import check_objective
from ..play.bot import Bot, serve
from ..play.engine import check_strategy


@app.command("bot")
@click.option("--strategy", default="minimax", show_default=True, metavar="NAME",
              help="How the bot guesses: minimax, expected, entropy, parts, first, random, "
                   "optimal (for --objective).")
@click.option("--guesses", default="all", show_default=True, metavar="SET",
              help="Draw guesses from all codes or only the remaining candidates.")
@click.option("--seed", type=SEED, default=None, help="Seed for the bot's secrets and choices.")
@click.option("--objective", default="worst", show_default=True, metavar="worst|expected",
              help=OBJECTIVE_HELP)
@click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS", help=TIME_HELP)
@variant_options
def bot_command(strategy, guesses, seed, objective, time_limit, variant) -> int:
    """Answer referee commands, one a line: new, guess, score B C, check GUESS, quit.

    Each command gets exactly one answer line (errors: one line starting with 'error').
    The protocol itself is the output, so this command has no --json.
    """
    interactive()     # Ctrl-C ends the protocol at once
    check_strategy(strategy)
    check_objective(objective)

    # the first answer's budget counts from the process's start: the interpreter, the imports
    # and the warm-up are waited for by the first request; each later one gets the whole limit
    first = TimeLimit.from_option(time_limit, time_policy.ASSIST_SECONDS)
    serve(Bot(variant, strategy=strategy, seed=seed, guesses=guesses, objective=objective,
              turns=Turns(first.seconds, first.deadline)))
    return EXIT_OK
