"""Scoring: the one rule of the game, implemented twice (native core and NumPy reference).

Score of guess g against secret s: bulls = positions where they agree; cows =
sum over symbols of min(count in g, count in s) - bulls. The score is symmetric.

Response encoding. A reply is stored as one small integer, the *response index*:
``bulls*(N+1) + cows`` in bulls-and-cows mode, ``bulls`` in bulls-only mode. Index arrays are
uint8 while ``(N+1)^2 <= 256`` (N <= 14) and uint16 beyond. ``variant.response_slots`` is the
histogram width; :func:`possible_responses` (:mod:`cbsolve.game.rule`) lists the replies that can
actually occur.

Functions take a :class:`Variant` and codes as ``(n, N)`` uint8 arrays of symbol indices (or a
:class:`Packed` set, which caches the native packing for repeated use). ``backend="numpy"``
selects the reference implementation, used to cross-check the native kernels in the tests.

>>> from cbsolve.game.variant import Variant
>>> v = Variant.preset("bulls-cows")
>>> score(v, (1, 8, 0, 7), (7, 8, 1, 0))   # LeetCode 299: secret 1807, guess 7810 -> 1A3B
(1, 3)
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .._native import scoring as _core
from ..errors import unknown_name
from .rule import possible_responses, score
from .variant import Variant

BACKENDS = ("native", "numpy")
__all__ = ["score", "score_matrix", "score_against", "partition_counts", "counting_verdicts",
           "partition_counts_from_matrix", "filter_mask", "possible_responses", "pack", "Packed"]


def response_dtype(variant: Variant) -> np.dtype:
    return np.dtype(np.uint8 if variant.response_slots <= 256 else np.uint16)


@dataclass(frozen=True)
class Packed:
    """Codes of one variant together with their native packing (built once, on first use)."""

    variant: Variant
    codes: np.ndarray

    @cached_property
    def native(self):
        return _core.PackedCodes(self.codes, self.variant.n_symbols, self.variant.repeats)

    def __len__(self) -> int:
        return int(self.codes.shape[0])


def pack(variant: Variant, codes) -> Packed:
    if isinstance(codes, Packed):
        return codes
    arr = np.ascontiguousarray(np.asarray(codes, dtype=np.uint8))
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] != variant.length:
        raise ValueError(f"codes must have shape (n, {variant.length}), got {arr.shape}")
    return Packed(variant, arr)


def _check_backend(backend: str) -> None:
    if backend not in BACKENDS:
        raise unknown_name("scoring backend", backend, BACKENDS)


def score_matrix(variant: Variant, guesses, secrets, out: np.ndarray | None = None,
                 backend: str = "native") -> np.ndarray:
    """Response indices of every guess (rows) against every secret (columns).

    Pass ``out`` to reuse a buffer: for large matrices allocation costs more than scoring.
    """
    _check_backend(backend)
    g, s = pack(variant, guesses), pack(variant, secrets)
    shape = (len(g), len(s))
    if out is None:
        out = np.empty(shape, dtype=response_dtype(variant))
    elif out.shape != shape or out.dtype != response_dtype(variant) or not out.flags.c_contiguous:
        raise ValueError(f"out must be a C-contiguous {response_dtype(variant)} array of shape {shape}")
    if backend == "native":
        _core.score_matrix_into(g.native, s.native, variant.bulls_only, out)
    else:
        out[...] = _numpy_scores(variant, g.codes, s.codes)
    return out


def score_against(variant: Variant, guess, codes, backend: str = "native") -> np.ndarray:
    """Response index of one guess against each of ``codes``."""
    return score_matrix(variant, pack(variant, guess), codes, backend=backend)[0]


def partition_counts(variant: Variant, guesses, candidates, backend: str = "native") -> np.ndarray:
    """For each guess, the histogram (``response_slots`` wide, uint32) of replies over candidates."""
    _check_backend(backend)
    g, c = pack(variant, guesses), pack(variant, candidates)
    if backend == "native":
        return _core.partition_counts(g.native, c.native, variant.bulls_only, variant.response_slots)
    out = np.zeros((len(g), variant.response_slots), dtype=np.uint32)
    for i in range(len(g)):
        out[i] = np.bincount(_numpy_scores(variant, g.codes[i:i + 1], c.codes)[0],
                             minlength=variant.response_slots)
    return out


def counting_verdicts(variant: Variant, guesses, candidates, threshold: int,
                      backend: str = "native") -> np.ndarray:
    """Per guess (uint8): 0 if some non-winning reply class over ``candidates`` holds more than
    ``threshold`` of them, else 1 if every candidate gives the same non-winning reply, else 2.

    The counting rules of a lower-bound certificate (:mod:`cbsolve.certificates.certify`); the native kernel
    stops scoring a guess once a class passes the threshold."""
    _check_backend(backend)
    g, c = pack(variant, guesses), pack(variant, candidates)
    win = variant.win_response
    if backend == "native":
        return _core.counting_verdicts(g.native, c.native, variant.bulls_only,
                                       variant.response_slots, win, int(threshold))
    counts = partition_counts(variant, g, c, backend="numpy").astype(np.int64)
    useless = (np.count_nonzero(counts, axis=1) == 1) & (counts[:, win] == 0)
    counts[:, win] = 0
    return np.where(counts.max(axis=1) > threshold, 0, np.where(useless, 1, 2)).astype(np.uint8)


def partition_counts_from_matrix(matrix: np.ndarray, rows, cols, slots: int) -> np.ndarray:
    """Histograms of ``matrix[rows][:, cols]`` row by row, without materialising the submatrix."""
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    cols = np.ascontiguousarray(cols, dtype=np.int64)
    return _core.partition_counts_matrix(np.ascontiguousarray(matrix), rows, cols, int(slots))


def filter_mask(variant: Variant, codes, guesses, responses, backend: str = "native") -> np.ndarray:
    """Boolean mask of the codes that give every ``guesses[i]`` the reply ``responses[i]``."""
    _check_backend(backend)
    c, g = pack(variant, codes), pack(variant, guesses)
    resp = np.ascontiguousarray(responses, dtype=np.int32)
    if backend == "native":
        return _core.filter_mask(c.native, g.native, resp, variant.bulls_only)
    mask = np.ones(len(c), dtype=bool)
    for i in range(len(g)):
        mask &= _numpy_scores(variant, g.codes[i:i + 1], c.codes)[0] == resp[i]
    return mask


# --- NumPy reference ----------------------------------------------------------------------
def _numpy_scores(variant: Variant, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
    """Plain reference: bulls by comparison, bulls+cows by per-symbol minimum of counts."""
    n1 = variant.length + 1
    out = np.empty((guesses.shape[0], secrets.shape[0]), dtype=np.int64)
    sym = np.arange(variant.n_symbols)
    sec_counts = (secrets[:, :, None] == sym).sum(axis=1)  # (S, D)
    chunk = max(1, 4_000_000 // max(1, secrets.shape[0] * max(variant.length, variant.n_symbols)))
    for start in range(0, guesses.shape[0], chunk):
        g = guesses[start:start + chunk]
        bulls = (g[:, None, :] == secrets[None, :, :]).sum(axis=2)
        if variant.bulls_only:
            out[start:start + chunk] = bulls
            continue
        g_counts = (g[:, :, None] == sym).sum(axis=1)
        total = np.minimum(g_counts[:, None, :], sec_counts[None, :, :]).sum(axis=2)
        out[start:start + chunk] = bulls * n1 + (total - bulls)
    return out.astype(response_dtype(variant))

