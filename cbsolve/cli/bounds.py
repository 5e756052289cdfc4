"""``cbsolve bounds``: proved lower/upper bounds on the worst and expected number of guesses
(:func:`cbsolve.api.bounds`), answered from the atlas for its games (:mod:`cbsolve.bounds.atlas_file`);
``--table`` prints the atlas, ``--play SECRET`` the guesses behind a worst-case upper end."""
from __future__ import annotations

import click

from ..runtime import time_policy
from ..game.variant import Variant
from . import EXIT_OK, EXIT_USAGE, SECONDS, app, emit, json_option, progress_enabled, variant_options
from ._budget import TimeLimit
from .. import api
from ..bounds import atlas_file as atlas
from ..bounds.table import verified

#: The whole command's budget when no --time-limit is given (s).
DEFAULT_TIME_LIMIT = time_policy.BOUNDS_SECONDS


@app.command("bounds")
@click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS",
              help=f"Time for the whole command (default {DEFAULT_TIME_LIMIT:g}; 0: no limit); "
                   "the optional work (strategies up to 10^6 secrets, exact search) stops "
                   "there, the bounds stay proved, and the notes name what did not fit. On a "
                   "game of the atlas, given explicitly: try to close its open interval.")
@click.option("--recompute", is_flag=True,
              help="Ignore the atlas: compute the bounds (for checking it, and for its build).")
@click.option("--no-search", is_flag=True, help="Skip the exact optimal searches.")
@click.option("--no-strategies", is_flag=True, help="Skip the heuristic upper bounds.")
@click.option("--shallow", is_flag=True, help="Only one-guess partition bounds (no scorer pass).")
@click.option("--table", is_flag=True,
              help="Print the atlas (Markdown), filtered by the variant options given (none: "
                   "all of it); with --json a list of records, --csv, or --python.")
@click.option("--csv", "as_csv", is_flag=True, help="With --table: CSV.")
@click.option("--python", "as_python", is_flag=True,
              help="With --table: a Python dict {(length, symbols, repeats): upper} of the "
                   "bulls-and-cows cells' proved worst-case upper ends (a turn budget table).")
@click.option("--play", "secret", default=None, metavar="SECRET",
              help="The guesses the worst-case upper end's strategy makes against SECRET.")
@variant_options(given=True)
@json_option
def bounds_command(time_limit, recompute, no_search, no_strategies, shallow, table, as_csv,
                   as_python, secret, variant, given, as_json) -> int:
    """Bounds for any N and D: counting, partition (closed form), strategies, exact search."""
    if table:
        return _table(given, as_json, as_csv, as_python)
    if isinstance(variant, Exception):    # options that make no game (a filter may)
        raise variant
    if as_csv or as_python:
        raise click.UsageError("--csv and --python go with --table")
    if secret is not None:
        return _play(variant, secret, as_json)

    say = _say if progress_enabled(as_json) else None
    budget = TimeLimit.from_option(time_limit, DEFAULT_TIME_LIMIT)
    result = api.bounds(variant, search=not no_search, strategies=not no_strategies,
                    deep=not shallow, progress=say, deadline=budget.deadline,
                    recompute=recompute, improve=time_limit is not None)
    emit(as_json, result.to_json(), format_bounds(result))
    return EXIT_OK


def _filters(given: dict) -> dict:
    """The atlas fields the typed variant options fix (a preset fixes its rules, not its size)."""
    out: dict = {}
    if given["variant"] is not None:
        preset = Variant.preset(given["variant"])
        out.update(feedback=preset.feedback, repeats=preset.repeats,
                   no_leading_zero=preset.no_leading_zero)
    for key in ("length", "repeats", "no_leading_zero", "feedback"):
        if given[key] is not None:
            out[key] = given[key]
    sizes = [given["digits"], given["letters"],
             len(given["symbols"]) if given["symbols"] is not None else None]
    size = next((s for s in sizes if s is not None), None)
    if size is not None:
        out["n_symbols"] = size
    return out


def _table(given: dict, as_json: bool, as_csv: bool, as_python: bool) -> int:
    import json

    filters = _filters(given)
    rows = atlas.matching(filters)
    if not rows:
        shown = ", ".join(f"{k}={v}" for k, v in filters.items())
        click.echo(f"cbsolve: error: no atlas cell matches {shown}", err=True)
        return EXIT_USAGE
    if as_json:
        click.echo(json.dumps(rows))
    elif as_csv:
        click.echo(atlas.csv_text(rows), nl=False)
    elif as_python:
        click.echo(atlas.python_literal(rows))
    else:
        click.echo(atlas.markdown(rows))
    return EXIT_OK


def _play(variant, secret: str, as_json: bool) -> int:
    from ..bounds import atlas_file as atlas
    from ._atlas_play import play

    record = atlas.lookup(variant)
    if record is None:
        click.echo(f"cbsolve: error: {variant.describe()} is not in the atlas: --play replays "
                   "an atlas cell's strategy", err=True)
        return EXIT_USAGE
    result = play(variant, record, secret)
    text = (f"{' '.join(result['guesses'])}\n  {len(result['guesses'])} guesses by "
            f"{result['strategy']}; worst-case upper end {result['upper']}"
            + (f"\n  note: {result['note']}" if "note" in result else ""))
    emit(as_json, result, text)
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


def _literature(iv) -> list[str]:
    known = iv.extra.get("known") or {}
    out = [f"    literature: {x['citation']}: "
           + (f"exactly {x['exact']}" if x.get("exact") is not None else
              f"at most {x['upper']}" if x.get("upper") is not None else f"at least {x['lower']}")
           for x in iv.extra.get("literature", [])]
    if known and (known["lower"], known["upper"]) != (iv.lower, iv.upper):
        out.append(f"    best known: [{known['lower']}, {known['upper']}] (lower: "
                   f"{known['lower_from']}; upper: {known['upper_from']})")
    return out


def format_bounds(b) -> str:
    source = {"atlas": f"from the atlas (cell {b.atlas['cell']}, built {b.atlas['built']})"
              if b.atlas else "", "atlas, improved": "from the atlas, improved by this call",
              "computed": "computed"}.get(b.source, b.source)
    lines = [b.variant.describe(),
             f"  source:    {source}",
             f"  secrets:   {b.secrets}",
             f"  responses: {b.responses} possible replies",
             f"  worst case (guesses, final one included): {_interval(b.worst)}",
             *_literature(b.worst),
             f"  expected case (total guesses over all secrets): "
             f"{_interval(b.expected, b.secrets)}",
             *_literature(b.expected)]
    if b.checks and b.source == "computed":   # what the verifier confirmed of the exact searches

        lines.append(f"  verifier: {verified(b.checks)}")
    lines += [f"  note: {n}" for n in b.notes]
    return "\n".join(lines)
