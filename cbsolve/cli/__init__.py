"""Thin CLI: each command reads options, calls one library function, prints text or --json.

Domain errors become exit codes only here: 0 done, 1 the answer is "none" (e.g. an inconsistent
log), 2 bad input or usage, with one line on stderr naming the bad value. Commands live one a
module in this package and register themselves on :data:`app` when imported.
"""
from __future__ import annotations

import functools
import importlib
import json
import os
import pkgutil
import re
import sys

import click

from .. import arguments
from ..runtime.deadline import clear_stop, stop_requested, work_abandoned
from ..errors import CbsolveError, Expired
from ..game.variant import FEEDBACK_MODES, PRESETS, Variant
from . import _interrupt, _stdout
from ._budget import count_from_process_start

#: Modules of this package that define commands: every module here, found at start-up, so a
#: new command is a new file and nothing else (heavy imports stay inside the commands). Each
#: module is named as its command.
COMMAND_MODULES = sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))

#: The one-line help `cbsolve --help` lists, kept here so that listing the commands imports
#: none of them (their modules pull in NumPy and the solver back-ends). A command missing here
#: is imported for its help; tests/test_startup.py checks each line against its command.
SHORT_HELP = {
    "analyze": "Sweep variants x strategies into DIR/results.csv, results.md and PNG plots.",
    "assist": "Suggest the next guess for a game you play elsewhere; type guesses and scores "
              "as you go.",
    "bot": "Answer referee commands, one a line: new, guess, score B C, check GUESS, quit.",
    "bounds": "Bounds for any N and D: counting, partition (closed form), strategies, exact "
              "search.",
    "consistent": "Secrets consistent with ENTRIES (GUESS:B,C | GUESS:xAyB | GUESS:xByW | GUESS:B) "
                  "and/or --log FILE.",
    "convert": "Convert a strategy tree between formats (replayed and checked on the way).",
    "evaluate": "Play a strategy against every secret (one shared decision tree) and report "
                "its cost.",
    "merge": "Merge the shards of `optimal --plan DIR` into one lower-bound certificate.",
    "next": "The best next guess after ENTRIES (GUESS:B,C | GUESS:xAyB | GUESS:B) and/or --log "
            "FILE.",
    "optimal": "Exact optimal strategy: proved worst case or expected case, with certificate.",
    "partition": "Reply classes of GUESS over the secrets ENTRIES leave: count per reply, "
                 "largest class, the heuristics' scores of GUESS beside the best any guess "
                 "reaches.",
    "play": "Play Bulls and Cows (or any variant) against the computer.",
    "puzzle": "A log that exactly one secret satisfies, verified by the native filter.",
    "review": "Grade game transcripts (JSON lines) move by move: candidates, regret in both "
              "objectives, exact or bounded.",
    "reply": "The reply of a host that never fixes its secret (evil: keep the most secrets; "
             "adversary: the hardest class).",
    "referee": "Play bots (programs speaking the bot protocol) against each other, and score "
               "them.",
    "score": "Score GUESS against SECRET (both validated against the variant).",
    "serve": "Answer JSON requests, one a line on stdin, one JSON answer a line on stdout.",
    "static": "Static game: k fixed questions identify the secret; the game takes k + 1 "
              "guesses.",
    "verify": "Replay a tree against every secret / check a certificate, with the scorer "
              "alone.",
}

EXIT_OK, EXIT_NONE, EXIT_USAGE = 0, 1, 2


class ReaderGone(Exception):
    """Standard output's reader went away (``cbsolve ... | head -1``): the command ends
    quietly with exit 0 (docs/contract.md, "Exit codes")."""


def stdout_reader_gone() -> bool:
    """True when standard output is a pipe whose reading end is closed (poll says POLLERR)."""
    import select

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _, events in poller.poll(0))
    except (AttributeError, OSError, ValueError):   # no such descriptor (a test's capture)
        return False


