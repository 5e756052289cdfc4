"""Fixtures every test gets."""
from __future__ import annotations

import pytest

from cbsolve.runtime.deadline import clear_stop


@pytest.fixture(autouse=True)
def fresh_stop():
    """A stop request (Ctrl-C's, or one a test makes) is process-wide: no test inherits one
    from the test before it, nor leaves one to the test after it."""
    clear_stop()
    yield
    clear_stop()
