"""A small game's partition through the kernel's list-based entries (no NumPy) equals the
array path's: classes, scores and the best over one guess per symmetry class."""
import pytest

from cbsolve.advisor import PositionService
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog
from cbsolve.strategy.partition import listed_partition, partition
from cbsolve.game.variant import Variant

CASES = [
    (Variant.preset("bulls-cows"), "0123", ["4567:0,1"]),
    (Variant.preset("bulls-cows"), "1234", ["0123:1,2", "4567:0,1"]),
    (Variant.preset("mastermind"), "1122", ["1234:1,1"]),
    (Variant.preset("black-peg"), "1123", ["1234:2"]),
    (Variant.preset("numbers"), "1234", ["5678:0,1", "1357:1,1"]),
    (Variant(5, "ABCDEFGH", repeats=False), "ABCDE", ["ABCDF:2,1"]),
]


@pytest.mark.parametrize("variant,guess,entries", CASES)
def test_listed_partition_equals_the_array_path(variant, guess, entries):
    log = FeedbackLog.parse(variant, entries)
    light = listed_partition(log, guess, Deadline(None))
    heavy = partition(log, guess)                  # every code compared, NumPy arrays
    assert light is not None
    assert light.to_json() == heavy.to_json()
    # the service's own answer (one guess per symmetry class for the best) is the same
    assert PositionService(variant).partition(log, guess).to_json() == heavy.to_json()


def test_an_expired_deadline_leaves_the_best_out_and_says_so():
    log = FeedbackLog.parse(Variant.preset("bulls-cows"), ["4567:0,1"])
    part = listed_partition(log, "0123", Deadline(0))
    assert part.best is None and part.best_complete is False and part.scores["minimax"] > 0


def test_too_large_a_comparison_goes_to_the_symmetry_path():
    log = FeedbackLog.parse(Variant(6, "0123456789", repeats=False), ["012345:1,2"])
    assert listed_partition(log, "012345") is None          # 151,200 codes x 10^4 candidates
