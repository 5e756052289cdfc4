"""``cbsolve serve``: one JSON request a line on stdin, one JSON answer a line on stdout.

A program that asks many questions pays the CLI's start-up once. Each request is run as the
command line it stands for (_requests.py) through the command's own click code, with stdout
captured: the answer is the document ``cbsolve CMD ... --json`` prints, plus ``exit`` (the
exit code the command line would give) and the request's ``id`` when it has one. Bad input is
``{"error": "...", "exit": 2}`` and the service goes on. docs/contract.md, "serve".
"""
from __future__ import annotations

import contextlib
import io
import json
import sys
import threading

import click

from ..runtime.deadline import clear_stop, request_stop
from ..errors import CbsolveError, Expired
from ..inputs import InputTooLarge, number, read_line
from . import EXIT_NONE, EXIT_OK, EXIT_USAGE, SECONDS, _interrupt, app, bad_input_message, clip
from ._budget import request_edge
from ._requests import SERVABLE, BadRequest, to_argv

EXIT_INTERRUPTED = 130
#: Where a request's command prints its document. One buffer for the whole service: click
#: keeps every stream it has written to in a cache whose values hold their keys, so a new
#: buffer a request would never be freed (memory grew by ~0.5 KB a request).
_CAPTURE = io.StringIO()


@app.command("serve")
def serve_command() -> int:
    """Answer JSON requests, one a line on stdin, one JSON answer a line on stdout.

    A request: {"cmd": "consistent", "entries": ["0123:1,2"], "count": true, "id": 7}; its
    fields are the command's arguments and long options (--time-limit: "time_limit"). The
    answer is the command's --json document with "exit" (and "id"); bad input:
    {"error": "...", "exit": 2}. Commands: bounds, consistent, convert, evaluate, next,
    optimal, partition, puzzle, reply, review, score, static, verify. End of input or Ctrl-C ends the service."""
    out = sys.stdout
    while True:
        _interrupt.waiting_for_input(True)    # Ctrl-C while idle ends the service at once
        try:
            line = _next_request(_stdin())
        except KeyboardInterrupt:
            return _interrupted()
        finally:
            _interrupt.waiting_for_input(False)
        if _interrupt.signalled():            # a Ctrl-C that came just before this line
            return _interrupted()
        if line is None:
            return EXIT_OK
        if isinstance(line, dict):            # a line that was no request: its error answer
            answer = line
        elif not line.strip():
            continue
        else:
            try:
                answer = answer_line(line)
            except KeyboardInterrupt:
                return _interrupted()
        with _interrupt.printing_document():
            out.write(json.dumps(answer) + "\n")
            out.flush()
        if _interrupt.signalled():
            return _interrupted()


def _interrupted() -> int:
    click.echo("cbsolve: interrupted", err=True)
    return EXIT_INTERRUPTED


def _stdin():
    """The requests' stream: stdin's bytes (text where stdin has no buffer, e.g. a test's
    StringIO); None when stdin is closed (then there are no requests)."""
    return None if sys.stdin is None else getattr(sys.stdin, "buffer", sys.stdin)


def _next_request(stream) -> bytes | str | dict | None:
    """The next line (None at the end of input), or the error answer for one over the cap
    (then skipped to its end)."""
    if stream is None:
        return None
    try:
        line = read_line(stream)
    except InputTooLarge as exc:
        while True:                       # skip the rest of that line
            rest = stream.readline(1 << 16)
            if not rest or rest.endswith(b"\n" if isinstance(rest, bytes) else "\n"):
                break
        return error(str(exc))
    except (OSError, ValueError):         # stdin closed under us: the end of the requests
        return None
    return line or None


def error(message: str, request_id=None, code: int = EXIT_USAGE) -> dict:
    answer = {} if request_id is None else {"id": request_id}
    answer.update(error=clip(message), exit=code)
    return answer


