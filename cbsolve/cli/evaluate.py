"""``cbsolve evaluate --strategy S``: play a strategy against every secret as one shared tree
(:func:`cbsolve.api.evaluate`)."""
from __future__ import annotations

import sys

import click

from ..errors import InvalidVariant
from . import (
    EXIT_OK,
    FILE,
    POSITIVE,
    SECONDS,
    SEED,
    app,
    emit,
    json_option,
    progress_enabled,
    variant_options,
    write_text,
)
from ._help import STRATEGY_HELP
from .. import api
from ..strategy import Unfinished
from ..certificates.tree import to_dot, write_tree
from ._budget import TimeLimit
from ..formats.html import write_html


def _progress(enabled: bool):
    """A throttled stderr progress line (only for a person at a TTY, never with --json)."""
    if not enabled:
        return None
    state = {"last": -1}

    def report(done: int, total: int) -> None:
        pct = 100 * done // max(total, 1)
        if pct != state["last"]:
            state["last"] = pct
            sys.stderr.write(f"\r  {done}/{total} secrets ({pct}%)")
            if done >= total:
                sys.stderr.write("\n")
            sys.stderr.flush()

    return report


@app.command("evaluate")
@click.option("--strategy", default="minimax", show_default=True, help=STRATEGY_HELP)
@click.option("--first", "first", default=None, metavar="GUESS", help="Fix the opening guess.")
@click.option("--guesses", default="all", show_default=True, metavar="all|candidates",
              help="Draw guesses from all codes or from the remaining candidates only.")
@click.option("--out", "out", type=FILE, default=None, metavar="FILE",
              help="Write the strategy tree (docs/tree-format.md) to FILE.")
@click.option("--dot", "dot", type=FILE, default=None, metavar="FILE",
              help="Write the tree as Graphviz DOT (first --dot-depth guesses) to FILE.")
@click.option("--dot-depth", type=POSITIVE, default=3, show_default=True, metavar="K",
              help="Levels drawn by --dot (full trees of large variants are unreadable).")
@click.option("--html", "html", type=FILE, default=None, metavar="FILE",
              help="Write a page to walk the tree in a browser (one self-contained file).")
@click.option("--sample", type=POSITIVE, default=None, metavar="K",
              help="Play K random secrets only and report an estimate (for large spaces).")
@click.option("--seed", type=SEED, default=None, help="Seed for --sample and the random strategy.")
@click.option("--symmetry/--no-symmetry", default=None,
              help="Score one guess per symmetry class at the top of the tree (same result; "
                   "default: on from 20,000 codes).")
@click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS",
              help="Stop after this long and say how far the evaluation got; with --sample, "
                   "the estimate of the secrets played by then (default and 0: no limit).")
@variant_options
@json_option
def evaluate_command(strategy, first, guesses, out, dot, dot_depth, html, sample, seed,
                     symmetry, time_limit, variant, as_json) -> int:
    """Play a strategy against every secret (one shared decision tree) and report its cost."""
    if sample is not None and sample < 1:
        raise InvalidVariant(f"--sample must be at least 1, got {sample}")
    if sample is not None and (out or dot or html):
        raise InvalidVariant("--out and --dot need an exhaustive evaluation (so does --html); "
                             "drop --sample to write a tree")
    if dot_depth < 1:
        raise InvalidVariant(f"--dot-depth must be at least 1, got {dot_depth}")
    deadline = TimeLimit.from_option(time_limit, None).deadline
    try:
        result = api.evaluate(strategy, variant=variant, first=first, guesses=guesses, seed=seed,
                          progress=_progress(progress_enabled(as_json)), sample=sample,
                          symmetry="auto" if symmetry is None else symmetry, deadline=deadline)
    except Unfinished as stopped:    # the CLI turns a stop request into exit 130
        why = "interrupted" if stopped.interrupted else "time limit reached"
        emit(as_json, stopped.to_json(),
             f"{strategy}: {why} after settling {stopped.settled} of {stopped.secrets} "
             "secrets; no worst case or total can be read off a partial tree")
        return EXIT_OK
    if out:
        write_tree(result.tree, out)
    if dot:
        write_text(dot, "--dot", to_dot(result.tree, max_depth=dot_depth))
    if html:
        write_html(result.tree, html, title=f"{strategy} strategy")
    data = result.to_json()
    if html:
        data["html"] = html
    if out:
        data["out"] = out
    if dot:
        data["dot"] = dot
    emit(as_json, data, format_evaluation(result, out))
    return EXIT_OK


def format_evaluation(result, out: str | None) -> str:
    hist = ", ".join(f"{k}: {v}" for k, v in sorted(result.histogram.items()))
    if result.estimate:
        lo, hi = result.ci95 if result.ci95 else (float("nan"), float("nan"))
        lines = [f"{result.strategy} (estimate from {result.sample} random secrets of "
                 f"{result.secrets}, "
                 + ("unseeded" if result.seed is None else f"seed {result.seed}")
                 + f"), opening {result.first}",
                 f"  average {result.average:.4f} guesses, 95% CI [{lo:.4f}, {hi:.4f}]",
                 f"  worst observed {result.worst}",
                 f"  histogram (sample) {{{hist}}}"]
        if result.requested is not None:
            lines.append(f"  note: stopped after {result.sample} of the {result.requested} "
                         "secrets asked for")
    else:
        lines = [f"{result.strategy} (guesses from {result.guesses}), opening {result.first}",
                 f"  secrets {result.secrets}, worst {result.worst}, total {result.total}, "
                 f"average {result.average:.4f}",
                 f"  histogram {{{hist}}}"]
    lines += [f"  note: {note}" for note in result.notes if not result.estimate]
    if out:
        lines.append(f"  tree written to {out}")
    lines.append(f"  {result.seconds:.3f} s")
    return "\n".join(lines)
