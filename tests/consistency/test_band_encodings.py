"""Alternative cardinality encodings of the SAT backend (``SatSession(card=...)``), measured on
the hard band (docs/benchmarks.md, "PySAT encoding options"): every encoding lists exactly the native
filter's set, the
hand-written totalizer is exact both ways, and a bad name is refused with the valid ones."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from testkit import logs

from cbsolve.consistency import Query, get_backend
from cbsolve.consistency.backends import SatBackend
from cbsolve.consistency.sat import CARD_ENCODINGS, FALSE, TRUE, SatOptions, SatSession
from cbsolve.runtime.deadline import Deadline
from cbsolve.errors import UnknownName
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.rule import score
from cbsolve.game.variant import Variant


def native_set(log: FeedbackLog) -> list[str]:
    return sorted(get_backend("native").solve(log, Query(limit=None)).secrets)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(log=logs(), card=st.sampled_from(CARD_ENCODINGS))
def test_every_encoding_lists_the_native_set(log, card):
    """Full lists (blocking on x) under each encoding equal the filter's set, re-scored."""
    result = SatBackend(SatOptions(card=card)).solve(log, Query(limit=None), deadline=Deadline.from_limit(30))
    assert sorted(result.secrets) == native_set(log)
    for text in result.secrets:
        code = log.space.parse(text)
        assert all(score(log.variant, code, e.guess) == (e.bulls, e.cows) for e in log)


@pytest.mark.parametrize("n, top", [(1, 1), (2, 3), (4, 2), (5, 5), (7, 3), (6, 7)])
def test_totalizer_outputs_equal_thresholds_for_every_input(n, top):
    """Both directions are encoded: fixing the inputs forces every output."""
    with SatSession(Variant(1, "01", True)) as s:
        ins = [s.new_var("in") for _ in range(n)]
        outs = s.totalizer(ins, top, "test")
        assert len(outs) == min(n, top)
        for bits in itertools.product([0, 1], repeat=n):
            assume = [v if b else -v for v, b in zip(ins, bits, strict=True)]
            for t, o in enumerate(outs, 1):
                want = sum(bits) >= t
                if o in (TRUE, FALSE):
                    assert (o is TRUE) == want
                    continue
                assert s.solver.solve(assumptions=assume + [o if want else -o])
                assert not s.solver.solve(assumptions=assume + [-o if want else o])


def test_totalizer_cnf_keeps_one_model_per_secret():
    """Like the default counter, every totalizer variable is a function of x."""
    from pysat.solvers import Solver

    log = FeedbackLog.parse(Variant.preset("mastermind"), ["1122:1,1", "3345:0,2"])
    with SatSession(log.variant, card="totalizer") as s:
        from cbsolve.consistency.clues import clues

        for clue in clues(log):
            s.add_clue(clue)
        clauses = s.clauses + [[v] for v in s.selectors]
    n_vars = max(abs(v) for c in clauses for v in c)
    models = 0
    with Solver(name="glucose4", bootstrap_with=clauses) as solver:
        while solver.solve():
            models += 1
            solver.add_clause([-v for v in solver.get_model()[:n_vars]])
    assert models == len(native_set(log))


def test_unknown_encoding_names_the_valid_ones():
    with pytest.raises(UnknownName, match="cardnet"):
        SatSession(Variant.preset("mastermind"), card="bogus")
