"""The position service's optimum of a position (:meth:`PositionService.optimum`): the
position a log leaves, the interval known before the search (:mod:`cbsolve.bounds.known`:
what ``bounds`` gives in the same time), the search that runs (the worst case, the expected
case, from a position, or split over a Dask cluster), the known interval applied to what it
proved, and the files its tree is written to.

Place in the data flow: below :func:`cbsolve.api.optimal` (which documents the arguments) and
``cbsolve optimal`` (which parses options, makes the one Deadline and prints the
:class:`Optimum`), through the service; over the search wing and the bounds. Nothing here
prints: progress goes to the caller's callable.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from ..bounds.known import apply, known_interval, merged
from ..certificates.tree import to_dot, write_file, write_tree
from ..game.codes import CodeSpace
from ..runtime.deadline import Deadline, stop_requested, stopped_by
from ..errors import InvalidVariant, unknown_name
from ..game.feedback import FeedbackLog
from ..search import SearchInterrupted, checkpoint as cp
from ..search.distributed import cluster_client, solve_expected_distributed
from ..search.distributed.trace import Trace
from ..search.position import Position, stamp
from ..search.result import SearchResult
from ..runtime.status import Status
from ..game.variant import Variant
from ..search import distributed as search_distributed
from ..search import expected as search_expected
from ..search import position as search_position
from ..search import worst as search_worst

OBJECTIVES = ("worst", "expected")


@dataclass
class Optimum(SearchResult):
    """The exact search's answer (:class:`cbsolve.search.SearchResult`) with the variant and
    the position it started from; ``to_json()`` is the document of ``cbsolve optimal --json``."""

    variant: Variant | None = None
    position: dict | None = None      # {"entries", "secrets"}; None: the whole game
    upper_from: dict | None = None    # a stopped search: what proves ``upper`` {method, tree}
    out: str | None = None            # the file the tree (or certificate) was written to
    dot: str | None = None            # the file the tree was drawn to (Graphviz DOT)

    @classmethod
    def of(cls, result: SearchResult, **extra: Any) -> Optimum:
        """The search's ``result`` with the fields this adds."""
        return cls(**{f.name: getattr(result, f.name) for f in fields(SearchResult)}, **extra)

    def to_json(self) -> dict:
        data = super().to_json()
        if self.variant is not None:
            data["variant"] = self.variant.to_dict()
        if self.position is not None:
            data["position"] = self.position
        for name in ("out", "dot"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        if self.upper_from is not None:
            data["upper_from"] = self.upper_from
        return data


def solve(log: FeedbackLog, *, objective: str, guesses: str, max_depth: int | None,
          certificate: bool, ties: bool, lookahead: int, workers: int | None,
          progress: Callable[..., None] | bool | None, memory_budget: str | int | None,
          replies: str, checkpoint: Any, scheduler: str | None, trace: str | Path | None,
          out: str | Path | None, dot: str | Path | None, dot_depth: int | None,
          deadline: Deadline) -> Optimum:
    """The :class:`Optimum` of ``log``'s game from where it leaves it
    (arguments: :func:`cbsolve.api.optimal`); Ctrl-C raises SearchInterrupted holding it."""
    if objective not in OBJECTIVES:
        raise unknown_name("objective", objective, OBJECTIVES)
    if ties and objective != "worst":
        raise InvalidVariant("ties= applies to the worst objective only")
    if trace is not None and scheduler is None:
        raise InvalidVariant("trace= records the tasks of a Dask run: give scheduler=")
    position = Position.from_log(log) if len(log) else None
    if position is not None and position.start:
        position = None
    if position is not None and ties:
        raise InvalidVariant("ties= applies to the whole game only, not from a position")
    if isinstance(checkpoint, (str, Path)):
        checkpoint = cp.started(checkpoint, cp.search_identity(
            log.variant, objective, guesses, max_depth, lookahead=lookahead,
            certificate=certificate, distributed=scheduler is not None,
            ties=ties, position=position is not None))
    elif checkpoint is not None:
        cp.refuse(position=position is not None)
    if position is not None and log.solved_at() is not None:
        return _solved(log, position, objective, guesses, max_depth, out or dot)
    known = None
    if position is None and scheduler is None:
        def say(message: str) -> None:
            if callable(progress):
                progress("bounds", 0, message, None, None)

        def tell(k) -> None:   # each interval as it is known, before the search
            if callable(progress) and (k.lower, k.upper) != (None, None):
                progress("known", 0, k, k.lower, k.upper)

        try:
            known = known_interval(log.variant, objective, deadline, max_depth, guesses, say,
                                   None if deadline.unlimited else tell)
        except KeyboardInterrupt:
            if not stop_requested():
                raise
            # the CLI's Ctrl-C before the search: the search stops at once and reports
    hear = _hearing(progress, known)
    if hear is not None and known is not None and (known.lower, known.upper) != (None, None) \
            and deadline.unlimited:   # under a budget, heard as it was known (tell)
        hear("known", 0, known, known.lower, known.upper)
    if known is not None and known.lower is not None and known.lower == known.upper \
            and not deadline.unlimited and checkpoint is None:
        # under a budget, the proved ends meet (a certified tree, a construction): the value
        # is proved, the search has nothing to add in the time (bounds.known.closed)
        result = _not_started(log.variant, objective, guesses, max_depth,
                              "exact search not needed: the known ends meet")
        return _answer(result, log, position, known, out, dot, dot_depth)
    if known is not None and deadline.expired() and not stop_requested():
        # the bounds' strategies took the whole deadline (Bulls & Cows 6/10): nothing is left
        # to prove with, so the answer is theirs, labelled, without a search's set-up
        result = _not_started(log.variant, objective, guesses, max_depth)
        if checkpoint is not None:
            checkpoint.report(result)            # nothing new proved: the file stays as it was
        return _answer(result, log, position, known, out, dot, dot_depth)
    run: dict[str, Any] = dict(guesses=guesses, max_depth=max_depth, workers=workers,
                               deadline=deadline)
    try:
        if scheduler is not None:
            result = _distributed(log.variant, scheduler, objective, position, certificate,
                                  ties, lookahead, trace, checkpoint, **run)
        elif position is not None:
            result = search_position.solve_from(
                position, objective, progress=hear, certificate=certificate,
                lookahead=lookahead, memory_budget=memory_budget, replies=replies, **run)
        else:
            result = _whole_game(log.variant, objective, hear if hear is not None else progress,
                                 certificate, lookahead, ties, memory_budget, replies,
                                 checkpoint, **run)
    except SearchInterrupted as stop:
        stop.result = _answer(stop.result, log, position, known, out, dot, dot_depth)
        raise
    return _answer(result, log, position, known, out, dot, dot_depth)


def _solved(log, position, objective, guesses, max_depth, files):
    """A log whose entry had every bull: the game is over, 0 more guesses (proved), as the
    position service answers (``next``: ``solved``, needed [0, 0]); no tree to write."""
    k = log.solved_at()
    won = log.entries[k - 1].text
    notes = [f"solved: entry {k} ({won}) had every bull; no guess is needed"]
    if files:
        notes.append("no tree written: the game is over")
    return Optimum(objective=objective, status=Status.OPTIMAL, proved=True, secrets=1, worst=0,
                   total=0, histogram={0: 1}, lower=0, upper=0, max_depth=max_depth,
                   guesses=guesses, solved=k,
                   notes=notes,
                   variant=log.variant, position=position.to_json())


def _not_started(variant, objective, guesses, max_depth, why: str | None = None
                 ) -> SearchResult:
    """The search of a whole game whose deadline passed before it could start (or, ``why``,
    that was not needed)."""
    stop = None if why is not None else stopped_by()
    note = why or (f"exact search not started: {stopped_by().reached()} while the bounds and "
                   "strategies ran")
    return SearchResult(objective, Status.UNKNOWN, False, CodeSpace(variant).size,
                        max_depth=max_depth, guesses=guesses, stop=stop, notes=[note])


def _hearing(progress, known):
    """The caller's progress callable, the interval it hears merged with the known one."""
    if not callable(progress):
        return None
    if known is None:
        return progress

    def hear(phase, depth, counters, lower, upper):
        progress(phase, depth, counters, *merged(known, lower, upper))

    return hear


def _whole_game(variant, objective, progress, certificate, lookahead, ties, memory_budget,
                replies, checkpoint, **run):
    if objective == "worst":
        return search_worst.solve_worst(variant, progress=progress if callable(progress) else None,
                                        certificate=certificate, lookahead=lookahead, ties=ties,
                                        memory_budget=memory_budget, replies=replies,
                                        checkpoint=checkpoint, **run)

    return search_expected.solve_expected(
        variant, progress=progress if callable(progress) else bool(progress),
        memory_budget=memory_budget, replies=replies, checkpoint=checkpoint, **run)


def _distributed(variant, scheduler, objective, position, certificate, ties, lookahead,
                 trace_file, checkpoint, *, guesses, max_depth, workers, deadline):
    """The search split over a Dask cluster (:mod:`cbsolve.search.distributed`);
    ``trace_file``: where the run's task trace goes (also after a stop)."""
    if workers is not None and scheduler != "local":
        raise InvalidVariant("--workers with --scheduler ADDRESS: the cluster's workers are "
                             "used (start them with `dask worker ADDRESS --nthreads 1`); "
                             "--workers N sizes a `--scheduler local` cluster only")
    if ties or lookahead:
        raise InvalidVariant("--ties and --lookahead run on one machine only (not with "
                             "--scheduler)")

    trace = None if trace_file is None else Trace(objective, variant.to_dict(), workers or 0)
    try:
        if objective == "expected":
            result = solve_expected_distributed(variant, scheduler, workers=workers,
                                                max_depth=max_depth, guesses=guesses,
                                                deadline=deadline, root=position, trace=trace,
                                                checkpoint=checkpoint)
        else:
            with cluster_client(scheduler, workers, deadline=deadline) as client:
                result = search_distributed.solve_worst_distributed(
                    client, variant, guesses=guesses, max_depth=max_depth,
                    certificate=certificate, root=position, deadline=deadline, trace=trace,
                    checkpoint=checkpoint)
    finally:
        if trace is not None:
            trace.write(str(trace_file))
    if position is not None:
        stamp(result, position)
    return result


def _answer(result, log, position, known, out, dot, dot_depth):
    """The search's result as an Optimum: the known interval applied, the files written."""
    upper_from = None
    if known is not None:
        upper_from = apply(result, known, None if out is None else str(out))
    _write(result, out, dot, dot_depth)
    return Optimum.of(result, variant=log.variant,
                      position=None if position is None else position.to_json(),
                      out=None if out is None else str(out),
                      dot=None if dot is None else str(dot), upper_from=upper_from)


def _write(result, out, dot, dot_depth) -> None:
    """``out``: the tree (else the certificate of a refuted depth); ``dot``: the tree as
    Graphviz DOT, its first ``dot_depth`` levels."""
    if out and result.tree is not None:
        write_tree(result.tree, out)
    elif out and result.certificate is not None:
        import json

        write_file(out, "--out", json.dumps(result.certificate, separators=(",", ":")) + "\n")
    if dot and result.tree is not None:
        write_file(dot, "--dot", to_dot(result.tree, max_depth=dot_depth))
