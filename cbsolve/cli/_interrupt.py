"""Ctrl-C for the CLI: stop the work, print what it has, exit 130.

Python runs a signal handler only when the main thread executes Python code, and a native
kernel or solver may hold the main thread for many seconds. So the handler also writes to a
wake-up pipe (``signal.set_wakeup_fd``) that a watcher thread reads: on the first Ctrl-C it
makes the process-wide stop request (:func:`cbsolve.runtime.deadline.request_stop`), which expires every
Deadline and calls the running kernels' stop hooks, and the command ends as at a time limit,
with its partial answer; the CLI then exits 130. If the command has not ended within
:data:`GRACE_SECONDS` (or on a second Ctrl-C, or at once in an interactive command) the main
thread gets a KeyboardInterrupt; if even that cannot land within :data:`FORCE_SECONDS` (a
kernel holding the main thread), the process prints one line and exits 130 on its own.
"""
from __future__ import annotations

import _thread
import json
import os
import select
import signal
import sys
import threading

from ..runtime.deadline import UNLIMITED, Abandoned, finish_or_abandon, request_stop, stop_requested

#: After the stop request, how long a command has to end with its partial answer.
GRACE_SECONDS = 1.0
#: After the KeyboardInterrupt, how long before the process exits without the main thread.
FORCE_SECONDS = 2.0
EXIT_INTERRUPTED = 130

_state = {"signals": 0, "sigint": False, "raise": False, "escalated": False, "graceful": True,
          "command": None, "json": False, "emitted": False, "printing": False,
          "deferred": False, "interactive": False, "force_pending": False}
#: Held by the forced exit and while the printing flag changes: a document is either begun
#: before the forced exit looks (which then waits for its end) or never begun.
_printing_lock = threading.Lock()


def interactive() -> None:
    """The running command reads a person's input: Ctrl-C interrupts it at once (no partial
    answer to wait for)."""
    _state["graceful"] = False
    _state["interactive"] = True


def waiting_for_input(waiting: bool) -> None:
    """A service (``serve``) between requests: while it waits for its next one, Ctrl-C ends
    it at once; while it runs one, Ctrl-C stops the work and lets it print its answer."""
    _state["interactive"] = waiting
    _state["graceful"] = not waiting


def signalled() -> bool:
    """Ctrl-C came since :func:`install`."""
    return _state["sigint"] or _state["signals"] > 0 or _state["escalated"]


_timers: list[threading.Timer] = []


def _later(seconds: float, action) -> None:
    timer = threading.Timer(seconds, action)
    timer.daemon = True
    _timers.append(timer)
    timer.start()


def _handler(signum, frame) -> None:
    _state["sigint"] = True            # seen here at once; the watcher's count may lag
    if _state["raise"]:
        _state["raise"] = False        # once: a later Ctrl-C must not break the report
        _raise_unless_printing()
    elif _state["interactive"] and not _state["escalated"]:
        # Waiting for input, the main thread runs this handler at once: stop here rather than
        # after the watcher's round trip, which input ending at the same moment could overtake
        # (the game then ended as "quit", exit 0, though Ctrl-C came first).
        _state["escalated"] = True
        _raise_unless_printing()


def _raise_unless_printing() -> None:
    if _state["printing"]:             # a half-printed document is worse than a late stop
        _state["deferred"] = True
        return
    raise KeyboardInterrupt


def _escalate() -> None:
    if _state["escalated"]:
        return
    _state["escalated"] = _state["raise"] = True
    _thread.interrupt_main(signal.SIGINT)
    _later(FORCE_SECONDS, _force_exit)


def _force_exit() -> None:
    with _printing_lock:
        if _state["printing"]:
            # The document is being written, the main thread is not stuck in a kernel: a
            # reader that does not read blocks the write. Exiting now would cut the document
            # (and the stub would make a second one): the forced exit waits for its end.
            _state["force_pending"] = True
            return
        if _state["json"] and not _state["emitted"]:
            os.write(1, (json.dumps(stub()) + "\n").encode())
        os.write(2, b"cbsolve: interrupted\n")
        leave(EXIT_INTERRUPTED)


class printing_document:
    """While the command prints its document (cli.emit) an interrupt waits: the document is
    printed whole, flushed and marked printed. (Without this, a game ended by its input closing
    and an interrupt landing together printed the game's record and then the interrupted stub:
    two documents; and a forced exit while a reader was not reading cut the document.) Then
    an interactive command gets its KeyboardInterrupt; a command that stops on the stop request
    needs none (it returns with the document printed, exit 130); a forced exit that came
    meanwhile is due :data:`FORCE_SECONDS` later, should the command not end."""

    def __enter__(self) -> None:
        with _printing_lock:
            _state["printing"] = True

    def __exit__(self, *exc) -> None:
        try:
            if exc[0] is None:
                sys.stdout.flush()     # out of the process before it counts as printed
        finally:
            with _printing_lock:
                _state["printing"] = False
                if _state["force_pending"]:
                    _state["force_pending"] = False
                    _later(FORCE_SECONDS, _force_exit)
        if _state["deferred"]:
            _state["deferred"] = False
            if exc[0] is None and not _state["graceful"]:
                raise KeyboardInterrupt


