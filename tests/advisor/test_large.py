"""The position service on large games: the sampled anytime choice, the listing cut by its
deadline, spaces too large to list, openings too large to compare. Each test gives a deadline
(or a stop request) and asserts what was decided under it, never how long it took."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from cbsolve.advisor import PositionService
from cbsolve.advisor.options import AdviceOptions, SampledShape
from cbsolve.advisor.opening import opening_partition, rule_opening
from cbsolve.advisor.sampled import choose_sampled
from cbsolve.consistency import native
from cbsolve.runtime.deadline import Deadline, clear_stop, request_stop
from cbsolve.game.feedback import FeedbackLog
from cbsolve.strategy.heuristics import SCORED, Chooser
from cbsolve.game.variant import Variant
from tests.testkit import consistent_with

LOGIK = Variant.from_options("mastermind", length=5, symbols="12345678", repeats=True)
CHUNKED = AdviceOptions(filter_chunk=4096)     # Logik's 32,768 codes listed in 8 chunks
MM1010 = Variant.from_options("mastermind", length=10, symbols="0123456789", repeats=True)


#: Every strategy with the small pool (most guesses scored after it); the default pool for the
#: first strategy in the default run, for the others in the slow one (0.5-1.3 CPU s each).
@pytest.mark.parametrize("small_pool, strategy", [
    pytest.param(False, s, marks=pytest.mark.slow) if s != SCORED[0] else (False, s)
    for s in SCORED] + [(True, s) for s in SCORED])
@pytest.mark.parametrize("guesses", ["all", "candidates"])
def test_sampled_choice_scored_to_the_end_is_the_kernels(strategy, guesses, small_pool):
    # every code scored exactly (no deadline): the ranking on a sample changes the order only,
    # so the choice is the kernel's over every guess, tie-breaks included; a small pool and
    # sample leave most guesses to the rest of the space, scored after the pool
    shape = SampledShape(pool_candidates=64, pool_spread=512, sample=100) if small_pool \
        else SampledShape()
    log = FeedbackLog.parse(LOGIK, ["11223:1,1"])
    chooser = Chooser(LOGIK, strategy, guesses)
    cands = native.consistent_indices(log)
    found = choose_sampled(chooser, cands, Deadline(None), shape=shape)
    assert found.complete and found.scored == found.total
    assert found.total == (cands.size if guesses == "candidates" else chooser.space.size)
    assert found.index == chooser.choose(cands)
    assert 0 < found.sample <= shape.sample and 0 < found.ranked <= found.total


def test_sampled_choice_with_no_time_scores_nothing():
    log = FeedbackLog.parse(LOGIK, ["11223:1,1"])
    found = choose_sampled(Chooser(LOGIK, "minimax"), native.consistent_indices(log),
                           Deadline.from_limit(0))
    assert found.index is None and not found.complete and found.scored == 0


def test_sampled_choice_cut_part_way_keeps_the_best_it_scored():
    # a clock that moves one second a look: the deadline passes after a few chunks
    ticks = iter(range(10**6))
    deadline = Deadline(6.0, clock=lambda: float(next(ticks)))
    log = FeedbackLog.parse(LOGIK, ["12345:0,2"])
    chooser = Chooser(LOGIK, "minimax")
    cands = native.consistent_indices(log)
    found = choose_sampled(chooser, cands, deadline)
    assert not found.complete and 0 < found.scored < found.total
    assert found.index is not None
    # the best of what it scored is at least as good as the sample's favourite alone
    from cbsolve.advisor.choose import score_key

    assert score_key(chooser, found.index, cands)[0] <= max(
        np.bincount(chooser.responses(int(cands[0]), cands)))


def test_service_sampled_path_matches_the_symmetry_path():
    log = FeedbackLog.parse(LOGIK, ["11223:1,1"])
    usual = PositionService(LOGIK).advise(log, strategy="minimax")
    large = AdviceOptions(sampled=SampledShape(codes=1000))     # Logik counts as large now
    ranked = PositionService(LOGIK, options=large).advise(log, strategy="minimax",
                                                          deadline=Deadline(None))
    assert ranked.guess == usual.guess
    assert ranked.provenance.complete and ranked.provenance.source == "heuristic"
    assert "ranked on a sample" in ranked.note


def test_listing_cut_by_its_deadline_answers_a_consistent_code():
    log = FeedbackLog.parse(LOGIK, ["11223:1,1"])
    found, listed = native.consistent_within(log, Deadline.from_limit(0), chunk=4096)
    assert not listed and found.size and found.max() < 4096      # the first chunk only
    assert np.array_equal(found, native.consistent_indices(log)[:found.size])
    advice = PositionService(LOGIK, options=CHUNKED).advise(log, deadline=Deadline.from_limit(0))
    prov = advice.provenance
    assert (prov.source, prov.complete, prov.stopped) == ("consistent", False, "time")
    assert not advice.remaining.exact
    assert consistent_with(log, log.space.parse(advice.guess))


def test_ctrl_c_during_the_listing_is_reported_as_interrupted():
    log = FeedbackLog.parse(LOGIK, ["11223:1,1"])
    request_stop()
    try:
        advice = PositionService(LOGIK, options=CHUNKED).advise(log,
                                                                deadline=Deadline.from_limit(30))
    finally:
        clear_stop()
    assert advice.provenance.stopped == "interrupted" and not advice.provenance.complete
    assert consistent_with(log, log.space.parse(advice.guess))


def test_a_space_too_large_to_list_answers_a_consistent_code_after_replies():
    log = FeedbackLog.parse(MM1010, ["0123456789:2,3", "0011223344:1,2"])
    advice = PositionService(MM1010).advise(log, deadline=Deadline.from_limit(30))
    prov = advice.provenance
    assert prov.source == "consistent" and prov.complete and not prov.honoured
    assert consistent_with(log, log.space.parse(advice.guess))
    assert advice.to_json()["partition"] == {}


def test_openings_too_large_to_compare_get_their_own_partition():
    advice = PositionService(MM1010).advise(FeedbackLog(MM1010), deadline=Deadline(None))
    assert advice.provenance.source == "opening"
    assert advice.partition["classes"] > 1
    part = opening_partition(MM1010, rule_opening(MM1010))
    assert part.candidates == 10**10 == sum(c["count"] for c in part.classes)
    assert part.best is None and not part.best_complete       # the other patterns: too long


def test_service_scores_one_guess_per_symmetry_class_when_they_fit():
    log = FeedbackLog.parse(LOGIK, ["12345:1,1"])
    usual = PositionService(LOGIK).advise(log, strategy="minimax")
    # Logik as a large game whose classes come from the union-find
    large = AdviceOptions(sampled=SampledShape(codes=1000), native_orbits_from=1000)
    advice = PositionService(LOGIK, options=large).advise(log, strategy="minimax",
                                                          deadline=Deadline(None))
    assert advice.guess == usual.guess and advice.provenance.complete
    assert "one guess per symmetry class" in advice.note
    # with a budget smaller than their cost the classes are not tried
    costly = replace(large, classes_seconds_per_code=1.0)
    cut = PositionService(LOGIK, options=costly).advise(log, strategy="minimax",
                                        deadline=Deadline.from_limit(30))
    assert "symmetry classes would take" in cut.note
