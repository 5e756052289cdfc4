"""Two-guess closed-form lower bounds for bulls-only games with repeats: the class sizes match
the scorer, the bound equals the scorer's two-level partition bound on small games, and it never
exceeds an exact optimum."""
from __future__ import annotations

import itertools

import pytest

from cbsolve.bounds import compute_bounds
from cbsolve.bounds.adaptive import scorer_bound
from cbsolve.bounds.bulls_only import first_class, pair_class, supported, two_level_bound
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.rule import score
from cbsolve.game.scoring import possible_responses
from cbsolve.game.variant import Variant


def bulls_game(n: int, d: int) -> Variant:
    return Variant.from_options(length=n, digits=d, repeats=True, feedback="bulls")


@pytest.mark.parametrize("n, d", [(1, 2), (2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 3), (4, 4)])
def test_class_sizes_match_enumeration(n, d):
    v = bulls_game(n, d)
    secrets = list(itertools.product(range(d), repeat=n))
    g1 = (0,) * n
    for e in range(n + 1):
        g2 = tuple(0 if p < e else 1 for p in range(n))     # agrees with g1 on e positions
        seen: dict[tuple[int, int], int] = {}
        for x in secrets:
            key = (score(v, x, g1)[0], score(v, x, g2)[0])
            seen[key] = seen.get(key, 0) + 1
        for b1 in range(n + 1):
            assert sum(seen.get((b1, b2), 0) for b2 in range(n + 1)) == first_class(n, d, b1)
            for b2 in range(n + 1):
                assert pair_class(n, d, e, b1, b2) == seen.get((b1, b2), 0)


@pytest.mark.parametrize("n, d", [(2, 3), (3, 3), (3, 4), (4, 3), (4, 4), (4, 6), (5, 4)])
def test_equals_the_scorer_two_level_bound(n, d):
    # The scorer tries every second guess on every class; the closed form does the same through
    # the agreement e, so with every class refined the two must coincide.
    v = bulls_game(n, d)
    responses = len(possible_responses(v))
    closed = two_level_bound(v, responses, refined=n)
    scorer = scorer_bound(v, responses, deep=True)
    assert (closed.worst, closed.total) == (scorer.worst, scorer.total)
    default = two_level_bound(v, responses)
    assert default.worst <= closed.worst and default.total <= closed.total


@pytest.mark.parametrize("n, d", [(2, 3), (3, 3), (3, 4), (4, 3)])
def test_never_exceeds_the_exact_optimum(n, d):
    v = bulls_game(n, d)
    exact = compute_bounds(v, deadline=Deadline.from_limit(120))
    assert exact.worst.exact is not None and exact.expected.exact is not None
    pb = two_level_bound(v, exact.responses, refined=n)
    assert pb.worst <= exact.worst.exact
    assert pb.total <= exact.expected.exact


def test_large_games_gain_over_counting():
    v = Variant.from_options(length=40, letters=10, repeats=True, feedback="bulls")
    b = compute_bounds(v, search=False, strategies=False)
    assert "bulls only" in b.worst.lower_method and "bulls only" in b.expected.lower_method
    assert b.worst.lower <= b.worst.upper and b.expected.lower <= b.expected.upper


def test_scope():
    assert not supported(Variant.preset("mastermind"))              # bulls and cows
    assert not supported(Variant.from_options(length=4, digits=10, repeats=False, feedback="bulls"))
    assert supported(bulls_game(4, 6))
    assert two_level_bound(Variant.preset("mastermind"), 14) is None