def emitted() -> None:
    """The command printed its document (cli.emit): an interrupt adds none."""
    _state["emitted"] = True


def stub() -> dict:
    """The JSON document of a command interrupted before it had anything to print (``--json``
    promises one document): what it was, and that it did not finish."""
    return {"command": _state["command"], "interrupted": True, "complete": False}


def before_start(command: str | None, as_json: bool) -> int:
    """A Ctrl-C while the command's modules were imported, before :func:`install`: nothing was
    computed, so the stub for ``--json`` and one line; the exit code."""
    _state.update(command=command, json=as_json)
    if as_json:
        print(json.dumps(stub()))
    sys.stderr.write("cbsolve: interrupted\n")
    return EXIT_INTERRUPTED


def owes_json() -> bool:
    """``--json`` was asked for and nothing printed yet."""
    return _state["json"] and not _state["emitted"]


def leave(code: int) -> None:
    """Exit now with ``code``: flush the output, end worker processes (a pool's workers would
    outlive the command), and skip the interpreter's shutdown, which waits for (or, for a
    native thread, aborts on) work that ignores the stop request."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:   # noqa: BLE001  (a broken stream must not keep the process alive)
            pass
    import multiprocessing

    for child in multiprocessing.active_children():
        child.terminate()
    os._exit(code)


def _on_signal() -> None:
    if _state["escalated"]:
        return                         # interrupt_main's own wake-up byte, or a later Ctrl-C
    _state["signals"] += 1
    if _state["signals"] == 1 and _state["graceful"]:
        request_stop()
        _later(GRACE_SECONDS, _escalate)
    else:
        request_stop()
        _escalate()


def _watch(fd: int) -> None:
    while True:
        select.select([fd], [], [])
        try:
            data = os.read(fd, 64)
        except BlockingIOError:
            continue
        for byte in data:
            if byte == signal.SIGINT:
                _on_signal()


#: Commands that turn a KeyboardInterrupt into their own report (the exact searches of
#: ``optimal`` report the interval proved, marked "interrupted"): Ctrl-C raises it at once.
RAISE_AT_ONCE = frozenset({"optimal"})


def install(command: str | None = None, as_json: bool = False) -> bool:
    """Route SIGINT through the stop request; False when that is not possible here (not the
    main thread, e.g. a test runner calling the CLI from a worker). ``as_json``: the command
    owes one JSON document, printed by :func:`_force_exit` if it has none when forced out."""
    _state.update(command=command, json=as_json, emitted=False, printing=False,
                  deferred=False, force_pending=False)
    if threading.current_thread() is not threading.main_thread():
        return False
    _quiet_resource_tracker()
    _state.update(signals=0, sigint=False, graceful=command not in RAISE_AT_ONCE,
                  escalated=False, interactive=False)
    _state["raise"] = False
    if _state.get("fd") is None:
        read, write = os.pipe()
        os.set_blocking(read, False)
        os.set_blocking(write, False)
        _state["fd"] = write
        threading.Thread(target=_watch, args=(read,), name="cbsolve-sigint", daemon=True).start()
    signal.signal(signal.SIGINT, _handler)
    signal.set_wakeup_fd(_state["fd"], warn_on_full_buffer=False)
    return True


#: The warning multiprocessing's resource tracker prints when the command it serves ends
#: without the interpreter's shutdown (:func:`leave`): it cleans up the pool's semaphores and
#: says so on stderr, three lines after the one "interrupted" line.
_TRACKER_WARNING = "ignore::UserWarning:multiprocessing.resource_tracker"


def _quiet_resource_tracker() -> None:
    """Silence that warning in the tracker, a process started later with this environment."""
    current = os.environ.get("PYTHONWARNINGS", "")
    if _TRACKER_WARNING not in current:
        os.environ["PYTHONWARNINGS"] = f"{current},{_TRACKER_WARNING}" if current else \
            _TRACKER_WARNING


def abandonable(work, deadline=None):
    """``work()`` (a heuristic kernel with no stop flag, which releases the GIL) in a worker
    thread while the main thread watches the stop request: on Ctrl-C it raises
    KeyboardInterrupt at once instead of after the forced exit's seconds, and when
    ``deadline`` expires, :class:`Abandoned`. The kernel is left running: the CLI then ends
    the process (:func:`leave`). Outside the CLI's main thread the call is made directly (and
    the deadline is seen only before it starts)."""
    if deadline is not None and deadline.expired():
        raise Abandoned
    if threading.current_thread() is not threading.main_thread() or _state.get("fd") is None:
        return work()
    try:
        return finish_or_abandon(work, deadline or UNLIMITED)
    except Abandoned:
        if stop_requested():
            raise KeyboardInterrupt from None
        raise


def uninstall() -> None:
    """Give SIGINT back to Python's default (KeyboardInterrupt) after the command."""
    for timer in _timers:
        timer.cancel()
    _timers.clear()
    if threading.current_thread() is threading.main_thread():
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGINT, signal.default_int_handler)
