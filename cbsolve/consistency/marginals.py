"""Belief-propagation estimates of P(secret[p] = s) given a feedback log: search guidance.

Place in the data flow: FeedbackLog (+ the count vector, count_vectors.py) -> (this) -> the
order in which CP-SAT tries position/symbol literals (cpsat.py). The marginals decide nothing:
a wrong estimate only costs search time, every answer is still proved by the solver and
re-scored.

Factor graph (sum-product, Pearl 1988; Kschischang, Frey & Loeliger 2001): one variable per
position, its domain the symbols; one factor per clue, "exactly b_g positions show the guess's
symbol", and, when the totals fix the count vector, one factor per symbol, "exactly n_s
positions hold s". Both are "a sum of indicators equals a target", so a factor's message to
position p only needs the distribution of the other positions' indicators, a Poisson-binomial
computed by prefix and suffix convolutions (O(F N^2) per sweep, F factors, N positions).
Messages are damped; a fixed number of sweeps is enough for guidance. The sweeps run in a C++
kernel (cbsolve/_native/belief.cpp: N=40 with 50 / 90 clues, 20 sweeps, 10 / 31 ms against
NumPy's 120 / 230 ms, measured on a loaded machine); the NumPy code
below is its reference, compared with it in the tests.

Measured on the hard band (N=40, 10 digits, repeats; docs/benchmarks.md, "Hard band"): at 30-50 random
clues the argmax agrees with the hidden secret on 16-26 of 40 positions (a random code: 4), and
at 60-90 clues it usually *is* the secret, where a local search's best codes agree on 9-19.
"""
from __future__ import annotations

import numpy as np

from ..game.feedback import FeedbackLog

#: Sum-product sweeps and damping (old message weight): 60 x 0.5 converge on the band's logs.
SWEEPS = 60
DAMPING = 0.5
_FLOOR = 1e-12


def _leave_one_out(pi: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For factor f and position p: P(sum_{q != p} z_q = t_f - 1) and P(... = t_f), where the
    z_q ~ Bernoulli(pi[f, q]) are independent. Prefix/suffix distributions, no division (the
    deconvolution shortcut is unstable for pi near 1)."""
    f_count, n = pi.shape
    pre = np.zeros((n + 1, f_count, n + 1))
    pre[0, :, 0] = 1.0
    for q in range(n):
        a = pi[:, q:q + 1]
        pre[q + 1] = pre[q] * (1 - a)
        pre[q + 1, :, 1:] += pre[q, :, :-1] * a
    suf = np.zeros((n + 1, f_count, n + 1))
    suf[n, :, 0] = 1.0
    for q in range(n - 1, -1, -1):
        a = pi[:, q:q + 1]
        suf[q] = suf[q + 1] * (1 - a)
        suf[q, :, 1:] += suf[q + 1, :, :-1] * a
    # P(prefix_p + suffix_{p+1} = t) = sum_j pre[p, f, j] * suf[p+1, f, t - j]
    j = np.arange(n + 1)
    out = []
    for shift in (1, 0):
        want = targets[:, None] - shift - j[None, :]                 # (F, N+1): t - shift - j
        valid = (want >= 0) & (want <= n)
        idx = np.clip(want, 0, n)
        rows = np.arange(f_count)[:, None]
        # suf[p+1][f, idx[f, j]] for every p: (N, F, N+1)
        picked = suf[1:][:, rows, idx] * valid[None]
        out.append(np.einsum("pfj,pfj->fp", pre[:-1], picked))
    return out[0], out[1]


def marginals(log: FeedbackLog, counts=None, sweeps: int = SWEEPS,
              damping: float = DAMPING, native: bool = True) -> np.ndarray:
    """(N, D) array of estimated P(secret[p] = s), rows summing to 1.

    ``counts``: the secret's symbol counts when known (a single count vector); without them
    only the clues' bulls are used (the totals carry no positional information). ``native``:
    the C++ kernel (``cbsolve._native.belief``, ~7-12x faster: N=40 with 50 / 90 clues, 10 / 31
    ms against 120 / 230 ms); False: this module's NumPy reference, the same computation.
    """
    variant = log.variant
    n, d = variant.length, variant.n_symbols
    factor_symbols = [np.asarray(e.guess, dtype=np.int64) for e in log]
    targets = [e.bulls for e in log]
    if counts is not None:
        for s in range(d):
            factor_symbols.append(np.full(n, s, dtype=np.int64))
            targets.append(int(counts[s]))
    prior = np.zeros((n, d))
    if variant.no_leading_zero:
        prior[0, 0] = -np.inf
    if not factor_symbols:
        return _normalise(prior)
    fsym = np.stack(factor_symbols)                               # (F, N)
    target = np.asarray(targets, dtype=np.int64)
    if native:
        from .._native import belief

        return belief.marginals(fsym.astype(np.uint8), [int(t) for t in targets], d,
                                variant.no_leading_zero, int(sweeps), float(damping))
    onehot = np.zeros((len(fsym), n, d), dtype=bool)              # factor f watches (p, fsym[f, p])
    onehot[np.arange(len(fsym))[:, None], np.arange(n)[None, :], fsym] = True
    # log messages factor -> position: [value matches the factor's symbol, it does not]
    msg = np.zeros((len(fsym), n, 2))
    with np.errstate(divide="ignore"):
        for _ in range(sweeps):
            per_factor = np.where(onehot, msg[:, :, :1], msg[:, :, 1:])   # (F, N, D)
            belief = prior + per_factor.sum(axis=0)
            cavity = _normalise(belief[None] - per_factor)
            pi = np.clip((cavity * onehot).sum(axis=-1), _FLOOR, 1 - _FLOOR)
            match, miss = _leave_one_out(pi, target)
            new = np.log(np.stack([match, miss], axis=-1) + _FLOOR)
            new -= new.max(axis=-1, keepdims=True)
            msg = damping * msg + (1 - damping) * new
        per_factor = np.where(onehot, msg[:, :, :1], msg[:, :, 1:])
        return _normalise(prior + per_factor.sum(axis=0))


def _normalise(logp: np.ndarray) -> np.ndarray:
    """exp and normalise the last axis of log-weights (-inf allowed, not a whole row)."""
    top = logp.max(axis=-1, keepdims=True)
    p = np.exp(logp - top)
    return p / p.sum(axis=-1, keepdims=True)
