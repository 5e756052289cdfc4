"""``cbsolve optimal --checkpoint DIR [--checkpoint-every S]`` and ``--resume DIR``: the
options checked, the checkpoint opened (cbsolve/search/checkpoint/; docs/optimal.md,
"Checkpoint and resume"), SIGTERM routed as Ctrl-C so a preempted run writes it too.
"""
from __future__ import annotations

import signal
import threading
from dataclasses import dataclass

from ..errors import InvalidVariant
from ..game.variant import Variant
from ..search import checkpoint as cp
from ..search.checkpoint import CheckpointError


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


#: The options a checkpoint records (the Settings field each sets): with ``--resume`` one given
#: explicitly must agree with the checkpoint's, the others are taken from it.
RECORDED = {"variant": "variant", "objective": "objective", "guesses": "guesses",
            "max_depth": "max_depth", "lookahead": "lookahead",
            "no_certificate": "certificate", "ties": "ties"}
#: The variant options: any of them given states the game (compared whole).
VARIANT_OPTIONS = ("variant_name", "length", "digits", "letters", "symbols", "repeats",
                   "no_leading_zero", "feedback")


def explicit(ctx) -> set[str]:
    """The keys of :data:`RECORDED` the command line gave explicitly (``variant`` for any
    variant option), read from click's parameter sources."""
    from click.core import ParameterSource

    def given(name):
        return ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)

    out = {name for name in RECORDED if name != "variant" and given(name)}
    if any(given(name) for name in VARIANT_OPTIONS):
        out.add("variant")
    return out


def opened(directory, resume_dir, every, settings: Settings, *, positional: bool,
           scheduler, plan_dir, given: set[str] = frozenset()):
    """(checkpoint, settings) for ``--checkpoint DIR`` or ``--resume DIR``; bad combinations
    and checkpoints are refused (CbsolveError: exit 2), and so is, with ``--resume``, an
    option in ``given`` (given explicitly, :func:`explicit`) that the checkpoint's search
    contradicts."""
    if directory is not None and resume_dir is not None:
        raise InvalidVariant("give --checkpoint DIR or --resume DIR, not both")
    cp.refuse(position=positional, plan=plan_dir is not None)
    if every is not None and not every > 0:
        raise InvalidVariant(f"--checkpoint-every needs a positive number of seconds, got {every}")
    settings.distributed = scheduler is not None
    if resume_dir is not None:
        asked, settings = settings, _from_checkpoint(cp.read(resume_dir)["identity"], resume_dir)
        _agree(asked, settings, given, resume_dir)
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


def _agree(asked: Settings, recorded: Settings, given: set[str], directory) -> None:
    """Refuse (CheckpointError) the first option given explicitly with ``--resume`` that the
    checkpoint's search contradicts: resuming it would silently answer another question."""
    for option, field in RECORDED.items():
        mine, theirs = getattr(asked, field), getattr(recorded, field)
        if option not in given or mine == theirs:
            continue
        if option == "variant":
            what = f"the variant options give {mine.describe()}, its game is {theirs.describe()}"
        elif field == "ties":
            what = "--ties is given, its search proves no tie-breaks"
        elif field == "certificate":
            what = "--no-certificate is given, its search makes a certificate"
        else:
            what = (f"--{option.replace('_', '-')} is {'none' if mine is None else mine}, "
                    f"its search's is {'none' if theirs is None else theirs}")
        raise CheckpointError(
            f"--resume {str(directory)!r} conflicts with the checkpoint there: {what} (leave "
            "the option out: options not given are taken from the checkpoint)")


def _from_checkpoint(ident: dict, directory) -> Settings:
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
