"""``cbsolve partition GUESS [ENTRY...]``: how GUESS splits the secrets the entries leave.

Thin: :func:`cbsolve.partition` (the position service's partition: one guess, its scores
beside the best over one guess per symmetry class, within ``--time-limit``) or
:func:`cbsolve.partition_table` (``--all``: every guess up to symmetry, scored in blocks: cut
by the time limit or Ctrl-C, the guesses scored so far, ranked).
"""
from __future__ import annotations

import click

from ..runtime import time_policy
from ..runtime.deadline import stop_requested
from ..errors import InconsistentLog
from . import EXIT_NONE, EXIT_OK, FILE, SECONDS, _interrupt, app, emit, json_option, variant_options
from ._budget import TimeLimit
from ._log import read_log
from ..advisor import Provenance
from .. import api
from ..strategy.partition import Partition
from .next import finish

SORTS = ("minimax", "expected", "entropy", "parts")


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
    budget = TimeLimit.from_option(time_limit, time_policy.ASSIST_SECONDS)

    if every_guess:
        entries = (guess, *entries) if guess is not None else entries
    elif guess is None:
        raise click.UsageError("give a GUESS, or --all for every guess")
    log = read_log(variant, entries, log_file)
    try:
        if every_guess:
            table = api.partition_table(log, sort=sort, deadline=budget.deadline)
            if table.stopped is None:
                return _emit_whole_table(table, budget, as_json)
            emit(as_json, table.to_json(), _table_text(table, table.guesses, table.stopped
                                                        and budget.note()))
            return finish(Provenance("partition", "worst", False, False, table.stopped))
        else:
            part = api.partition(guess, log, members=list_members, deadline=budget.deadline)
            if not isinstance(part, Partition):
                return _emit_counted(part, as_json, budget)
            emit(as_json, part.to_json(members=list_members),
                 _text(part, list_members, budget.note()))
            if not part.best_complete:
                return finish(Provenance("partition", "worst", False, False))
    except InconsistentLog:
        emit(as_json, {"consistent": False, "candidates": 0},
             "No secret is consistent with this log.")
        return EXIT_NONE
    return EXIT_OK


#: Rows of a complete table formatted and printed between looks at the deadline and Ctrl-C's
#: stop request: the 604,800 rows of Bulls & Cows 7/10 took up to 2.6 s to print whole after a
#: Ctrl-C that came once they were scored.
PRINTED_BLOCK = 5000


def _emit_whole_table(table, budget, as_json: bool, block: int = PRINTED_BLOCK) -> int:
    """A complete table, formatted and printed block by block under the command's deadline:
    the limit or Ctrl-C between blocks ends the document there (the best rows printed so far,
    ``shown``, ``stopped``; exit 130 on Ctrl-C), so a stop ends it within a block's time."""
    import json

    head = {"candidates": table.candidates, "sort": table.sort, "complete": True,
            "scored": table.scored, "total": table.total}
    shown, stopped = 0, None
    with _interrupt.printing_document():
        click.echo(json.dumps(head)[:-1] + ', "guesses": [' if as_json else
                   _table_text(table, []), nl=False)
        for start in range(0, len(table.guesses), block):
            if start and budget.deadline.expired():
                stopped = "interrupted" if stop_requested() else "time"
                break
            rows = table.guesses[start:start + block]
            if as_json:
                click.echo((", " if start else "") + ", ".join(map(json.dumps, rows)), nl=False)
            else:
                click.echo("".join("\n" + line for line in _table_lines(rows)), nl=False)
            shown += len(rows)
        if as_json:
            tail = {} if stopped is None else {
                "command": "partition", "shown": shown, "stopped": stopped,
                "time_limit": budget.seconds, "time_limit_hit": stopped == "time"}
            click.echo("]" + "".join(f", {json.dumps(k)}: {json.dumps(v)}"
                                     for k, v in tail.items()) + "}")
        else:
            click.echo("" if stopped is None else
                       f"\n  (the best {shown} of {table.scored} rows shown: {budget.note()})")
        _interrupt.emitted()
    if stopped:
        return finish(Provenance("partition", "worst", False, False, stopped))
    return EXIT_OK


def _emit_counted(part, as_json: bool, budget) -> int:
    """A space too large to list (:class:`~cbsolve.advisor.counted.CountedPartition`): each
    class counted, exact or bounded; cut by the time limit or Ctrl-C (exit 130), what was
    decided by then."""
    data = part.to_json()
    if part.stopped:
        data.update(command="partition", time_limit=budget.seconds,
                    time_limit_hit=part.stopped == "time")
    how = "exactly" if part.candidates_exact else "at least"
    lines = [f"{part.guess} splits {how} {part.candidates} candidates into "
             f"{len(part.classes)} classes, counted (too many to list)"
             f"{'' if part.candidate else ' (it cannot be the secret itself)'}"]
    if part.stopped:
        lines.append(f"  not every class counted exactly: {budget.note()}")
    width = max((len(c["reply"]) for c in part.classes), default=1)
    for c in part.classes:
        size = str(c["count"]) if c["exact"] else f"at least {c['count']}" + (
            "" if c["upper"] is None else f", at most {c['upper']}")
        lines.append(f"  {c['reply']:>{width}}  {size}")
    emit(as_json, data, "\n".join(lines))
    if part.stopped:
        return finish(Provenance("partition", "worst", False, False, part.stopped))
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


def _table_text(table, rows: list[dict], note: str | None = None) -> str:
    return "\n".join([_table_head(table, len(rows), note),
                      "  guess      equiv  cand  largest  expected   entropy  classes",
                      *_table_lines(rows)])


def _table_head(table, shown: int, note: str | None = None) -> str:
    if table.total is None:
        return (f"{table.candidates} candidates; no guess scored: the classes of guesses up "
                f"to symmetry were not found ({note})")
    if note:
        return (f"{table.candidates} candidates; {table.scored} of {table.total} guesses up to "
                f"symmetry scored, the best {shown} shown, {table.sort} first ({note})")
    return (f"{table.candidates} candidates; {table.total} guesses up to symmetry, "
            f"best {table.sort} first")


def _table_lines(rows: list[dict]) -> list[str]:
    return [f"  {r['guess']:<10} {r['equivalent']:>5}  {'yes' if r['candidate'] else 'no':>4}"
            f"  {r['minimax']:>7}  {r['expected']:>8.4f}  {r['entropy']:>8.4f}  {r['parts']:>7}"
            for r in rows]
