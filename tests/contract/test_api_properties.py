"""Every public function of ``cbsolve`` under random arguments, valid and not: it answers, or
raises a CbsolveError (an out-of-range argument: InvalidArgument, naming it), never a
TypeError, NumPy's ValueError or an AttributeError. The default suite runs a few hundred
examples; the `slow` campaign over 10,000."""
from __future__ import annotations

import tempfile
from pathlib import Path

import fuzzkit
import pytest
from fuzzkit import (
    CAMPAIGN_EXAMPLES,
    DEFAULT_EXAMPLES,
    budgets,
    counts,
    games,
    holds_the_contract,
    seeds,
    spoiled,
)
from hypothesis import given, settings
from hypothesis import strategies as st

import cbsolve as cb
from cbsolve.runtime.deadline import Deadline

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "trees"
#: The profiles of fuzzkit (no per-example deadline, no health check on slow draws): one test
#: a function, DEFAULT_EXAMPLES each by default, CAMPAIGN_EXAMPLES in the slow campaign.
CONTRACT = settings(fuzzkit.CONTRACT, max_examples=DEFAULT_EXAMPLES)
CAMPAIGN = settings(fuzzkit.CAMPAIGN, max_examples=CAMPAIGN_EXAMPLES)
OUT = Path(tempfile.mkdtemp(prefix="cbsolve-sweep-"))

strategy = st.sampled_from(["minimax", "expected", "entropy", "parts", "first", "random"])
objective = st.sampled_from(["worst", "expected"])
guesses = st.sampled_from(["all", "candidates"])


def some(draw, **options) -> dict:
    """Some of ``options`` (name -> strategy), each drawn or left to its default."""
    return draw(st.fixed_dictionaries({}, optional=options))


@st.composite
def calls(draw, name: str):
    """A valid call of the public function ``name`` on a tiny game, with a short budget."""
    g = draw(games())
    fn = getattr(cb, name)
    v = {"variant": g.given}
    budget = draw(budgets)
    if name == "as_variant":
        return fn, (g.given,), {}
    if name == "as_log":
        return fn, (g.log(),), v
    if name == "score":
        return fn, (g.code(), g.code()), v
    if name in ("consistent", "diagnose"):
        extra = {} if name == "diagnose" else some(
            draw, count=st.booleans(), limit=counts, sample=counts, seed=seeds,
            max_lies=st.integers(0, 1), count_cap=counts)
        backend = draw(st.sampled_from(["auto", "native"]))
        return fn, (g.log(),), {**v, **extra, "backend": backend, **budget}
    if name == "next_guess":
        return fn, (g.log(),), {**v, **some(draw, strategy=strategy | st.just("optimal"),
                                            objective=objective, guesses=guesses, seed=seeds),
                                **budget}
    if name == "partition":
        return fn, (g.code(), g.log()), {**v, **some(draw, members=st.booleans()), **budget}
    if name == "partition_table":
        return fn, (g.log(),), {**v, **some(draw, sort=st.sampled_from(
            ["minimax", "expected", "entropy", "parts"])), **budget}
    if name == "evaluate":
        return fn, (draw(strategy),), {**v, **some(
            draw, first=st.none() | st.builds(g.code), guesses=guesses, seed=seeds,
            sample=st.none() | st.integers(1, 20), keep_tree=st.booleans(),
            symmetry=st.sampled_from([True, False, "auto"]),
            progress=st.just(lambda done, total: None)), **budget}
    if name == "optimal":
        return fn, (g.log(),), {**v, **some(
            draw, objective=objective, guesses=guesses, max_depth=st.none() | st.integers(1, 6),
            certificate=st.booleans(), ties=st.booleans(), lookahead=st.integers(0, 1),
            workers=st.integers(1, 2), memory_budget=st.sampled_from([None, "1G", 2**30]),
            replies=st.sampled_from(["auto", "matrix", "on-the-fly"])), **budget}
    if name == "regret":
        return fn, (g.code(), g.log()), {**v, **some(draw, objective=objective), **budget}
    if name == "puzzle":
        return fn, (g.given,), {**some(draw, seed=seeds, difficulty=st.sampled_from(
            ["easy", "medium", "hard"]), clues=st.none() | st.integers(1, 6),
            distractors=st.integers(0, 4)), **budget}
    if name == "bounds":
        return fn, (g.given,), {**some(draw, search=st.booleans(), strategies=st.booleans(),
                                       deep=st.booleans(),
                                       progress=st.just(lambda message: None)), **budget}
    if name == "atlas":
        return fn, (), some(draw, length=st.integers(1, 20), n_symbols=st.integers(1, 12),
                            feedback=st.sampled_from(["bulls-cows", "bulls"]),
                            repeats=st.booleans())
    if name == "verify":
        tree = draw(st.sampled_from(sorted(FIXTURES.iterdir())))
        return fn, (tree,), {**some(draw, variant=st.sampled_from([None, "mastermind"]),
                                    file_symbols=st.sampled_from([None, "123"])), **budget}
    if name == "sweep":
        return fn, (OUT,), {"families": draw(st.sampled_from([[cb.Variant(2, "012", True)],
                                                              ["cowbull"]])),
                            "lengths": [draw(st.integers(1, 2))], "alphabets": [3],
                            "strategies": [draw(strategy)], "workers": 0, "plots": False,
                            "include_bounds": False, **some(draw, seed=st.integers(0, 9)),
                            **budget}
    raise AssertionError(f"no calls drawn for {name}")


