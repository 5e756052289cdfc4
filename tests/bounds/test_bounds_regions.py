"""Count, split into regions, locate (cbsolve/bounds/regions.py): the strategy is played against
every secret of small games and random and adversarial secrets up to N = 64, always within its
proved worst case."""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cbsolve.bounds import compute_bounds
from cbsolve.bounds.constructive import count_locate_worst
from cbsolve.bounds.regions import SplitThenLocate, split_locate_total, split_locate_worst
from cbsolve.game.rule import score
from cbsolve.game.variant import Variant


def play(variant: Variant, secret: tuple[int, ...]) -> list[tuple[int, ...]]:
    guesses = SplitThenLocate(variant).play(lambda code: score(variant, secret, code)[0])
    assert guesses[-1] == tuple(secret), "the game must end on the secret"
    assert tuple(secret) not in guesses[:-1]
    return guesses


@pytest.mark.parametrize("n, d", [(n, d) for n in range(1, 8) for d in range(1, 6)
                                  if d ** n <= 20_000 and (n, d) != (1, 1)])
def test_every_secret_of_small_games_within_the_bound(n, d):
    v = Variant.from_options(length=n, digits=d, repeats=True, feedback="bulls")
    worst = max(len(play(v, s)) for s in itertools.product(range(d), repeat=n))
    assert worst <= split_locate_worst(v) <= count_locate_worst(v)


@pytest.mark.parametrize("n, d", [(4, 3), (5, 3), (5, 4), (6, 3), (6, 4), (7, 3)])
def test_the_total_bound_covers_every_secret_played(n, d):
    # Each secret is charged the worst case of its number of symbols: the strategy played on
    # every secret must total no more.
    v = Variant.from_options(length=n, digits=d, repeats=True, feedback="bulls")
    played = [len(play(v, s)) for s in itertools.product(range(d), repeat=n)]
    assert sum(played) <= split_locate_total(v) <= split_locate_worst(v) * d ** n


def test_the_total_bound_beats_worst_times_secrets_where_every_symbol_is_likely():
    v = Variant.from_options(length=40, digits=10, repeats=True)
    assert split_locate_total(v) < split_locate_worst(v) * 10 ** 40
    assert compute_bounds(v).expected.upper == split_locate_total(v)


def _crowded_secret(rng: random.Random, n: int, d: int) -> tuple[int, ...]:
    """Every symbol present, the counts as even as the adversary of the scan likes them, and
    the rarest symbol placed at the end of the board."""
    counts = [1] * d
    for _ in range(n - d):
        counts[rng.randrange(1, d)] += 1
    cells = [s for s in range(1, d) for _ in range(counts[s])]
    rng.shuffle(cells)
    return tuple(cells + [0] * counts[0])


def _within_the_bound(n, d, seed):
    rng = random.Random(seed)
    v = Variant.from_options(length=n, letters=d, repeats=True)
    bound = split_locate_worst(v)
    if d <= n:
        assert len(play(v, _crowded_secret(rng, n, d))) <= bound
    pool = rng.sample(range(d), rng.randint(1, d))
    assert len(play(v, tuple(rng.choice(pool) for _ in range(n)))) <= bound


#: Each case plays two secrets (a crowded one when every symbol fits, and a random one). A play
#: builds and keeps the small regions' trees and tables it meets: seconds of CPU for the first
#: games of a process (48 of 16 about 9 s, 64 of 5 about 4 s), so drawn examples made the
#: default run's cost a lottery. It plays seven fixed games of under a second each from a fresh
#: process, crowded and not, and more symbols than positions; the slow run draws forty games of
#: up to 64 positions.
@pytest.mark.parametrize("n, d", [(30, 3), (20, 2), (24, 6), (32, 4), (16, 4), (20, 26),
                                  (10, 10)])
def test_random_and_crowded_secrets_of_fixed_games_stay_within_the_bound(n, d):
    _within_the_bound(n, d, n * 100 + d)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(n=st.integers(8, 64), d=st.integers(2, 26), seed=st.integers(0, 2**32 - 1))
def test_random_and_crowded_secrets_up_to_64_stay_within_the_bound_more_examples(n, d, seed):
    _within_the_bound(n, d, seed)


def test_splitting_removes_the_scan_when_every_symbol_occurs():
    # 40 of 10: the rarest pair (counts 1 and 2) cost a 39-guess scan before any region split.
    v = Variant.from_options(length=40, digits=10, repeats=True)
    assert split_locate_worst(v) < count_locate_worst(v) - 20
    b = compute_bounds(v, search=False, strategies=False)
    assert b.worst.upper == split_locate_worst(v) and "split into regions" in b.worst.upper_method


def test_every_arrangement_of_a_crowded_count_vector_is_within_the_bound():
    # 9 of 5 with counts 1, 2, 2, 2, 2: every symbol occurs, so the board is split (not scanned);
    # all 22 680 arrangements are played.
    v = Variant.from_options(length=9, digits=5, repeats=True, feedback="bulls")
    cells = (0, 1, 1, 2, 2, 3, 3, 4, 4)
    worst = max(len(play(v, s)) for s in set(itertools.permutations(cells)))
    assert worst <= split_locate_worst(v) < count_locate_worst(v)
