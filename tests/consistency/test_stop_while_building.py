"""The SAT backend and the model counters stop on their deadline (a time limit or Ctrl-C's stop
request) in the steps no solver's stop hook covers: building the CNF (Python, seconds on an N=40
log under load) and waiting for a counter's child process."""
from __future__ import annotations

import threading

import pytest

from cbsolve.consistency import Query, get_backend
from cbsolve.consistency.counting import _run, ganak_count
from cbsolve.consistency.sat import BuildStopped, session_for
from cbsolve.runtime.deadline import UNLIMITED, Deadline, request_stop
from cbsolve.game.feedback import random_log
from cbsolve.runtime.status import Status
from cbsolve.game.variant import Variant


def hard_log():
    """25 random clues on N=40 of 10 digits with repeats: 0.3-0.6 s of CNF to build."""
    return random_log(Variant(40, "0123456789", True), 25, seed=1)[0]


class Ticks:
    """A clock that advances one second each time it is read: a Deadline of ``k`` seconds on
    it expires after ``k`` reads, whatever the machine's speed."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def after_reads(k: int) -> Deadline:
    return Deadline(k, clock=Ticks())


def test_the_encoding_is_built_whole_when_its_deadline_does_not_expire():
    log = hard_log()
    clock = Ticks()
    with session_for(log, deadline=Deadline(10**9, clock=clock)) as session:
        assert len(session.selectors) == len(log)
    # It looked at the deadline all along the build (once a counter row), not once at the end.
    assert clock.now > 1_000


@pytest.mark.parametrize("reads", [1, 50, 2_000])
def test_the_encoding_stops_building_when_its_deadline_expires(reads):
    """At the start, in the variant's redundant sums, and among the clues."""
    with pytest.raises(BuildStopped):
        session_for(hard_log(), deadline=after_reads(reads))


def test_the_sat_backend_stopped_while_building_answers_unknown_at_the_time_limit():
    result = get_backend("sat").solve(hard_log(), Query(count=True), deadline=after_reads(500))
    assert result.status is Status.UNKNOWN and result.count is None and not result.exact
    assert result.time_limit_hit
    assert any("time limit reached while the solver's formula was being built" in note
               for note in result.notes), result.notes


def test_the_sat_backend_stopped_by_a_stop_request_says_interrupted():
    request_stop()
    result = get_backend("sat").solve(hard_log(), Query(count=True), deadline=UNLIMITED)
    assert result.status is Status.UNKNOWN and not result.time_limit_hit
    assert any(note.startswith("interrupted (Ctrl-C) while the solver's formula")
               for note in result.notes), result.notes


def test_the_sat_backend_with_lies_stops_while_building_too():
    result = get_backend("sat").solve_with_lies(hard_log(), 1, Query(count=True),
                                                deadline=after_reads(500))
    assert result.status is Status.UNKNOWN and result.time_limit_hit


def test_a_counter_child_is_killed_on_the_stop_request():
    """Ganak and ApproxMC have no stop hook: their child process is. A child that would print
    7 after 30 s is killed by a stop request made at 0.3 s, so no count comes back."""
    threading.Timer(0.3, request_stop).start()
    slow = "import time; time.sleep(30); print(7)"
    assert _run(slow, {"clauses": [[1]], "xs": [1]}, UNLIMITED) is None


def test_a_counter_child_answers_when_not_stopped():
    assert _run("print(7)", {"clauses": [[1]], "xs": [1]}, UNLIMITED) == 7


def test_no_counter_starts_after_the_stop_request():
    pytest.importorskip("pyganak")
    request_stop()
    assert ganak_count(hard_log(), 0, UNLIMITED) is None


def test_the_diagnosis_stopped_while_building_proved_nothing(monkeypatch):
    """An inconsistent N=40 log (its first guess again, one cow made a bull): the solvers'
    diagnosis builds the same CNF, and a deadline expiring there ends it, no core asked of a
    half-built formula, no conflict."""
    from cbsolve.consistency import diagnose

    cores = []
    monkeypatch.setattr(diagnose, "session_conflict", lambda *a: cores.append(a) or (None, False))
    log = hard_log()
    first = log[0]
    assert first.cows > 0
    log.add(log.space.format(first.guess), first.bulls + 1, first.cows - 1)
    assert diagnose._conflict_solvers(log, after_reads(200)) == (None, False)
    assert cores == []
