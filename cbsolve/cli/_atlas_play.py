"""``bounds --play SECRET``: the guesses the strategy behind an atlas cell's worst-case upper end
makes against one secret, so anyone can spot-check a claimed bound.

Place in the data flow: an atlas record's recipe (:mod:`cbsolve.bounds.atlas_file`) -> **this replay** ->
``cbsolve bounds --play``, ``cb.bounds(..., play=SECRET)``.

The recipe says what replays the upper end: a heuristic with its first guess (evaluated again as
the one shared tree the bound was proved with, then followed along the secret's replies), a
streaming recipe (:func:`cbsolve.strategy.streaming.play_streaming`, which makes the choices the
exact evaluation made, without a tree), or a tree file (followed). An upper end that no stored
strategy replays (an exact search's tree, which the atlas does not keep; a construction other
than the block composition, which is played again; the
trivial strategy; a value from the literature) is answered with the best strategy the cell
evaluated exactly, or, without one, the first consistent code at each step (Shapiro 1983), and
the answer says so.
"""
from __future__ import annotations

from ..bounds.blocks import METHOD as BLOCKS_METHOD
from ..bounds.blocks import play as play_blocks
from ..game.codes import CodeSpace
from ..errors import CbsolveError
from ..game.rule import score
from ..game.variant import Variant
from ..strategy import evaluate
from ..strategy.streaming import Recipe, play_streaming
from ..certificates.certify import load
from ..data import models_dir
from .. import api


def play(variant: Variant, record: dict, secret: str) -> dict:
    """``{"secret", "guesses", "strategy", "upper", ...}`` for ``secret`` (bad input:
    :class:`~cbsolve.errors.InvalidCode`). The cell's recipe is spelled in the cell's own
    alphabet: the game is played there and the guesses spelled back in ``variant``'s."""
    space = CodeSpace(variant)
    secret = space.format(space.parse(secret))
    cell = Variant.from_dict(record["variant"])
    there = str.maketrans(variant.symbols, cell.symbols)
    back = str.maketrans(cell.symbols, variant.symbols)
    out = _play(cell, record, secret.translate(there))
    out["secret"] = secret
    out["guesses"] = [g.translate(back) for g in out["guesses"]]
    return out


def _play(variant: Variant, record: dict, secret: str) -> dict:
    worst = record["worst"]
    recipe = worst.get("recipe") or {}
    replays = True
    if recipe.get("kind") == "strategy":
        strategy = recipe
    elif recipe.get("kind") == "streaming":
        return _answer(secret, _follow_streaming(variant, recipe["recipe"], secret),
                       f"streaming {recipe['recipe']['heuristic']}, first guess "
                       f"{recipe['recipe']['first']}", worst, True, None)
    elif recipe.get("kind") == "tree":
        guesses, name = _follow_tree(variant, recipe["path"], secret)
        return _answer(secret, guesses, f"tree {name}", worst, True, None)
    elif recipe.get("kind") == "construction" and recipe.get("method") == BLOCKS_METHOD:
        return _answer(secret, _follow_blocks(variant, secret), BLOCKS_METHOD, worst, True, None)
    else:
        replays = False
        strategy = _best_evaluated(record)
    why = None if replays else (
        f"the upper end {worst['upper']} comes from {worst['upper_method']}, which the atlas "
        "cannot replay; these are the guesses of "
        + (f"the best strategy evaluated exactly for this game (worst {strategy['worst']})"
           if strategy else "the first-consistent-code strategy (no bound claimed for it here)"))
    if strategy is None:
        guesses = _first_consistent(variant, secret)
        return _answer(secret, guesses, "first consistent code (Shapiro 1983)", worst, False, why)
    guesses = _follow_strategy(variant, strategy, secret)
    label = (f"{strategy['name']}{' over candidates' if strategy['guesses'] == 'candidates' else ''}"
             f", first guess {strategy['first']}")
    return _answer(secret, guesses, label, worst, replays, why)


