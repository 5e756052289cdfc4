"""Shared pieces of the constraint backends: clues, suffix blocks, and block enumeration.

Place in the data flow: FeedbackLog -> (this module) -> cpsat.py / sat.py. A log entry becomes a
:class:`Clue`: the guess, its bulls, its total matches ``bulls + cows`` (None in bulls-only
mode) and the guess's count ``k_sym`` of every symbol it uses. Both backends encode the secret
as one-hot booleans ``x[pos][sym]`` and a clue as two cardinality constraints:

* bulls: ``sum_pos x[pos][guess[pos]] == bulls``;
* total: ``sum_sym min(k_sym, n_sym) == bulls + cows`` where ``n_sym = sum_pos x[pos][sym]``.
  Because ``k_sym`` is a constant, ``min(k, n) = sum_{t=1..k} [n >= t]``, so with unary count
  indicators ``y[sym][t] <=> n_sym >= t`` the total is a plain sum of booleans. The shortcut
  "total = number of guess symbols present in the secret" equals this only when the secret
  cannot repeat a symbol (then ``min(k, n) = [n >= 1]`` needs ``k = 1`` too); with repeats it is
  wrong, which the tests check.

Enumeration (:func:`enumerate_blocks`) asks a solver ("oracle") for one solution, then lists every
completion of its first ``N - m`` positions by brute force with the scoring core, and blocks that
prefix: each solver call yields a whole block of secrets, all re-scored exactly.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from math import perm
from typing import Protocol

import numpy as np

from .. import scoring
from ..feedback import FeedbackLog
from ..variant import Variant

#: Largest number of suffix completions checked by brute force per solver solution, and the
#: size enumeration starts from (grown while blocks are dense).
SUFFIX_BUDGET = 50_000
START_BUDGET = 200


@dataclass(frozen=True)
class Clue:
    """One entry as constraints: guess symbols, bulls, total matches (None: bulls only)."""

    guess: tuple[int, ...]
    bulls: int
    total: int | None
    counts: dict[int, int]   # symbol -> how often the guess uses it (k_sym)


def clues(log: FeedbackLog) -> list[Clue]:
    return [clue_of(log.variant, e.guess, e.bulls, e.cows) for e in log]


def clue_of(variant: Variant, guess, bulls: int, cows: int) -> Clue:
    guess = tuple(int(s) for s in guess)
    counts: dict[int, int] = {}
    for s in guess:
        counts[s] = counts.get(s, 0) + 1
    total = None if variant.bulls_only else bulls + cows
    return Clue(guess, bulls, total, counts)


def max_counts(variant: Variant, all_clues) -> dict[int, int]:
    """Largest ``k_sym`` over the clues: how far each unary count must be spelled out."""
    need: dict[int, int] = {}
    if variant.bulls_only:
        return need
    for clue in all_clues:
        for s, k in clue.counts.items():
            need[s] = max(need.get(s, 0), k if variant.repeats else 1)
    return need


class Deadline:
    """A wall-clock budget; ``None`` seconds means unlimited."""

    def __init__(self, seconds: float | None):
        self.seconds = seconds
        self.end = None if seconds is None else time.perf_counter() + seconds

    def left(self) -> float | None:
        return None if self.end is None else max(0.0, self.end - time.perf_counter())

    def part(self, fraction: float) -> Deadline:
        """A sub-budget: ``fraction`` of the time left (unlimited stays unlimited)."""
        left = self.left()
        return Deadline(None if left is None else left * fraction)

    def expired(self) -> bool:
        return self.end is not None and time.perf_counter() >= self.end


# --- checking -------------------------------------------------------------------------------
def mismatch_counts(log: FeedbackLog, codes: np.ndarray) -> np.ndarray:
    """For each code (rows of ``codes``), the number of log entries whose reply it contradicts."""
    if len(log) == 0 or codes.shape[0] == 0:
        return np.zeros(codes.shape[0], dtype=np.int32)
    matrix = scoring.score_matrix(log.variant, log.guesses_array(), codes)
    want = np.asarray(log.responses(), dtype=matrix.dtype)[:, None]
    return (matrix != want).sum(axis=0, dtype=np.int32)


def keep_mask(log: FeedbackLog, codes: np.ndarray, lies: int = 0) -> np.ndarray:
    """Codes consistent with all but at most ``lies`` entries."""
    return Checker(log).keep(codes, lies)


class Checker:
    """Re-scores candidate codes against a log; the guesses are packed once."""

    def __init__(self, log: FeedbackLog):
        self.variant = log.variant
        self.n = len(log)
        if self.n:
            self.guesses = scoring.pack(log.variant, log.guesses_array())
            self.responses = np.asarray(log.responses(), dtype=np.int32)

    def keep(self, codes: np.ndarray, lies: int = 0) -> np.ndarray:
        if self.n == 0 or codes.shape[0] == 0:
            return np.ones(codes.shape[0], dtype=bool)
        if lies == 0:
            return scoring.filter_mask(self.variant, codes, self.guesses, self.responses)
        matrix = scoring.score_matrix(self.variant, self.guesses, codes)
        bad = (matrix != self.responses.astype(matrix.dtype)[:, None]).sum(axis=0)
        return bad <= lies


# --- local neighbours -----------------------------------------------------------------------
#: Breadth-first expansion stops after this many secrets have had their neighbours listed.
NEIGHBOUR_EXPANSIONS = 64


def valid_rows(variant: Variant, codes: np.ndarray) -> np.ndarray:
    """Rows that are codes of the variant (alphabet, distinct symbols, no leading zero)."""
    ok = (codes < variant.n_symbols).all(axis=1)
    if variant.no_leading_zero:
        ok &= codes[:, 0] != 0
    if not variant.repeats:
        srt = np.sort(codes, axis=1)
        ok &= (srt[:, 1:] != srt[:, :-1]).all(axis=1)
    return ok


def neighbour_codes(variant: Variant, code) -> np.ndarray:
    """Every code one move from ``code``: two positions swapped (symbol counts kept, so every
    "total matches" reply is kept too) or one position changed."""
    c = np.asarray(code, dtype=np.uint8)
    n, d = c.shape[0], variant.n_symbols
    i, j = np.triu_indices(n, 1)
    pick = c[i] != c[j]
    i, j = i[pick], j[pick]
    swaps = np.repeat(c[None, :], i.shape[0], axis=0)
    rows = np.arange(i.shape[0])
    swaps[rows, i], swaps[rows, j] = c[j], c[i]
    pos, sym = np.divmod(np.arange(n * d), d)
    pick = c[pos] != sym
    subs = np.repeat(c[None, :], int(pick.sum()), axis=0)
    subs[np.arange(subs.shape[0]), pos[pick]] = sym[pick]
    out = np.concatenate([swaps, subs])
    return out[valid_rows(variant, out)]


def local_neighbours(log: FeedbackLog, start, want: int, deadline: Deadline,
                     checker: Checker | None = None) -> list[tuple[int, ...]]:
    """Consistent secrets near the ones in ``start`` (breadth first over one-move neighbours),
    up to ``want`` in all including ``start``. Every code returned is re-scored against the
    whole log by the scoring core, so the answer stays exact; this only makes listing a few
    secrets of a huge set cheap (one solver call instead of one per secret), in the spirit of
    the local moves of min-conflicts search (Minton et al. 1992)."""
    checker = checker or Checker(log)
    found = list(dict.fromkeys(tuple(c) for c in start))
    seen = set(found)
    queue = list(found)
    expanded = 0
    while queue and len(found) < want and expanded < NEIGHBOUR_EXPANSIONS and not deadline.expired():
        code = queue.pop(0)
        expanded += 1
        cand = neighbour_codes(log.variant, code)
        for row in cand[checker.keep(cand)].tolist():
            key = tuple(row)
            if key not in seen:
                seen.add(key)
                found.append(key)
                queue.append(key)
                if len(found) >= want:
                    break
    return found


# --- block enumeration ----------------------------------------------------------------------
class Oracle(Protocol):
    """What :func:`enumerate_blocks` needs from a solver."""

    def find(self, deadline: Deadline) -> tuple[str, tuple[int, ...] | None]:
        """("sat", code) | ("unsat", None) | ("unknown", None) when the deadline hit."""

    def block(self, assignment: list[tuple[int, int]]) -> None:
        """Forbid every secret with all of these (position, symbol) pairs."""


def suffix_length(variant: Variant, budget: int) -> int:
    """Largest m < N whose completion table (D^m or D!/(D-m)!) fits ``budget`` rows."""
    d, m = variant.n_symbols, 0
    while m + 1 < variant.length:
        rows = d ** (m + 1) if variant.repeats else perm(d, m + 1)
        if rows > budget:
            break
        m += 1
    return m


class Completions:
    """All codes sharing a given prefix, as a uint8 array (suffix tables precomputed once)."""

    def __init__(self, variant: Variant, m: int):
        self.variant, self.m = variant, m
        d, n = variant.n_symbols, variant.length
        if variant.repeats:
            it = itertools.product(range(d), repeat=m)
        else:   # positions into the list of symbols the prefix leaves unused
            it = itertools.permutations(range(d - (n - m)), m)
        self.table = np.array(list(it), dtype=np.uint8).reshape(-1, m)

    def of(self, prefix) -> np.ndarray:
        n, m = self.variant.length, self.m
        table = self.table
        if not self.variant.repeats:
            free = np.setdiff1d(np.arange(self.variant.n_symbols, dtype=np.uint8),
                                np.asarray(prefix, dtype=np.uint8))
            table = free[table]
        out = np.empty((table.shape[0], n), dtype=np.uint8)
        out[:, :n - m] = np.asarray(prefix, dtype=np.uint8)
        out[:, n - m:] = table
        return out


def enumerate_blocks(oracle: Oracle, log: FeedbackLog, want: int | None, deadline: Deadline,
                     m: int = 0, lies: int = 0,
                     neighbours: bool = False) -> tuple[list[tuple[int, ...]], str]:
    """Up to ``want`` (None: all) distinct secrets; returns (codes, how) with how one of
    "complete" (all found, the solver proved there are no more), "limit" (stopped at ``want``;
    more may exist) or "timeout".

    ``m`` is the largest suffix completed by brute force. The suffix adapts: it starts short
    (cheap when solutions are sparse) and grows while blocks come back well filled (dense sets:
    one solver call then yields hundreds of secrets). Shrinking is never needed for correctness
    and growing can only re-list secrets already seen, which the ``seen`` set drops.

    ``neighbours``: once, after the first solver secret, add its consistent one-move
    neighbours (:func:`local_neighbours`, re-scored); they are not blocked in the solver, so a
    later solution may repeat one, which ``seen`` drops, and "complete" stays exact.
    """
    if lies == 0 and not neighbours and hasattr(oracle, "find_many") and (
            want is None or want > 2 or (want == 2 and getattr(oracle, "seeded", False))):
        return oracle.find_many(want, deadline)
    found: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()
    n = log.variant.length
    tables: dict[int, Completions] = {}
    checker = Checker(log)
    cur = min(m, suffix_length(log.variant, START_BUDGET))
    while want is None or len(found) < want:
        if neighbours and found:
            neighbours = False
            for key in local_neighbours(log, found, want, deadline, checker)[len(found):]:
                if key not in seen:
                    seen.add(key)
                    found.append(key)
            continue
        t0 = time.perf_counter()
        status, code = oracle.find(deadline)
        t_solve = time.perf_counter() - t0
        if status == "unsat":
            return found, "complete"
        if status == "unknown":
            return found, "timeout"
        assert code is not None
        if cur == 0:
            if code not in seen:
                seen.add(code)
                found.append(code)
            oracle.block(list(enumerate(code)))
            if m > 0 and t_solve > 0.002:
                cur = 1
            continue
        t0 = time.perf_counter()
        comp = tables.get(cur) or tables.setdefault(cur, Completions(log.variant, cur))
        prefix = code[:n - cur]
        block = comp.of(prefix)
        block = block[checker.keep(block, lies)]
        # The solver's own solution must be in its block: a cheap guard on the encoding.
        assert block.shape[0] > 0, "solver returned a secret the scorer rejects"
        for row in block.tolist():
            key = tuple(row)
            if key not in seen:
                seen.add(key)
                found.append(key)
        oracle.block(list(enumerate(prefix)))
        t_fill = time.perf_counter() - t0
        # Balance brute force against solver calls: a longer suffix while completing is much
        # cheaper than solving, a shorter one when it costs more (each at most halves/doubles).
        if cur < m and 2 * t_fill < t_solve:
            cur += 1
        elif cur > 1 and t_fill > 8 * t_solve:
            cur -= 1
    return found, "limit"
