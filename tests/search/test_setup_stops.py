"""The exact searches' set-up (the reply matrix, the expected kernel's transposed copy) stops at
a time limit and at the stop request, like the searches after it.

The set-up used to be one call that read nothing: Logik 5x8's expected search under a 5 s limit
ended after its 7.3 s set-up, and Ctrl-C waited for it. Here the deadline is due (or the stop
requested) before the set-up starts; the build must stop before it completes, and the search
must report what a search stopped right after its set-up reports: ``unknown`` with the counting
bound. Mastermind 5x5 (3,125 codes) is the smallest preset-like game whose matrix takes more
than one block (:data:`cbsolve.search.reply_matrix.BLOCK_CELLS`).
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from cbsolve.cli import main
from cbsolve.game.codes import CodeSpace
from cbsolve.runtime.deadline import Deadline, request_stop
from cbsolve.game.scoring import score_matrix
from cbsolve.search import SearchInterrupted, reply_matrix
from cbsolve.runtime.status import Status, StopReason
from cbsolve.game.variant import Variant

SMALL = Variant.preset("mastermind")                       # 1,296 codes
TWO_BLOCKS = Variant(5, "12345", repeats=True)             # 3,125 codes: 9.8M cells


def test_the_blocked_matrix_is_the_matrix():
    codes = CodeSpace(SMALL).codes
    built = reply_matrix.build(SMALL, codes, Deadline(None), block_cells=100_000)
    assert np.array_equal(built, score_matrix(SMALL, codes, codes))


@pytest.mark.parametrize("stop, reason", [("deadline", StopReason.TIME),
                                          ("request", StopReason.INTERRUPTED)])
def test_the_matrix_build_stops_after_one_block(stop, reason):
    codes = CodeSpace(SMALL).codes
    if stop == "request":
        request_stop()
    with pytest.raises(reply_matrix.SetupStopped) as info:
        reply_matrix.build(SMALL, codes, Deadline(0 if stop == "deadline" else None),
                           block_cells=100_000)
    step = 100_000 // len(codes)
    assert (info.value.reason, info.value.done, info.value.rows) == (reason, step, len(codes))


def _ctrl_c_at_block(monkeypatch, nth: int) -> None:
    """Ctrl-C lands while the matrix's ``nth`` block is scored (Python raises it there)."""
    score, calls = reply_matrix.score_matrix, []

    def scored(*args, **kwargs):
        calls.append(1)
        if len(calls) == nth:
            raise KeyboardInterrupt
        return score(*args, **kwargs)

    monkeypatch.setattr(reply_matrix, "score_matrix", scored)


def test_ctrl_c_in_the_matrix_build_is_a_stop_request(monkeypatch):
    from cbsolve.runtime.deadline import stop_requested

    codes = CodeSpace(SMALL).codes
    _ctrl_c_at_block(monkeypatch, 2)
    with pytest.raises(reply_matrix.SetupStopped) as info:
        reply_matrix.build(SMALL, codes, Deadline(None), block_cells=100_000)
    assert info.value.reason is StopReason.INTERRUPTED and info.value.done == 100_000 // len(codes)
    assert stop_requested()   # the rest of the command sees it


def _unprepared_solver():
    from cbsolve.search.expected import new_solver

    codes = CodeSpace(SMALL).codes
    return new_solver(SMALL, codes, score_matrix(SMALL, codes, codes)), len(codes)


def test_an_unprepared_solver_refuses_to_search():
    solver, n = _unprepared_solver()
    with pytest.raises(RuntimeError, match="prepare"):
        solver.scan(np.arange(n, dtype=np.int32), 0, 0)


def test_the_transpose_stops_at_a_stop_request_and_resumes():
    solver, n = _unprepared_solver()
    solver.request_stop("interrupted")
    assert solver.prepare() is False and solver.prepared_rows == 0
    assert solver.stop_reason() == "interrupted"
    solver.set_deadline(0)   # clears the stop
    assert solver.prepare() is True and solver.prepared_rows == n


def test_the_transpose_stops_at_a_passed_deadline():
    solver, n = _unprepared_solver()
    solver.set_deadline(1e-9)   # passed by the time the call starts; read per ~1M steps
    assert solver.prepare() is False and solver.prepared_rows < n
    assert solver.stop_reason() == "time"


