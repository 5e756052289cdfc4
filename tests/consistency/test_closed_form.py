"""Logs of "nothing" replies are counted in closed form (consistency/closed_form.py), exactly,
where the search stopped at "at least" (64 zeros over 10 digits once gave "at least
617779310316678" where 9^64 is exact)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from testkit import brute_force_codes, variants

import cbsolve as cb
from cbsolve.game.codes import CodeSpace
from cbsolve.consistency.closed_form import zero_reply_count
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.rule import score


@settings(max_examples=150, deadline=None)
@given(variant=variants(max_length=4, max_symbols=7, max_size=5000), data=st.data())
def test_the_closed_form_is_the_plain_rules_count(variant, data):
    space = CodeSpace(variant)
    guesses = [space.code_at(data.draw(st.integers(0, space.size - 1)))
               for _ in range(data.draw(st.integers(1, 3)))]
    log = FeedbackLog(variant)
    for g in guesses:
        log.add(space.format(g), 0, None if variant.bulls_only else 0)
    count = zero_reply_count(log)
    if count is not None:           # None: left to the search (distinct, sets that differ)
        nothing = (0,) if variant.bulls_only else (0, 0)   # a bulls-only reply has no cows
        expected = [c for c in brute_force_codes(variant)
                    if all(score(variant, c, g)[:len(nothing)] == nothing for g in guesses)]
        assert count == len(expected)


def test_a_reply_that_is_not_nothing_is_left_to_the_search():
    log = FeedbackLog.parse(cb.Variant.preset("bulls-cows"), ["0123:0,0", "4567:0,1"])
    assert zero_reply_count(log) is None


def test_64_zeros_over_10_digits_count_exactly_and_at_once():
    zeros = "0" * 64 + ":0,0"
    r = cb.consistent([zeros], variant=cb.Variant(64, "0123456789", True), count=True, limit=2,
                      time_limit=5)
    assert (r.count, r.exact, str(r.status)) == (9**64, True, "optimal")
    assert len(r.secrets) == 2 and r.truncated


def test_an_inconsistent_log_of_nothing_replies_is_still_diagnosed():
    r = cb.consistent(["0123:0,0", "4567:0,0"], count=True, limit=0)
    assert r.count == 0 and not r.consistent and r.conflict == [1, 2]
