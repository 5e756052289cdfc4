"""The scoring rule for one pair in plain Python (no NumPy): the definition every kernel matches.

Kept apart from :mod:`cbsolve.scoring` so that scoring a single pair (``cbsolve score``) does not
pay for importing NumPy and the native core.
"""
from __future__ import annotations

from .variant import Variant


def score(variant: Variant, secret, guess) -> tuple[int, int]:
    """(bulls, cows) of one pair given as symbol-index sequences (cows 0 in bulls-only mode).

    bulls = positions where they agree; cows = sum over symbols of min(count in guess,
    count in secret) - bulls.
    """
    secret, guess = list(secret), list(guess)
    bulls = sum(1 for a, b in zip(secret, guess, strict=True) if a == b)
    if variant.bulls_only:
        return bulls, 0
    total = sum(min(secret.count(s), guess.count(s)) for s in set(guess))
    return bulls, total - bulls
