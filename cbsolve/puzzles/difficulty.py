"""A puzzle's measured difficulty, and the labels easy/medium/hard defined on it.

The measure is the work of one fixed reference solver: it filters the code space with the
clues one at a time, each time taking the clue that leaves the fewest candidates together with
those before it (the order the puzzle lists its entries in). ``candidates_after`` are the
codes still consistent after each clue (the last is 1, the secret); ``carried`` is their sum
before the last clue: the candidates the solver had to keep in mind on the way. Few strong
clues carry little (easy), many weak ones a lot (hard).

``score`` = log(1 + carried) / log(codes) puts games of any size on one scale (0: the first
clue settles it; 1: the solver carried as many candidates as the game has codes). The labels
are bands of the score (:data:`BANDS`), chosen on Bulls & Cows 4/10 so that the middle band
holds about half of the plain random minimal puzzles (docs/contract.md, ``puzzle``).
"""
from __future__ import annotations

import math

#: label -> [lower, upper) of the score.
BANDS = {"easy": (0.0, 0.6), "medium": (0.6, 0.75), "hard": (0.75, math.inf)}
SOLVER = "strongest-clue-first filter"


def measure(candidates_after: list[int], codes: int, every_clue_needed: bool) -> dict:
    """The ``difficulty_measure`` document of a puzzle."""
    carried = sum(candidates_after[:-1])
    return {"solver": SOLVER, "candidates_after": list(candidates_after), "carried": carried,
            "score": round(score(carried, codes), 4), "every_clue_needed": every_clue_needed}


def score(carried: int, codes: int) -> float:
    return math.log1p(carried) / math.log(codes) if codes > 1 else 0.0


def label_of(value: float) -> str:
    for name, (low, high) in BANDS.items():
        if low <= value < high:
            return name
    raise AssertionError(f"score {value} is in no band")


def fits(label: str, candidates_after: list[int], codes: int) -> bool:
    low, high = BANDS[label]
    value = round(score(sum(candidates_after[:-1]), codes), 4)
    return low <= value < high
