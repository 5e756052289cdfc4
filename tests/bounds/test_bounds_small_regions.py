"""Small regions solved by searched decision trees (cbsolve/bounds/small_regions.py): every
tree identifies every arrangement of its count vector within the tabulated depth the bound
charges, and the regions strategy plays them within its proved worst case."""
from __future__ import annotations

import itertools

import pytest

from cbsolve.bounds import small_regions as sr
from cbsolve.bounds.constructive import _locate_exact
from cbsolve.bounds.regions import SplitThenLocate, split_locate_worst
from cbsolve.game.rule import score
from cbsolve.game.variant import Variant


def _vectors(sizes):
    return [c for m in sizes for q in range(1, m + 1) for c in sr.count_vectors(m, q)]


def _replay_every_arrangement(counts: tuple[int, ...]) -> int:
    """Deepest walk of the tree over all arrangements; the bulls come from the game's scorer
    (labels 0..q-1 are the region's symbols, q the filler, which never scores inside)."""
    m, q = sum(counts), len(counts)
    game = Variant.from_options(length=m, digits=q + 1, repeats=True, feedback="bulls")
    tree, deepest = sr.region_tree(counts), 0
    cells = [label for label, k in enumerate(counts) for _ in range(k)]
    for secret in set(itertools.permutations(cells)):
        node, asked = tree, 0
        while node[0] != "leaf":
            node, asked = node[1][score(game, secret, node[0])[0]], asked + 1
        assert node[1] == secret
        deepest = max(deepest, asked)
    return deepest


def test_the_table_holds_every_count_vector_up_to_the_largest_region():
    assert set(sr.TREE_DEPTHS) == set(_vectors(range(1, sr.MAX_POSITIONS + 1)))


@pytest.mark.parametrize("counts", _vectors(range(1, 7)))
def test_every_tree_up_to_six_positions_identifies_every_arrangement(counts):
    assert _replay_every_arrangement(counts) == sr.TREE_DEPTHS[counts]


@pytest.mark.slow
@pytest.mark.parametrize("counts", _vectors([7]))
def test_every_tree_of_seven_positions_identifies_every_arrangement(counts):
    assert _replay_every_arrangement(counts) == sr.TREE_DEPTHS[counts]


def test_trees_never_cost_more_than_locating_one_symbol_after_another():
    for m in range(2, sr.MAX_POSITIONS + 1):
        for q in range(1, m + 1):
            assert sr.small_region_worst(m, q) <= _locate_exact(m, 1, q)


def test_every_arrangement_of_five_distinct_symbols_of_six_within_the_bound():
    # The whole board is one region of 5 positions holding 5 symbols, the sixth the filler.
    v = Variant.from_options(length=5, digits=6, repeats=True, feedback="bulls")
    bound = split_locate_worst(v)
    for secret in itertools.permutations(range(6), 5):
        guesses = SplitThenLocate(v).play(lambda code, secret=secret: score(v, secret, code)[0])
        assert guesses[-1] == secret and len(guesses) <= bound
