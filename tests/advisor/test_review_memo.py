"""Exact reviews kept under symmetry (cbsolve/advisor/review_memo.py): a symmetric copy of a
move is answered from the memo with the same figures, and its best guess, mapped back, is
best at the copy's own position."""
from __future__ import annotations

import numpy as np

from cbsolve.advisor import PositionService
from cbsolve.advisor.review_memo import ReviewMemo, load_table
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.variant import Variant

SMALL = Variant(3, "012345", False)      # Bulls & Cows 3/6: no shipped table


def _copy(tokens, perm, rename):
    """The log with positions permuted and symbols renamed (replies unchanged)."""
    out = []
    for t in tokens:
        code, reply = t.split(":")
        out.append("".join(rename[code[i]] for i in perm) + ":" + reply)
    return out


def test_a_symmetric_copy_is_answered_from_the_memo_with_the_same_figures(monkeypatch):
    from cbsolve.advisor.review import Reviewer

    rng = np.random.default_rng(3)
    service = PositionService(SMALL)
    log = ["012:0,1", "345:1,1"]
    for objective in ("worst", "expected"):
        first = service.review(FeedbackLog.parse(SMALL, log), "314", objective, Deadline(None))
        assert first.exact
        monkeypatch.setattr(Reviewer, "_exact", lambda *a: "solved only once")   # memo or fail
        for _ in range(3):
            perm = [int(i) for i in rng.permutation(3)]
            rename = dict(zip("012345", "".join(rng.permutation(list("012345")))))
            copy = FeedbackLog.parse(SMALL, _copy(log, perm, rename))
            guess = "".join(rename["314"[i]] for i in perm)
            kept = service.review(copy, guess, objective, Deadline(None))
            assert (kept.exact, kept.cost, kept.best, kept.candidates, kept.method) == (
                True, first.cost, first.best, first.candidates, first.method)
            monkeypatch.undo()
            fresh = PositionService(SMALL).review(copy, kept.best_guess, objective,
                                                  Deadline(None))
            assert fresh.exact and fresh.regret == 0     # the mapped best guess is best there
            monkeypatch.setattr(Reviewer, "_exact", lambda *a: "solved only once")
        monkeypatch.undo()


def test_nothing_is_kept_where_the_symmetry_is_smaller():
    variant = Variant(3, "012345", False, no_leading_zero=True)
    assert ReviewMemo(variant).key(FeedbackLog(variant), (1, 2, 3), "worst") is None


def test_the_shipped_table_is_for_its_variant_only():
    assert load_table(Variant.preset("bulls-cows"))          # Bulls & Cows 4/10 ships one
    assert load_table(SMALL) == {}
