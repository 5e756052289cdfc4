"""A heuristic's choice for a small position without NumPy: the list-based data path.

Place in the data flow: FeedbackLog -> the kernel's list-based filter (the secrets left as
rows of symbol indices, :func:`cbsolve.consistency.native.consistent_rows`) -> the native
heuristic kernel over every code (``best_guess_listed``: the kernel the
:class:`~.heuristics.Chooser` calls, with its key and tie-break) -> :class:`~.advice.HeuristicChoice`,
the partition summarised as the array path does (:func:`~.partition.class_summary`).

The decision is :func:`~.advice.choose_next`'s: the same kernel over the same codes (one guess
per symmetry class there gives the same choice as every guess here, since each class is
represented by its lowest code), only the data reach it as bytes instead of NumPy arrays, so a
small game's ``cbsolve next`` starts like ``cbsolve score``. Positions too large for one kernel
call (:data:`~.partition.LISTED_PAIRS`) and ``random`` (NumPy's seeded generator) take the
array path.
"""
from __future__ import annotations

from ..consistency.native import consistent_rows
from ..game.feedback import FeedbackLog
from ..game.rule import possible_responses
from .advice import HeuristicChoice, no_secret_left
from .partition import LISTED_PAIRS, class_summary
from .rules import HEURISTIC_ID, check_guesses, check_strategy


def listed_choice(log: FeedbackLog, strategy: str = "minimax",
                  guesses: str = "all") -> HeuristicChoice | None:
    """The guess ``strategy`` chooses after ``log`` (as :func:`~.advice.choose_next`), or None
    when the position is too large for the list-based path or the strategy is ``random``.
    Raises InconsistentLog (with the diagnosis) when no secret is left."""
    from .._native import scoring as core
    from .._native import strategy as kernel

    check_strategy(strategy)
    check_guesses(guesses)
    v, space = log.variant, log.space
    if strategy == "random" or not space.enumerable or space.size > LISTED_PAIRS:
        return None
    n, cands = consistent_rows(log)
    if n == 0:
        raise no_secret_left(log)
    if n * space.size > LISTED_PAIRS:
        return None
    width = v.length
    if strategy == "first" or n <= 2:   # the lowest candidate (Chooser.choose: optimal for two)
        row = cands[:width]
        index = space.index_of(tuple(row))
    else:
        _, every = consistent_rows(FeedbackLog(v))
        index = kernel.best_guess_listed(
            v.length, v.n_symbols, v.repeats, v.bulls_only, every, cands, v.response_slots,
            v.win_response, max(1, len(possible_responses(v)) - 1), HEURISTIC_ID[strategy],
            guesses == "candidates")
        row = every[index * width:(index + 1) * width]
    sizes = core.partition_listed(v.length, v.n_symbols, v.repeats, v.bulls_only, row, cands,
                                  v.response_slots)[0]
    return HeuristicChoice(index=index, guess=space.format(row), strategy=strategy,
                           candidates=n, guesses=guesses, partition=class_summary(sizes))