def answer_line(line: bytes | str) -> dict:
    """The answer to one request line."""
    try:
        text = line.decode("utf-8") if isinstance(line, bytes) else line
        request = json.loads(text, parse_int=number)
    except UnicodeDecodeError:
        return error("a request is not UTF-8 text")
    except RecursionError:
        return error("a request is nested too deeply to read")
    except (ValueError, CbsolveError) as exc:
        return error(f"a request is not JSON: {exc}")
    if not isinstance(request, dict):
        return error("a request is a JSON object, e.g. {\"cmd\": \"score\", \"secret\": "
                     "\"0123\", \"guess\": \"1234\"}")
    try:
        return answer(request)
    except (KeyboardInterrupt, SystemExit, MemoryError):   # SearchInterrupted too
        raise
    except Expired as exc:    # a stop no command reported: a bug, as below, not bad input
        return internal_error(exc, request.get("id"))
    except (BadRequest, click.ClickException, CbsolveError, RecursionError) as exc:
        return error(bad_input_message(exc), request.get("id"))
    except Exception as exc:  # noqa: BLE001  a bug in one command must not end the service
        return internal_error(exc, request.get("id"))


def internal_error(exc: Exception, request_id) -> dict:
    return error(f"internal error: {type(exc).__name__}: {exc} (please report it)",
                 request_id, EXIT_NONE)


def answer(request: dict) -> dict:
    """Run the request's command; its document with ``exit`` (and ``id``)."""
    name = request.get("cmd")
    if not isinstance(name, str) or name not in SERVABLE:
        got = json.dumps(name)
        got = got if len(got) <= 40 else f"{got[:30]}... ({len(got)} characters)"
        raise BadRequest(f"field 'cmd' must be one of: {', '.join(SERVABLE)}; got {got}")
    command = app.get_command(None, name)
    watchdog = _watchdog(command, request)
    argv = to_argv(command, {k: v for k, v in request.items()
                             if not (watchdog and k == "time_limit")})
    clear_stop()       # the previous request's time limit does not carry over
    captured = _CAPTURE
    captured.seek(0)
    captured.truncate()
    try:
        # the command's own stderr (its "interrupted" line) is not the service's: the answer
        # says it, and the service writes its one line when it ends
        # one Deadline per request, counted from its arrival (the command's own edge makes it)
        with contextlib.redirect_stdout(captured), contextlib.redirect_stderr(io.StringIO()), \
                request_edge():
            if watchdog:
                watchdog.start()
            code = command.main(args=argv, prog_name=f"cbsolve {name}", standalone_mode=False)
    except (KeyboardInterrupt, click.exceptions.Abort):
        return _stopped(request, name, timed_out=watchdog is not None and watchdog.fired
                        and not _interrupt.signalled())
    finally:
        if watchdog:
            watchdog.cancel()
        clear_stop()
    code = EXIT_OK if code is None else code
    try:
        document = json.loads(captured.getvalue())
    except ValueError:
        return error(f"{name} printed no JSON document (exit {code})", request.get("id"),
                     code or EXIT_USAGE)
    result = {} if request.get("id") is None else {"id": request["id"]}
    # an answer is one object: a document that is a list (`bounds --table --json`) is its `records`
    result.update(document if isinstance(document, dict) else {"records": document})
    result["exit"] = EXIT_INTERRUPTED if _interrupt.signalled() else code
    return result


def _stopped(request: dict, name: str, timed_out: bool) -> dict:
    """A command stopped before it had a document: by the request's time limit (exit 0, as a
    command line's time limit), or by Ctrl-C (exit 130: the service ends after this answer)."""
    result = {} if request.get("id") is None else {"id": request["id"]}
    if timed_out:
        result.update(command=name, complete=False, time_limit=request["time_limit"],
                      time_limit_hit=True, exit=EXIT_OK)
    else:
        result.update(command=name, interrupted=True, complete=False, exit=EXIT_INTERRUPTED)
    return result


class _Watchdog:
    """``time_limit`` for a command without --time-limit: the stop request at the limit (what
    Ctrl-C does to a command), the service's own stop cleared afterwards."""

    def __init__(self, seconds: float):
        self.fired = False
        self.timer = threading.Timer(seconds, self._fire)
        self.timer.daemon = True

    def _fire(self) -> None:
        self.fired = True
        request_stop()

    def start(self) -> None:
        self.timer.start()

    def cancel(self) -> None:
        self.timer.cancel()


def _watchdog(command: click.Command, request: dict) -> _Watchdog | None:
    seconds = request.get("time_limit")
    if seconds is None or any("--time-limit" in p.opts for p in command.params
                              if isinstance(p, click.Option)):
        return None                         # none asked, or the command's own option
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float, str)):
        raise BadRequest("field 'time_limit' must be a number of seconds")
    seconds = SECONDS.convert(seconds, None, None)
    return _Watchdog(seconds) if seconds > 0 else None
