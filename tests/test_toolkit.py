"""The native search toolkit (cbsolve/_native/toolkit_*.hpp): one list of stop reasons, named
progress counters, and kernels that agree with their Python references."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

from cbsolve.status import Status, StopReason
from cbsolve.variant import Variant

KERNELS = ("dfs", "local_search", "search_worst", "search_expected")


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
    from cbsolve.search.worst import _Native

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
    from cbsolve.feedback import FeedbackLog

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
    representatives of cbsolve.symmetry on random histories of up to three guesses."""
    from cbsolve.codes import CodeSpace
    from cbsolve.search.worst import _Native
    from cbsolve.symmetry import Symmetry

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
