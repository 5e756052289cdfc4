"""One-move neighbours of consistent secrets: listing many secrets of a huge set from one.

Place in the data flow: rescoring -> (this module) -> blocks.enumerate_blocks (after a
solver's first secret). A move swaps two positions or changes one; :class:`MoveTable` keeps the
moves that keep every reply without re-scoring, and every new code is re-scored anyway.
"""
from __future__ import annotations

import numpy as np

from ..runtime.deadline import Deadline
from ..game.feedback import FeedbackLog
from ..game.variant import Variant
from .rescoring import Checker, valid_rows

#: Breadth-first expansion stops after this many expansions in a row that found nothing new
#: (a sparse set: back to the solver), or when ``want`` secrets or the deadline are reached.
NEIGHBOUR_STALL = 64
#: Codes expanded together (one vectorised neighbour table and one scoring call per batch);
#: the batch doubles from 1, so a find-one + ``determined`` query still expands one code.
NEIGHBOUR_BATCH = 64


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
