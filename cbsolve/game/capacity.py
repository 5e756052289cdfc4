"""Counting (information-theoretic) lower bounds on adaptive strategies.

Place in the data flow: Variant -> (exact sizes) -> here -> the exact searches (their first
depth), the certificate checker (:mod:`cbsolve.certificates.certify`) and :mod:`cbsolve.bounds`, which
combines these with the partition bounds, the optimal search and heuristic strategies. The one
definition of ``capacity``: below every layer that uses it.

A strategy is a tree whose every node is one guess. A node ends the game for at most one secret
(the guess itself, answered by the all-bulls *win* response) and has at most ``R - 1`` children,
one per non-winning reply, where ``R`` counts the replies that can occur at all
(:func:`cbsolve.game.scoring.possible_responses`). So depth ``i`` holds at most ``(R - 1)**(i - 1)``
nodes, and a strategy of at most ``k`` guesses solves at most

    cap(k) = 1 + (R-1) + (R-1)**2 + ... + (R-1)**(k-1)

secrets -- the bound behind Knuth's (1977) and Chvátal's (1983) counting arguments. The same
tree gives the *expected-case* bound by filling the levels greedily: at most one secret can be
solved with 1 guess, ``R - 1`` with 2, ``(R - 1)**2`` with 3, ...; the sum of depths of any
strategy is at least that of the fill (Koyama–Lai 1993 use the same level argument).

All values are exact Python ints, so 26**40 secrets cost microseconds.

>>> worst_lower(1296, 14), total_lower(1296, 14)          # Mastermind 4/6: R = 14
(4, 4986)
>>> capacity(3, 13)                                          # 1 + 12 + 144
157
"""
from __future__ import annotations


def capacity(k: int, responses: int) -> int:
    """Most secrets a strategy of at most ``k`` guesses can solve with ``responses`` replies."""
    if k <= 0:
        return 0
    branch = responses - 1
    if branch <= 1:
        return k if branch == 1 else 1
    return (branch ** k - 1) // (branch - 1)


def worst_lower(secrets: int, responses: int) -> int:
    """Smallest ``k`` with ``capacity(k) >= secrets`` (0 for an empty set)."""
    if secrets <= 0:
        return 0
    if responses <= 2:
        # branch <= 1: each guess removes at most one secret (a chain), or none can branch at all
        return secrets if responses == 2 else (1 if secrets == 1 else _impossible(secrets))
    branch = responses - 1
    k, level, cap = 1, 1, 1
    while cap < secrets:
        level *= branch
        cap += level
        k += 1
    return k


def total_lower(secrets: int, responses: int) -> int:
    """Least possible sum of guesses over ``secrets`` secrets (level-by-level fill)."""
    if secrets <= 0:
        return 0
    if responses <= 2:
        if responses == 2:
            return secrets * (secrets + 1) // 2
        return 1 if secrets == 1 else _impossible(secrets)
    branch = responses - 1
    total, remaining, depth, level = 0, secrets, 1, 1
    while remaining > 0:
        here = min(remaining, level)
        total += depth * here
        remaining -= here
        depth += 1
        level *= branch
    return total


def _impossible(secrets: int) -> int:
    # One reply only: no guess distinguishes anything; more than one secret cannot be solved.
    raise ValueError(f"{secrets} secrets cannot be told apart with a single possible reply")
