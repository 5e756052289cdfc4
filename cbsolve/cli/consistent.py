"""``cbsolve consistent [ENTRY...]``: the secrets consistent with a feedback log
(:func:`cbsolve.api.consistent`)."""
from __future__ import annotations

import click

from ..runtime import time_policy
from ..consistency import BACKEND_CHOICES
from ..runtime.deadline import stop_requested
from ..errors import CbsolveError, unknown_name
from ..game.feedback import FeedbackLog
from ..runtime.status import Status
from . import (
    COUNT,
    EXIT_NONE,
    EXIT_OK,
    FILE,
    SECONDS,
    SEED,
    app,
    emit,
    json_option,
    variant_options,
    verbose_option,
)
from ._budget import TimeLimit
from ._log import read_log, report_inconsistent  # noqa: F401 (re-exported: optimal, assist)
from .. import api

#: Default wall-clock budget for solver work: no query waits silently for minutes (a 25-clue
#: N=40 log once ran 489 s). ``--time-limit 0`` removes it; hitting it is reported.
DEFAULT_TIME_LIMIT = time_policy.CONSISTENT_SECONDS
#: Secrets listed when neither --limit nor --all nor --sample is given.
DEFAULT_LIMIT = 20


@app.command("consistent")
@click.argument("entries", nargs=-1)
@click.option("--log", "log_file", type=FILE, default=None, metavar="FILE", help="Read entries from a file.")
@click.option("--backend", default="auto", metavar="NAME",
              help=f"One of: {', '.join(BACKEND_CHOICES)} (default auto).")
@click.option("--count", "want_count", is_flag=True, help="Report the exact number of secrets.")
@click.option("--limit", type=COUNT, default=None, metavar="K",
              help=f"List at most K secrets (default {DEFAULT_LIMIT}; 0: none).")
@click.option("--all", "list_all", is_flag=True, help="List every consistent secret.")
@click.option("--sample", type=COUNT, default=None, metavar="K", help="Draw K secrets at random.")
@click.option("--seed", type=SEED, default=None, help="Seed for --sample.")
@click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS",
              help=f"Stop solver work after this many seconds (default {DEFAULT_TIME_LIMIT:g}; "
                   "0: no limit). Hitting it is reported in the output and JSON.")
@click.option("--max-lies", type=COUNT, default=None, metavar="L",
              help="Secrets consistent with all but at most L entries.")
@click.option("--count-cap", type=COUNT, default=None, metavar="K",
              help="Solver backends: enumerate at most K secrets for an exact count, then try "
                   "a model counter; beyond that report 'at least K'.")
@click.option("--approximate", is_flag=True,
              help="When no exact count is possible, add an (epsilon, delta) ApproxMC estimate.")
@verbose_option
@variant_options
@json_option
def consistent_command(entries, log_file, backend, want_count, limit, list_all, sample, seed,
                       time_limit, max_lies, count_cap, approximate, verbose, variant,
                       as_json) -> int:
    """Secrets consistent with ENTRIES (GUESS:B,C | GUESS:xAyB | GUESS:xByW | GUESS:B) and/or
    --log FILE. Text lists one secret a line; --verbose adds how the engine worked."""
    if backend not in BACKEND_CHOICES:
        raise unknown_name("backend", backend, BACKEND_CHOICES)

    check_listing(limit, list_all, sample)
    limit = DEFAULT_LIMIT if limit is None else limit
    budget = TimeLimit.from_option(time_limit, DEFAULT_TIME_LIMIT)   # reading the log counts
    log = read_log(variant, entries, log_file)
    result = api.consistent(log, count=want_count, limit=None if list_all else limit, sample=sample,
                        seed=seed, backend=backend, max_lies=max_lies or 0,
                        count_cap=count_cap or None, approximate=approximate,
                        deadline=budget.deadline)
    if result.time_limit_hit or stop_requested():
        result.notes.append(budget.note())
    emit(as_json, result.to_json(), format_result(log, result, verbose))
    return EXIT_NONE if result.status == Status.INFEASIBLE else EXIT_OK


def check_listing(limit: int | None, list_all: bool, sample: int | None) -> None:
    """--limit, --all and --sample each say how many secrets to show: one at a time."""
    given = [name for name, on in (("--limit", limit is not None), ("--all", list_all),
                                   ("--sample", sample is not None)) if on]
    if len(given) > 1:
        raise CbsolveError(f"{' and '.join(given)} contradict each other: each says which "
                           "secrets to list; give one")


def format_result(log: FeedbackLog, result, verbose: bool = False) -> str:
    """Text for people and pipes: the answer, then the secrets one a line (with --max-lies,
    the replies each breaks); how the engine worked only when ``verbose``."""
    lines = []
    if result.status == Status.INFEASIBLE:
        if result.lies:
            lines.append(f"No secret contradicts at most {result.lies} of these replies.")
        else:
            lines.append("No secret is consistent with this log.")
        if result.conflict:
            nums = [str(n) for n in result.conflict]
            who = nums[0] if len(nums) == 1 else ", ".join(nums[:-1]) + " and " + nums[-1]
            word = "reply" if len(nums) == 1 else "replies"
            verb = "cannot all be right" if len(nums) > 2 else "cannot both be right"
            if len(nums) == 1:
                verb = "is impossible on its own"
            lines.append(f"  {word} {who} {verb}: "
                         + "; ".join(f"#{n} {log[n - 1].shown(log.variant)}" for n in result.conflict))
        from ..consistency.repairs import describe_corrections

        lines.extend(f"  {line}" for line in describe_corrections(log, result.corrections or []))
        lines.extend(f"  {note}" for note in result.notes)
        lines.extend(_engine_lines(result) if verbose else [])
        return "\n".join(lines)
    if result.status == Status.UNKNOWN:
        lines.append("Unknown: interrupted (Ctrl-C) before an answer was proved." if stop_requested()
                     else "Unknown: the time limit was reached before an answer was proved.")
    if result.count is not None:
        qual = "exactly" if result.exact else "at least"
        lines.append(f"{qual} {result.count} consistent secret{'s' if result.count != 1 else ''}"
                     + (" (determined)" if result.determined else ""))
    if result.approximate:
        a = result.approximate
        lines.append(f"approximately {a['count']} consistent secrets ({a['method']}: within a factor "
                     f"1+{a['epsilon']} with probability >= {1 - a['delta']:g}; not exact)")
    if result.secrets:
        lines.append("sample:" if result.sampling else "secrets:")
        if result.breaks is not None:
            lines.extend(f"{s}  {_breaks(b)}" for s, b in zip(result.secrets, result.breaks,
                                                              strict=True))
        else:
            lines.extend(result.secrets)
        if result.truncated:
            more = "" if result.count is None or not result.exact else \
                f" {result.count - len(result.secrets)} more"
            lines.append(f"...{more} (--all lists every one)")
    if result.sampling:
        lines.append(f"sampling: {result.sampling}")
    lines.extend(result.notes)
    lines.extend(_engine_lines(result) if verbose else [])
    return "\n".join(lines)


def _breaks(numbers: list[int]) -> str:
    if not numbers:
        return "(breaks no reply)"
    word = "reply" if len(numbers) == 1 else "replies"
    return f"(breaks {word} {', '.join(map(str, numbers))})"


def _engine_lines(result) -> list[str]:
    """How the engine worked (--verbose): auto's plan, the backend and its time."""
    lines = [f"auto: {result.auto['reason']}"] if result.auto else []
    lines.append(f"backend {result.backend}, {result.seconds:.3f} s")
    return lines
