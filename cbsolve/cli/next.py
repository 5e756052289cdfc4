"""``cbsolve next [ENTRY...] --strategy S --objective O``: the best next guess for a log.

Thin: one :class:`~cbsolve.runtime.deadline.Deadline` from ``--time-limit``, one call to
:func:`cbsolve.api.next_guess` (the position service, :class:`cbsolve.advisor.PositionService`),
the answer with its provenance. At the
deadline or on Ctrl-C the service's best so far is printed, labelled (Ctrl-C: exit 130).
"""
from __future__ import annotations

import click

from ..runtime import time_policy
from ..runtime.deadline import stop_requested
from ..errors import InconsistentLog
from . import EXIT_OK, FILE, SECONDS, SEED, app, emit, json_option, variant_options
from ._interrupt import EXIT_INTERRUPTED
from ._log import read_log, report_inconsistent
from ._help import OBJECTIVE_HELP, STRATEGY_HELP, TIME_HELP
from ..advisor import check_objective, check_strategy
from .. import api
from ._budget import TimeLimit

@app.command("next")
@click.argument("entries", nargs=-1)
@click.option("--log", "log_file", type=FILE, default=None, metavar="FILE", help="Read entries from a file.")
@click.option("--strategy", default="minimax", show_default=True,
              help=f"{STRATEGY_HELP} | optimal (the certified tree in models/ for the "
                   "objective while the log follows it, else the exact optimum from this "
                   "position when the search fits the time, else a heuristic; the output says "
                   "which)")
@click.option("--objective", default="worst", show_default=True, metavar="worst|expected",
              help=OBJECTIVE_HELP)
@click.option("--guesses", default="all", show_default=True, metavar="all|candidates",
              help="Draw guesses from all codes or from the remaining candidates only.")
@click.option("--seed", type=SEED, default=None, help="Seed for the random strategy.")
@click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS", help=TIME_HELP)
@variant_options
@json_option
def next_command(entries, log_file, strategy, objective, guesses, seed, time_limit, variant,
                 as_json) -> int:
    """The best next guess after ENTRIES (GUESS:B,C | GUESS:xAyB | GUESS:B) and/or --log FILE."""
    budget = TimeLimit.from_option(time_limit, time_policy.ASSIST_SECONDS)
    check_strategy(strategy)
    check_objective(objective)
    log = read_log(variant, entries, log_file)
    try:
        move = api.next_guess(log, strategy=strategy, objective=objective, guesses=guesses,
                          seed=seed, deadline=budget.deadline)
    except InconsistentLog as exc:
        return report_inconsistent(log, exc, as_json,
                                   {"candidates": 0, "guess": None, "strategy": strategy})
    emit(as_json, move.to_json(), advice_text(move))
    return finish(move.provenance)


def advice_text(advice) -> str:
    """The text of one piece of advice: the guess, what remains, where it came from."""
    if advice.solved is not None:
        text = f"solved: the secret is {advice.guess} (entry {advice.solved})"
    elif advice.determined:
        text = f"determined: the secret is {advice.guess} (play it)"
    else:
        p = advice.partition
        many = advice.candidates if advice.remaining.exact else f"at least {advice.candidates}"
        text = f"next guess {advice.guess} ({advice.strategy}); {many} candidates remain"
        if p:       # a consistent code alone (a space too large to score) has no partition
            text += f"; it splits them into {p['classes']} classes, largest {p['largest']}"
    prov = advice.provenance
    honoured = (f"the {prov.objective} objective honoured" if prov.honoured
                else f"the {prov.objective} objective not proved")
    source = "" if prov.note.startswith(prov.source) else f"{prov.source}: "
    text += f"\n  ({source}{prov.note}; {honoured})"
    if advice.needed is not None and not advice.determined:
        text += f"\n  guesses still needed: {advice.needed.text()}"
    if not prov.complete:
        why = "interrupted (Ctrl-C)" if prov.stopped == "interrupted" else "time limit reached"
        text += f"\n  partial: {why}: the best found so far"
    return text


def finish(provenance) -> int:
    """Exit 0, or 130 with one line on stderr when Ctrl-C cut the answer."""
    if provenance.stopped == "interrupted" or stop_requested():
        click.echo("cbsolve: interrupted: the answer above is the best found so far", err=True)
        return EXIT_INTERRUPTED
    return EXIT_OK
