"""The bulls-classes partition bound (cbsolve/bounds/bulls_classes.py): its class-size claim on
every guess of small games, soundness against the exact one-level bound and a published
optimum, and its use where the pattern closed forms stop."""
from __future__ import annotations

import itertools
from collections import Counter
from math import comb

import pytest

from cbsolve.bounds import compute_bounds
from cbsolve.bounds.adaptive import closed_form_bound
from cbsolve.bounds.bulls_classes import bulls_class_bound, cows_values, supported
from cbsolve.game.capacity import total_lower, worst_lower
from cbsolve.game.rule import score
from cbsolve.game.scoring import possible_responses
from cbsolve.game.variant import Variant

SMALL = [(n, d) for n in range(1, 5) for d in range(2, 6) if d ** n <= 625]


@pytest.mark.parametrize("n, d", SMALL)
def test_every_guess_has_a_class_as_large_as_claimed(n, d):
    v = Variant.from_options(length=n, digits=d, repeats=True)
    codes = list(itertools.product(range(d), repeat=n))
    parts = cows_values(v)
    for guess in codes:
        classes = Counter(score(v, secret, guess) for secret in codes)
        for b in range(n):
            bulls_class = sum(size for (bb, _), size in classes.items() if bb == b)
            assert bulls_class == comb(n, b) * (d - 1) ** (n - b)
            largest = max((size for (bb, _), size in classes.items() if bb == b), default=0)
            assert largest * parts.get(b, 1) >= bulls_class


@pytest.mark.parametrize("n, d", [(n, d) for n in range(2, 6) for d in range(2, 9)])
def test_never_above_the_exact_one_level_bound(n, d):
    v = Variant.from_options(length=n, digits=d, repeats=True)
    responses = len(possible_responses(v))
    ours = bulls_class_bound(v, responses)
    exact = closed_form_bound(v, responses, d ** n)
    assert ours.worst <= exact.worst and ours.total <= exact.total


def test_mastermind_stays_below_the_published_optima():
    # Knuth (1977): worst 5; Koyama and Lai (1993): 5625 guesses in total over the 1296 codes.
    v = Variant.preset("mastermind")
    pb = bulls_class_bound(v, len(possible_responses(v)))
    assert pb.worst <= 5 and pb.total <= 5625


def test_used_where_the_pattern_closed_forms_stop():
    v = Variant.from_options(length=20, letters=26, repeats=True)
    b = compute_bounds(v, search=False, strategies=False)
    counting = worst_lower(26 ** 20, b.responses), total_lower(26 ** 20, b.responses)
    assert b.worst.lower > counting[0] and "bulls classes" in b.worst.lower_method
    assert b.expected.lower > counting[1] and "bulls classes" in b.expected.lower_method


def test_scope():
    assert not supported(Variant.preset("bulls-cows"))                   # distinct symbols
    assert not supported(Variant.from_options(length=4, digits=6, repeats=True, feedback="bulls"))
    assert supported(Variant.preset("mastermind"))