def test_a_resumed_transpose_searches_as_a_whole_one():
    from cbsolve.search.expected.search import _Search

    solver, n = _unprepared_solver()
    solver.set_deadline(1e-9)
    solver.prepare()
    solver.set_deadline(0)
    assert solver.prepare()
    everyone = np.arange(n, dtype=np.int32)
    whole = _Search(SMALL, None, "all", 1, True, {}, 10**5).solver
    assert solver.scan(everyone, 0, 0) == whole.scan(everyone, 0, 0)


def _counting_bound(objective):
    """What a search stopped right after its set-up proves. Worst case: the fewest guesses
    whose capacity holds every secret. Expected case: the same search with no set-up to stop
    (replies on the fly) and a limit already spent (its first phase reads the clock within
    ~1M of the 9.8M pairs of its first scan)."""
    from cbsolve.game.capacity import capacity
    from cbsolve.game.scoring import possible_responses
    from cbsolve.search.expected import solve_expected

    if objective == "worst":
        n, replies = CodeSpace(TWO_BLOCKS).size, len(possible_responses(TWO_BLOCKS))
        return next(k for k in range(1, n + 1) if capacity(k, replies) >= n)
    reference = solve_expected(TWO_BLOCKS, deadline=Deadline.from_limit(1e-9), replies="on-the-fly")
    assert reference.status is Status.UNKNOWN and reference.upper is None
    return reference.lower


@pytest.mark.parametrize("objective", ["worst", "expected"])
def test_a_search_stopped_in_its_setup_reports_the_counting_bound(objective):
    from cbsolve.search.expected import solve_expected
    from cbsolve.search.worst import solve_worst

    solve = solve_worst if objective == "worst" else solve_expected
    result = solve(TWO_BLOCKS, deadline=Deadline.from_limit(1e-9))
    assert result.status is Status.UNKNOWN and not result.proved
    assert (result.lower, result.upper) == (_counting_bound(objective), None)
    assert result.stop is StopReason.TIME and not result.interrupted
    assert result.reply_source == "matrix"
    assert any("during the set-up (the reply matrix" in note for note in result.notes)


@pytest.mark.parametrize("objective", ["worst", "expected"])
@pytest.mark.parametrize("stop", ["request before", "ctrl-c in a block"])
def test_an_interrupted_setup_reports_the_counting_bound(monkeypatch, objective, stop):
    from cbsolve.search.expected import solve_expected
    from cbsolve.search.worst import solve_worst

    solve = solve_worst if objective == "worst" else solve_expected
    lower = _counting_bound(objective)
    if stop == "request before":
        request_stop()
    else:
        _ctrl_c_at_block(monkeypatch, 2)
    with pytest.raises(SearchInterrupted) as info:
        solve(TWO_BLOCKS)
    result = info.value.result
    assert result.interrupted and result.stop is StopReason.INTERRUPTED
    assert (result.lower, result.upper) == (lower, None)


@pytest.mark.parametrize("objective", ["worst", "expected"])
def test_a_search_from_a_position_stopped_in_its_setup(objective):
    from cbsolve.game.feedback import FeedbackLog
    from cbsolve.search.position import Position, solve_from

    position = Position.from_log(FeedbackLog.parse(TWO_BLOCKS, ["12345:1,1"]))
    result = solve_from(position, objective, deadline=Deadline.from_limit(1e-9))
    assert result.status is Status.UNKNOWN and result.stop is StopReason.TIME
    assert result.lower is not None and result.upper is None
    assert any("during the set-up" in note for note in result.notes)


def test_optimal_with_a_limit_shorter_than_its_setup(capsys):
    code = main(["optimal", "--length", "5", "--symbols", "12345", "--repeats",
                 "--objective", "expected", "--time-limit", "0.000000001", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    # nothing searched: the lower end is what `bounds` proves at once, under the same spent
    # deadline (optimal starts from it), never below the counting bound
    from cbsolve.bounds import compute_bounds
    from cbsolve.runtime.deadline import Deadline

    proved = compute_bounds(Variant(5, "12345", repeats=True), search=False, strategies=False,
                            deep=False, deadline=Deadline.from_limit(0)).expected
    assert data["status"] == "unknown" and data["lower"] >= proved.lower
    assert proved.lower >= _counting_bound("expected")
    assert data["upper"] is None or data["upper"] >= data["lower"]
    assert data["time_limit_hit"] is True and "interrupted" not in data
