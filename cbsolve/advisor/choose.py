"""A heuristic's choice from a position, anytime: the best guess scored before the deadline.

Place in the data flow: the candidates (code indices) and the guesses played -> one guess per
symmetry class of the position (:mod:`cbsolve.game.symmetry`, while the history is short enough for
the stabiliser to matter) -> the native heuristic kernel (:meth:`Chooser.best_of`) over
chunks of those guesses, each a few hundredths of a second of work -> the best so far.

Each chunk's winner is compared with the best so far by the kernel's own key (score, then a
guess that is a candidate, then the lowest code), so a run that scores every chunk makes the
choice the kernel makes over all guesses at once; a run the deadline or Ctrl-C cuts short
returns the best of the guesses it scored and says how many that was.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..runtime.deadline import Deadline
from ..strategy.heuristics import Chooser, log2_table

#: Guess x candidate pairs scored per chunk: about 0.05 s of the kernel (2 ns a pair measured
#: on Mastermind 6x9, 462 guesses x 50,124 candidates in 0.05 s), so a deadline or Ctrl-C is
#: seen within a tenth of a second.
CHUNK_PAIRS = 20_000_000
#: The symmetry classes are worth computing while the history is this short (deeper, the
#: stabiliser is usually trivial; the same depth as the chooser's default).
SYMMETRY_DEPTH = 3
#: Largest space whose symmetry classes after a guess are computed: Mastermind 6x9 (531,441
#: codes) takes 1.1 s; on 8x8 (16.7 M) one step of the orbit computation takes seconds and
#: overran a 1 s deadline by 13 s, so the guesses are scored in a spread order instead.
SYMMETRY_CODES = 1_000_000


@dataclass
class Choice:
    """The guess chosen (a code index; None when no guess was scored in time)."""

    index: int | None
    complete: bool
    scored: int                    # guesses scored
    total: int                     # guesses that would have been scored (up to symmetry)
    symmetry: bool                 # one guess per symmetry class
    ranked: int = 0                # guesses ranked on a sample first (:mod:`.sampled`)
    sample: int = 0                # secrets in that sample


def score_key(chooser: Chooser, guess: int, cands: np.ndarray) -> tuple:
    """The kernel's ordering key of one guess: (score, not a candidate, index)."""
    v = chooser.variant
    replies = chooser.responses(guess, cands)
    sizes = np.bincount(np.asarray(replies, dtype=np.int64), minlength=v.response_slots)
    return key_of(chooser.strategy, sizes, guess, v.win_response)


def key_of(strategy: str, sizes, guess: int, win: int) -> tuple:
    """The kernel's key of a guess from its reply histogram ``sizes``."""
    live = [int(s) for s in sizes if s]
    if strategy == "minimax":
        score = max(live)
    elif strategy == "expected":
        score = sum(s * s for s in live)
    elif strategy == "entropy":      # the kernel's fixed-point sum of n log2 n
        table = log2_table(sum(live))
        score = sum(s * int(table[s]) for s in live)
    else:
        score = -len(live)
    return score, not bool(sizes[win]), int(guess)


def guess_rows(chooser: Chooser, classes, history: tuple[int, ...], cands: np.ndarray,
               deadline: Deadline) -> tuple[np.ndarray, bool]:
    """The guesses to score (code indices) and whether they are one per symmetry class
    (``classes``: the game's :class:`~.classes.GuessClasses`, asked while the history is
    short and the space small enough)."""
    reps = classes.known(history)
    if reps is None and len(history) < SYMMETRY_DEPTH and chooser.space.size <= SYMMETRY_CODES:
        reps = classes.of(history, deadline)
    if reps is None:
        rows = spread_first(chooser.space.size)
        found = False
    else:
        rows, found = reps, True
    if chooser.guesses == "candidates":
        rows = rows[np.isin(rows, cands)]
    return rows, found


#: Without the symmetry classes, this many codes spread evenly over the space are scored
#: first: a deadline that stops the scoring early still leaves the best of a varied sample,
#: not of the first codes in order (Mastermind 8x8 after one reply: 12111111, a poor guess).
SPREAD = 4096


def spread_first(size: int, spread: int = SPREAD) -> np.ndarray:
    """Every code index, the :data:`SPREAD` evenly spaced ones first (the order does not
    change a complete choice: the best key wins wherever it comes)."""
    stride = max(1, size // spread)
    first = np.arange(0, size, stride, dtype=np.int64)
    rest = np.ones(size, dtype=bool)
    rest[first] = False
    return np.concatenate([first, np.flatnonzero(rest)])


def choose(chooser: Chooser, cands: np.ndarray, rows: np.ndarray, deadline: Deadline,
           chunk_pairs: int = CHUNK_PAIRS) -> Choice:
    """The best of ``rows`` for ``cands`` found before ``deadline`` (at least one chunk is
    scored unless the deadline had already passed)."""
    cands = np.ascontiguousarray(cands, dtype=np.int64)
    total = int(rows.size)
    step = max(1, chunk_pairs // max(1, int(cands.size)))
    best, scored = None, 0
    try:
        for start in range(0, total, step):
            if deadline.expired():
                break
            chunk = np.sort(rows[start:start + step])     # the kernel takes increasing rows
            g = chooser.best_of(cands, chunk)
            key = score_key(chooser, g, cands)
            if best is None or key < best:
                best = key
            scored += int(chunk.size)
    except KeyboardInterrupt:
        # Ctrl-C expires the deadline; when a chunk outlasts the CLI's grace (a loaded
        # machine), its KeyboardInterrupt lands inside the chunk: the chunks done still stand
        # (as the exact searches keep theirs, service.py), and with none done the caller
        # answers as at a deadline that came before the first chunk.
        pass
    return Choice(None if best is None else best[2], scored == total, scored, total, False)
