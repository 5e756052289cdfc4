"""The one deadline and stop request: budgets, sub-budgets, and a kernel stopped from outside."""
import threading

import pytest

from cbsolve.runtime.deadline import (
    UNLIMITED,
    Abandoned,
    Deadline,
    finish_or_abandon,
    request_stop,
    run_interruptible,
    work_abandoned,
)


class FakeClock:
    """A clock that moves only when the test says (no wall time in the assertions)."""

    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_unlimited_has_no_left_and_never_expires():
    clock = FakeClock()
    d = Deadline(None, clock)
    clock.now += 10**6
    assert d.left() is None and not d.expired() and d.unlimited
    assert d.part(0.5).left() is None
    assert d.capped(2.0).left() == 2.0


def test_parts_take_from_what_is_left():
    clock = FakeClock()
    d = Deadline(10.0, clock)
    clock.now += 2.0
    half, one = d.part(0.5), d.capped(1.0)
    assert d.left() == 8.0 and half.left() == 4.0 and one.left() == 1.0
    assert d.capped(20.0).left() == 8.0              # at most what is left
    clock.now += 1.0                                 # sub-budgets keep the clock
    assert half.left() == 3.0 and one.left() == 0.0 and one.expired() and not half.expired()
    clock.now += 7.0
    assert d.left() == 0.0 and d.expired() and half.expired()
    assert Deadline(0.0).expired()


def test_stop_request_expires_every_deadline():
    d, u = Deadline(1000.0), Deadline(None)
    request_stop()
    assert d.expired() and u.expired() and d.left() == 0.0 and u.left() == 0.0


class _Kernel:
    """Stands for a native search: its stop hook keeps the reason it is given (as the
    control block does) and the call returns it once stopped."""

    def __init__(self):
        self.flag, self.why = threading.Event(), None

    def request_stop(self, why: str) -> None:
        self.why = why
        self.flag.set()

    def work(self):
        self.flag.wait(30)
        return self.why if self.flag.is_set() else "ran out"


def test_deadline_calls_the_kernels_stop_hook_with_time():
    kernel = _Kernel()
    assert run_interruptible(kernel.work, kernel.request_stop, deadline=Deadline(0.2)) == "time"


def test_stop_request_stops_a_kernel_with_no_time_limit_as_interrupted():
    kernel = _Kernel()
    threading.Timer(0.2, request_stop).start()
    assert run_interruptible(kernel.work, kernel.request_stop,
                             deadline=Deadline(None)) == "interrupted"


def test_kernel_errors_surface_in_the_caller():
    def work():
        raise ValueError("bad")
    with pytest.raises(ValueError):
        run_interruptible(work, lambda why: None)


def test_on_wait_is_called_while_the_kernel_runs():
    """The kernel here runs until the caller's progress hook has been called twice (30 s: a
    hang guard, not a timing)."""
    calls, enough = [], threading.Event()

    def progress():
        calls.append(1)
        if len(calls) >= 2:
            enough.set()

    assert run_interruptible(lambda: enough.wait(30), lambda why: None, on_wait=progress)
    assert len(calls) >= 2


def test_finish_or_abandon_waits_its_grace_for_work_that_stops():
    """Work that ends soon after the stop (a solver that reads its interrupt) is waited for."""
    release = threading.Event()
    threading.Timer(0.05, request_stop).start()
    threading.Timer(0.15, release.set).start()
    assert finish_or_abandon(lambda: release.wait() and "done", UNLIMITED, grace=1.0) == "done"


def test_finish_or_abandon_leaves_work_that_outlasts_its_grace_and_says_so():
    release = threading.Event()
    threading.Timer(0.05, request_stop).start()
    try:
        with pytest.raises(Abandoned):
            finish_or_abandon(release.wait, UNLIMITED, grace=0.05)
        assert work_abandoned()      # the CLI then ends with os._exit, not the shutdown
    finally:
        release.set()