class LazyGroup(click.Group):
    """Commands imported when first named: `cbsolve score` imports score.py alone, and
    `cbsolve --help` none (its list reads :data:`SHORT_HELP`)."""

    def invoke(self, ctx):
        # Click turns a broken pipe into exit 1 (its main's EPIPE handler), which the
        # contract keeps for "the answer is none": a reader that left is caught before it.
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            if stdout_reader_gone():
                raise ReaderGone() from None
            raise

    def list_commands(self, ctx):
        return sorted(set(COMMAND_MODULES) | set(self.commands))

    def get_command(self, ctx, name):
        if name not in self.commands and name in COMMAND_MODULES:
            importlib.import_module(f"{__name__}.{name}")   # registers itself on app
        return self.commands.get(name)

    def format_commands(self, ctx, formatter):
        limit = formatter.width - 6 - max(len(n) for n in self.list_commands(ctx))
        rows = []
        for name in self.list_commands(ctx):
            if name in SHORT_HELP and name not in self.commands:
                text = click.utils.make_default_short_help(SHORT_HELP[name], limit)
            else:
                command = self.get_command(ctx, name)
                if command is None or command.hidden:
                    continue
                text = command.get_short_help_str(limit)
            rows.append((name, text))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cbsolve")
def app() -> None:
    """Constraint solver and analyzer for Bulls-and-Cows-family code-breaking games."""


def variant_options(func=None, *, optional: bool = False, given: bool = False):
    """Add the shared variant options; the command receives a validated ``variant``. With
    ``optional``, ``variant`` is None when no variant option was given (``verify``: the file
    names its variant; options there state the variant the file must be for). With ``given``,
    the command also receives ``given``: the options as typed (None: not given), for a filter
    (``bounds --table``); ``variant`` is then the error when the options make no game."""
    if func is None:
        return functools.partial(variant_options, optional=optional, given=given)
    options = [
        click.option("--variant", "variant_name", default=None, metavar="NAME",
                     help=f"Preset: {', '.join(PRESETS)} (default bulls-cows; any case); "
                          "the other variant options change it."),
        click.option("--length", type=int, default=None, help="Code length N (1..64)."),
        click.option("--digits", type=int, default=None,
                     help="Alphabet of D digits (D <= 10): 0..D-1, but 1..D for presets "
                          "numbered from 1 (mastermind, black-peg) while D <= 9: "
                          "--variant mastermind --digits 6 is 123456, --digits 10 is "
                          "0123456789."),
        click.option("--letters", type=int, default=None, help="Alphabet of D letters A.. (D <= 26)."),
        click.option("--symbols", default=None,
                     help="Alphabet of the given distinct characters (codes are read in either "
                          "case unless the alphabet holds both cases of a letter)."),
        click.option("--repeats/--distinct", default=None, help="Symbols may repeat, or not."),
        click.option("--no-leading-zero/--leading-zero", "no_leading_zero", default=None,
                     help="Forbid the alphabet's first symbol in position 1."),
        click.option("--feedback", default=None, metavar="MODE",
                     help=f"Feedback mode: {' | '.join(FEEDBACK_MODES)}."),
    ]

    def wrapper(variant_name, length, digits, letters, symbols, repeats, no_leading_zero,
                feedback, **kwargs):
        typed = (variant_name, length, digits, letters, symbols, repeats, no_leading_zero, feedback)
        if given:
            kwargs["given"] = dict(zip(("variant", "length", "digits", "letters", "symbols",
                                        "repeats", "no_leading_zero", "feedback"), typed))
        if optional and all(v is None for v in typed):
            return func(variant=None, **kwargs)
        try:
            kwargs["variant"] = Variant.from_options(
                variant_name, length=length, digits=digits, letters=letters, symbols=symbols,
                repeats=repeats, no_leading_zero=no_leading_zero, feedback=feedback)
        except CbsolveError as exc:
            if not given:
                raise
            kwargs["variant"] = exc     # a filter need not be a game: the command decides
        return func(**kwargs)

    functools.update_wrapper(wrapper, func)  # keeps click's params declared below this one
    del wrapper.__wrapped__
    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper


json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print exactly one JSON document on stdout.")


