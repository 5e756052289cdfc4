"""A ``serve`` request (one JSON object) as the command line it stands for.

A request names a command and its options as fields: ``{"cmd": "consistent", "entries":
["0123:1,2"], "count": true}`` is ``cbsolve consistent 0123:1,2 --count --json``. The fields
are read off the click command itself (its arguments by name, its options by long name with
``_`` for ``-``), so serve parses, validates and answers exactly as the command line does: one
implementation of every command, the same messages, the same exit codes.
"""
from __future__ import annotations

import json
import math

import click

from ..errors import CbsolveError
from . import FILE

#: Commands serve answers: the ones with a --json document and no dialogue of their own
#: (play, assist and bot read stdin, which carries the requests here).
SERVABLE = ("bounds", "consistent", "convert", "evaluate", "next", "optimal", "partition",
            "puzzle", "reply", "review", "score", "static", "verify")
#: Fields of the request itself, not options of its command.
RESERVED = ("cmd", "id")


class BadRequest(CbsolveError):
    """A request that names no servable command, or a field its command has no use for."""


def _long_name(opt: str) -> str:
    return opt[2:].replace("-", "_")


def fields_of(command: click.Command) -> dict[str, tuple[click.Parameter, str | None]]:
    """Request field -> (parameter, the option string that field stands for; None for an
    argument). A two-way flag (``--repeats/--distinct``) has a field for each side."""
    fields: dict[str, tuple[click.Parameter, str | None]] = {}
    for param in command.params:
        if isinstance(param, click.Argument):
            fields[param.name] = (param, None)
            continue
        for opt in (*param.opts, *param.secondary_opts):
            if opt.startswith("--") and opt not in ("--json", "--help"):
                fields[_long_name(opt)] = (param, opt)
    return fields


def _scalar(name: str, value) -> str:
    """A JSON value given for an option or argument, as the word the command line would hold."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise BadRequest(f"field {name!r} must be a string or a number, got {_kind(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise BadRequest(f"field {name!r} must be a finite number")
    return value if isinstance(value, str) else repr(value)


def _kind(value) -> str:
    return {bool: "true/false", list: "a list", dict: "an object", type(None): "null"}.get(
        type(value), type(value).__name__)


def _option_words(name: str, param: click.Option, opt: str, value) -> list[str]:
    if param.is_flag:
        if not isinstance(value, bool):
            raise BadRequest(f"field {name!r} is a flag: give true or false, got {_kind(value)}")
        if param.secondary_opts:     # a two-way flag: false is its other side
            other = param.secondary_opts[0] if opt in param.opts else param.opts[-1]
            return [opt if value else other]
        return [opt] if value else []
    values = value if isinstance(value, list) and param.multiple else [value]
    words = []
    for v in values:
        word = _scalar(name, v)
        if word == "-" and isinstance(param.type, type(_file_type())):
            raise BadRequest(f"field {name!r}: '-' (stdin) is not available under serve, "
                             "whose stdin carries the requests")
        words += [opt, word]
    return words


def _file_type():
    return FILE


#: Flags under which a command reads every argument as an entry (``partition --all``): its
#: first argument may then be missing while the entries are given.
EVERY_ARGUMENT_AN_ENTRY = {"partition": "all"}


def to_argv(command: click.Command, request: dict) -> list[str]:
    """The command line (after the command's name) that ``request`` stands for, with --json.
    Options come first, then ``--``, then the arguments in the command's order, so a value
    that starts with '-' is never read as an option."""
    fields = fields_of(command)
    options: list[str] = []
    for name, value in request.items():
        if name in RESERVED or value is None:
            continue
        if name not in fields:
            known = ", ".join(sorted(fields))
            raise BadRequest(f"{command.name} has no field {name!r} (fields: {known})")
        param, opt = fields[name]
        if opt is not None:
            options += _option_words(name, param, opt, value)
    return [*options, "--json", "--", *_arguments(command, request)]


def _entry(entry: dict) -> str:
    """An entry in the JSON log form (``{"guess": "0123", "bulls": 1, "cows": 2}``, what
    ``puzzle`` and ``--log FILE`` use) as the token the command line would hold."""
    unknown = sorted(set(entry) - {"guess", "bulls", "cows"})
    guess, bulls, cows = entry.get("guess"), entry.get("bulls"), entry.get("cows")
    if unknown or not isinstance(guess, str) or ":" in guess:
        raise BadRequest("an entry object is {\"guess\": CODE, \"bulls\": B, \"cows\": C} "
                         f"(cows absent when only bulls are scored), got {json.dumps(entry)[:80]}")
    for name, value in (("bulls", bulls), ("cows", cows)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise BadRequest(f"an entry's {name!r} must be a whole number, got {_kind(value)}")
    if bulls is None:
        raise BadRequest(f"an entry object needs \"bulls\", got {json.dumps(entry)[:80]}")
    return f"{guess}:{bulls}" if cows is None else f"{guess}:{bulls},{cows}"


def _arguments(command: click.Command, request: dict) -> list[str]:
    words: list[str] = []
    arguments = [p for p in command.params if isinstance(p, click.Argument)]
    shifting = request.get(EVERY_ARGUMENT_AN_ENTRY.get(command.name, "")) is True
    for i, param in enumerate(arguments):
        value = request.get(param.name)
        if param.nargs == -1:
            if value is None:
                continue
            if not isinstance(value, list):
                raise BadRequest(f"field {param.name!r} must be a list of strings"
                                 f"{' or entry objects' if param.name == 'entries' else ''}, "
                                 f"got {_kind(value)}")
            words += [_entry(v) if param.name == "entries" and isinstance(v, dict)
                      else _scalar(param.name, v) for v in value]
        elif value is not None:
            words.append(_scalar(param.name, value))
        elif not shifting and any(request.get(p.name) for p in arguments[i + 1:]):
            # the next argument given would land in this one's place
            raise BadRequest(f"{command.name} needs the field {param.name!r}")
    return words
