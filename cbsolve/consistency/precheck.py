"""Two entries that cannot both hold, seen by counting alone (no search).

Place in the data flow: FeedbackLog -> (this module) -> dfs.py, before the native search. The
search propagates each clue on its own, so two clues that contradict each other only through
the positions they share (one guess answered twice with different bulls, a guess and a near
copy whose bulls differ by more than the positions changed) leave it an exhaustive search over
a huge space (N=40 digits: `unknown` after 10 s; found by scripts/stress/audit_inconsistent.py),
where these necessary conditions, checked for every pair, answer in microseconds:

* bulls: let the guesses agree on ``a`` positions and differ on ``N - a``. The secret's bulls on
  the shared positions count for both (at most ``a``); on the others each position matches
  at most one guess. So ``b_i + b_j - 2 min(a, b_i, b_j) <= N - a``.
* totals: ``total = sum_s min(k_s, n_s)`` moves by at most 1 when one ``k_s`` moves by 1, so
  ``|t_i - t_j| <= N - sum_s min(k_is, k_js)`` (the guesses' multiset distance).

Both are implied by the rules, so a pair that breaks one is a proof of inconsistency, never a
guess; passing them proves nothing. The check grows with the square of the log (20,000 entries:
13 s), so it stops at its deadline: a check cut short has proved nothing either.
"""
from __future__ import annotations

import numpy as np

from ..runtime.deadline import Deadline
from ..game.feedback import FeedbackLog


def pair_conflict(log: FeedbackLog, deadline: Deadline | None = None) -> tuple[int, int] | None:
    """1-based numbers (i < j) of the first pair of entries that cannot both hold by the
    conditions above, or None (also when ``deadline`` expired first)."""
    k = len(log)
    if k < 2:
        return None
    v = log.variant
    n = v.length
    g = log.guesses_array().astype(np.int16)
    b = np.array([e.bulls for e in log], dtype=np.int32)
    counts = None
    if not v.bulls_only:
        t = b + np.array([e.cows for e in log], dtype=np.int32)
        counts = np.zeros((k, v.n_symbols), dtype=np.int32)
        np.add.at(counts, (np.repeat(np.arange(k), n), g.ravel()), 1)
    for i in range(k - 1):
        if deadline is not None and deadline.expired():
            return None
        same = (g[i + 1:] == g[i]).sum(axis=1)                       # a, per later entry
        bj = b[i + 1:]
        shared = np.minimum(np.minimum(same, bj), b[i])
        bad = b[i] + bj - 2 * shared > n - same
        if counts is not None:
            distance = n - np.minimum(counts[i + 1:], counts[i]).sum(axis=1)
            bad |= np.abs(t[i + 1:] - t[i]) > distance
        hit = np.flatnonzero(bad)
        if hit.size:
            return i + 1, i + 2 + int(hit[0])
    return None