class Seconds(click.ParamType):
    """A time limit: a finite number of seconds >= 0 (NaN and infinity would reach the JSON
    output, which cannot hold them, and mean nothing as a deadline); with ``positive``, > 0
    (a wait that cannot be 'none'). The check is :func:`cbsolve.arguments.seconds`, the API's."""

    name = "seconds"

    def __init__(self, positive: bool = False):
        self.positive = positive

    def convert(self, value, param, ctx):
        try:
            return arguments.seconds(value, "", self.positive)
        except arguments.InvalidArgument as exc:
            self.fail(f"must be {exc.expected.removeprefix('None or ')}, got {value}", param, ctx)


SECONDS = Seconds()
POSITIVE_SECONDS = Seconds(positive=True)


class FileName(click.ParamType):
    """A file name: not empty (an empty --out or --log was silently ignored)."""

    name = "file"

    def convert(self, value, param, ctx):
        if not str(value).strip():
            self.fail("needs a file name, got an empty one", param, ctx)
        return str(value)


FILE = FileName()


class Whole(click.IntRange):
    """A whole number in a range, checked by :func:`cbsolve.arguments.whole` (the API's check):
    "--limit: must be a whole number in 0..2147483647, got 'abc'" rather than click's "'abc'
    is not a valid integer range". An IntRange still, so --help shows the range accepted."""

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        try:
            return arguments.whole(value, "", self.min, self.max, from_text=True)
        except arguments.InvalidArgument as exc:
            self.fail(f"must be {exc.expected}, got {value!r}", param, ctx)


#: Seeds feed NumPy's generator, which takes non-negative integers only.
SEED = Whole(min=0, max=arguments.MAX_SEED)
#: Sizes that become array lengths or native ints: bounded so a typo is an error, not a
#: memory failure (2^31 - 1 is also the native kernels' int).
COUNT = Whole(min=0, max=arguments.MAX_COUNT)
#: The same, at least 1 (a depth, a sample): the range --help shows is the one accepted.
POSITIVE = Whole(min=1, max=arguments.MAX_COUNT)
#: Most threads (or local Dask workers): see :data:`cbsolve.arguments.MAX_WORKERS`.
MAX_WORKERS = arguments.MAX_WORKERS
WORKERS = Whole(min=1, max=MAX_WORKERS)
#: A sweep's local processes: 0 runs it in this process.
SWEEP_WORKERS = Whole(min=0, max=MAX_WORKERS)

verbose_option = click.option("--verbose", "-v", is_flag=True,
                              help="Also say how the engine worked (backend, plan, seconds).")


def write_text(path: str, option: str, text: str) -> None:
    """Write an output file named by ``option`` (--dot, --out); failure is bad input (exit 2)."""
    from ..certificates.tree import write_file

    write_file(path, option, text)


def emit(as_json: bool, data: dict, text: str) -> None:
    """Print the result: the JSON document, or the human-readable text."""
    with _interrupt.printing_document():
        click.echo(json.dumps(data) if as_json else text)
        _interrupt.emitted()


def progress_enabled(as_json: bool, quiet: bool = False) -> bool:
    """Progress goes to stderr, only for a person watching (a TTY) and never with --json."""
    return not (as_json or quiet) and sys.stderr.isatty()


#: Longest run of non-blank characters an error line shows from a value (a 200 KB entry
#: echoed whole is no message); longer runs keep their start and say how long they were.
MAX_SHOWN = 60
_LONG_RUN = re.compile(rf"\S{{{MAX_SHOWN + 1},}}")


def clip(message: str) -> str:
    """``message`` on one line with every overlong value cut (see MAX_SHOWN)."""
    def cut(m):
        return f"{m.group(0)[:MAX_SHOWN - 20]}...({len(m.group(0))} characters)"
    return _LONG_RUN.sub(cut, " ".join(message.split()))


def _fail(message: str) -> int:
    try:
        click.echo(f"cbsolve: error: {clip(message)}", err=True)
    except (OSError, ValueError):    # stderr closed or full: the exit code still says it
        pass
    return EXIT_USAGE


