"""The first-guess lower bound (cbsolve.search.first_guess_bound) against the exact optimum:
never above it, and equal to it when the refinement runs to the end (exact classes, or probes
that end with a strategy)."""
import pytest

from cbsolve.search.expected import solve_expected
from cbsolve.search.first_guess_bound import game_bound
from cbsolve.variant import Variant

GAMES = [Variant(4, "1234", True, False), Variant(4, "12345", True, False),
         Variant(3, "012345", False, False)]


@pytest.mark.parametrize("variant", GAMES, ids=["mm-4x4", "mm-4x5", "bc-3-6"])
@pytest.mark.parametrize("exact_max", [0, 40, 10**6], ids=["probes", "mixed", "exact"])
def test_refined_to_the_end_the_bound_is_the_optimum(variant, exact_max):
    optimum = solve_expected(variant, workers=1, progress=False)
    assert optimum.proved
    assert game_bound(variant, exact_max=exact_max, seconds=60).bound == optimum.total


@pytest.mark.parametrize("variant", GAMES, ids=["mm-4x4", "mm-4x5", "bc-3-6"])
def test_unrefined_bound_is_below_the_optimum(variant):
    optimum = solve_expected(variant, workers=1, progress=False)
    bound = game_bound(variant, time_limit=0)
    assert bound.bound <= optimum.total
    assert all(g.exact == 0 for g in bound.guesses)
