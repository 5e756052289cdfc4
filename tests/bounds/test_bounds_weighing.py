"""Weighing searches of count-then-locate (cbsolve/bounds/weighing.py): the costs the bounds use
are checked against the strategy's own play, on every set of marks of small blocks and on
random and adversarial secrets of large games."""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from testkit import block_player, every_set_of_marks

from cbsolve.bounds import cross_search
from cbsolve.bounds.constructive import CountThenLocate, count_locate_worst, locate_worst
from cbsolve.bounds.weighing import (
    blocks_worst,
    two_unknowns_cost,
    two_unknowns_total,
    two_unknowns_worst,
    weigh_total,
    weigh_worst,
)
from cbsolve.game.rule import score
from cbsolve.game.variant import Variant


def test_two_unknowns_worst_is_the_largest_played_cost():
    for x in range(1, 18):
        for y in range(1, 18):
            costs = [two_unknowns_cost(x, y, i, j) for i in range(x) for j in range(y)]
            assert two_unknowns_worst(x, y) == max(costs)
            assert two_unknowns_total(x, y) == sum(costs)
    for n in range(2, 25):
        costs = [two_unknowns_cost(n, n, i, j) for i in range(n) for j in range(n) if i != j]
        assert two_unknowns_worst(n, n, distinct=True) == max(costs)


def _locate_by_play(m: int, marks: set[int]) -> tuple[list[int], int]:
    """(positions found, guesses asked) when CountThenLocate locates symbol 0 on the marks of m
    positions, with an absent symbol 1 as the filler."""
    player = block_player(tuple(0 if p in marks else 2 for p in range(m)), filler=1)
    return player._locate(0, list(range(m)), len(marks)), len(player.guesses)


@pytest.mark.parametrize("m", range(1, 12))
def test_weighing_locates_every_set_of_marks_within_its_worst_case_and_total(m):
    for k in range(m + 1):
        worst, total = every_set_of_marks(m, k, lambda marks: _locate_by_play(m, marks))
        assert worst == weigh_worst(m, k)
        assert total == weigh_total(m, k)
        assert weigh_worst(m, k) <= locate_worst(m, k)      # never worse than halving alone


def test_weighing_two_at_once_beats_one_at_a_time_on_large_blocks():
    for m in (19, 32, 38, 40, 64):
        assert weigh_worst(m, 2) < locate_worst(m, 2)
        assert two_unknowns_worst(m, m, distinct=True) < locate_worst(m, 1) + locate_worst(m - 1, 1)
        assert blocks_worst(m // 2, m - m // 2) < locate_worst(m // 2, 1) + locate_worst(m - m // 2, 1)


@pytest.mark.parametrize("x", range(1, 10))
def test_rectangle_search_finds_every_pair_within_its_worst_case_and_total(x):
    for y in range(1, 10):
        worst = total = 0
        for ip, iq in itertools.product(range(x), range(y)):
            asked = []

            def weigh(a, b, ip=ip, iq=iq, asked=asked):
                asked.append(1)
                return (ip in a) + (iq in b)
            assert cross_search.play(range(x), range(y), weigh) == (ip, iq)
            worst, total = max(worst, len(asked)), total + len(asked)
        assert (worst, total) == (cross_search.cross_worst(x, y), cross_search.cross_total(x, y))


@settings(max_examples=30, deadline=None)
@given(n=st.integers(12, 64), seed=st.integers(0, 2**32 - 1))
def test_random_secrets_made_of_pairs_and_singletons(n, seed):
    # Adversarial for the new searches: most symbols occur once or twice, their occurrences on
    # neighbouring positions (p, p ^ 1), so that few bits separate them.
    rng = random.Random(seed)
    d = rng.randint(4, 26)
    v = Variant.from_options(length=n, letters=d, repeats=True)
    symbols = list(range(d))
    rng.shuffle(symbols)
    secret: list[int | None] = [None] * n
    order = list(range(0, n - 1, 2))
    rng.shuffle(order)
    s = 0
    for p in order:
        if rng.random() < 0.5:
            secret[p] = secret[p + 1] = symbols[s % d]       # a double on p, p ^ 1
            s += 1
        else:
            secret[p], secret[p + 1] = symbols[s % d], symbols[(s + 1) % d]
            s += 2
    code = tuple(c if c is not None else symbols[0] for c in secret)
    guesses = CountThenLocate(v).play(lambda g: score(v, code, g)[0])
    assert guesses[-1] == code
    assert len(guesses) <= count_locate_worst(v)
