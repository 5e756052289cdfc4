"""The ``workers`` policy, in one place: how many workers run in parallel, and where.

A worker is what the engine runs in parallel: a C++ thread of the worst-case kernel, a Python
thread driving the expected-case kernel, a process of a sweep's pool or of a local Dask
cluster. Whatever it is, ``workers`` counts them and the default is the same everywhere: the
cores this process may run on (:func:`cbsolve.runtime.machine.cores`, its CPU affinity). Beside the
data flow (as ``deadline.py``): the searches, the Dask drivers and the sweeps read it.
"""
from __future__ import annotations

from ..extras import require
from .deadline import Abandoned, Deadline, finish_or_abandon, stop_requested
from ..errors import CbsolveError
from .machine import cores


def default_workers() -> int:
    """Workers when none are asked for: one per core this process may use."""
    return cores()


def resolve(workers: int | None) -> int:
    """The number of workers to run: ``workers``, or :func:`default_workers` when it is None
    or 0 (a sweep's ``workers=0``, "in this process", is the sweep's own case)."""
    return max(1, workers or default_workers())


#: How long a scheduler has to answer a connection, when no deadline is sooner.
CONNECT_SECONDS = 10.0


def connect(scheduler: str, deadline=None):
    """A Dask client of the scheduler at ``scheduler``; one clear CbsolveError (exit 2) when
    distributed is missing or the scheduler does not answer within :data:`CONNECT_SECONDS`, or
    within what is left of ``deadline`` (a :class:`cbsolve.runtime.deadline.Deadline`) when sooner.

    The client is made in a thread that this one stops waiting for: Dask's own ``timeout``
    covers opening the connection, not the handshake after it, so an address that accepts and
    never answers (a port another service holds) kept ``Client`` waiting without end."""
    Client = require("distributed", "--scheduler (a Dask cluster)").Client
    left = None if deadline is None else deadline.left()
    seconds = CONNECT_SECONDS if left is None else max(0.05, min(CONNECT_SECONDS, left))
    limited = seconds < CONNECT_SECONDS
    grace = 0.2 if limited else 1.0      # for Dask's own error, which says more than ours
    try:
        return finish_or_abandon(lambda: Client(scheduler, timeout=seconds),
                                 Deadline(seconds + grace))
    except Abandoned:
        why = ("stopped" if stop_requested() else "no answer within the time limit" if limited
               else f"no answer in {CONNECT_SECONDS:g} s")
        raise CbsolveError(f"cannot connect to the Dask scheduler at {scheduler!r}: {why} "
                           "(expected an address like tcp://host:8786)") from None
    except (OSError, TimeoutError, ValueError) as exc:   # ValueError: no port in the address
        raise CbsolveError(f"cannot connect to the Dask scheduler at {scheduler!r}: {exc} "
                           "(expected an address like tcp://host:8786)") from None
