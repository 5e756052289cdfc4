"""The expected-case kernel reads the clock at every large node and in the greedy value.

Its stop flag is read at every node but the clock only every few dozen nodes; at the top of a
large game each node takes seconds, so a time limit was seen minutes late (Mastermind 7x4 with
repeats: a 1 s limit ran 412 s). A deadline already passed must stop a large set's search and
the greedy value before any work, whatever the machine's speed.
"""
from __future__ import annotations

import numpy as np

from cbsolve.search import expected
from cbsolve.variant import Variant

GAME = Variant(4, "0123456789", False)   # 5,040 codes: every top node is a large one
PASSED = 1e-9                            # seconds: over before the kernel reads the clock


def _solver():
    return expected._Search(GAME, None, "all", 1, True, {}, 1_000_000).solver


def test_a_passed_deadline_stops_a_large_set_at_its_first_node():
    solver = _solver()
    everyone = np.arange(5040, dtype=np.int32)
    # the node counter is per thread: a first call takes over what earlier solvers left
    solver.solve(everyone[:2], 0, 10**9, 99, 0, None, [])
    before = solver.nodes
    solver.set_deadline(PASSED)
    assert solver.solve(everyone, 0, 10**9, 99, 0, None, []) is None
    assert solver.stopped() and solver.stop_reason() == "time"
    assert solver.nodes - before <= 1


def test_a_passed_deadline_stops_the_greedy_value():
    solver = _solver()
    solver.set_deadline(PASSED)
    assert solver.greedy_value(np.arange(5040, dtype=np.int32), 0, 0) is None
    assert solver.stopped() and solver.stop_reason() == "time"


def test_a_search_whose_time_is_over_reports_no_greedy_value():
    # the limit is spent before the search starts: the greedy value is not computed (it used
    # to run whole, and its tree after it, whatever the limit)
    res = expected.solve_expected(GAME, time_limit=PASSED, workers=1)
    assert not res.proved and res.upper is None and res.tree is None
