"""Regret (cb.regret: the position service's review, cbsolve/advisor/review.py): the exact numbers agree with the optimal searches run from
the positions themselves, the best guess costs nothing, and large positions are labelled."""
from __future__ import annotations

import numpy as np
import pytest
from testkit import random_positions

import cbsolve as cb
from cbsolve.game.codes import CodeSpace
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.rule import score

MM = cb.Variant.preset("mastermind")


def class_logs(variant, log, guess) -> list[list[str]]:
    """The log of every reply class ``guess`` leaves after ``log`` (the win left out)."""
    cands = cb.consistent(log, variant=variant, limit=None).secrets
    space = CodeSpace(variant)
    replies = {score(variant, space.parse(s), space.parse(guess)) for s in cands}
    return [[*log, f"{guess}:{b}" if variant.bulls_only else f"{guess}:{b},{c}"]
            for b, c in sorted(replies) if b != variant.length]


def class_totals(variant, log, guess):
    """Independently: n + the expected optimum of every reply class (one exact search each)."""
    n = cb.consistent(log, variant=variant, count=True, limit=0).count
    return n + sum(cb.optimal(x, variant=variant, objective="expected").total
                   for x in class_logs(variant, log, guess))


def class_minimax(variant, log, guess):
    """Independently: 1 + the largest minimax optimum of the reply classes (one worst-case
    search each; 1 alone when the guess is the only secret left). The value is proved by the
    decision search itself: the lower-bound certificate, checked elsewhere, is not asked for."""
    optima = [cb.optimal(x, variant=variant, objective="worst", certificate=False)
              for x in class_logs(variant, log, guess)]
    assert all(o.proved for o in optima)
    return 1 + max((o.upper for o in optima), default=0)


@pytest.mark.parametrize("log, guesses", [
    (["1122:1,0"], ["1344", "3456", "1111", "2345"]),
    (["1234:0,2", "5611:1,0"], ["1313", "2525", "6543"]),
])
def test_exact_expected_regret_agrees_with_the_searches_from_each_class(log, guesses):
    best = cb.optimal(log, variant=MM, objective="expected").total
    for guess in guesses:
        r = cb.regret(guess, log, variant=MM)
        assert r.exact and r.objective == "expected"
        assert r.best == best
        assert r.cost == class_totals(MM, log, guess)
        assert r.regret >= 0
    best_guess = cb.regret(guesses[0], log, variant=MM).best_guess
    assert cb.regret(best_guess, log, variant=MM).regret == 0


def test_worst_regret_is_against_the_minimax_optimum():
    log = ["1122:1,0"]
    r = cb.regret("1111", log, variant=MM, objective="worst")
    assert r.exact and r.best == cb.optimal(log, variant=MM, objective="worst").upper
    assert r.cost >= r.best
    assert cb.regret(r.best_guess, log, variant=MM, objective="worst").regret == 0


@pytest.mark.parametrize("variant, log, guesses", [
    # 1111 after 3445:0,0: its class 1,0 (32 secrets) needs 4 more guesses, where the coach's
    # depth-capped probes once found 3 (a set with no strategy within the cap read as solved)
    (MM, ["3445:0,0"], ["1111", "1122", "6543", "1112"]),
    (MM, ["1234:0,2", "5611:1,0"], ["1313", "2525", "6543"]),
    # one secret left (2121), not yet played: the guess finds it, or one more
    (MM, ["1122:2,2", "1212:0,4"], ["2121", "3456"]),
    # the same probes made this one cost 5 against an optimum of 6: a negative regret
    (cb.Variant.preset("black-peg"), ["4556:0", "6214:2"], ["2434"]),
], ids=["mastermind-1111", "mastermind-two-entries", "mastermind-one-left", "black-peg"])
def test_exact_worst_regret_agrees_with_the_searches_from_each_class(variant, log, guesses):
    optimum = cb.optimal(log, variant=variant, objective="worst", certificate=False)
    assert optimum.proved
    best = optimum.upper
    for guess in guesses:
        r = cb.regret(guess, log, variant=variant, objective="worst")
        assert r.exact and r.objective == "worst" and r.best == best
        assert r.cost == class_minimax(variant, log, guess)
        assert r.regret >= 0
    best_guess = cb.regret(guesses[0], log, variant=variant, objective="worst").best_guess
    assert cb.regret(best_guess, log, variant=variant, objective="worst").regret == 0


def test_the_one_call_guess_value_equals_a_solve_of_each_reply_class():
    # the kernel's guess_value (one call a guess) against the formulation it replaced: n plus
    # the exact solve of each reply class, one kernel call each, on random positions
    from cbsolve.game.scoring import score_against
    from cbsolve.search.position import solve_set
    from cbsolve.strategy.exact import cached_search

    v = cb.Variant.preset("bulls-cows")
    space, search = CodeSpace(v), cached_search(v)
    rng = np.random.default_rng(3)
    checked = 0
    for log, position in random_positions(v, range(40), 120):
        for g in rng.integers(space.size, size=6):
            g = int(g)
            r = cb.regret(space.format(space.codes[g]), log.tokens(), variant=v)
            total = int(position.members.size)
            replies = score_against(v, space.codes[g], space.codes[position.members])
            for reply in np.unique(replies):
                if reply != v.win_response:
                    total += solve_set(search, position.members[replies == reply],
                                       [*map(int, position.history), g])[0]
            assert r.exact and r.cost == total and r.regret >= 0
            checked += 1
    assert checked >= 30


def test_large_positions_fall_back_to_the_labelled_heuristic():
    v = cb.Variant(4, "12345", repeats=True)       # 625 secrets: more than the exact budget
    r = cb.regret("1122", variant=v)
    assert not r.exact and r.method.startswith("heuristic")
    assert r.to_json()["exact"] is False


def test_a_spent_deadline_is_not_an_exact_answer():
    # a fresh variant's position cannot be solved in no time: the answer is the heuristic's
    v = cb.Variant(4, "123456", repeats=True, no_leading_zero=True)
    for objective in ("expected", "worst"):
        r = cb.regret("2233", ["2345:1,1"], variant=v, objective=objective,
                      deadline=Deadline(0.0))
        assert not r.exact and r.objective == objective


def test_inconsistent_logs_and_unknown_objectives_are_errors():
    with pytest.raises(cb.InconsistentLog):
        cb.regret("0123", ["0123:1,2", "4567:0,2"])
    with pytest.raises(cb.UnknownName):
        cb.regret("0123", objective="average")


@pytest.mark.parametrize("objective", ["worst", "expected"])
def test_a_won_log_costs_nothing_as_optimal_says(objective):
    """After an entry with every bull the game is over: 0 for any guess, as ``optimal``
    answers (solved, 0 more guesses), never the 1 of playing the secret again."""
    best = cb.optimal(["1122:4,0"], variant=MM, objective=objective).upper
    for guess in ("1122", "3456"):
        r = cb.regret(guess, ["1122:4,0"], variant=MM, objective=objective)
        assert (r.exact, r.cost, r.best, r.regret, r.best_guess) == (True, best, 0, 0, "1122")
