"""Every stop is one family: :class:`cbsolve.errors.Expired`, a :class:`cbsolve.CbsolveError`
with a ``reason`` (docs/architecture.md, "Time"). The stops keep their own names (what they
carry differs), but ``except cb.CbsolveError`` catches each, and a search stopped by Ctrl-C is
a KeyboardInterrupt still, so the CLI's exit codes do not move (tests/contract)."""
from __future__ import annotations

import pytest

import cbsolve as cb
from cbsolve.advisor import exact_cost
from cbsolve.bounds import cutoff
from cbsolve.certificates.certify import OutOfTime
from cbsolve.consistency.sat import BuildStopped
from cbsolve.runtime.deadline import Abandoned, Deadline, clear_stop
from cbsolve.errors import Expired
from cbsolve.search.distributed.cluster import _Stopped
from cbsolve.search.expected.kernel import _Abandoned
from cbsolve.search.reply_matrix import SetupStopped
from cbsolve.runtime.status import StopReason
from cbsolve.strategy.heuristics import DeadlineExpired

STOPS = [cb.SearchInterrupted, cb.Unfinished, cutoff.OutOfTime, OutOfTime, exact_cost.OutOfTime,
         BuildStopped, Abandoned, _Stopped, _Abandoned, SetupStopped, DeadlineExpired]


@pytest.mark.parametrize("stop", STOPS, ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_every_stop_is_an_expired_cbsolve_error(stop):
    assert issubclass(stop, Expired) and issubclass(stop, cb.CbsolveError)
    assert cb.Expired is Expired


def test_a_search_stopped_by_ctrl_c_is_still_a_keyboard_interrupt():
    stop = cb.SearchInterrupted(None)
    assert isinstance(stop, KeyboardInterrupt) and stop.reason is StopReason.INTERRUPTED


def test_an_expired_deadline_is_caught_as_a_cbsolve_error_with_its_reason():
    clear_stop()
    with pytest.raises(cb.CbsolveError) as caught:
        cb.evaluate("minimax", variant="mastermind", deadline=Deadline(0.0))
    assert isinstance(caught.value, cb.Unfinished)
    assert caught.value.reason is StopReason.TIME and not caught.value.interrupted


def test_a_stop_that_reaches_the_cli_is_not_reported_as_bad_input(monkeypatch, capsys):
    """A stop no command reported is a bug: re-raised (a traceback), never exit 2 with a line
    that would call it bad input."""
    from cbsolve import cli
    from cbsolve.cli import _interrupt

    def stray(**_):
        raise cutoff.OutOfTime("a construction stopped", StopReason.TIME)

    monkeypatch.setattr(cli.app, "main", stray)
    monkeypatch.setattr(_interrupt, "signalled", lambda: False)
    with pytest.raises(cutoff.OutOfTime):
        cli._run(["bounds"])
