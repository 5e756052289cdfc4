"""Every long native phase reads the clock, not only the stop flag: a deadline set with
set_deadline stops it even when no node of the search is ever entered.

The expected search's driver refines guesses with the core's scans (lower_bound, greedy, scan),
which polled only the flag, and the worst search's scans did the same, so a time limit waited
for the next node (Mastermind 7x4 with a 20 s limit ran 387-538 s). Here the deadline is due
before the call starts; each call must come back stopped with the reason "time" (the clock is
read once a scan has done ~1M steps of work, and every call below does more than that).
"""
from __future__ import annotations

import numpy as np
import pytest

from cbsolve.game.variant import Variant

GAME = Variant.preset("mastermind")   # 1296 codes: one top scan is 1.7M pairs


@pytest.fixture
def expected_solver():
    from cbsolve.search.expected.search import _Search

    search = _Search(GAME, None, "all", 1, True, {}, 10**5)
    return search.solver, np.arange(search.n, dtype=np.int32)


@pytest.fixture
def worst_runner():
    from cbsolve.search.worst.kernel import _Native

    # no symmetry: the top node scans all 1296 guesses, not the 5 orbit representatives
    native = _Native(GAME, "all", {"symmetry": False}, workers=1)
    return native.core, native.all, native.empty


def _due(kernel) -> None:
    kernel.set_deadline(1e-9)   # passed by the time the call starts


# Every symbol marked played: no symmetry shrinks the guesses, every scan reads all 1296.
PLAYED = (1 << GAME.n_symbols) - 1


@pytest.mark.parametrize("call", [
    lambda s, every: s.greedy_value(every, 0, PLAYED),
    lambda s, every: s.greedy_guess(every, PLAYED, 0),
    lambda s, every: s.scan(every, 0, PLAYED),
    lambda s, every: s.lower_bound(every, 0, PLAYED),
], ids=["greedy_value", "greedy_guess", "scan", "lower_bound"])
def test_expected_core_phases_stop_at_a_passed_deadline(expected_solver, call):
    solver, every = expected_solver
    complete = call(solver, every)
    assert solver.stop_reason() == "complete" and complete not in (None, [], -1)
    _due(solver)
    call(solver, every)
    assert solver.stopped() and solver.stop_reason() == "time"


def test_expected_greedy_value_says_none_when_stopped(expected_solver):
    solver, every = expected_solver
    _due(solver)
    assert solver.greedy_value(every, 0, PLAYED) is None
    _due(solver)
    assert solver.scan(every, 0, PLAYED) == []


@pytest.mark.parametrize("method", ["scan", "greedy", "tree", "certificate", "feasible"])
def test_worst_core_phases_stop_at_a_passed_deadline(worst_runner, method):
    core, every, empty = worst_runner
    _due(core)
    if method == "scan":
        core.scan(every, empty)
    elif method == "feasible":
        assert core.feasible(every, 5, empty) == -1
    else:
        depth = {"greedy": 0, "tree": 5, "certificate": 4}[method]
        assert getattr(core, method)(every, depth, empty) is None
    assert core.stop_reason() == "time"


def test_the_worst_symmetry_filter_stops_at_a_passed_deadline():
    # With symmetry the top node first keeps one guess per orbit of the played guesses'
    # stabiliser: every guess against every element (8 of 8 distinct: 8! x 40,320, 28 s past a
    # 5 s limit). 8 pegs of 2 colours: 256 guesses x 8! position orders, 10M image tests, and
    # a scan after it of a few guesses, so only the filter's own poll can stop the call.
    from cbsolve.search.worst.kernel import _Native

    native = _Native(Variant(8, "01", repeats=True), "all", {}, workers=1)
    native.core.scan(native.all, native.empty)
    assert native.core.stop_reason() == "complete"
    _due(native.core)
    native.core.scan(native.all, native.empty)
    assert native.core.stop_reason() == "time"
