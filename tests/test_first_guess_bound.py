"""The first-guess lower bound (cbsolve.search.first_guess_bound) against the exact optimum:
never above it, and equal to it when every class is solved exactly."""
import pytest

from cbsolve.search.expected import solve_expected
from cbsolve.search.first_guess_bound import game_bound
from cbsolve.variant import Variant


@pytest.mark.parametrize("variant", [Variant(4, "1234", True, False), Variant(4, "12345", True, False),
                                     Variant(3, "012345", False, False)],
                         ids=["mm-4x4", "mm-4x5", "bc-3-6"])
def test_bound_is_the_optimum_with_every_class_exact_and_below_it_otherwise(variant):
    optimum = solve_expected(variant, workers=1, progress=False)
    assert optimum.proved
    full = game_bound(variant, exact_max=10**6, seconds=60)
    assert full.bound == optimum.total
    assert all(g.exact == g.classes for g in full.guesses)
    partial = game_bound(variant, exact_max=0)
    assert partial.bound <= optimum.total
    assert all(g.exact == 0 for g in partial.guesses)
