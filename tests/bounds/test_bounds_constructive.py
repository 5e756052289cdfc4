"""The count-then-locate construction: its proved worst case is checked by playing it against
every secret of small games (where the bound must be met exactly by some secret, since the
analysis is a worst case over attainable counts) and against random secrets of large ones."""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cbsolve.bounds import compute_bounds
from cbsolve.bounds.constructive import (
    CountThenLocate,
    count_locate_worst,
    locate_worst,
    supported,
)
from cbsolve.bounds.constructive_distinct import SetThenPlace, set_place_total, set_place_worst
from cbsolve.bounds.constructive_expected import constructive_total, count_locate_total
from cbsolve.bounds.regions import split_locate_worst
from cbsolve.game.rule import score
from cbsolve.game.variant import Variant


def play(variant: Variant, secret: tuple[int, ...]) -> list[tuple[int, ...]]:
    guesses = CountThenLocate(variant).play(lambda code: score(variant, secret, code)[0])
    assert guesses[-1] == tuple(secret), "the game must end on the secret"
    for g in guesses[:-1]:
        assert g != tuple(secret)
    return guesses


SMALL = [(n, d, fb) for n in range(1, 6) for d in range(1, 6) if d ** n <= 3125
         for fb in ("bulls-cows", "bulls")]


@pytest.mark.parametrize("n, d, feedback", SMALL)
def test_bound_is_the_exact_worst_case_of_the_strategy_on_small_games(n, d, feedback):
    v = Variant.from_options(length=n, digits=d, repeats=True, feedback=feedback)
    bound = count_locate_worst(v)
    worst = max(len(play(v, s)) for s in itertools.product(range(d), repeat=n))
    assert worst == bound


def test_mastermind_bound_brackets_the_known_optimum():
    v = Variant.preset("mastermind")
    # Knuth 1977: 5 guesses are optimal, so any valid construction needs >= 5.
    assert count_locate_worst(v) >= 5
    assert max(len(play(v, s)) for s in itertools.product(range(6), repeat=4)) == count_locate_worst(v)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(6, 40), d=st.integers(2, 26), seed=st.integers(0, 2**32 - 1))
def test_random_secrets_of_large_games_stay_within_the_bound(n, d, seed):
    v = Variant.from_options(length=n, letters=d, repeats=True)
    rng = random.Random(seed)
    # Adversarial-ish: few symbols or all symbols, to hit both filler cases.
    pool = rng.sample(range(d), rng.choice([1, min(2, d), d]))
    secret = tuple(rng.choice(pool) for _ in range(n))
    assert len(play(v, secret)) <= count_locate_worst(v)


def test_halving_table_small_values():
    # One marked position among m needs ceil(log2 m) halvings; none or all need no guess.
    for m in range(1, 33):
        assert locate_worst(m, 1) == (m - 1).bit_length()
        assert locate_worst(m, 0) == locate_worst(m, m) == 0


def test_unsupported_variants_give_no_bound():
    assert count_locate_worst(Variant.preset("bulls-cows")) is None
    assert set_place_worst(Variant.preset("bulls-cows-no-leading-zero")) is None
    assert not supported(Variant.preset("bulls-cows-no-leading-zero"))[0]
    with pytest.raises(ValueError):
        CountThenLocate(Variant.preset("bulls-cows"))


def test_compute_bounds_uses_it_beyond_the_strategy_limit():
    v = Variant.from_options(length=8, digits=10, repeats=True)
    b = compute_bounds(v, search=False)
    # The bounds play count-then-locate with region splits on top (cbsolve/bounds/regions.py).
    assert b.worst.upper == split_locate_worst(v) <= count_locate_worst(v)
    assert "split into regions" in b.worst.upper_method
    assert b.worst.lower <= b.worst.upper


# --- distinct games: set-then-place -----------------------------------------------------------
def play_distinct(variant: Variant, secret: tuple[int, ...]) -> list[tuple[int, ...]]:
    guesses = SetThenPlace(variant).play(lambda code: score(variant, secret, code))
    assert guesses[-1] == tuple(secret) and tuple(secret) not in guesses[:-1]
    assert all(len(set(g)) == variant.length for g in guesses), "every guess is a valid code"
    return guesses


