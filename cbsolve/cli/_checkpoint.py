"""``cbsolve optimal --checkpoint DIR [--checkpoint-every S]`` and ``--resume DIR``: the
options checked, the checkpoint opened (cbsolve/search/checkpoint/; docs/optimal.md,
"Checkpoint and resume"), SIGTERM routed as Ctrl-C so a preempted run writes it too.
"""
from __future__ import annotations

import signal
import threading
from dataclasses import dataclass

from ..errors import InvalidVariant


@dataclass
class Settings:
    """What the search is run with: the command line's, or with ``--resume`` the checkpoint's."""

    variant: object
    objective: str
    guesses: str
    max_depth: int | None
    lookahead: int
    certificate: bool
    distributed: bool = False   # a Dask run (--scheduler): its state is the Dask drivers'
    ties: bool = False          # worst: the tie-break searches too (their state recorded)


def opened(directory, resume_dir, every, settings: Settings, *, positional: bool,
           scheduler, plan_dir):
    """(checkpoint, settings) for ``--checkpoint DIR`` or ``--resume DIR``; bad combinations
    and checkpoints are refused (CbsolveError: exit 2)."""
    from ..search import checkpoint as cp

    if directory is not None and resume_dir is not None:
        raise InvalidVariant("give --checkpoint DIR or --resume DIR, not both")
    cp.refuse(position=positional, plan=plan_dir is not None)
    if every is not None and not every > 0:
        raise InvalidVariant(f"--checkpoint-every needs a positive number of seconds, got {every}")
    settings.distributed = scheduler is not None
    if resume_dir is not None:
        settings = _from_checkpoint(cp.read(resume_dir)["identity"], resume_dir)
        directory = resume_dir
        if settings.distributed != (scheduler is not None):
            raise cp.CheckpointError(
                f"the checkpoint in {str(resume_dir)!r} is of a "
                + ("Dask run: give --scheduler ADDRESS|local" if settings.distributed else
                   "run on one machine: resume it without --scheduler"))
    ident = cp.search_identity(settings.variant, settings.objective, settings.guesses,
                               settings.max_depth, lookahead=settings.lookahead,
                               certificate=settings.certificate,
                               distributed=settings.distributed, ties=settings.ties)
    checkpoint = cp.started(directory, ident, cp.DEFAULT_EVERY if every is None else every)
    _sigterm_as_sigint()
    return checkpoint, settings


def _from_checkpoint(ident: dict, directory) -> Settings:
    from ..search.checkpoint import CheckpointError
    from ..variant import Variant

    try:
        options = ident.get("options", {})
        return Settings(Variant.from_dict(ident["variant"]), str(ident["objective"]),
                        str(ident["guesses"]), ident["max_depth"],
                        int(options.get("lookahead", 0)), bool(options.get("certificate", True)),
                        bool(options.get("distributed", False)),
                        bool(options.get("ties", False)))
    except (KeyError, TypeError, ValueError) as exc:
        raise CheckpointError(f"the checkpoint in {str(directory)!r} names no valid search: "
                              f"{exc}") from None


def _sigterm_as_sigint() -> None:
    """SIGTERM (a scheduler's preemption, ``kill``) stops the search as Ctrl-C does: the
    checkpoint is written and the command exits 130."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda signum, frame: signal.raise_signal(signal.SIGINT))
