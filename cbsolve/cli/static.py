"""``cbsolve static``: fewest fixed guesses whose replies identify every secret (non-adaptive)."""
from __future__ import annotations

import click

from ..runtime import time_policy
from ..runtime.status import Status
from . import COUNT, EXIT_NONE, EXIT_OK, SECONDS, app, emit, json_option, progress_enabled, variant_options
from ._budget import TimeLimit
from ..bounds.static import solve_static

#: The whole command's budget when no --time-limit is given (s).
DEFAULT_TIME_LIMIT = time_policy.STATIC_SECONDS


@app.command("static")
@click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS",
              help=f"Stop after this long (default {DEFAULT_TIME_LIMIT:g}; 0: no limit) and "
                   "report the proved interval.")
@click.option("--max-questions", type=COUNT, default=None, metavar="K",
              help="Do K questions suffice? Search at most K; exit 1 when more are needed "
                   "(proved).")
@variant_options
@json_option
def static_command(time_limit, max_questions, variant, as_json) -> int:
    """Static game: k fixed questions identify the secret; the game takes k + 1 guesses."""
    progress = None
    if progress_enabled(as_json):
        def progress(message):
            click.echo(f"  {message}", err=True)
    budget = TimeLimit.from_option(time_limit, DEFAULT_TIME_LIMIT)
    result = solve_static(variant, deadline=budget.deadline, max_questions=max_questions,
                          progress=progress)
    if budget.deadline.expired() and not result.proved:
        result.notes.append(budget.note())
    emit(as_json, result.to_json(), format_static(result))
    return EXIT_NONE if result.status == Status.INFEASIBLE else EXIT_OK


def format_static(r) -> str:
    lines = [r.variant.describe(), f"  secrets: {r.secrets}"]
    if r.proved:
        lines.append(f"  {r.upper} questions needed and sufficient (proved); "
                     f"a game takes at most {r.upper + 1} guesses")
    else:
        lines.append(f"  questions in [{r.lower}, {r.upper}] (not proved optimal)")
    lines.append(f"  questions: {' '.join(r.guesses)}  (verified by the scorer)")
    lines += [f"  proof: {p}" for p in r.proofs]
    lines += [f"  note: {n}" for n in r.notes]
    lines.append("  convention: " + r.to_json()["convention"])
    return "\n".join(lines)
