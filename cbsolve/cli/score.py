"""``cbsolve score SECRET GUESS``."""
from __future__ import annotations

import click

from ..codes import CodeSpace
from ..feedback import describe_reply, spell_reply
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
    # codes as the alphabet spells them (symbols are read in either case)
    data = {"secret": space.format(s), "guess": space.format(g), "bulls": bulls}
    text = describe_reply(variant, bulls, cows)
    if not variant.bulls_only:
        data["cows"] = cows
        text += f" ({spell_reply(variant, bulls, cows, 'BW' if variant.pegs else 'AB')})"
    emit(as_json, data, text)
    return 0
