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


def _decoded_key(variant, key):
    """(objective or "optimum", the log, the guess or None) a table key stands for: its
    canonical sequence is itself a game (the renamed symbols are symbols of the variant)."""
    parts = key.split("|")
    kind, objective = (parts[0], parts[0]) if parts[0] != "optimum" else ("optimum", parts[1])
    seq, replies = parts[-2], parts[-1].split(",")
    codes = ["".join(variant.symbols[ord(c) - 48] for c in seq[i:i + variant.length])
             for i in range(0, len(seq), variant.length)]
    log = FeedbackLog.parse(variant, [f"{c}:{r.replace('.', ',')}"
                                      for c, r in zip(codes, replies)])
    return kind, objective, log, (codes[len(replies)] if kind != "optimum" else None)


def test_a_sample_of_the_shipped_table_agrees_with_the_exact_solve(monkeypatch):
    """Reviews and optima drawn from the Bulls & Cows 4/10 table (the smaller positions, for
    time) solved again with no table: the same secrets, cost, optimum; the kept best guess
    costs the optimum."""
    variant = Variant.preset("bulls-cows")
    table = load_table(variant)
    service = PositionService(variant)
    small = sorted(k for k, v in table.items() if len(v) == 5 and v[0] <= 40)
    optima = sorted(k for k, v in table.items() if len(v) == 2
                    and service.candidates(_decoded_key(variant, k)[2]).size <= 40)
    rng = np.random.default_rng(7)
    picked = list(rng.choice(small, 10, replace=False)) + list(rng.choice(optima, 2,
                                                                         replace=False))
    monkeypatch.setattr("cbsolve.advisor.review_memo.load_table", lambda v: {})
    for key in picked:
        kind, objective, log, guess = _decoded_key(variant, key)
        service = PositionService(variant)
        if kind == "optimum":
            some = service.space.format(service.space.codes[int(service.candidates(log)[0])])
            assert service.review(log, some, objective, Deadline(None)).best == table[key][0]
            continue
        fresh = service.review(log, guess, objective, Deadline(None))
        n, cost, best = table[key][:3]
        assert fresh.exact and (fresh.candidates, fresh.cost, fresh.best) == (n, cost, best)
        memo = ReviewMemo(variant)
        kept_best = memo._back(table[key][3], *memo.key(log, service.space.parse(guess),
                                                        objective)[1:])
        again = PositionService(variant).review(log, service.space.format(kept_best),
                                                objective, Deadline(None))
        assert again.cost == best
