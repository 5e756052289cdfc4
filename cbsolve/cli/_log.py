"""The feedback log a command reads (``--log FILE`` and the entries typed) and the report of
one no secret fits: shared by the commands that take a log, kept apart from
:mod:`.consistent` so that ``next`` and ``partition`` do not load the consistency backends."""
from __future__ import annotations

from ..game.feedback import FeedbackLog
from . import EXIT_NONE, emit


def read_log(variant, entries, log_file) -> FeedbackLog:
    """Entries from ``--log FILE`` first, then the command-line tokens, numbered from 1."""
    log = FeedbackLog.from_file(variant, log_file) if log_file is not None else FeedbackLog(variant)
    log.extend_tokens(entries)
    return log


def report_inconsistent(log: FeedbackLog, exc, as_json: bool, fields: dict) -> int:
    """Report an InconsistentLog (JSON: ``consistent: false``, the conflict and corrections
    beside the command's own ``fields``); returns exit 1."""
    data = {"consistent": False, **fields, "conflict": exc.conflict,
            "corrections": exc.corrections}
    from ..consistency.repairs import describe_corrections

    lines = ["No secret is consistent with this log."]
    if exc.conflict:
        lines.append("  conflicting entries: " + "; ".join(
            f"#{n} {log[n - 1].shown(log.variant)}" for n in exc.conflict))
    lines.extend(f"  {line}" for line in describe_corrections(log, exc.corrections or []))
    emit(as_json, data, "\n".join(lines))
    return EXIT_NONE
