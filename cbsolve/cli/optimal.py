"""``cbsolve optimal --objective worst|expected``: exact optimum with tree and certificate.

Thin: reads options, makes the one Deadline, calls :func:`cbsolve.optimal` (the position, the
interval known before the search, the search, the files: the position service's
:mod:`cbsolve.advisor.optimum`), shows its progress and prints the fields of
docs/contract.md (objective, worst, total, average, histogram, proved, seconds).
``--plan``/``--shard`` run the sharded refutation (``_shards``).
"""
from __future__ import annotations

import click

from ..advisor.optimum import OBJECTIVES
from ..errors import InconsistentLog, InvalidVariant, unknown_name
from ..game.feedback import FeedbackLog
from ..game.guess_pool import guess_pool
from ..search import SearchInterrupted
from ..search.memory import REPLY_SOURCES, budget
from ..runtime.status import Status
from . import (
    COUNT,
    EXIT_NONE,
    EXIT_OK,
    FILE,
    MAX_WORKERS,
    POSITIVE,
    SECONDS,
    WORKERS,
    app,
    emit,
    json_option,
    progress_enabled,
    variant_options,
)
from ._budget import TimeLimit
from ._checkpoint import Settings, explicit, opened
from ._shards import sharded
from .. import api
from ._known import progress_display
from ..formats.html import write_html
from ._log import read_log, report_inconsistent

EXIT_INTERRUPTED = 130   # Ctrl-C, after printing the interval proved so far


@app.command("optimal")
@click.argument("entries", nargs=-1)
@click.option("--log", "log_file", type=FILE, default=None, metavar="FILE",
              help="Start from the entries in a file (as `consistent --log`).")
@click.option("--objective", default="worst", show_default=True, metavar="worst|expected",
              help="Minimise the worst case (ties: fewest secrets at that depth) or the total.")
@click.option("--max-depth", type=POSITIVE, default=None, metavar="K",
              help="At most K guesses for every secret.")
@click.option("--guesses", default="all", show_default=True, metavar="all|candidates",
              help="Draw guesses from all codes or from the remaining candidates only.")
@click.option("--out", type=FILE, default=None, metavar="FILE",
              help="Write the strategy tree, with its lower-bound certificate, to FILE.")
@click.option("--dot", type=FILE, default=None, metavar="FILE", help="Write the tree as Graphviz DOT.")
@click.option("--html", type=FILE, default=None, metavar="FILE",
              help="Write a page to walk the tree in a browser (one self-contained file).")
@click.option("--dot-depth", type=COUNT, default=None, metavar="K",
              help="Draw only the first K levels in --dot.")
@click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS",
              help="Stop and report the bounds proved so far (default and 0: no limit).")
@click.option("--workers", type=WORKERS, default=None, metavar="N",
              help=f"Threads (default: all cores; at most {MAX_WORKERS}); with --scheduler local "
                   "the number of worker processes.")
@click.option("--no-certificate", is_flag=True, help="Skip the lower-bound certificate (worst).")
@click.option("--lookahead", type=COUNT, default=0, show_default=True, metavar="K",
              help="Worst objective tie-break: compare up to K working guesses per node on the "
                   "secrets they leave for the last guess (slower; 0: first working guess).")
@click.option("--ties", is_flag=True,
              help="Worst objective: also prove the tie-breaks (fewest secrets needing the worst "
                   "case, then smallest total) with a weighted exact search; Mastermind 4/6 "
                   "takes seconds, Bulls & Cows 4/10 much longer (see docs/optimal.md).")
@click.option("--memory-budget", default=None, metavar="SIZE",
              help="Memory the search may take, e.g. 6G (default: $CBSOLVE_MEMORY_BUDGET, else a "
                   "quarter of RAM); a game whose reply matrix does not fit is scored on the "
                   "fly, one for which neither fits is refused.")
@click.option("--replies", "reply_source", default="auto", show_default=True,
              metavar="auto|matrix|on-the-fly",
              help="Where the exact search reads replies: the reply matrix if it fits the "
                   "memory budget, else scored on the fly (auto), or the one named.")
@click.option("--scheduler", default=None, metavar="ADDRESS|local",
              help="Split the search over a Dask cluster (tcp://host:8786), or 'local' for a "
                   "local cluster of --workers one-thread processes.")
@click.option("--plan", "plan_dir", default=None, metavar="DIR",
              help="Sharded worst-case proof: with --max-depth D, write into DIR the plan of "
                   "refuting D guesses (one shard a first-guess orbit); with --shard K/N, run "
                   "that share of it (docs/optimal.md, \"Sharded proofs\").")
@click.option("--shard", default=None, metavar="K/N",
              help="With --plan: refute the orbits i with i mod N = K-1 that have no result "
                   "yet, one result file each (a rerun resumes); then `cbsolve merge DIR`.")
