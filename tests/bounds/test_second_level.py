"""The two-level partition bound with second guesses up to symmetry equals the plain one."""
import pytest

from cbsolve import Variant
from cbsolve.bounds import compute_bounds
from cbsolve.bounds.adaptive import scorer_bound
from cbsolve.bounds.second_level import second_level_bound
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.scoring import possible_responses


@pytest.mark.parametrize("variant", [
    Variant.preset("mastermind"),
    Variant.preset("black-peg"),
    Variant.preset("bulls-cows"),
    Variant(4, "0123456", repeats=False, feedback="bulls"),
    Variant(3, "0123", repeats=True, no_leading_zero=True),
    Variant(5, "012", repeats=True),
], ids=lambda v: v.describe()[:40])
def test_same_bound_as_every_second_guess(variant):
    responses = len(possible_responses(variant))
    plain = scorer_bound(variant, responses, deep=True)
    reduced = second_level_bound(variant, responses)
    assert (reduced.worst, reduced.total) == (plain.worst, plain.total)


def test_stops_at_the_deadline():
    v = Variant.preset("mastermind")
    assert second_level_bound(v, len(possible_responses(v)), Deadline(0)) is None


def test_bounds_use_it_where_the_plain_bound_stops():
    # Logik (5 pegs, 8 colours): 7 first-guess patterns x 32768^2 pair scorings is past the
    # plain bound's budget; with second guesses up to symmetry the worst case needs 6.
    b = compute_bounds(Variant(5, "12345678", True), strategies=False, search=False)
    assert b.worst.lower == 6 and "up to symmetry" in b.worst.lower_method
