"""``cbsolve puzzle``: a seeded log with exactly one consistent secret (:func:`cbsolve.api.puzzle`,
cbsolve/play/puzzle.py)."""
from __future__ import annotations

import click

from .. import time_policy
from . import COUNT, EXIT_OK, POSITIVE, SECONDS, SEED, app, emit, json_option, variant_options
from ._budget import TimeLimit


@app.command("puzzle")
@click.option("--difficulty", default="medium", show_default=True, metavar="easy|medium|hard",
              help="easy: random clues until one secret is left; medium: then a minimal clue "
                   "set (every clue needed); hard: minimal, each clue the weakest of several.")
@click.option("--clues", type=POSITIVE, default=None, metavar="K",
              help="Exactly K clues (puzzles are drawn until one has K).")
@click.option("--distractors", type=COUNT, default=0, show_default=True, metavar="K",
              help="Also give K wrong answers one symbol away from the secret (at most "
                   "N x (D - 1) with repeats, N x (D - N) without; more is refused).")
@click.option("--seed", type=SEED, default=None,
              help="Seed (default: drawn at random and printed, so the puzzle can be made again).")
@click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS",
              help=f"Stop drawing puzzles for --clues K after this long (default "
                   f"{time_policy.PUZZLE_SECONDS:g}; 0: no limit).")
@click.option("--show-answer", is_flag=True,
              help="Also print the secret under the puzzle (text; --json always holds it).")
@variant_options
@json_option
def puzzle_command(difficulty, clues, distractors, seed, time_limit, show_answer, variant,
                   as_json) -> int:
    """A log that exactly one secret satisfies, verified by the native filter."""
    from ..api import puzzle

    budget = TimeLimit.from_option(time_limit, time_policy.PUZZLE_SECONDS)
    p = puzzle(variant, seed=seed, difficulty=difficulty, clues=clues, distractors=distractors,
               deadline=budget.deadline)
    lines = [f"{variant.describe()}: {p.clues} clues, {difficulty}, seed {p.seed}",
             *(f"  {t}" for t in p.tokens())]
    if p.distractors:
        lines.append(f"  wrong answers one symbol away: {' '.join(p.distractors)}")
    if show_answer:
        lines.append(f"  the one consistent secret: {p.secret} (verified)")
    else:
        lines.append("  exactly one secret is consistent (verified; --show-answer prints it)")
    emit(as_json, p.to_json(), "\n".join(lines))
    return EXIT_OK
