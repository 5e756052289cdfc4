"""``cbsolve assist``: advice for a game played elsewhere (see :mod:`cbsolve.play.assistant`)."""
from __future__ import annotations

import sys

import click

from ..runtime import time_policy
from ..runtime.deadline import Turns
from ..errors import InconsistentLog
from . import EXIT_NONE, EXIT_OK, FILE, SECONDS, SEED, app, emit, json_option, variant_options
from ._budget import TimeLimit
from ._interrupt import EXIT_INTERRUPTED, abandonable, interactive
from ._help import OBJECTIVE_HELP, TIME_HELP
from ..advisor import check_objective
from ..play.assistant import Assistant, AssistSession
from ..play.inputs import Console
from ._log import read_log


@app.command("assist")
@click.argument("entries", nargs=-1)
@click.option("--log", "log_file", type=FILE, default=None, metavar="FILE",
              help="Start from the entries in a log file.")
@click.option("--strategy", default="minimax", show_default=True, metavar="NAME",
              help="minimax, expected, entropy, parts, first, random, or optimal (for "
                   "--objective: the certified tree in models/ while the game is on it, then the "
                   "exact optimum from the position when it fits the time, else a heuristic; "
                   "each answer says which).")
@click.option("--objective", default="worst", show_default=True, metavar="worst|expected",
              help=OBJECTIVE_HELP)
@click.option("--tree", "tree_path", type=FILE, default=None, metavar="FILE",
              help="Follow this strategy tree (docs/tree-format.md).")
@click.option("--guesses", default="all", show_default=True, metavar="SET",
              help="Suggest from all codes or only the remaining candidates.")
@click.option("--seed", type=SEED, default=None, help="Seed for the random strategy.")
@click.option("--time-limit", type=SECONDS, default=time_policy.ASSIST_SECONDS, show_default=True,
              metavar="SECONDS", help=TIME_HELP)
@click.option("--coach", is_flag=True,
              help="Review each guess you type: what it costs against the best guess from that "
                   "position (on average and in the worst case; exact when at most 500 "
                   "candidates remain, else from a heuristic; labelled).")
@click.option("--quiet", is_flag=True, help="Accepted for symmetry; assist shows no progress bars.")
@variant_options
@json_option
def assist_command(entries, log_file, strategy, objective, tree_path, guesses, seed, time_limit,
                   coach, quiet, variant, as_json) -> int:
    """Suggest the next guess for a game you play elsewhere; type guesses and scores as you go.

    ENTRIES (GUESS:B,C ...) and --log start the game part-way. With --json the conversation
    goes to stderr and one JSON summary (entries, suggestion or conflict) to stdout, so
    `cbsolve assist 0123:1,2 --json </dev/null` is a one-shot query. Exit 1 if the entries end
    inconsistent.
    """
    interactive()     # Ctrl-C ends the session at once

    check_objective(objective)
    log = read_log(variant, entries, log_file)

    # one Deadline a turn; the answer to the entries given counts from the process's start
    first = TimeLimit.from_option(time_limit or None, None).deadline if len(log) else None
    assistant = Assistant(variant, strategy=strategy, guesses=guesses, seed=seed,
                          tree_path=tree_path, coach=coach, wait=abandonable,
                          objective=objective, turns=Turns(time_limit or None, first))
    for e in log:
        try:
            assistant.add(e.text, e.bulls, e.cows)
        except InconsistentLog:
            pass  # reported by the session
    console = Console(stdin=sys.stdin, stdout=sys.stderr if as_json else sys.stdout)
    session = AssistSession(assistant, console)
    try:
        summary = session.run()
    except KeyboardInterrupt:   # Ctrl-C: the entries typed so far, no advice
        if as_json:
            emit(True, {**session.entries(), "command": "assist", "interrupted": True,
                        "complete": False}, "")
        elif len(session.a.log):
            click.echo(f"\nentries so far: {' '.join(session.a.log.tokens())} (give them to "
                       "cbsolve assist to go on)")
        click.echo("cbsolve: interrupted", err=True)
        return EXIT_INTERRUPTED
    if as_json:
        emit(True, summary, "")
    return EXIT_OK if summary["consistent"] else EXIT_NONE
