"""The local-search / CP-SAT portfolio (consistency/portfolio.py) answers like the native filter.

Find-one and ``determined`` go through the race whenever the cpsat backend lists a few
secrets; the native filter (brute force) is the reference on small spaces. Every secret is
re-scored with the rule.
"""
from __future__ import annotations

import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from testkit import consistent_with, hidden_secret_log, logs

from cbsolve.consistency import Query, get_backend
from cbsolve.consistency.backends import CpSatBackend
from cbsolve.consistency.portfolio import PortfolioOracle, PortfolioShape
from cbsolve.runtime.deadline import Deadline, clear_stop, request_stop
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.rule import score
from cbsolve.runtime.status import Status
from cbsolve.game.variant import Variant

SHAPES = {   # the default, race from the start, burst then CP-SAT alone
    "default": PortfolioShape(),
    "race": PortfolioShape(burst=0, race=True),
    "burst": PortfolioShape(race=False),
}


def portfolio(shape: str) -> CpSatBackend:
    return CpSatBackend(local_search=True, portfolio=SHAPES[shape])


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs(), st.sampled_from(sorted(SHAPES)), st.integers(1, 3), st.booleans())
def test_portfolio_agrees_with_native(log, shape, limit, determined):
    q = Query(limit=limit, determined=determined)
    ref = get_backend("native").solve(log, q)
    truth = set(get_backend("native").solve(log, Query(limit=None)).secrets)
    r = portfolio(shape).solve(log, q)
    assert r.status != Status.UNKNOWN
    assert r.consistent == bool(truth)
    assert set(r.secrets) <= truth
    assert len(r.secrets) == min(limit, len(truth))
    for text in r.secrets:
        assert consistent_with(log, log.space.parse(text))
    if determined:
        assert r.determined == ref.determined == (len(truth) == 1)


def test_the_note_names_the_engine():
    variant = Variant(40, string.digits, True)
    log = _hidden(variant, 20, seed=3)
    r = CpSatBackend().solve(log, Query(limit=1, determined=False), deadline=Deadline.from_limit(30))
    assert r.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert any("found by" in n for n in r.notes)
    assert consistent_with(log, log.space.parse(r.secrets[0]))


def test_time_limit_is_honoured_on_a_hard_instance():
    """The hard band (N=40, 40 guesses): a budget already spent, or a stop request, ends the
    race of both engines on its time-out path; a 1 s limit answers or says so (the wall time
    past the limit: scripts/bench/bench_time_limits.py)."""

    log = _hidden(Variant(40, string.digits, True), 40, seed=1)
    spent = CpSatBackend().solve(log, Query(limit=1), deadline=Deadline.from_limit(0.0))
    assert spent.status == Status.UNKNOWN and spent.time_limit_hit and spent.count is None
    request_stop()
    try:
        stopped = CpSatBackend().solve(log, Query(limit=1), deadline=Deadline.from_limit(None))
    finally:
        clear_stop()
    assert stopped.status == Status.UNKNOWN and stopped.count is None
    r = CpSatBackend().solve(log, Query(limit=1), deadline=Deadline.from_limit(1.0))
    if r.status == Status.UNKNOWN:
        assert r.time_limit_hit and r.count is None
    for text in r.secrets:
        assert consistent_with(log, log.space.parse(text))


def test_blocked_prefixes_reach_the_local_search():
    """A blocked assignment is a forbidden pattern for both engines."""
    variant = Variant(5, "0123", True)
    log = _hidden(variant, 3, seed=2)
    truth = get_backend("native").solve(log, Query(limit=None)).secrets
    from cbsolve.consistency.cpsat import CpSatOracle, model_for

    oracle = PortfolioOracle(CpSatOracle(model_for(log)), log)
    got = []
    while True:
        status, code = oracle.find(Deadline(10))
        if status != Status.FEASIBLE:
            break
        got.append(log.space.format(code))
        oracle.block(list(enumerate(code)))
    assert status == Status.INFEASIBLE and sorted(got) == sorted(truth)


def _hidden(variant: Variant, n: int, seed: int) -> FeedbackLog:
    import numpy as np

    return hidden_secret_log(variant, n, np.random.default_rng(seed))[1]


def test_cli_backend_cpsat_uses_the_portfolio(capsys):
    import json

    from cbsolve.cli import main

    code = main(["consistent", "0123:1,1", "4567:0,2", "--backend", "cpsat", "--limit", "1",
                 "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["backend"] == "cpsat" and len(data["secrets"]) == 1
    assert any("found by" in n for n in data["notes"])
    assert score(Variant.preset("bulls-cows"), tuple(int(c) for c in data["secrets"][0]),
                 (0, 1, 2, 3)) == (1, 1)
