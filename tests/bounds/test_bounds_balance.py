"""The balance search for the last two symbols (cbsolve/bounds/balance.py): its costs are checked
against the strategy's own play on every set of marks of small blocks, and on random secrets
with two symbols sharing the board up to N = 64."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from testkit import block_player, every_set_of_marks

from cbsolve.bounds.balance import balance_total, balance_worst
from cbsolve.bounds.constructive import CountThenLocate, count_locate_worst
from cbsolve.bounds.weighing import weigh_worst
from cbsolve.game.rule import score
from cbsolve.game.variant import Variant


def _balance_by_play(m: int, marks: set[int]) -> tuple[list[int], int]:
    """(positions of symbol 0 found, guesses asked) when CountThenLocate separates symbols 0
    (on the marks) and 1 (elsewhere) on m positions, with the absent symbol 2 as the filler."""
    player = block_player(tuple(0 if p in marks else 1 for p in range(m)), filler=2)
    return player._balance(0, 1, list(range(m)), len(marks)), len(player.guesses)


@pytest.mark.parametrize("m", range(1, 13))
def test_balance_finds_every_set_of_marks_within_its_worst_case_and_total(m):
    for k in range(m + 1):
        worst, total = every_set_of_marks(m, k, lambda marks: _balance_by_play(m, marks))
        assert worst == balance_worst(m, k)
        assert total == balance_total(m, k)


def test_one_mark_is_found_by_thirds_and_the_balance_never_loses_to_the_spring_scale():
    for m in range(1, 65):
        # Three readings a guess: no search finds one mark among m in fewer than log3 m.
        assert 3 ** balance_worst(m, 1) >= m > 3 ** (balance_worst(m, 1) - 1)
        for k in range(m + 1):
            assert balance_worst(m, k) <= weigh_worst(m, k)
            assert balance_worst(m, k) == balance_worst(m, m - k)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(6, 64), d=st.integers(3, 26), seed=st.integers(0, 2**32 - 1))
def test_two_symbols_sharing_a_large_board_stay_within_the_bound(n, d, seed):
    # The balance plays on the whole board when only two symbols occur (the others absent).
    rng = random.Random(seed)
    v = Variant.from_options(length=n, letters=d, repeats=True)
    c, e = rng.sample(range(d), 2)
    k = rng.randint(1, n - 1)
    marks = set(rng.sample(range(n), k))
    secret = tuple(c if p in marks else e for p in range(n))
    guesses = CountThenLocate(v).play(lambda g: score(v, secret, g)[0])
    assert guesses[-1] == secret
    assert len(guesses) <= count_locate_worst(v)
