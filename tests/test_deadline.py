"""The one deadline and stop request: budgets, sub-budgets, and a kernel stopped from outside."""
import threading
import time

import pytest

from cbsolve.deadline import Deadline, clear_stop, request_stop, run_interruptible


@pytest.fixture(autouse=True)
def fresh_stop():
    clear_stop()
    yield
    clear_stop()


def test_unlimited_has_no_left_and_never_expires():
    d = Deadline(None)
    assert d.left() is None and not d.expired() and d.unlimited
    assert d.part(0.5).left() is None
    assert d.capped(2.0).left() == pytest.approx(2.0, abs=0.05)


def test_parts_take_from_what_is_left():
    d = Deadline(10.0)
    assert 4.0 < d.part(0.5).left() <= 5.0
    assert d.capped(1.0).left() <= 1.0
    assert Deadline(0.0).expired()


def test_stop_request_expires_every_deadline():
    d, u = Deadline(1000.0), Deadline(None)
    request_stop()
    assert d.expired() and u.expired() and d.left() == 0.0 and u.left() == 0.0


def _kernel(flag: threading.Event):
    """Stands for a native search: returns when its stop flag is set, saying it was stopped."""
    def work():
        flag.wait(30)
        return "stopped" if flag.is_set() else "ran out"
    return work


def test_deadline_calls_the_kernels_stop_hook():
    flag = threading.Event()
    assert run_interruptible(_kernel(flag), flag.set, deadline=Deadline(0.2)) == "stopped"


def test_stop_request_stops_a_kernel_with_no_time_limit():
    flag = threading.Event()
    threading.Timer(0.2, request_stop).start()
    assert run_interruptible(_kernel(flag), flag.set, deadline=Deadline(None)) == "stopped"


def test_kernel_errors_surface_in_the_caller():
    def work():
        raise ValueError("bad")
    with pytest.raises(ValueError):
        run_interruptible(work, lambda: None)


def test_on_wait_is_called_while_the_kernel_runs():
    calls = []
    run_interruptible(lambda: time.sleep(0.35), lambda: None, on_wait=lambda: calls.append(1))
    assert len(calls) >= 2
