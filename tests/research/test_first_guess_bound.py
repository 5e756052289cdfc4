"""The first-guess lower bound (scripts/research/first_guess_bound.py) against the exact optimum:
never above it, equal to it when every class is probed to the end, and raised by the probes
above the two-level bound it starts from."""
import pytest
from first_guess_bound import game_bound

from cbsolve.search.expected import solve_expected
from cbsolve.game.variant import Variant

GAMES = [Variant(4, "1234", True, False), Variant(4, "12345", True, False),
         Variant(3, "012345", False, False)]


@pytest.mark.parametrize("variant", GAMES, ids=["mm-4x4", "mm-4x5", "bc-3-6"])
def test_bound_never_exceeds_the_optimum_and_reaches_it_when_probed_to_the_end(variant):
    optimum = solve_expected(variant, workers=1, progress=False)
    assert optimum.proved
    start = game_bound(variant, time_limit=0)
    assert all(g.exact == 0 for g in start.guesses)
    some = game_bound(variant, max_class=40, seconds=60)
    full = game_bound(variant, max_class=10**6, seconds=60)
    assert start.bound <= some.bound <= full.bound == optimum.total