@pytest.mark.parametrize("n, d", [(1, 3), (2, 3), (2, 5), (3, 5), (3, 6), (4, 7), (4, 10)])
def test_set_then_place_stays_within_its_bound_on_every_secret(n, d):
    v = Variant.from_options(length=n, digits=d, repeats=False)
    worst = max(len(play_distinct(v, s)) for s in itertools.permutations(range(d), n))
    assert worst <= set_place_worst(v)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(5, 13), extra=st.integers(0, 8), seed=st.integers(0, 2**32 - 1))
def test_set_then_place_random_secrets_of_large_games(n, extra, seed):
    d = min(26, 2 * n - 1 + extra)
    v = Variant.from_options(length=n, letters=d, repeats=False)
    secret = tuple(random.Random(seed).sample(range(d), n))
    assert len(play_distinct(v, secret)) <= set_place_worst(v)


def test_set_then_place_scope_and_bounds_integration():
    assert set_place_worst(Variant.from_options(length=8, digits=10, repeats=False)) is None  # D < 2N-1
    assert set_place_worst(Variant.preset("mastermind")) is None
    v = Variant.from_options(length=10, letters=26, repeats=False)
    b = compute_bounds(v, search=False)
    assert b.worst.upper == set_place_worst(v) and "set-then-place" in b.worst.upper_method


# --- the expected case of count-then-locate -----------------------------------------------------
@pytest.mark.parametrize("n, d", [(n, d) for n, d, fb in SMALL if fb == "bulls"])
def test_total_bound_counts_every_guess_of_every_secret(n, d):
    v = Variant.from_options(length=n, digits=d, repeats=True)
    full = played = 0
    for secret in itertools.product(range(d), repeat=n):
        respond = (lambda s: lambda code: score(v, s, code)[0])(secret)
        full += len(CountThenLocate(v).play(respond, stop_early=False))
        played += len(play(v, secret))
    # The closed form charges every guess the strategy asks when it does not stop on a lucky
    # win; the real game stops there, so the bound is exact for the first and holds for both.
    assert count_locate_total(v) == full
    assert played <= full


def test_expected_upper_bound_is_used_beyond_worst_times_secrets():
    v = Variant.from_options(length=40, letters=26, repeats=True)
    b = compute_bounds(v, search=False, strategies=False)
    assert b.expected.upper == count_locate_total(v) < b.worst.upper * b.secrets
    assert "count-then-locate" in b.expected.upper_method
    assert b.expected.lower <= b.expected.upper


@pytest.mark.parametrize("n, d", [(7, 3), (8, 3), (7, 4)])
def test_pair_search_games_worst_and_total_on_every_secret(n, d):
    # N >= 7: the pair search (2L - 1 = 5 guesses) beats the scan (N - 1) for two singletons.
    v = Variant.from_options(length=n, digits=d, repeats=True, feedback="bulls")
    worst = full = 0
    for secret in itertools.product(range(d), repeat=n):
        respond = (lambda s: lambda code: score(v, s, code)[0])(secret)
        worst = max(worst, len(play(v, secret)))
        full += len(CountThenLocate(v).play(respond, stop_early=False))
    assert worst == count_locate_worst(v)
    assert full == count_locate_total(v)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(7, 64), seed=st.integers(0, 2**32 - 1))
def test_pair_search_on_random_all_present_secrets(n, seed):
    # Adversarial for the pair search: every symbol present, two of them once, placed at
    # positions whose bits agree as much as possible (p and p ^ 1 differ in one bit only).
    rng = random.Random(seed)
    d = rng.randint(3, min(26, (n + 2) // 2))
    v = Variant.from_options(length=n, letters=d, repeats=True)
    pa = rng.randrange(n)
    pb = pa ^ 1 if pa ^ 1 < n and rng.random() < 0.7 else rng.choice([p for p in range(n) if p != pa])
    others = list(range(2, d)) + [rng.randrange(2, d) for _ in range(n - d)]
    rng.shuffle(others)
    fill = iter(others)
    secret = tuple(0 if p == pa else 1 if p == pb else next(fill) for p in range(n))
    assert len(set(secret)) == d
    assert len(play(v, secret)) <= count_locate_worst(v)


@pytest.mark.parametrize("n, d", [(2, 5), (3, 5), (3, 6), (4, 7)])
def test_set_then_place_total_bound_holds_on_every_secret(n, d):
    v = Variant.from_options(length=n, digits=d, repeats=False)
    secrets = list(itertools.permutations(range(d), n))
    total = sum(len(play_distinct(v, s)) for s in secrets)
    assert total <= set_place_total(v) <= set_place_worst(v) * len(secrets)
    assert constructive_total(v)[0] == set_place_total(v)
