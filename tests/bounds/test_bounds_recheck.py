"""The bounds label an exact search's value only when the independent verifier confirms it.

The search is replaced by one returning a wrong value, a tree that does not solve every secret,
or a certificate that does not hold; the cell must then keep the interval of its other methods
(not exact, no search label) and say why, in the notes and the JSON. The honest search's
answer is labelled exact with what confirmed each end.
"""
from __future__ import annotations

import copy

import pytest

from cbsolve.bounds import compute_bounds
from cbsolve.bounds.recheck import check_result
from cbsolve.search import expected as expected_search
from cbsolve.search import worst as worst_search
from cbsolve.game.variant import Variant

GAME = Variant(4, "012345", False)      # 360 secrets; the cheap methods leave both open


@pytest.fixture(scope="module")
def honest():
    return (worst_search.solve_worst(GAME, workers=1),
            expected_search.solve_expected(GAME, workers=1))


def _bounds(monkeypatch, worst=None, expected=None):
    if worst is not None:
        monkeypatch.setattr(worst_search, "solve_worst", lambda *a, **k: copy.deepcopy(worst))
    if expected is not None:
        monkeypatch.setattr(expected_search, "solve_expected",
                            lambda *a, **k: copy.deepcopy(expected))
    return compute_bounds(GAME, strategies=False, deep=False)


def test_cheap_methods_leave_the_game_open():
    b = compute_bounds(GAME, strategies=False, deep=False, search=False)
    assert b.worst.exact is None and b.expected.exact is None


def test_honest_search_is_labelled_exact_with_its_checks(monkeypatch, honest):
    w, e = honest
    b = _bounds(monkeypatch, w, e)
    assert b.worst.exact == w.upper and b.expected.exact == e.total
    assert "certificate checked" in b.worst.lower_method
    assert "tree replayed" in b.worst.upper_method and "tree replayed" in b.expected.upper_method
    checks = b.to_json()["verification"]
    assert checks["worst"]["rejected"] is False and checks["expected"]["rejected"] is False


def _assert_rejected(b, objective, value):
    interval = b.worst if objective == "worst" else b.expected
    assert interval.exact is None
    assert "search" not in interval.lower_method and "search" not in interval.upper_method
    assert interval.lower <= value <= interval.upper
    checked = b.to_json()["verification"][objective]
    assert checked["rejected"] is True and checked["problem"]
    assert any("rejected by the verifier" in note for note in b.notes)


def test_wrong_worst_value_is_rejected(monkeypatch, honest):
    w, _ = honest
    wrong = copy.deepcopy(w)
    wrong.worst = wrong.lower = wrong.upper = w.upper + 1
    _assert_rejected(_bounds(monkeypatch, worst=wrong), "worst", w.upper)


def test_tree_that_misses_a_secret_is_rejected(monkeypatch, honest):
    w, _ = honest
    wrong = copy.deepcopy(w)
    children = wrong.tree["root"]["children"]
    children.pop(next(iter(children)))           # a reply class left unsolved
    _assert_rejected(_bounds(monkeypatch, worst=wrong), "worst", w.upper)


def test_certificate_that_does_not_hold_is_rejected(monkeypatch, honest):
    w, _ = honest
    wrong = copy.deepcopy(w)
    wrong.certificate["root"].pop("refuted", None)   # first guesses no longer refuted
    wrong.certificate["root"].pop("same", None)
    wrong.certificate["root"].pop("mapped", None)
    wrong.tree["certificate"] = wrong.certificate
    _assert_rejected(_bounds(monkeypatch, worst=wrong), "worst", w.upper)


def test_certificate_of_a_smaller_bound_is_rejected(monkeypatch, honest):
    w, _ = honest
    wrong = copy.deepcopy(w)
    wrong.lower = wrong.upper = wrong.worst = w.upper + 1   # claims more than it proves
    wrong.tree = None
    _assert_rejected(_bounds(monkeypatch, worst=wrong), "worst", w.upper)


def test_wrong_expected_total_is_rejected(monkeypatch, honest):
    _, e = honest
    wrong = copy.deepcopy(e)
    wrong.total = wrong.lower = wrong.upper = e.total - 1
    _assert_rejected(_bounds(monkeypatch, expected=wrong), "expected", e.total)


def test_missing_certificate_leaves_only_the_tree(honest):
    w, _ = honest
    partial = copy.deepcopy(w)
    partial.certificate = None
    partial.tree.pop("certificate")
    checked = check_result(GAME, partial)
    assert not checked.rejected and checked.lower is None and checked.upper == w.upper


def test_a_certificate_check_out_of_time_leaves_the_lower_end_unconfirmed(honest):
    from cbsolve.runtime.deadline import Deadline

    w, _ = honest
    checked = check_result(GAME, w, Deadline(0.0))
    assert not checked.rejected and checked.unconfirmed
    assert checked.lower is None and checked.upper == w.upper
