"""``cbsolve next [ENTRY...] --strategy S``: the best next guess for a feedback log."""
from __future__ import annotations

import click

from ..errors import InconsistentLog
from . import EXIT_OK, FILE, SEED, app, emit, json_option, variant_options
from .consistent import read_log, report_inconsistent
from .evaluate import STRATEGY_HELP


@app.command("next")
@click.argument("entries", nargs=-1)
@click.option("--log", "log_file", type=FILE, default=None, metavar="FILE", help="Read entries from a file.")
@click.option("--strategy", default="minimax", show_default=True,
              help=f"{STRATEGY_HELP} | optimal (the exact optimum from this position when at "
                   "most 500 secrets remain, else the certified tree in models/, else minimax; "
                   "the output says which)")
@click.option("--guesses", default="all", show_default=True, metavar="all|candidates",
              help="Draw guesses from all codes or from the remaining candidates only.")
@click.option("--seed", type=SEED, default=None, help="Seed for the random strategy.")
@variant_options
@json_option
def next_command(entries, log_file, strategy, guesses, seed, variant, as_json) -> int:
    """The best next guess after ENTRIES (GUESS:B,C | GUESS:xAyB | GUESS:B) and/or --log FILE."""
    from ..play.optimal_advice import OPTIMAL, optimal_next_guess
    from ..strategy import next_guess
    from ._interrupt import abandonable

    log = read_log(variant, entries, log_file)
    try:
        if strategy == OPTIMAL:
            advice = optimal_next_guess(log, guesses)
        else:
            # a large game's choice takes minutes in a kernel with no stop flag: Ctrl-C must
            # not wait for it
            advice = abandonable(lambda: next_guess(log, strategy, guesses=guesses, seed=seed))
    except InconsistentLog as exc:
        return report_inconsistent(log, exc, as_json,
                                   {"candidates": 0, "guess": None, "strategy": strategy})
    data = {"consistent": True, **advice.to_json()}
    if advice.determined:
        text = f"determined: the secret is {advice.guess} (play it)"
    else:
        p = advice.partition
        text = (f"next guess {advice.guess} ({advice.strategy}); {advice.candidates} candidates "
                f"remain; it splits them into {p['classes']} classes, largest {p['largest']}")
    if advice.note:
        text += f"\n  ({advice.source}: {advice.note})"
    emit(as_json, data, text)
    return EXIT_OK
