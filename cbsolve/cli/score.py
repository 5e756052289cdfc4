"""``cbsolve score SECRET GUESS``."""
from __future__ import annotations

import click

from ..codes import CodeSpace
from ..rule import score
from . import app, emit, json_option, variant_options


@app.command("score")
@click.argument("secret")
@click.argument("guess")
@variant_options
@json_option
def score_command(secret: str, guess: str, variant, as_json: bool) -> int:
    """Score GUESS against SECRET (both validated against the variant)."""
    space = CodeSpace(variant)
    s, g = space.parse(secret), space.parse(guess)
    bulls, cows = score(variant, s, g)
    data = {"secret": secret, "guess": guess, "bulls": bulls}
    if variant.bulls_only:
        text = f"{bulls} bulls"
    else:
        data["cows"] = cows
        text = f"{bulls} bulls, {cows} cows ({bulls}A{cows}B)"
    emit(as_json, data, text)
    return 0
