"""The listing of a large space's consistent secrets by the depth-first search
(:func:`cbsolve.consistency.native.searched_within`, what ``consistent_within`` uses beyond
``SEARCH_CODES``) against the NumPy reference filter, in chunks, and cut by a deadline."""
import numpy as np
from hypothesis import given, settings
from testkit import consistent_with, variant_and_log

from cbsolve import Variant
from cbsolve.consistency import native
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.scoring import filter_mask


def reference(log: FeedbackLog) -> np.ndarray:
    """The consistent indices by the NumPy scoring reference over the listed space."""
    mask = filter_mask(log.variant, log.space.codes, log.guesses_array(), log.responses(),
                       backend="numpy")
    return np.flatnonzero(mask)


@settings(max_examples=60, deadline=None)
@given(variant_and_log(max_entries=4))
def test_search_lists_what_the_reference_filter_keeps(log):
    if not len(log):
        return
    found, complete = native.searched_within(log, chunk=7)   # many calls, each resumed
    assert complete
    np.testing.assert_array_equal(found, reference(log))


def test_an_expired_deadline_keeps_the_first_call():
    v = Variant.from_options("mastermind", length=5, digits=8)
    log = FeedbackLog.parse(v, ["12345:1,2"])
    every = reference(log)
    found, complete = native.searched_within(log, Deadline(0), chunk=100)
    assert not complete
    np.testing.assert_array_equal(found, every[:100])
    found, complete = native.searched_within(log, Deadline(None), chunk=100)
    assert complete
    np.testing.assert_array_equal(found, every)


def test_mastermind_8x8_is_listed_by_the_search():
    """The space the search is for (16.7 M codes): the count is the filter kernel's, the
    indices sorted, and a spread of them re-checked against the log."""
    v = Variant.from_options("mastermind", length=8, digits=8)
    log = FeedbackLog.parse(v, ["12345678:2,3", "11223344:1,2"])
    assert log.space.size > native.SEARCH_CODES
    found, complete = native.consistent_within(log, Deadline(None))
    assert complete and found.size == native.consistent_rows(log)[0]
    assert np.all(np.diff(found) > 0)
    for i in found[:: max(1, found.size // 50)]:
        assert consistent_with(log, log.space.code_at(int(i)))