@click.option("--ledger", "ledger", is_flag=True,
              help="With --plan and --shard: a unit is done when DIR/ledger.jsonl has its line, "
                   "and each finished unit appends one (a compact record to commit).")
@click.option("--verbose", is_flag=True,
              help="Progress on stderr as plain lines even without a terminal: the interval "
                   "known before the search (with what proves its upper end), then the "
                   "search's, merged with it.")
@click.option("--trace", "trace_file", type=FILE, default=None, metavar="FILE",
              help="With --scheduler: write the run's task trace (keys, CPU, worker, order) to "
                   "FILE, for scripts/bench/simulate_trace.py.")
@click.option("--split", "split", default="orbit", show_default=True,
              metavar="orbit|second|third",
              help="With --plan and --max-depth: one shard job a first-guess orbit, or "
                   "(first guess, second guess) pairs for orbits that one job would not finish; "
                   "third: also the third guesses of the large pairs, in parts.")
@click.option("--split-size", "split_size", type=int, default=None, metavar="N",
              help="With --split third: a (first, second guess) unit with more than N third "
                   "guesses to refute becomes parts of at most N (default 2000).")
@click.option("--checkpoint", "checkpoint_dir", default=None, metavar="DIR",
              help="Write what is proved to DIR/checkpoint.json at intervals and on every "
                   "stop; a DIR holding a checkpoint of the same search resumes it.")
@click.option("--checkpoint-every", type=SECONDS, default=None, metavar="SECONDS",
              help="Seconds between checkpoint writes (default 60).")
@click.option("--resume", "resume_dir", default=None, metavar="DIR",
              help="Resume the checkpoint in DIR: its game, objective and options are used.")
@variant_options
@json_option
def optimal_command(entries, log_file, objective, max_depth, guesses, out, dot, html, dot_depth,
                    time_limit, workers, no_certificate, lookahead, ties, memory_budget,
                    reply_source, scheduler, plan_dir, shard, ledger, verbose, trace_file, split,
                    split_size,
                    checkpoint_dir, checkpoint_every, resume_dir, variant, as_json) -> int:
    """Exact optimal strategy: proved worst case or expected case, with certificate.

    ENTRIES (GUESS:B,C | GUESS:xAyB | GUESS:B) and/or --log FILE: the optimum of the game from
    the position they leave (guesses counted from there); exit 1 if they are inconsistent."""
    if ties and objective != "worst":
        raise InvalidVariant("--ties applies to --objective worst only (the expected objective "
                             "already breaks ties by the worst case)")
    checkpoint = None
    if checkpoint_dir is not None or resume_dir is not None or checkpoint_every is not None:
        if checkpoint_dir is None and resume_dir is None:
            raise InvalidVariant("--checkpoint-every needs --checkpoint DIR or --resume DIR")
        checkpoint, got = opened(
            checkpoint_dir, resume_dir, checkpoint_every,
            Settings(variant, objective, guesses, max_depth, lookahead, not no_certificate,
                     ties=ties),
            positional=bool(entries or log_file), scheduler=scheduler, plan_dir=plan_dir,
            given=explicit(click.get_current_context()))
        variant, objective, guesses, max_depth = got.variant, got.objective, got.guesses, got.max_depth
        lookahead, no_certificate, ties = got.lookahead, not got.certificate, got.ties
    if objective not in OBJECTIVES:
        raise unknown_name("objective", objective, OBJECTIVES)
    guess_pool(guesses)
    if max_depth is not None and max_depth < 1:
        raise InvalidVariant(f"--max-depth must be at least 1, got {max_depth}")

    deadline = TimeLimit.from_option(time_limit, None).deadline   # one budget, from the edge
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise InvalidVariant(f"--workers must be between 1 and {MAX_WORKERS}, got {workers}")
    if reply_source not in REPLY_SOURCES:
        raise unknown_name("reply source", reply_source, REPLY_SOURCES)
    limit = budget(memory_budget)
    if trace_file is not None and scheduler is None:
        raise InvalidVariant("--trace records the tasks of a Dask run: give --scheduler")
    if split != "orbit" and plan_dir is None:
        raise InvalidVariant("--split chooses how a --plan splits the refutation: give --plan DIR")
    if split_size is not None and split != "third":
        raise InvalidVariant("--split-size sizes the parts of --split third: give --split third")
    if ledger and plan_dir is None:
        raise InvalidVariant("--ledger records the units of a --plan run: give --plan DIR")
    if shard is not None and plan_dir is None:
        raise InvalidVariant("--shard K/N runs a share of a plan: give --plan DIR")
    if plan_dir is not None:
        if out or dot or html or ties or lookahead or no_certificate:
            raise InvalidVariant("--plan writes its own files (then `cbsolve merge`): not with "
                                 "--out, --dot, --html, --ties, --lookahead or --no-certificate")

        return sharded(plan_dir, shard, objective=objective, max_depth=max_depth,
                       guesses=guesses, variant=variant, deadline=deadline, workers=workers,
                       memory_budget=limit, positional=bool(entries or log_file),
                       scheduler=scheduler, as_json=as_json, split=split,
                       split_size=split_size, ledger=ledger)
    show = progress_enabled(as_json)

    log = FeedbackLog(variant)
    if entries or log_file is not None:
        log = read_log(variant, entries, log_file)
    if ties and len(log):
        raise InvalidVariant("--ties applies to the whole game only, not from a position")
    update, end_display = progress_display(objective, show, verbose and not show)
    try:
        result = api.optimal(log, objective=objective, guesses=guesses, max_depth=max_depth,
                         certificate=not no_certificate, ties=ties, lookahead=lookahead,
                         workers=workers, progress=update, memory_budget=limit,
                         replies=reply_source, checkpoint=checkpoint, scheduler=scheduler,
                         trace=trace_file, out=out, dot=dot, dot_depth=dot_depth,
                         deadline=deadline)
    except SearchInterrupted as stop:   # Ctrl-C: print what was proved, exit 130
        result = stop.result
    except InconsistentLog as exc:
        return report_inconsistent(log, exc, as_json, {"objective": None})
    finally:
        end_display()
    if html and result.tree is not None:
        write_html(result.tree, html, title=f"optimal ({result.objective})")
    emit(as_json, result.to_json(), format_result(result))
    if result.interrupted:
        click.echo("cbsolve: interrupted: the interval above is what was proved", err=True)
        return EXIT_INTERRUPTED
    return EXIT_NONE if result.status == Status.INFEASIBLE else EXIT_OK


