"""The native search toolkit (cbsolve/_native/toolkit_*.hpp): one list of stop reasons, named
progress counters, and kernels that agree with their Python references."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

from cbsolve.runtime.deadline import Deadline
from cbsolve.runtime.status import Status, StopReason
from cbsolve.game.variant import Variant

KERNELS = ("dfs", "local_search", "search_worst", "search_expected", "streaming")


@pytest.mark.parametrize("name", KERNELS)
def test_every_kernel_speaks_the_stop_reasons_of_the_python_enum(name):
    kernel = importlib.import_module(f"cbsolve._native.{name}")
    assert kernel.stop_reasons() == [r.value for r in StopReason]


def test_only_an_exhausted_search_is_a_whole_answer():
    assert StopReason.COMPLETE.status(0) is Status.INFEASIBLE
    assert StopReason.COMPLETE.status(3) is Status.OPTIMAL
    for why in set(StopReason) - {StopReason.COMPLETE}:
        assert why.status(0) is Status.UNKNOWN and why.status(2) is Status.FEASIBLE


def test_the_worst_case_search_reports_progress_by_name():
    """The progress line reads named counters; after a decision the node count is the
    kernel's own, and the top node's guesses done never exceed their total."""
    from cbsolve.search.worst.kernel import _Native

    native = _Native(Variant.preset("bulls-cows"), "all", {}, workers=2)
    seen = []
    assert native.run("feasible", 7, on_wait=lambda m, d, p: seen.append(p)) == 1
    after = native.core.progress()
    assert after.nodes <= native.core.nodes() and after.nodes > 0
    assert 0 <= after.top_done <= after.top_total
    assert after.memo_entries <= native.core.memo_size()
    for p in seen:
        assert p.nodes <= after.nodes


def test_a_stopped_local_search_says_so():
    """A stop flag set before the call: the kernel's first poll sees it."""
    from cbsolve.consistency.portfolio import LocalSearch
    from cbsolve.game.feedback import FeedbackLog

    log = FeedbackLog.parse(Variant.preset("mastermind"), ["1122:1,1", "3456:0,2"])
    r = LocalSearch(log).run(None, stop=np.ones(1, np.int32), want=10**6)
    assert r["stop"] is StopReason.STOPPED and r["flips"] == 0


GAMES = [Variant(3, "01234", repeats=False), Variant(3, "0123", repeats=True),
         Variant(3, "01234", repeats=False, no_leading_zero=True),
         Variant(3, "0123", repeats=True, no_leading_zero=True),
         Variant(3, "012345", repeats=True, feedback="bulls"),
         Variant(4, "012345", repeats=False), Variant.preset("mastermind")]


@pytest.mark.parametrize("variant", GAMES, ids=lambda v: v.describe())
def test_the_native_stabiliser_matches_the_python_reference(variant):
    """toolkit_symmetry.hpp (through the worst-case kernel) keeps exactly the orbit
    representatives of cbsolve.game.symmetry on random histories of up to three guesses."""
    from cbsolve.game.codes import CodeSpace
    from cbsolve.search.worst.kernel import _Native
    from cbsolve.game.symmetry import Symmetry

    native, sym, space = _Native(variant, "all", {}, workers=1), Symmetry(variant), CodeSpace(variant)
    rng = np.random.default_rng(11)
    for trial in range(24):
        history = [int(i) for i in rng.integers(space.size, size=trial % 4)]
        got = native.core.representatives(np.array(history, dtype=np.int64))
        want = sym.guess_representatives([space.code_at(i) for i in history]).tolist()
        assert got == want, history


def test_the_local_search_options_are_the_kernels_field_for_field():
    """The frozen dataclass and the native struct name the same fields with the same defaults
    (no limit: None in Python, -1 in the kernel)."""
    from dataclasses import fields

    from cbsolve._native import local_search
    from cbsolve.consistency.portfolio import LocalSearchOptions

    native, python = local_search.Options(), LocalSearchOptions()
    names = {f.name for f in fields(LocalSearchOptions)}
    assert names == {n for n in dir(native) if not n.startswith("_")}
    for name in names - {"seconds"}:
        assert getattr(native, name) == pytest.approx(getattr(python, name)), name
    assert python.seconds is None and native.seconds == -1
    built = LocalSearchOptions(want=3, luby=True, seconds=2.5).native(local_search)
    assert (built.want, built.luby, built.seconds) == (3, True, 2.5)


