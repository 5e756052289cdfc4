"""The worst-case kernel's fast paths against plain NumPy definitions, on arbitrary sets.

The byte-lane class counts, the vector two-guesses test and the flat three-guesses test
(cbsolve/_native/search_worst.cpp) serve the nodes with few guesses left. Here their answers on
random sets are compared with the definitions: two guesses suffice for S when |S| <= 2 or some
guess gives every secret of S its own reply; three when some guess leaves only classes for
which two suffice. Random sets are not closed under the game's symmetries, so symmetry is off.
"""
import numpy as np
import pytest

from cbsolve.search.worst.kernel import _Native
from cbsolve.game.variant import Variant

GAMES = [Variant(4, "123456", repeats=True), Variant(4, "0123456", repeats=False)]
#: (set size, guesses left): sizes around where the answer turns from yes to no
CASES = [(6, 2), (9, 2), (12, 2), (30, 3), (45, 3), (60, 3), (75, 3)]


def _two_suffice(matrix, S):
    if len(S) <= 2:
        return True
    replies = np.sort(matrix[:, S], axis=1)
    return bool((np.diff(replies, axis=1) != 0).all(axis=1).any())


def _three_suffice(matrix, S, win):
    for g in range(len(matrix)):
        replies = matrix[g, S]
        classes = [S[replies == r] for r in np.unique(replies) if r != win]
        if all(_two_suffice(matrix, c) for c in classes):
            return True
    return False


@pytest.mark.parametrize("variant", GAMES, ids=str)
def test_few_guesses_left_match_the_definition(variant):
    native = _Native(variant, "all", {"symmetry": False}, 1)
    matrix = native.matrix.astype(np.int16)
    rng = np.random.default_rng(2026)
    answers = set()
    for size, left in CASES:
        for _ in range(3):
            S = np.sort(rng.choice(len(matrix), size, replace=False)).astype(np.int64)
            got = native.core.feasible(S, left, np.zeros(0, dtype=np.int64))
            want = (_two_suffice(matrix, S) if left == 2
                    else _three_suffice(matrix, S, variant.win_response))
            assert got == int(want), (size, left, S.tolist())
            answers.add(want)
    assert answers == {True, False}  # the cases reach both answers


def test_profile_counts_every_node():
    native = _Native(Variant(4, "123456", repeats=True), "all", {}, 1)
    assert native.run("feasible", 5) == 1
    profile = native.core.profile()
    searched = sum(row[0] + row[1] for row in profile)  # nodes searched + memo hits
    assert searched == native.core.nodes() > 0
    assert profile[5][0] == 1  # the root, with 5 guesses left
