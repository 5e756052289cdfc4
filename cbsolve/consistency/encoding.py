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
from ..deadline import Deadline  # noqa: F401  (re-exported: the engines import it from here)
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
#: Breadth-first expansion stops after this many expansions in a row that found nothing new
#: (a sparse set: back to the solver), or when ``want`` secrets or the deadline are reached.
NEIGHBOUR_STALL = 64
#: Codes expanded together (one vectorised neighbour table and one scoring call per batch);
#: the batch doubles from 1, so a find-one + ``determined`` query still expands one code.
NEIGHBOUR_BATCH = 64


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
    "total matches" reply is kept too) or one position changed. ``code`` may also be a (k, N)
    array: the neighbours of every row, concatenated."""
    c = np.asarray(code, dtype=np.uint8)
    c = c.reshape(-1, c.shape[-1])
    k, n, d = c.shape[0], c.shape[1], variant.n_symbols
    i, j = np.triu_indices(n, 1)
    swaps = np.repeat(c, i.shape[0], axis=0)              # row r*P + t: code r, pair t
    rows = np.arange(swaps.shape[0])
    ii, jj = np.tile(i, k), np.tile(j, k)
    a, b = swaps[rows, ii], swaps[rows, jj]
    swaps[rows, ii], swaps[rows, jj] = b, a
    swaps = swaps[a != b]
    pos, sym = np.divmod(np.arange(n * d), d)
    subs = np.repeat(c, n * d, axis=0)
    rows = np.arange(subs.shape[0])
    pp, ss = np.tile(pos, k), np.tile(sym, k).astype(np.uint8)
    keep = subs[rows, pp] != ss
    subs[rows, pp] = ss
    out = np.concatenate([swaps, subs[keep]])
    return out[valid_rows(variant, out)]


def _bits(flags: np.ndarray) -> list[np.ndarray]:
    """A boolean array's last axis (the clues) as uint64 bit masks, 64 clues per mask."""
    out = []
    for lo in range(0, max(flags.shape[-1], 1), 64):
        part = flags[..., lo:lo + 64]
        w = (np.uint64(1) << np.arange(part.shape[-1], dtype=np.uint64))
        out.append((part.astype(np.uint64) * w).sum(axis=-1, dtype=np.uint64))
    return out


class MoveTable:
    """The consistent one-move neighbours of consistent codes, without re-scoring them: a move
    keeps every reply iff it changes no clue's bulls and no clue's total. A swap of positions
    i, j (symbols a != b) keeps the counts, hence the totals, and keeps guess g's bulls iff
    [g_i = b] + [g_j = a] = [g_i = a] + [g_j = b]. Changing position p from a to s keeps the
    bulls iff [g_p = s] = [g_p = a] and the total iff [n_s < k_gs] = [n_a <= k_ga] (a copy of s
    gained, one of a lost; ``min(k, n)`` moves only below k). Per clue these are bits, so all
    clues are compared at once as bit masks (64 clues a word), vectorised over a batch."""

    def __init__(self, log: FeedbackLog):
        v = log.variant
        self.variant, self.n, self.d = v, v.length, v.n_symbols
        g = log.guesses_array() if len(log) else np.zeros((0, v.length), np.uint8)
        self.k = np.zeros((g.shape[0], self.d), dtype=np.int16)   # k_gs
        for row, guess in enumerate(g):
            np.add.at(self.k[row], guess, 1)
        syms = np.arange(self.d)
        self.bp = _bits(g.T[:, None, :] == syms[None, :, None])   # [p, s]: clues with g_p = s
        self.i, self.j = np.triu_indices(self.n, 1)

    def of(self, codes: np.ndarray) -> np.ndarray:
        """Consistent neighbours of the rows of ``codes`` (each consistent), concatenated."""
        v, n, d = self.variant, self.n, self.d
        c = codes.astype(np.intp)
        k = c.shape[0]
        i, j = self.i, self.j
        a, b = c[:, i], c[:, j]                                     # (k, P)
        ok = a != b
        for bp in self.bp:
            x1, x2, y1, y2 = bp[i, b], bp[j, a], bp[i, a], bp[j, b]
            ok &= ((x1 ^ x2) == (y1 ^ y2)) & ((x1 & x2) == (y1 & y2))
        if v.no_leading_zero:
            ok &= ~((i == 0)[None] & (b == 0))
        r, t = np.nonzero(ok)
        swaps = codes[r].copy()
        rows = np.arange(r.size)
        swaps[rows, i[t]] = codes[r, j[t]]
        swaps[rows, j[t]] = codes[r, i[t]]
        pos = np.arange(n)
        ok = np.arange(d)[None, None, :] != c[:, :, None]            # (k, N, D): s != a
        for bp in self.bp:
            ok &= bp[None, :, :] == bp[pos[None, :], c][:, :, None]
        cnt = np.zeros((k, d), dtype=np.int16)                       # n_s per code
        np.add.at(cnt, (np.arange(k)[:, None], c), 1)
        if not v.bulls_only and self.k.shape[0]:
            kt = self.k.T[None]                                      # (1, D, G)
            gains = _bits(cnt[:, :, None] < kt)                      # [r, s]: adding s gains
            loses = _bits(cnt[:, :, None] <= kt)                     # [r, a]: removing a loses
            for gm, lm in zip(gains, loses, strict=True):
                ok &= gm[:, None, :] == np.take_along_axis(lm, c, axis=1)[:, :, None]
        if not v.repeats:
            ok &= (cnt == 0)[:, None, :]
        if v.no_leading_zero:
            ok[:, 0, 0] = False
        r, p, sy = np.nonzero(ok)
        subs = codes[r].copy()
        subs[np.arange(r.size), p] = sy
        return np.concatenate([swaps, subs])


def local_neighbours(log: FeedbackLog, start, want: int, deadline: Deadline,
                     checker: Checker | None = None) -> list[tuple[int, ...]]:
    """Consistent secrets near the ones in ``start`` (breadth first over one-move neighbours),
    up to ``want`` in all including ``start``. Moves are kept by :class:`MoveTable` and every
    new code is re-scored against the whole log by the scoring core, so the answer stays
    exact; this makes listing many secrets of a huge set cheap (one solver call instead of one
    per secret), in the spirit of the local moves of min-conflicts search (Minton et al.
    1992). The walk goes on while it finds new secrets (it stops after ``NEIGHBOUR_STALL``
    fruitless expansions in a row), expanding a growing batch of codes per vectorised step."""
    checker = checker or Checker(log)
    n = log.variant.length
    found = list(dict.fromkeys(bytes(bytearray(c)) for c in start))
    first = len(found)
    seen = set(found)
    moves = MoveTable(log)
    head, batch, stall = 0, 1, 0
    while (head < len(found) and len(found) < want and stall < NEIGHBOUR_STALL
           and not deadline.expired()):
        todo = found[head:head + batch]
        head += len(todo)
        cand = np.ascontiguousarray(moves.of(np.frombuffer(b"".join(todo), dtype=np.uint8).reshape(-1, n)))
        before = len(found)
        for key in cand.view(f"V{n}").ravel().tolist():
            if key not in seen:
                seen.add(key)
                found.append(key)
        stall = 0 if len(found) > before else stall + len(todo)
        batch = min(2 * batch, NEIGHBOUR_BATCH)
    found = found[:max(want, first)]
    new = np.frombuffer(b"".join(found[first:]), dtype=np.uint8).reshape(-1, n)
    if not checker.keep(new).all():   # re-scored: a wrong move rule is a bug, never an answer
        raise RuntimeError("a one-move neighbour contradicts the log")
    return [tuple(k) for k in found]


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
