"""``cbsolve bot``: the referee line protocol on stdin/stdout (see :mod:`cbsolve.play.bot`)."""
from __future__ import annotations

import click

from . import EXIT_OK, SEED, app, variant_options


@app.command("bot")
@click.option("--strategy", default="minimax", show_default=True, metavar="NAME",
              help="How the bot guesses: minimax, expected, entropy, parts, first, random.")
@click.option("--guesses", default="all", show_default=True, metavar="SET",
              help="Draw guesses from all codes or only the remaining candidates.")
@click.option("--seed", type=SEED, default=None, help="Seed for the bot's secrets and choices.")
@variant_options
def bot_command(strategy, guesses, seed, variant) -> int:
    """Answer referee commands, one a line: new, guess, score B C, check GUESS, quit.

    Each command gets exactly one answer line (errors: one line starting with 'error').
    The protocol itself is the output, so this command has no --json.
    """
    from ..play.bot import Bot, serve
    from ..play.engine import check_strategy
    from ._interrupt import interactive

    interactive()     # Ctrl-C ends the protocol at once
    check_strategy(strategy)
    serve(Bot(variant, strategy=strategy, seed=seed, guesses=guesses))
    return EXIT_OK
