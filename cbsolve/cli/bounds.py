"""``cbsolve bounds``: proved lower/upper bounds on the worst and expected number of guesses
(:func:`cbsolve.api.bounds`)."""
from __future__ import annotations

import click

from .. import time_policy
from . import EXIT_OK, SECONDS, app, emit, json_option, progress_enabled, variant_options
from ._budget import TimeLimit

#: The whole command's budget when no --time-limit is given (s).
DEFAULT_TIME_LIMIT = time_policy.BOUNDS_SECONDS


@app.command("bounds")
@click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS",
              help=f"Time for the whole command (default {DEFAULT_TIME_LIMIT:g}; 0: no limit); "
                   "the optional work (strategies up to 10^6 secrets, exact search) stops "
                   "there, the bounds stay proved, and the notes name what did not fit.")
@click.option("--no-search", is_flag=True, help="Skip the exact optimal searches.")
@click.option("--no-strategies", is_flag=True, help="Skip the heuristic upper bounds.")
@click.option("--shallow", is_flag=True, help="Only one-guess partition bounds (no scorer pass).")
@variant_options
@json_option
def bounds_command(time_limit, no_search, no_strategies, shallow, variant, as_json) -> int:
    """Bounds for any N and D: counting, partition (closed form), strategies, exact search."""
    from ..api import bounds

    say = _say if progress_enabled(as_json) else None
    budget = TimeLimit.from_option(time_limit, DEFAULT_TIME_LIMIT)
    result = bounds(variant, search=not no_search, strategies=not no_strategies,
                    deep=not shallow, progress=say, deadline=budget.deadline)
    emit(as_json, result.to_json(), format_bounds(result))
    return EXIT_OK


def _say(message: str) -> None:
    click.echo(f"bounds: {message} ...", err=True)


def _interval(iv, scale=None) -> str:
    if iv.exact is not None:
        text = f"exactly {iv.exact}" + (f" (average {iv.exact / scale:.4f})" if scale else "")
        return f"{text}  [{iv.lower_method}]"
    lo = f"{iv.lower}" + (f" (avg {iv.lower / scale:.4f})" if scale else "")
    hi = f"{iv.upper}" + (f" (avg {iv.upper / scale:.4f})" if scale else "")
    return f"in [{lo}, {hi}]\n    lower: {iv.lower_method}\n    upper: {iv.upper_method}"


def format_bounds(b) -> str:
    lines = [b.variant.describe(),
             f"  secrets:   {b.secrets}",
             f"  responses: {b.responses} possible replies",
             f"  worst case (guesses, final one included): {_interval(b.worst)}",
             f"  expected case (total guesses over all secrets): "
             f"{_interval(b.expected, b.secrets)}"]
    if b.checks:   # what the independent verifier confirmed of the exact searches
        from ..bounds.table import verified

        lines.append(f"  verifier: {verified(b.checks)}")
    lines += [f"  note: {n}" for n in b.notes]
    return "\n".join(lines)
