"""Regret (cbsolve/play/regret.py): the exact numbers agree with the optimal searches run from
the positions themselves, the best guess costs nothing, and large positions are labelled."""
from __future__ import annotations

import pytest

import cbsolve as cb
from cbsolve.codes import CodeSpace
from cbsolve.deadline import Deadline
from cbsolve.rule import score

MM = cb.Variant.preset("mastermind")


def class_totals(variant, log, guess):
    """Independently: n + the expected optimum of every reply class (one exact search each)."""
    cands = cb.consistent(log, variant=variant, limit=None).secrets
    space = CodeSpace(variant)
    total = len(cands)
    classes: set = set()
    for s in cands:
        b, c = score(variant, space.parse(s), space.parse(guess))
        classes.add((b, c))
    for b, c in sorted(classes):
        if b == variant.length:
            continue
        reply = f"{guess}:{b}" if variant.bulls_only else f"{guess}:{b},{c}"
        total += cb.optimal([*log, reply], variant=variant, objective="expected").total
    return total


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


def test_large_positions_fall_back_to_the_labelled_heuristic():
    v = cb.Variant(4, "12345", repeats=True)       # 625 secrets: more than the exact budget
    r = cb.regret("1122", variant=v)
    assert not r.exact and r.method.startswith("heuristic")
    assert r.to_json()["exact"] is False


def test_a_spent_deadline_is_not_an_exact_answer():
    # a fresh variant's position cannot be solved in no time: the answer is the heuristic's
    v = cb.Variant(4, "123456", repeats=True, no_leading_zero=True)
    r = cb.regret("2233", ["2345:1,1"], variant=v, deadline=Deadline(0.0))
    assert not r.exact


def test_inconsistent_logs_and_unknown_objectives_are_errors():
    with pytest.raises(cb.InconsistentLog):
        cb.regret("0123", ["0123:1,2", "4567:0,2"])
    with pytest.raises(cb.UnknownName):
        cb.regret("0123", objective="average")