# --- the control block keeps why a search stopped ---------------------------------------------
def _stopped_worst_search():
    """The worst-case kernel on Bulls & Cows and a call it cannot finish in a few nodes (are 6
    guesses enough? seconds to refute): returns (kernel, call)."""
    from cbsolve.search.worst.kernel import _Native

    native = _Native(Variant.preset("bulls-cows"), "all", {}, workers=1)
    return native.core, lambda: native.core.feasible(native.all, 6, native.empty) == -1


def _stopped_expected_search():
    from cbsolve.search.expected.kernel import INF_T, INF_W
    from cbsolve.search.expected.search import _Search

    search = _Search(Variant.preset("mastermind"), None, "all", 1, True, {}, 10**6)
    everyone = np.arange(search.n, dtype=np.int32)
    return search.solver, lambda: search.solver.solve(everyone, 0, INF_T, INF_W, 0) is None


@pytest.mark.parametrize("make", [_stopped_worst_search, _stopped_expected_search])
def test_the_kernel_tells_a_time_limit_from_a_stop_request(make):
    kernel, stopped_call = make()
    assert kernel.stop_reason() == "complete"
    kernel.set_deadline(1e-9)                 # due at once: the clock's first poll stops it
    assert stopped_call() and kernel.stop_reason() == "time"
    kernel.set_deadline(0)                    # a new call starts afresh
    assert kernel.stop_reason() == "complete"
    kernel.request_stop("interrupted")        # what run_interruptible passes for Ctrl-C
    kernel.request_stop("time")               # the first reason is kept
    assert stopped_call() and kernel.stop_reason() == "interrupted"
    kernel.set_deadline(0)
    kernel.request_stop()                     # another thread's stop
    assert kernel.stop_reason() == "stopped"
    with pytest.raises(ValueError):
        kernel.request_stop("tired")


def test_a_time_limit_and_a_stop_request_reach_the_result_as_such():
    """Through the driver: the worst-case search's time limit is Python's deadline, the
    expected-case search's the kernel's own; a stop request (Ctrl-C) is "interrupted"."""
    import threading

    from cbsolve.runtime.deadline import clear_stop, request_stop
    from cbsolve.search import SearchInterrupted
    from cbsolve.search.expected import solve_expected
    from cbsolve.search.worst import solve_worst

    game = Variant.preset("bulls-cows")
    for solve in (solve_worst, solve_expected):
        res = solve(game, workers=1, deadline=Deadline.from_limit(0.3))
        assert not res.proved and res.stop is StopReason.TIME
        assert res.to_json()["time_limit_hit"] is True and not res.interrupted
        clear_stop()
        timer = threading.Timer(0.3, request_stop)
        timer.start()
        try:
            res = solve(game, workers=1)
        except SearchInterrupted as stop:
            res = stop.result
        finally:
            timer.join()
            clear_stop()
        assert res.stop is StopReason.INTERRUPTED and res.interrupted
        assert res.to_json()["time_limit_hit"] is False


# --- the worst-case kernel's replies come from Python ----------------------------------------
@pytest.mark.parametrize("variant", GAMES[:6])
def test_the_replies_given_to_the_worst_kernel_are_those_of_the_matrix(variant):
    """The kernel once read the occurring replies off its n^2 matrix (0.6 s on Logik 5x8);
    scoring.possible_responses is what it is now given, so both must agree."""
    from cbsolve.game.codes import CodeSpace
    from cbsolve.game.scoring import possible_responses, score_matrix

    codes = CodeSpace(variant).codes
    occurring = set(np.unique(score_matrix(variant, codes, codes)).tolist())
    given = {variant.response_index(b, c) for b, c in possible_responses(variant)}
    assert given == occurring


def test_the_worst_kernel_refuses_a_reply_outside_the_slots():
    from cbsolve._native.search_worst import WorstSearch

    from cbsolve.game.codes import CodeSpace
    from cbsolve.game.scoring import score_matrix

    v = Variant(3, "0123", True)
    codes = CodeSpace(v).codes
    with pytest.raises(ValueError):
        WorstSearch(score_matrix(v, codes, codes), codes, v.n_symbols, False, v.response_slots,
                    v.win_response, 9, [0, v.response_slots])
