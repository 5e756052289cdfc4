"""``cbsolve score SECRET GUESS``: :func:`cbsolve.api.score`."""
from __future__ import annotations

import click

from ..game.feedback import describe_reply, spell_reply
from . import app, emit, json_option, variant_options
from .. import api


@app.command("score")
@click.argument("secret")
@click.argument("guess")
@variant_options
@json_option
def score_command(secret: str, guess: str, variant, as_json: bool) -> int:
    """Score GUESS against SECRET (both validated against the variant)."""
    result = api.score(secret, guess, variant=variant)
    cows = result.cows or 0
    text = describe_reply(variant, result.bulls, cows)
    if result.cows is not None:
        text += f" ({spell_reply(variant, result.bulls, cows, 'BW' if variant.pegs else 'AB')})"
    emit(as_json, result.to_json(), text)
    return 0
