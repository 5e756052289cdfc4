"""A heuristic's choice on a space too large to score every guess: rank on a sample, then score
the best-ranked guesses exactly, anytime.

Place in the data flow: the candidates of a position on a large space (Mastermind 8x8, 16.7 M
codes: 1.4 M candidates after 12345678:2,3) -> a pool of guesses (a sample of the candidates,
then codes spread evenly over the space) -> each pool guess's partition of a random sample of
the candidates (one native call, :func:`cbsolve.game.scoring.partition_counts`: 131 k guesses x
1 k secrets in a tenth of a second) -> the pool in the order of the heuristic's score on that
sample -> the same guesses scored exactly on every candidate, in that order and in chunks of
about 0.05 s, then the rest of the space in index order -> the best guess scored exactly
before the deadline or Ctrl-C. When the service found the position's symmetry classes in time
(:meth:`cbsolve.game.symmetry.Symmetry.guess_representatives`, 951 after 12345678 on 8x8), one
guess per class is the pool and nothing else is scored.

Scoring a guess exactly costs a pass over every candidate (3-6 ms on 1.4 M), so a few seconds
score hundreds of guesses, not the 16.7 M codes: the sample decides which hundreds. Only exact
scores choose, each compared by the heuristic kernel's key (score, then a guess that may be the
secret, then the lowest code), so a run that scores every code makes the kernel's choice, and a
cut run returns the best of the guesses it scored exactly and says how many they were. Nothing
here lists or packs the whole space (2 s on 8x8): only the candidates, once, and each chunk of
guesses, their rows read from their indices (:meth:`cbsolve.game.codes.CodeSpace.codes_at`).
"""
from __future__ import annotations

from collections.abc import Iterator
from itertools import chain

import numpy as np

from ..game import scoring
from ..runtime.deadline import Deadline
from ..strategy.heuristics import Chooser
from .choose import CHUNK_PAIRS, Choice, key_of
from .options import SAMPLED, SampledShape

#: The sizes (:class:`~.options.SampledShape`): spaces with more codes than
#: ``SAMPLED_CODES`` are scored this way, the pool ranked on a sample of ``SAMPLE`` secrets;
#: the pool is up to ``POOL_CANDIDATES`` candidates, then ``POOL_SPREAD`` codes spread evenly.
SAMPLED_CODES, SAMPLE = SAMPLED.codes, SAMPLED.sample
POOL_CANDIDATES, POOL_SPREAD = SAMPLED.pool_candidates, SAMPLED.pool_spread
#: Fixed seed of the samples, so that the same position gets the same answer.
SEED = 0



def ranking(strategy: str, counts: np.ndarray, guesses: np.ndarray, win: int) -> np.ndarray:
    """The order of ``guesses`` (code indices) by the heuristic's score over their reply
    histograms on the sample ``counts`` (one row each), then a guess that may be the secret,
    then the lowest code. A ranking only: the choice compares exact keys (:func:`key_of`)."""
    counts = counts.astype(np.float64)
    if strategy == "minimax":
        score = counts.max(axis=1)
    elif strategy == "expected":
        score = (counts * counts).sum(axis=1)
    elif strategy == "entropy":
        score = (counts * np.log2(np.maximum(counts, 1))).sum(axis=1)
    else:                                   # parts: most classes first
        score = -(counts > 0).sum(axis=1)
    return np.lexsort((guesses, counts[:, win] == 0, score))


def _pool(space_size: int, cands: np.ndarray, candidates_only: bool,
          rng: np.random.Generator, shape: SampledShape = SAMPLED) -> np.ndarray:
    """Sorted code indices: a sample of the candidates and codes spread over the space."""
    picked = cands
    if cands.size > shape.pool_candidates:
        picked = rng.choice(cands, shape.pool_candidates, replace=False)
    if candidates_only:
        return np.unique(picked)
    spread = np.arange(0, space_size, max(1, space_size // shape.pool_spread), dtype=np.int64)
    return np.union1d(picked, spread)


def _rest(space_size: int, pool: np.ndarray, cands: np.ndarray, candidates_only: bool,
          step: int) -> Iterator[np.ndarray]:
    """The guesses not in the pool, in index order, ``step`` at a time."""
    source = cands if candidates_only else None
    total = cands.size if candidates_only else space_size
    for start in range(0, total, step):
        rows = (source[start:start + step] if source is not None
                else np.arange(start, min(start + step, total), dtype=np.int64))
        rows = rows[~np.isin(rows, pool, assume_unique=True)]
        if rows.size:
            yield rows


def choose_sampled(chooser: Chooser, cands: np.ndarray, deadline: Deadline,
                   classes: np.ndarray | None = None, shape: SampledShape = SAMPLED) -> Choice:
    """The best guess for ``cands`` (sorted code indices) scored exactly before ``deadline``,
    the guesses taken in the order of their score on a sample (see the module docstring).
    ``classes``: one guess per symmetry class of the position (sorted code indices): then
    they are the pool and the only guesses scored (the choice over all of them is the
    choice over every code). ``shape``: the sample's and the pool's sizes."""
    v, rows_of = chooser.variant, chooser.space.codes_at    # the space is never listed
    cands = np.ascontiguousarray(cands, dtype=np.int64)
    only = chooser.guesses == "candidates"
    total = int(cands.size) if only else chooser.space.size
    rng = np.random.default_rng(SEED)
    if classes is not None:
        pool = classes[np.isin(classes, cands)] if only else classes
        total = int(pool.size)
    else:
        pool = _pool(chooser.space.size, cands, only, rng, shape)
    sample = (cands if cands.size <= shape.sample
              else np.sort(rng.choice(cands, shape.sample, replace=False)))
    empty = Choice(None, False, 0, total, classes is not None, ranked=0,
                   sample=int(sample.size))
    secrets = scoring.pack(v, rows_of(sample))
    counts, rank_step = [], max(1, CHUNK_PAIRS // int(sample.size))
    for start in range(0, pool.size, rank_step):   # in chunks: Ctrl-C is seen within 0.1 s
        if deadline.expired():
            return empty
        counts.append(scoring.partition_counts(v, rows_of(pool[start:start + rank_step]), secrets))
    if not counts:
        return empty
    ranked = pool[ranking(chooser.strategy, np.concatenate(counts), pool, v.win_response)]
    if deadline.expired():
        return empty
    packed = scoring.pack(v, rows_of(cands))          # packed once, every chunk streams it
    _ = packed.native                               # (here, not inside the first chunk)
    step = max(1, CHUNK_PAIRS // max(1, int(cands.size)))
    chunks = (ranked[i:i + step] for i in range(0, ranked.size, step))
    best, best_key, scored = None, None, 0
    rest = () if classes is not None else _rest(chooser.space.size, pool, cands, only, step)
    for rows in chain(chunks, rest):
        if deadline.expired():
            break
        found = scoring.partition_counts(v, rows_of(rows), packed)
        key = min(key_of(chooser.strategy, sizes, int(g), v.win_response)
                  for sizes, g in zip(found, rows, strict=True))
        if best_key is None or key < best_key:
            best, best_key = key[2], key
        scored += int(rows.size)
    return Choice(best, scored == total, scored, total, classes is not None,
                  ranked=int(pool.size), sample=int(sample.size))

