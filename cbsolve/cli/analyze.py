"""``cbsolve analyze``: sweep variants x strategies (and bounds) into CSV, Markdown and plots
(:func:`cbsolve.api.sweep`)."""
from __future__ import annotations

import click

from ..errors import CbsolveError, InvalidVariant
from ..game.variant import MAX_LENGTH, Variant
from . import (
    EXIT_OK,
    FILE,
    SECONDS,
    SEED,
    SWEEP_WORKERS,
    app,
    emit,
    json_option,
    progress_enabled,
    variant_options,
)
from ._budget import TimeLimit
from ..analysis import DEFAULT_FAMILIES, DEFAULT_STRATEGIES
from .. import api
from ..extras import require

_VARIANT_PARAMS = ("variant_name", "length", "digits", "letters", "symbols", "repeats",
                   "no_leading_zero", "feedback")


def parse_ints(text: str | None, option: str, top: int) -> list[int] | None:
    """``2,3,4`` or ``2-4`` or a mix (``2-4,6``), each value in 1..``top``; bad input names
    the option (checked before a range is expanded, so ``1-99999999999`` fails at once)."""
    if text is None:
        return None
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        lo, sep, hi = part.partition("-")
        try:
            first, last = (int(lo), int(hi)) if sep else (int(part), int(part))
        except ValueError:
            raise InvalidVariant(f"{option} {text!r}: expected numbers like 2,3,4 or 2-4") from None
        if first > last or first < 1 or last > top:
            raise InvalidVariant(f"{option} {text!r}: values must be in 1..{top}"
                                 + (f", and {part!r} is empty" if first > last else ""))
        out.extend(v for v in range(first, last + 1) if v not in out)
    return out


def _explicit_variant() -> bool:
    """Did the user give any variant option (then that variant is the family swept)?"""
    from click.core import ParameterSource

    ctx = click.get_current_context()
    return any(ctx.get_parameter_source(p) not in (None, ParameterSource.DEFAULT)
               for p in _VARIANT_PARAMS)


@app.command("analyze")
@click.option("--family", "families", multiple=True, metavar="PRESET",
              help="Rules to sweep (a preset name; repeatable). Default: bulls-cows and "
                   "mastermind, or the variant given by the variant options.")
@click.option("--lengths", default=None, metavar="LIST", help="Code lengths N, e.g. 2-4 (default 2-4).")
@click.option("--alphabets", default=None, metavar="LIST",
              help="Alphabet sizes D, e.g. 2-10 (default 2-10).")
@click.option("--strategies", default=None, metavar="LIST",
              help="Comma-separated strategies (default: all six).")
@click.option("--bounds/--no-bounds", default=True, show_default=True,
              help="Add a row of proved lower bounds (and the optimum on small spaces).")
@click.option("--workers", type=SWEEP_WORKERS, default=None,
              help="Local single-threaded worker processes (default: one per CPU; 0: in this process).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Run on a Dask distributed cluster (e.g. tcp://host:8786).")
@click.option("--out", "out_dir", type=FILE, default="analysis", show_default=True, metavar="DIR",
              help="Output directory (kept between runs: finished cells are skipped).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the random strategy.")
@click.option("--plots/--no-plots", default=True, show_default=True, help="Write PNG plots.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS",
              help="Stop after this long, keep the cells finished and report them (default and "
                   "0: no limit); a rerun computes the rest.")
@variant_options
@json_option
def analyze_command(families, lengths, alphabets, strategies, bounds, workers, scheduler,
                    out_dir, seed, plots, quiet, time_limit, variant, as_json) -> int:
    """Sweep variants x strategies into DIR/results.csv, results.md and PNG plots.

    Each cell plays one strategy against every secret of one variant. Cells already in DIR are
    kept and skipped, so an interrupted sweep (Ctrl-C or --time-limit) resumes where it stopped.
    """
    budget = TimeLimit.from_option(time_limit, None)

    fams: list = [Variant.preset(f) and f for f in families]
    explicit = _explicit_variant()
    if explicit:
        fams.append(variant)
    if not fams:
        fams = list(DEFAULT_FAMILIES)
    lens = parse_ints(lengths, "--lengths", MAX_LENGTH)
    # The largest alphabet a family can take: its own symbols, or the 26 letters.
    widest = max([26] + [len(f.symbols) for f in fams if isinstance(f, Variant)])
    alphs = parse_ints(alphabets, "--alphabets", widest)
    if explicit and not families:  # one given variant: its own N and D unless overridden
        lens = lens or [variant.length]
        alphs = alphs or [variant.n_symbols]
    names = DEFAULT_STRATEGIES if strategies is None else \
        tuple(s.strip() for s in strategies.split(",") if s.strip())
    if not names:
        raise CbsolveError(f"--strategies {strategies!r}: no strategy named")
    if plots:       # said before the sweep, not after it
        require("matplotlib", "analyze's PNG plots (--no-plots skips them)")

    def run(progress):
        return api.sweep(out_dir, families=fams, lengths=lens, alphabets=alphs, strategies=names,
                     include_bounds=bounds, seed=seed, workers=workers, scheduler=scheduler,
                     progress=progress, plots=plots, deadline=budget.deadline)
    if progress_enabled(as_json, quiet):
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        with Progress(TextColumn("analyze"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), TimeRemainingColumn(),
                      console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("cells", total=None)

            def progress(done, total):
                bar.update(task, completed=done, total=total)

            result = run(progress)
    else:
        result = run(None)
    where = (f"Dask scheduler {scheduler}" if scheduler else "this process" if workers == 0
             else f"{workers or 'all'} local worker(s)")
    left = result.cells - result.skipped - result.computed
    stopped = ""
    if left and (result.interrupted or result.time_limit_hit):
        why = ("interrupted (Ctrl-C)" if result.interrupted
               else f"stopped at the time limit of {budget.seconds:g} s")
        stopped = f"  {why}: {left} cells not computed (a rerun with the same --out computes them)\n"
    text = (f"{result.cells} cells: {result.computed} computed on {where}, {result.skipped} "
            f"kept from an earlier run, {result.errors} errors, {result.seconds:.1f} s\n"
            + stopped + "\n".join(f"  wrote {f}" for f in result.files))
    emit(as_json, result.to_json(), text)
    return EXIT_OK
