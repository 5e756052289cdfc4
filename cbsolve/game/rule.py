"""The scoring rule for one pair in plain Python (no NumPy): the definition every kernel matches.

Kept apart from :mod:`cbsolve.game.scoring` so that scoring a single pair (``cbsolve score``) does not
pay for importing NumPy and the native core; so are the replies a variant can give
(:func:`possible_responses`), which a small game's advice counts without NumPy.
"""
from __future__ import annotations

from dataclasses import dataclass

from .codes import CodeSpace
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


def possible_responses(variant: Variant) -> list[tuple[int, int]]:
    """The replies (bulls, cows) that some guess/secret pair of the variant produces, sorted.

    Derivation (repeats): the non-bull positions, k = N - bulls of them, must differ pairwise,
    and cows = sum_s min(counts) over them. With D >= 3 every cows <= k occurs except k = cows = 1;
    with D = 2 the two parts are complementary, so cows = 2*min(#0, #1) is even; D = 1 allows
    only (N, 0). Distinct: the codes cover 2N - bulls - cows symbols, so bulls + cows >= 2N - D.
    A no-leading-zero rule changes nothing when D >= 3 (a symbol permutation moves any witness
    pair off the first symbol); for D = 2 it pins position 1, shifting the (N-1)-game by one bull.

    >>> len(possible_responses(Variant.preset("mastermind")))
    14
    >>> len(possible_responses(Variant(4, "123456", repeats=False)))
    11
    """
    n, d = variant.length, variant.n_symbols
    if variant.no_leading_zero and d <= 2:
        if n == 1 or not variant.repeats:  # tiny spaces: read them off the full matrix
            return _responses_by_enumeration(variant)
        inner = Variant(n - 1, variant.symbols, True, feedback=variant.feedback)
        pairs = [(b + 1, c) for b, c in possible_responses(inner)]
        return sorted(set(pairs))
    pairs = []
    for b in range(n + 1):
        k = n - b
        for c in range(k + 1):
            if variant.repeats:
                ok = (k == 0) if d == 1 else (c % 2 == 0 if d == 2 else not (k == 1 and c == 1))
            else:
                ok = not (k == 1 and c == 1) and b + c >= 2 * n - d
            if ok:
                pairs.append((b, c))
    if variant.bulls_only:
        pairs = sorted({(b, 0) for b, _ in pairs})
    return pairs


def _responses_by_enumeration(variant: Variant) -> list[tuple[int, int]]:
    """Every pair scored (the tiny spaces above: at most two codes)."""
    space = CodeSpace(variant)
    codes = [space.code_at(i) for i in range(space.size)]
    return sorted({score(variant, s, g) for s in codes for g in codes})


@dataclass(frozen=True)
class Score:
    """One guess scored against one secret; ``to_json()`` is ``cbsolve score --json``
    (no ``cows`` when the variant reports bulls only)."""

    secret: str
    guess: str
    bulls: int
    cows: int | None

    def to_json(self) -> dict:
        data: dict = {"secret": self.secret, "guess": self.guess, "bulls": self.bulls}
        if self.cows is not None:
            data["cows"] = self.cows
        return data
