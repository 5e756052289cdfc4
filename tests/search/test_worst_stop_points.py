"""A stop (time limit or Ctrl-C) at any point of the worst-case search never yields a wrong
proved value: what the search reports as proved is the full search's value, its certificate
checks, and the bounds built on it agree.

The stop is requested through the kernel's own stop hook just before a chosen native call (the
mechanism a deadline uses), so the tests do not depend on timing. 5 pegs of 2 symbols with
repeats is the smallest game found whose greedy minimax tree (5 guesses) is deeper than the
optimum (4): a result that reads the greedy tree's depth as the optimum is caught there.
"""
from __future__ import annotations

import pytest
from testkit import load_script

from cbsolve.api_results import Optimum, extend
from cbsolve.bounds import compute_bounds
from cbsolve.certificates.certify import verify
from cbsolve.cli.optimal import format_result
from cbsolve.search.worst import solve_worst
from cbsolve.search.worst.kernel import _Native
from cbsolve.search.worst.trees import _depth
from cbsolve.game.variant import Variant

DEEP_GREEDY = Variant(5, "01", True)


def _stop_before(monkeypatch, method: str, nth: int = 1):
    """Make the ``nth`` native call of ``method`` start with a stop request."""
    orig = _Native.run
    seen = {"n": 0}

    def run(self, name, d, deadline=None, on_wait=None):
        if name == method:
            seen["n"] += 1
            if seen["n"] == nth:
                self.core.request_stop()
        return orig(self, name, d, deadline, on_wait)

    monkeypatch.setattr(_Native, "run", run)


def _full(variant):
    return solve_worst(variant, workers=1)


def test_greedy_tree_is_deeper_than_the_optimum_here():
    full = _full(DEEP_GREEDY)
    native = _Native(DEEP_GREEDY, "all", {}, 1)
    assert _depth(native.run("greedy", 0)) > full.upper == full.worst


def test_stop_while_building_the_tree_keeps_the_proved_value(monkeypatch):
    full = _full(DEEP_GREEDY)
    _stop_before(monkeypatch, "tree")
    res = solve_worst(DEEP_GREEDY, workers=1)
    assert res.proved and res.lower == res.upper == full.upper
    # the tree reported is the greedy one, labelled so, and deeper than the optimum
    assert res.tree["proved"] is False and res.worst > full.upper
    rep = verify(res.tree, expect=DEEP_GREEDY)
    assert rep.valid and rep.lower_bound == full.upper
    assert f"optimal worst case: {full.upper} guesses (proved)" in format_result(
        extend(res, Optimum, variant=DEEP_GREEDY))


def test_bounds_never_label_the_greedy_depth_as_proved(monkeypatch):
    full = _full(DEEP_GREEDY)
    _stop_before(monkeypatch, "tree")
    b = compute_bounds(DEEP_GREEDY, strategies=False, deep=False)
    assert b.worst.lower <= full.upper <= b.worst.upper
    checked = b.to_json()["verification"]["worst"]
    assert checked["rejected"] is False and checked["lower"] == full.upper
    if checked["upper"] > full.upper:      # the greedy tree's end is not labelled optimal
        assert "optimal" not in b.worst.upper_method


@pytest.mark.parametrize("method,nth", [("greedy", 1), ("feasible", 1), ("feasible", 2),
                                        ("certificate", 1), ("certificate", 2), ("tree", 1)])
def test_stop_before_any_phase_leaves_a_sound_interval(monkeypatch, method, nth):
    variant = Variant(4, "012345", False)
    full = _full(variant)
    _stop_before(monkeypatch, method, nth)
    res = solve_worst(variant, workers=1)
    if res.lower is not None:
        assert res.lower <= full.upper
    if res.upper is not None:
        assert res.upper >= full.upper
    if res.proved:
        assert res.lower == res.upper == full.upper
    if res.certificate is not None:
        rep = verify(res.certificate, expect=variant)
        assert rep.valid and rep.lower_bound <= full.upper
    if res.tree is not None:
        assert verify(res.tree, expect=variant).valid


def test_random_stop_points_in_one_process():
    """Deadlines and stop requests at random points, searches and bounds in sequence in one
    process (as a pool worker runs them): scripts/stress/stress_worst_deadlines.py on small games."""
    stress = load_script("stress_worst_deadlines")
    report = stress.stress(stress.SMALL, rounds=30, seed=20261124)
    assert report.failures == []
    assert report.runs == 30 and sum(report.outcomes.values()) >= 25