def format_result(result) -> str:
    """The text of an :class:`~cbsolve.api_results.Optimum` (what ``--json`` prints as data)."""
    variant, position, upper_from = result.variant, result.position, result.upper_from
    lines = [f"{variant.describe()}: {result.secrets} secrets, guesses from {result.guesses}"]
    if position is not None:
        played = " ".join(f"{e['guess']}:{e['reply']}" for e in position["entries"])
        lines[0] = (f"{variant.describe()}, after {played}: {result.secrets} secrets left, "
                    f"guesses from {result.guesses} (counted from here)")
    what = "worst case" if result.objective == "worst" else "total guesses"
    if result.status == Status.INFEASIBLE:
        # proved infeasible: the bound is on the worst case (no capped total exists)
        lines.append(f"infeasible: no strategy finds every secret within {result.max_depth} "
                     f"guesses (proved; worst case >= {result.max_depth + 1})")
    elif result.proved:
        # an interrupt after the value was proved leaves no tree: the interval holds it
        if result.objective == "worst":
            # the proved value is the interval's (the tree may be the greedy fallback)
            value = result.upper if result.upper is not None else result.worst
            lines.append(f"optimal worst case: {value} guesses (proved)")
        else:
            value = result.total if result.total is not None else result.upper
            lines.append(f"optimal total: {value} guesses (proved)")
    else:
        lo = "?" if result.lower is None else result.lower
        hi = "?" if result.upper is None else result.upper
        lines.append(f"not proved: {what} in [{lo}, {hi}]")
        if upper_from is not None:
            tree = upper_from["tree"]
            lines.append(f"  upper end {hi}: {upper_from['method']}"
                         + (f"; check it: cbsolve verify {tree}"
                            if tree and tree not in upper_from["method"] else ""))
    if result.total is not None:
        hist = ", ".join(f"{k}: {v}" for k, v in sorted(result.histogram.items()))
        lines.append(f"  tree: worst {result.worst}, total {result.total}, "
                     f"average {result.average:.4f}, histogram {{{hist}}}")
    if getattr(result, "at_worst", None):
        lo, hi = result.at_worst
        lines.append(f"  fewest secrets needing {result.worst} guesses: "
                     + (f"{hi} (proved)" if lo == hi else f"in [{lo}, {hi}]"))
    ties = (result.tree or {}).get("ties")
    if ties and ties.get("at_worst_proved"):
        lo = ties.get("total_lower")
        lines.append(f"  smallest total with {ties['at_worst']} at {result.worst}: "
                     + (f"{ties['total']} (proved)" if ties["proved"]
                        else f"in [{lo if lo is not None else '?'}, {ties['total']}]"))
    for note in result.notes:
        lines.append(f"  note: {note}")
    if result.out:
        lines.append(f"  written to {result.out}" + (" (with its lower-bound certificate)"
                                                      if result.certificate else ""))
    if result.dot:
        lines.append(f"  DOT written to {result.dot}")
    lines.append(f"  {result.seconds:.2f} s, {result.nodes:,} search nodes")
    return "\n".join(lines)