def _output_failed(exc: OSError) -> int:
    """Writing the output failed (a full disk, a closed pipe). Later writes go nowhere, so
    Python's own flush at exit does not print a second error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    if isinstance(exc, BrokenPipeError):    # the reader stopped reading (| head): no message
        return EXIT_OK
    return _fail(f"cannot write the output: {exc.strerror or exc}")


def main(argv: list[str] | None = None) -> int:
    """Console entry point; never lets a traceback reach the user for bad input."""
    argv_all = sys.argv[1:] if argv is None else argv
    words = [a for a in argv_all if not a.startswith("-")]
    command, as_json = (words[0] if words else None), "--json" in argv_all
    # Only the command asked for is imported (start-up time: `consistent` alone pulls in
    # 0.08 s of solver back-ends); help lists SHORT_HELP (LazyGroup), importing none.
    try:
        if command in COMMAND_MODULES:
            importlib.import_module(f"{__name__}.{command}")
    except KeyboardInterrupt:     # Ctrl-C before the command's handler exists
        return _interrupt.before_start(command, as_json)
    clear_stop()    # an earlier command's Ctrl-C (in-process callers, tests) does not carry over
    _interrupt.install(command, as_json)
    try:
        code = _run(argv)
    finally:
        _interrupt.uninstall()
    if stop_requested() and code in (EXIT_OK, EXIT_NONE, None):
        # Ctrl-C: the command stopped early and printed what it had (its notes say so).
        click.echo("cbsolve: interrupted: the answer above is partial", err=True)
        code = _interrupt.EXIT_INTERRUPTED
    if code in (EXIT_OK, EXIT_NONE) or code is None:
        try:
            sys.stdout.flush()          # a full disk shows here when the output was buffered
        except OSError as exc:
            code = _output_failed(exc)
    return code if isinstance(code, int) else EXIT_OK


def bad_input_message(exc: Exception) -> str:
    """The one line (before clipping) that a bad-input exception (exit 2) is reported by."""
    if isinstance(exc, click.ClickException):
        return exc.format_message().replace("\n", " ")
    if isinstance(exc, RecursionError):  # nested deeper than any real tree or log (Python's limit)
        return "input nested too deeply to process"
    return str(exc)


def _run(argv):
    try:
        code = app.main(args=argv, prog_name="cbsolve", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:  # bare `cbsolve`: show help
        click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
        code = EXIT_OK
    except KeyboardInterrupt:     # Ctrl-C, a search's SearchInterrupted (an Expired) too
        _interrupted()
        code = 130
    except Expired:               # a stop no command reported: not bad input (below)
        code = _unexpected()
    except (click.ClickException, CbsolveError, RecursionError) as exc:
        code = _fail(bad_input_message(exc))
    except ReaderGone as exc:     # | head -1: what was read is all that was wanted
        code = _output_failed(BrokenPipeError(str(exc)))
    except click.exceptions.Abort:   # click's form of a KeyboardInterrupt
        _interrupted()
        code = 130
    except OSError as exc:   # input files are mapped to CbsolveError where read: this is output
        code = _output_failed(exc)
    except Exception:
        code = _unexpected()
    return code


def _unexpected() -> int:
    """The exit code of an exception no command expected (called in its ``except``): after a
    Ctrl-C it is the interrupt still, else it is re-raised (a bug shows its traceback)."""
    # Ctrl-C's KeyboardInterrupt can land where a library turns it into its own error (a
    # native module's initialisation: "ImportError: initialization failed"): after a Ctrl-C
    # that is the interrupt still, never a traceback
    if not _interrupt.signalled():
        raise   # noqa: PLE0704  (the exception being handled by the caller)
    _interrupted()
    return 130


def _interrupted() -> None:
    if _interrupt.owes_json():   # interrupted before its document: still one, saying so
        click.echo(json.dumps(_interrupt.stub()))
    click.echo("cbsolve: interrupted", err=True)


def run() -> None:
    count_from_process_start()      # the process is the command: its limit counts from its start
    _stdout.install()               # its document comes out whole when Ctrl-C lands mid-write
    code = main()
    if code == 130 or work_abandoned():
        # The output is complete: nothing still running (a kernel or a solver left in its
        # thread) may hold us, nor abort the interpreter's shutdown when it returns
        _interrupt.leave(code)
    sys.exit(code)
