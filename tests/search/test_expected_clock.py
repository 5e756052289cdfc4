"""The expected-case search's greedy value honours the time limit.

The greedy value was computed before the search's deadline was set, and its scans read only
the stop flag; on the bounds table's cells it ran tens of seconds past the limit, and its tree
after it. A deadline already passed must stop it before any work, whatever the machine's
speed (the kernel's scans: tests/native/test_native_deadlines.py).
"""
from __future__ import annotations

import numpy as np

from cbsolve.runtime.deadline import Deadline
from cbsolve.search.expected import solve_expected
from cbsolve.search.expected.search import _Search
from cbsolve.game.variant import Variant

GAME = Variant(4, "0123456789", False)   # 5,040 codes
PASSED = 1e-9                            # seconds: over before the kernel reads the clock


def _solver():
    return _Search(GAME, None, "all", 1, True, {}, 1_000_000).solver


def test_a_passed_deadline_stops_the_greedy_value():
    solver = _solver()
    solver.set_deadline(PASSED)
    assert solver.greedy_value(np.arange(5040, dtype=np.int32), 0, 0) is None
    assert solver.stopped() and solver.stop_reason() == "time"


def test_a_search_whose_time_is_over_reports_no_greedy_value():
    # the limit is spent before the search starts: the greedy value is not computed (it used
    # to run whole, and its tree after it, whatever the limit)
    res = solve_expected(GAME, deadline=Deadline.from_limit(PASSED), workers=1)
    assert not res.proved and res.upper is None and res.tree is None
