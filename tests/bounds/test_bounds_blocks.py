"""Block composition: the tabulated depths are those of the rebuilt block trees, and the composed
strategy, replayed against every secret of small games and random secrets of large ones with
the rule's own scoring, always ends on the secret within its proved worst case."""
from __future__ import annotations

import itertools
import random

import pytest

from cbsolve.bounds import compute_bounds
from cbsolve.bounds.blocks import DEPTHS, block_plan, block_tree, block_worst, play, tree_depth
from cbsolve.bounds.regions import split_locate_worst
from cbsolve.game.rule import score
from cbsolve.game.variant import Variant
from cbsolve.runtime.deadline import Deadline


def game(n: int, d: int, feedback: str = "bulls") -> Variant:
    return Variant.from_options(length=n, digits=d, repeats=True, feedback=feedback)


def replay(variant: Variant, secret: tuple[int, ...]) -> list[tuple[int, ...]]:
    # the reply by the rule's definition (cbsolve.game.rule.score, pure Python: a NumPy call a
    # guess cost about half of the 4.5 CPU s of every secret of 8 of 3)
    return play(variant.length, variant.n_symbols, lambda guess: score(variant, secret, guess)[0])


#: Trees of up to 1,024 codes; 3 of 10's (about 3 CPU s, the others half a second at most) in the
#: slow run.
@pytest.mark.parametrize("key", [pytest.param(k, marks=pytest.mark.slow) if k == (3, 10) else k
                                 for k in sorted(k for k in DEPTHS if k[1] ** k[0] <= 1024)])
def test_tabulated_depths_are_the_trees(key):
    b, d = key
    assert (tree_depth(block_tree(b, d, False)), tree_depth(block_tree(b, d, True))) == DEPTHS[key]


@pytest.mark.parametrize("n, d", [(3, 3), (5, 2), (6, 3), (5, 4), (8, 3), (4, 5)])
def test_every_secret_within_the_bound(n, d):
    v = game(n, d)
    worst = block_worst(v)
    longest = 0
    for secret in itertools.product(range(d), repeat=n):
        guesses = replay(v, secret)
        assert guesses[-1] == secret
        longest = max(longest, len(guesses))
    assert longest <= worst


#: 12 of 4 and 14 of 5 build block trees of 4,096 and 3,125 codes (about 13 and 7 CPU s, once a
#: process): the slow run's; the default run composes blocks of 3 symbols (the same play, its
#: shifted blocks and filler) and replays every secret of the composed 8 of 3 above.
@pytest.mark.parametrize("n, d", [(17, 3), pytest.param(12, 4, marks=pytest.mark.slow),
                                  pytest.param(14, 5, marks=pytest.mark.slow), (20, 3)])
def test_random_secrets_of_large_games(n, d):
    rng = random.Random(n * 100 + d)
    for feedback in ("bulls", "bulls-cows"):
        v = game(n, d, feedback)
        worst = block_worst(v)
        secrets = [tuple(rng.randrange(d) for _ in range(n)) for _ in range(40)]
        secrets += [(0,) * n, tuple([0] * (n - 1) + [d - 1]), tuple(i % d for i in range(n))]
        for secret in secrets:
            guesses = replay(v, secret)
            assert guesses[-1] == secret and len(guesses) <= worst


def test_plan_adds_up():
    worst, lengths = block_plan(17, 3)
    assert sum(lengths) == 17
    shifted = sum(DEPTHS[(b, 3)][1] for b in lengths[:-1])
    assert worst == 1 + shifted + DEPTHS[(lengths[-1], 3)][0] + 1


def test_beats_counting_then_locating_for_few_symbols():
    for n, d in [(17, 3), (12, 4)]:
        v = game(n, d)
        assert block_worst(v) < split_locate_worst(v)
        b = compute_bounds(v, deadline=Deadline(60.0), search=False, strategies=False)
        assert b.worst.upper == block_worst(v) and "block composition" in b.worst.upper_method


def test_scope():
    assert block_worst(Variant.from_options(length=4, digits=10, repeats=False)) is None
    assert block_worst(game(3, 1)) is None
