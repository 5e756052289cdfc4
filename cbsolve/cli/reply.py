"""``cbsolve reply [ENTRY...] --guess G --host evil|adversary``: the reply a host that never
fixes its secret gives (cbsolve/play/hosts.py)."""
from __future__ import annotations

import click

from ..runtime import time_policy
from ..errors import InconsistentLog
from . import EXIT_OK, FILE, SECONDS, app, emit, json_option, variant_options
from ._budget import TimeLimit
from ._log import read_log, report_inconsistent
from ..play.hosts import check_host, host_reply


@app.command("reply")
@click.argument("entries", nargs=-1)
@click.option("--log", "log_file", type=FILE, default=None, metavar="FILE",
              help="Read the host's earlier replies from a file.")
@click.option("--guess", required=True, metavar="CODE", help="The guess to reply to.")
@click.option("--host", required=True, metavar="evil|adversary",
              help="evil: keep a largest class of secrets (Absurdle); adversary: keep the "
                   "class whose optimal worst case is largest (exact search, labelled when "
                   "the time limit stops it). Ties are broken by a stated rule (--json: rule).")
@click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS",
              help=f"For the adversary's searches (default {time_policy.ASSIST_SECONDS:g}; 0: "
                   "no limit); at the limit the classes not solved carry proved intervals.")
@variant_options
@json_option
def reply_command(entries, log_file, guess, host, time_limit, variant, as_json) -> int:
    """The reply of a host that never fixes its secret (evil: keep the most secrets;
    adversary: the hardest class).

    ENTRIES are its earlier replies; the reply never contradicts them."""
    budget = TimeLimit.from_option(time_limit, time_policy.ASSIST_SECONDS)
    check_host(host)
    log = read_log(variant, entries, log_file)
    try:
        answer = host_reply(log, guess, host, budget.deadline)
    except InconsistentLog as exc:
        return report_inconsistent(log, exc, as_json, {"host": host, "guess": guess})
    doc = answer.to_json(variant)
    shown = (f"{answer.bulls}" if answer.cows is None else f"{answer.bulls},{answer.cows}")
    text = (f"{host} host replies {answer.guess}:{shown} ({answer.candidates_after} of "
            f"{answer.candidates_before} secrets kept{'; the guess wins' if answer.win else ''})")
    if not answer.exact:
        text += "\n  not exact: the time limit stopped a class's search (bounds used)"
    emit(as_json, doc, text)
    return EXIT_OK
