"""The settle table of a set of secrets S: b(j), the most secrets a subset of S can have and
still be found within j guesses, read off the reply classes of every allowed guess on S. It is
finer than counting's cap(j) where S's classes are uneven, and it is what a certificate node's
``limit`` claims (docs/tree-format.md, "Lower-bound certificate format"): with k guesses left,
a guess with a non-winning class larger than b(k-1) starts no strategy, so it needs no
sub-proof. The worst-case kernel computes the same table (search_worst_settle.hpp); this one,
used by the verifier, shares nothing with it but the definition.

    b(0) = 0, b(1) = 1,
    b(j) = min(cap(j), max(b(j-1), max over guesses x of [x in S] + sum over x's
                                    non-winning classes C on S of min(b(j-1), |C|))).

Why (induction on j): a subset U of S that j guesses settle has a first guess x; U's secrets
other than x lie in x's non-winning classes on U, each inside x's class C on S and each found
within j-1 more guesses, so each has at most min(b(j-1), |C|) secrets; x itself counts only
when it is in U, hence in S. The b(j-1) floor stands for the guesses that add nothing.
"""
from __future__ import annotations

import numpy as np

from ..game.capacity import capacity


def settle_table(counts: np.ndarray, member: np.ndarray, win: int, n_responses: int,
                 depth: int) -> list[int]:
    """[b(0), ..., b(depth)] from ``counts`` (one row of class sizes per allowed guess, indexed
    by reply, the winning reply's column ``win`` ignored) and ``member`` (the guess is in S)."""
    nonwin = np.delete(np.asarray(counts, dtype=np.int64), win, axis=1)
    inside = np.asarray(member, dtype=np.int64)
    table = [0, 1][: depth + 1]
    for j in range(2, depth + 1):
        best = int((inside + np.minimum(nonwin, table[-1]).sum(axis=1)).max(initial=0))
        table.append(min(capacity(j, n_responses), max(table[-1], best)))
    return table