def _answer(secret, guesses, strategy, worst, replays, why) -> dict:
    out = {"secret": secret, "guesses": guesses, "strategy": strategy, "upper": worst["upper"],
           "upper_method": worst["upper_method"], "replays_upper_end": replays}
    known = worst.get("known") or {}
    if known.get("upper_from", "proved here") != "proved here":
        out["literature_upper"] = known["upper"]
        out["literature"] = known["upper_from"].removeprefix("literature: ")
        why = (f"{why}; " if why else "") + (
            f"a published strategy reaches {known['upper']} ({out['literature']}); these are "
            f"the guesses of cbsolve's best strategy for the game, whose worst case is "
            f"{worst['upper']}")
    if why:
        out["note"] = why
    return out


def _best_evaluated(record: dict) -> dict | None:
    found = [s for s in record.get("strategies", []) if s.get("worst") is not None]
    return min(found, key=lambda s: (s["worst"], s["total"])) if found else None


def _reply_key(variant: Variant, secret: str, guess: str) -> str:
    space = CodeSpace(variant)
    b, c = score(variant, space.parse(secret), space.parse(guess))
    return variant.format_response(variant.response_index(b, c))


def _walk(variant: Variant, root: dict, secret: str) -> list[str]:
    guesses: list[str] = []
    node: dict | None = root
    while node is not None:
        guesses.append(node["guess"])
        if node["guess"] == secret:
            return guesses
        node = (node.get("children") or {}).get(_reply_key(variant, secret, node["guess"]))
    raise CbsolveError(f"the strategy's tree does not reach {secret}")


def _follow_strategy(variant: Variant, strategy: dict, secret: str) -> list[str]:
    ev = evaluate(variant, strategy["name"], first=strategy["first"],
                  guesses=strategy["guesses"], keep_tree=True)
    assert ev.tree is not None          # keep_tree: the shared tree the bound was proved with
    return _walk(variant, ev.tree["root"], secret)


def _follow_streaming(variant: Variant, recipe: dict, secret: str) -> list[str]:
    guesses = play_streaming(variant, Recipe.from_json(recipe), secret)
    if not guesses or guesses[-1] != secret:
        raise CbsolveError(f"the streaming strategy does not reach {secret}")
    return guesses


def _follow_tree(variant: Variant, path: str, secret: str) -> tuple[list[str], str]:
    """A tree file of the same game (possibly on other symbols: the secret is translated)."""
    from dataclasses import replace

    rel = path[len("models/"):] if path.startswith("models/") else path
    doc = load(models_dir() / rel)
    theirs = Variant.from_dict(doc["variant"])
    table = str.maketrans(variant.symbols, theirs.symbols)
    back = str.maketrans(theirs.symbols, variant.symbols)
    same = replace(variant, symbols=theirs.symbols, name=theirs.name)
    guesses = _walk(same, doc["root"], secret.translate(table))
    return [g.translate(back) for g in guesses], path


def _follow_blocks(variant: Variant, secret: str) -> list[str]:
    """The block composition (:mod:`cbsolve.bounds.blocks`), which needs no stored tree."""
    space = CodeSpace(variant)
    code = space.parse(secret)
    guesses = play_blocks(variant.length, variant.n_symbols, lambda g: score(variant, code, g)[0])
    return [space.format(g) for g in guesses]


def _first_consistent(variant: Variant, secret: str) -> list[str]:
    space = CodeSpace(variant)
    log: list[str] = []
    guesses: list[str] = []
    while True:
        guess = api.next_guess(log, variant=variant, strategy="first").guess
        if guess is None:
            raise CbsolveError(f"no consistent code left before {secret}")
        guesses.append(guess)
        if guess == secret:
            return guesses
        b, c = score(variant, space.parse(secret), space.parse(guess))
        log.append(f"{guess}:{b}" if variant.bulls_only else f"{guess}:{b},{c}")


__all__ = ["play"]
