"""``cbsolve review FILE``: grade game transcripts move by move (cbsolve/play/game_review.py).

The command reads and checks every line first (cbsolve/play/transcripts.py), so bad input is
one line and exit 2 before any review; ``--skip-bad`` reports such lines and reviews the rest.
"""
from __future__ import annotations

import time

import click

from ..runtime import time_policy
from ..runtime.deadline import stop_requested
from . import EXIT_OK, FILE, SECONDS, _budget, app, emit, json_option, variant_options
from ._budget import TimeLimit
from ..advisor import PositionService
from ..inputs import read_text
from ..play.game_review import review_game, summarise
from ..play.review_report import text, write_page
from ..play.transcripts import BadTranscript, read_lines


@app.command("review")
@click.argument("file", metavar="FILE")
@click.option("--move-time", type=SECONDS, default=time_policy.REVIEW_MOVE_SECONDS,
              metavar="SECONDS", show_default=True,
              help="Budget of one move (both objectives); where the exact solve does not end "
                   "in it, the move carries proved bounds. 0: no per-move limit.")
@click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS",
              help="For the whole run (default: none); each move's budget is cut from it. At "
                   "the limit, or on Ctrl-C, the games reviewed so far are printed.")
@click.option("--skip-bad", is_flag=True,
              help="Report a line that cannot be reviewed and review the others (default: "
                   "exit 2 on the first).")
@click.option("--html", "html_file", type=FILE, default=None, metavar="FILE",
              help="Also write an HTML report with a plot of regret by turn.")
@variant_options(optional=True)
@json_option
def review_command(file, move_time, time_limit, skip_bad, html_file, variant, as_json) -> int:
    """Grade game transcripts (JSON lines) move by move: candidates, regret in both
    objectives, exact or bounded.

    FILE (- for stdin) holds JSON lines, one game a line: {"variant": NAME or the object
    cbsolve's JSON prints, "entries": [{"guess", "bulls", "cows"}, ...]}, or an adapter's
    record. The variant options apply to lines without a variant; a line of another
    variant is bad input. Each move: candidates before and after, whether the guess could
    be the secret, its regret in the worst case and in the expected case (the final guess
    counted), exact or proved bounds."""
    budget = TimeLimit.from_option(time_limit, None)
    if file == "-" and _budget.serving():
        raise click.BadParameter("a file name under serve (its standard input carries the "
                                 "requests)", param_hint="FILE")
    start = time.perf_counter()
    source = "standard input" if file == "-" else f"transcript file {file!r}"
    read = list(read_lines(read_text(file, source).splitlines(), variant))
    bad = [item for item in read if isinstance(item, BadTranscript)]
    if bad and not skip_bad:
        raise bad[0]
    services: dict = {}
    games = []
    stopped = None
    for item in read:
        if isinstance(item, BadTranscript):
            continue
        if budget.deadline.expired():
            stopped = "interrupted" if stop_requested() else "time"
            break
        service = services.setdefault(item.variant, PositionService(item.variant))
        games.append(review_game(service, item, budget.deadline, move_time or None))
        if not games[-1].reviewed_all:
            stopped = "interrupted" if stop_requested() else "time"
            break
    seconds = time.perf_counter() - start
    doc = {"games": [g.to_json() for g in games],
           "skipped": [{"line": b.line, "error": str(b)} for b in bad],
           "summary": {**summarise(games, bad, seconds, stopped),
                       "move_time": move_time or None, "time_limit": budget.seconds}}
    if html_file is not None:
        write_page(doc, html_file)
    emit(as_json, doc, text({**doc, "bad": [str(b) for b in bad]}))
    return EXIT_OK
