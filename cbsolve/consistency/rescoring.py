"""Re-scoring: every code an engine returns is checked against the log with the scoring core
before it is trusted (an engine's wrong code is a bug, never an answer).

Place in the data flow: scoring -> (this module) -> every engine and the diagnosis.
"""
from __future__ import annotations

import numpy as np

from ..game import scoring
from ..game.feedback import FeedbackLog
from ..game.variant import Variant


def mismatch_counts(log: FeedbackLog, codes: np.ndarray) -> np.ndarray:
    """For each code (rows of ``codes``), the number of log entries whose reply it contradicts."""
    if len(log) == 0 or codes.shape[0] == 0:
        return np.zeros(codes.shape[0], dtype=np.int32)
    matrix = scoring.score_matrix(log.variant, log.guesses_array(), codes)
    want = np.asarray(log.responses(), dtype=matrix.dtype)[:, None]
    return (matrix != want).sum(axis=0, dtype=np.int32)


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


def valid_rows(variant: Variant, codes: np.ndarray) -> np.ndarray:
    """Rows that are codes of the variant (alphabet, distinct symbols, no leading zero)."""
    ok = (codes < variant.n_symbols).all(axis=1)
    if variant.no_leading_zero:
        ok &= codes[:, 0] != 0
    if not variant.repeats:
        srt = np.sort(codes, axis=1)
        ok &= (srt[:, 1:] != srt[:, :-1]).all(axis=1)
    return ok
