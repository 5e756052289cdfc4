"""``cbsolve partition GUESS [ENTRY...]``: how GUESS splits the secrets the entries leave.

Thin: the position service's partition (:meth:`cbsolve.advisor.PositionService.partition`:
one guess, its scores beside the best over one guess per symmetry class, within
``--time-limit``) or :func:`~cbsolve.strategy.partition.partition_table` (``--all``: every
guess up to symmetry, scored in blocks: cut by the time limit or Ctrl-C, the guesses scored
so far, ranked).
"""
from __future__ import annotations

import click

from .. import time_policy
from ..errors import InconsistentLog
from . import EXIT_NONE, EXIT_OK, FILE, SECONDS, app, emit, json_option, variant_options
from ._log import read_log

SORTS = ("minimax", "expected", "entropy", "parts")
#: Rows a table cut by the time limit or Ctrl-C shows, its best: the 450,000 rows scored in 3 s
#: on Bulls & Cows 7/10 took 4-6 s to format and print, far past the limit or the Ctrl-C.
SHOWN_WHEN_CUT = 1000


@app.command("partition")
@click.argument("guess", required=False)
@click.argument("entries", nargs=-1)
@click.option("--log", "log_file", type=FILE, default=None, metavar="FILE", help="Read entries from a file.")
@click.option("--list", "list_members", is_flag=True, help="List the secrets of every class.")
@click.option("--all", "every_guess", is_flag=True,
              help="A table of every guess up to symmetry instead of one GUESS (then every "
                   "argument is an entry).")
@click.option("--sort", default="minimax", show_default=True, type=click.Choice(SORTS),
              help="--all: order the table by this heuristic's score (best first).")
@click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS",
              help=f"One GUESS: time for the best scores beside its own (default "
                   f"{time_policy.ASSIST_SECONDS:g}; 0: no limit); cut there, they are left "
                   "out and the output says so. --all: the whole table; cut there, the "
                   "guesses scored so far, ranked.")
@variant_options
@json_option
def partition_command(guess, entries, log_file, list_members, every_guess, sort, time_limit,
                      variant, as_json) -> int:
    """Reply classes of GUESS over the secrets ENTRIES leave: count per reply, largest class,
    the heuristics' scores of GUESS beside the best any guess reaches."""
    from ..advisor import Provenance
    from ..api import partition
    from ..deadline import stop_requested
    from ..strategy.partition import partition_table
    from ._budget import TimeLimit
    from .next import finish

    budget = TimeLimit.from_option(time_limit, time_policy.ASSIST_SECONDS)

    if every_guess:
        entries = (guess, *entries) if guess is not None else entries
    elif guess is None:
        raise click.UsageError("give a GUESS, or --all for every guess")
    log = read_log(variant, entries, log_file)
    try:
        if every_guess:
            table = partition_table(log, sort, deadline=budget.deadline)
            # a complete table's rows are formatted under the same deadline (604,800 rows
            # take seconds): cut there, it shows the best rows formatted, as a cut table does
            rows = table.ranked(None if table.complete else SHOWN_WHEN_CUT,
                                deadline=budget.deadline if table.complete else None)
            data = {"candidates": table.candidates, "sort": sort, "guesses": rows,
                    "complete": table.complete, "scored": table.scored, "total": table.total}
            stopped = None
            if not table.complete or len(rows) < table.scored:   # a time limit or Ctrl-C
                stopped = "interrupted" if stop_requested() else "time"
                data.update(command="partition", shown=len(rows), stopped=stopped,
                            time_limit=budget.seconds, time_limit_hit=stopped == "time")
            emit(as_json, data, _table_text(table, rows, sort, stopped and budget.note()))
            if stopped:
                return finish(Provenance("partition", "worst", False, False, stopped))
        else:
            part = partition(guess, log, members=list_members, deadline=budget.deadline)
            emit(as_json, part.to_json(members=list_members),
                 _text(part, list_members, budget.note()))
            if not part.best_complete:
                return finish(Provenance("partition", "worst", False, False))
    except InconsistentLog:
        emit(as_json, {"consistent": False, "candidates": 0},
             "No secret is consistent with this log.")
        return EXIT_NONE
    return EXIT_OK


def _score_line(scores: dict, best: dict | None, why: str = "") -> str:
    if best is None:
        return (f"  largest class {scores['minimax']}, expected size {scores['expected']:.4f}, "
                f"entropy {scores['entropy']:.4f} bits, classes {scores['parts']} (the best "
                f"any guess reaches was not computed: {why})")
    return (f"  largest class {scores['minimax']} (best {best['minimax']}), expected size "
            f"{scores['expected']:.4f} (best {best['expected']:.4f}), entropy "
            f"{scores['entropy']:.4f} bits (best {best['entropy']:.4f}), classes "
            f"{scores['parts']} (best {best['parts']})")


def _text(part, list_members: bool, why: str = "") -> str:
    lines = [f"{part.guess} splits {part.candidates} candidates into {len(part.classes)} "
             f"classes{'' if part.candidate else ' (it cannot be the secret itself)'}",
             _score_line(part.scores, part.best, why)]
    width = max(len(c["reply"]) for c in part.classes)
    for c in part.classes:
        line = f"  {c['reply']:>{width}}  {c['count']}"
        if list_members:
            line += "  " + " ".join(c["members"])
        lines.append(line)
    return "\n".join(lines)


def _table_text(table, rows: list[dict], sort: str, note: str | None = None) -> str:
    if table.total is None:
        head = (f"{table.candidates} candidates; no guess scored: the classes of guesses up to "
                f"symmetry were not found ({note})")
    elif note:
        head = (f"{table.candidates} candidates; {table.scored} of {table.total} guesses up to "
                f"symmetry scored, the best {len(rows)} shown, {sort} first ({note})")
    else:
        head = (f"{table.candidates} candidates; {table.total} guesses up to symmetry, "
                f"best {sort} first")
    lines = [head, "  guess      equiv  cand  largest  expected   entropy  classes"]
    for r in rows:
        lines.append(f"  {r['guess']:<10} {r['equivalent']:>5}  {'yes' if r['candidate'] else 'no':>4}"
                     f"  {r['minimax']:>7}  {r['expected']:>8.4f}  {r['entropy']:>8.4f}"
                     f"  {r['parts']:>7}")
    return "\n".join(lines)
