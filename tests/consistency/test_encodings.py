"""Encoding building blocks: the sequential counter, one CNF model per secret, block completion."""
from __future__ import annotations

import itertools
import string

import numpy as np
import pytest
from pysat.solvers import Solver

from cbsolve.game.codes import CodeSpace
from cbsolve.consistency import Query, get_backend
from cbsolve.consistency.blocks import Completions, suffix_length
from cbsolve.consistency.counting import cnf_of
from cbsolve.consistency.sat import FALSE, TRUE, SatSession
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.variant import Variant


@pytest.mark.parametrize("n, top, low", [(1, 1, 1), (4, 2, 1), (5, 5, 1), (6, 3, 3), (5, 6, 1)])
def test_counter_outputs_equal_thresholds_for_every_input(n, top, low):
    """Both directions are encoded: fixing the inputs forces every built output."""
    with SatSession(Variant(1, "01", True)) as s:
        ins = [s.new_var("in") for _ in range(n)]
        outs = s.counter(ins, top, "test", low=low)
        for bits in itertools.product([0, 1], repeat=n):
            assume = [v if b else -v for v, b in zip(ins, bits, strict=True)]
            for t, o in enumerate(outs, 1):
                if o is None:
                    continue
                want = sum(bits) >= t
                if o in (TRUE, FALSE):
                    assert (o is TRUE) == want
                    continue
                assert s.solver.solve(assumptions=assume + [o if want else -o])
                assert not s.solver.solve(assumptions=assume + [-o if want else o])


@pytest.mark.parametrize("variant, tokens", [
    (Variant.preset("mastermind"), ["1122:1,1", "3345:0,2"]),
    (Variant.preset("bulls-cows-no-leading-zero"), ["1023:0,2"]),
    (Variant.preset("black-peg"), ["1123:2"]),
    (Variant(3, "ABC", True), ["AAB:1,1"]),
])
def test_cnf_has_exactly_one_model_per_secret(variant, tokens):
    """Every auxiliary variable is a function of x, so counting all models counts secrets
    (what makes Ganak, ApproxMC and CMSGen safe to use on this CNF)."""
    log = FeedbackLog.parse(variant, tokens)
    clauses, xs, decode = cnf_of(log)
    n_vars = max(abs(v) for c in clauses for v in c)
    models = 0
    with Solver(name="glucose4", bootstrap_with=clauses) as s:
        while s.solve():
            m = s.get_model()
            models += 1
            s.add_clause([-v for v in m[:n_vars]])
    native = get_backend("native").solve(log, Query(count=True))
    assert models == native.count


def test_cnf_with_lies_counts_secrets_within_the_lie_budget():
    log = FeedbackLog.parse(Variant.preset("bulls-cows"), ["0123:1,1", "0123:2,0"])
    clauses, xs, _ = cnf_of(log, lies=1)
    with Solver(name="glucose4", bootstrap_with=clauses) as s:
        count = 0
        while s.solve():
            m = s.get_model()
            count += 1
            s.add_clause([-v for v in m if abs(v) in set(xs) and v > 0])
    space = CodeSpace(log.variant)
    from cbsolve.consistency.rescoring import mismatch_counts

    assert count == int((mismatch_counts(log, space.codes) <= 1).sum())


@pytest.mark.parametrize("variant", [Variant(5, string.digits, False), Variant(4, "1234", True),
                                     Variant(4, string.digits, False, no_leading_zero=True)])
def test_completions_list_every_code_with_the_prefix(variant):
    space = CodeSpace(variant)
    m = suffix_length(variant, 200)
    assert 0 < m < variant.length
    comp = Completions(variant, m)
    prefix = tuple(space.codes[len(space.codes) // 2][: variant.length - m])
    got = {tuple(r) for r in comp.of(prefix)}
    want = {tuple(c) for c in space.codes if tuple(c[: variant.length - m]) == prefix}
    assert got == want


def test_near_uniform_sampling_in_a_huge_space_is_labelled_and_rescored():
    pytest.importorskip("pycmsgen")
    from cbsolve.game.rule import score

    v = Variant(30, string.ascii_uppercase, True)
    log = FeedbackLog.parse(v, ["ABCDEFGHIJKLMNOPQRSTUVWXYZABCD:3,5"])
    r = get_backend("sat").solve(log, Query(sample=4, seed=2), deadline=Deadline.from_limit(4))
    assert "CMSGen" in r.sampling and "with replacement" in r.sampling and len(r.secrets) == 4
    for text in r.secrets:
        assert score(v, log.space.parse(text), log[0].guess) == (3, 5)
    assert np.unique(r.secrets).size >= 2


@pytest.mark.parametrize("variant", [Variant(5, "0123", True), Variant(4, "012345", False),
                                     Variant(4, "01234", True, no_leading_zero=True)])
def test_local_neighbours_are_consistent_codes_of_the_variant(variant):
    from cbsolve.consistency.native import consistent_indices
    from cbsolve.consistency.neighbours import local_neighbours, neighbour_codes
    from cbsolve.game.feedback import FeedbackLog
    from cbsolve.game.rule import score

    rng = np.random.default_rng(7)
    space = CodeSpace(variant)
    secret, guess = space.random_codes(2, rng)
    log = FeedbackLog(variant)
    log.add(space.format(guess), *score(variant, secret, guess))
    # Neighbours: every code at Hamming distance 1, or 2 with the same multiset of symbols.
    codes = space.codes
    diff = (codes != np.asarray(secret)).sum(axis=1)
    same = (np.sort(codes, axis=1) == np.sort(np.asarray(secret))).all(axis=1)
    expect = {tuple(c) for c in codes[(diff == 1) | ((diff == 2) & same)].tolist()}
    assert {tuple(c) for c in neighbour_codes(variant, secret).tolist()} == expect
    truth = {tuple(space.code_at(i)) for i in consistent_indices(log)}
    got = local_neighbours(log, [tuple(secret)], 10**6, Deadline(None))
    assert len(got) == len(set(got)) and set(got) <= truth and tuple(secret) in got