PUBLIC = sorted(name for name in cb.__all__
                if name[0].islower() and callable(getattr(cb, name)))
#: Arguments that name files: spoiled with junk that names none (nothing is written outside
#: the scratch directory).
FILES = {"sweep": (0, "out"), "verify": (0,)}
CALLS = {name: spoiled(calls(name), FILES.get(name, ())) for name in PUBLIC}


def test_every_public_function_is_fuzzed():
    assert {"consistent", "optimal", "puzzle", "sweep", "verify", "bounds"} <= set(PUBLIC)


def check(name: str, data) -> None:
    fn, args, kwargs = data.draw(CALLS[name], label=name)
    holds_the_contract(lambda: fn(*args, **kwargs))


@pytest.mark.parametrize("name", sorted(CALLS))
@CONTRACT
@given(data=st.data())
def test_public_function_answers_or_raises_a_cbsolve_error(name, data):
    check(name, data)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CALLS))
@CAMPAIGN
@given(data=st.data())
def test_campaign_public_function_answers_or_raises_a_cbsolve_error(name, data):
    check(name, data)


# --- the cases a user reported, each refused with the parameter's name and range ------------------
@pytest.mark.parametrize("call, name", [
    (lambda: cb.consistent(["0123:1,2"], time_limit=-1), "time_limit"),
    (lambda: cb.consistent(["0123:1,2"], time_limit=float("nan")), "time_limit"),
    (lambda: cb.optimal(variant="mastermind", time_limit=-3), "time_limit"),
    (lambda: cb.consistent(["0123:1,2"], limit=10**30), "limit"),
    (lambda: cb.consistent(["0123:1,2"], deadline=5), "deadline"),
    (lambda: cb.puzzle("bulls-cows", seed=-1), "seed"),
    (lambda: cb.consistent(log=42), "log"),
    (lambda: cb.optimal(variant="mastermind", workers=99999, time_limit=1), "workers"),
    (lambda: cb.evaluate("minimax", variant="mastermind", sample=0), "sample"),
    (lambda: cb.next_guess(["0123:1,2"], seed="7"), "seed"),
])
def test_issue_43_cases_name_the_parameter_and_its_range(call, name):
    with pytest.raises(cb.InvalidArgument) as caught:
        call()
    assert caught.value.name == name
    assert str(caught.value).startswith(f"{name} must be ")


def test_the_cli_and_the_api_refuse_with_the_same_range(capsys):
    from testkit import cli_run

    code, _, err = cli_run(capsys, "consistent", "0123:1,2", "--limit", "abc")
    with pytest.raises(cb.InvalidArgument) as caught:
        cb.consistent(["0123:1,2"], limit="abc")
    assert code == 2 and "'--limit'" in err and caught.value.expected in err
    code, _, err = cli_run(capsys, "analyze", "--workers", "99999")
    assert code == 2 and "'--workers'" in err and "0..256" in err


def test_a_deadline_and_a_time_limit_are_one_budget():
    with pytest.raises(cb.CbsolveError, match="not both"):
        cb.consistent(["0123:1,2"], deadline=Deadline(1), time_limit=1)
    assert cb.consistent(["0123:1,2"], deadline=Deadline(5), count=True, limit=0).count == 216


def test_junk_in_every_position_of_score_is_a_cbsolve_error():
    for junk in (None, 42, b"0123", ["0123"], 1.5):
        with pytest.raises(cb.CbsolveError):
            cb.score(junk, "0123")
        with pytest.raises(cb.CbsolveError):
            cb.score("0123", junk)
