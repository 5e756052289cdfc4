"""Scoring on the fly (no score matrix) makes the same choices and trees as the matrix path."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from testkit import variants

from cbsolve import CodeSpace, Variant
from cbsolve.strategy import evaluation
from cbsolve.runtime.deadline import Deadline
from cbsolve.strategy.heuristics import SCORED, Chooser, DeadlineExpired

GAMES = [
    Variant.preset("mastermind"),
    Variant.preset("black-peg"),                          # bulls only, repeats
    Variant(4, "012345", repeats=False, feedback="bulls"),  # bulls only, distinct
    Variant(4, "0123456", repeats=False),                 # distinct
    Variant(3, "01234", repeats=True, no_leading_zero=True),
    Variant(5, "0123", repeats=True),                     # more candidates than slots: histograms
    Variant(5, "012345", repeats=False),                  # 120 maps fix 01234: orbits from generators
    # the kernel shapes beyond one position word and one count word (the native scans reach
    # them through a function pointer, the one-word shape inlined)
    Variant(2, "0123456789abcdefghijklmnopqrstuvw", repeats=True),  # 33 x 2 count bits: two words
]
#: Two position words. Their 9! position maps make the symmetric evaluation cost 4-20 s of CPU
#: a tree (the plain one 0.02 s), so the default run checks the symmetric path on them once (the
#: cheapest: entropy over all guesses) and the slow run every strategy on both.
LONG = [
    Variant(9, "01", repeats=True),                       # two position words
    Variant(9, "01", repeats=True, feedback="bulls"),     # two position words, bulls only
]


def evaluate_with(monkeypatch, variant, strategy, guesses, *, use_matrix, symmetry):
    """``evaluate`` with the Chooser's matrix use forced (the default picks by space size)."""
    make = Chooser
    monkeypatch.setattr(evaluation, "Chooser",
                        lambda *a, **k: make(*a, use_matrix=use_matrix, **k))
    return evaluation.evaluate(variant, strategy, guesses=guesses, symmetry=symmetry)


def _same_tree_as_matrix(monkeypatch, variant, strategy, guesses, symmetries):
    want = evaluate_with(monkeypatch, variant, strategy, guesses, use_matrix=True,
                         symmetry=False).tree
    for symmetry in symmetries:
        got = evaluate_with(monkeypatch, variant, strategy, guesses, use_matrix=False,
                            symmetry=symmetry).tree
        assert got == want, symmetry


@pytest.mark.parametrize("variant", GAMES, ids=lambda v: v.describe()[:40])
@pytest.mark.parametrize("strategy", SCORED)
@pytest.mark.parametrize("guesses", ["all", "candidates"])
def test_same_tree_as_matrix(monkeypatch, variant, strategy, guesses):
    _same_tree_as_matrix(monkeypatch, variant, strategy, guesses, (False, True))


@pytest.mark.parametrize("variant", LONG, ids=lambda v: v.describe()[:40])
@pytest.mark.parametrize("strategy", SCORED)
@pytest.mark.parametrize("guesses", ["all", "candidates"])
def test_same_tree_as_matrix_on_two_position_words(monkeypatch, variant, strategy, guesses):
    _same_tree_as_matrix(monkeypatch, variant, strategy, guesses, (False,))


@pytest.mark.parametrize("variant, strategy, guesses", [
    pytest.param(v, s, g, id=f"{g}-{s}-{v.describe()[:40]}",
                 marks=() if (v, s, g) == (LONG[0], "entropy", "all") else (pytest.mark.slow,))
    for v in LONG for s in SCORED for g in ("all", "candidates")])
def test_symmetric_tree_on_two_position_words(monkeypatch, variant, strategy, guesses):
    _same_tree_as_matrix(monkeypatch, variant, strategy, guesses, (True,))


@st.composite
def large_node(draw):
    """A node with up to 300 candidates: both native paths (few / many candidates) are hit."""
    v = draw(variants(max_length=5, max_symbols=6, max_size=2000))
    size = CodeSpace(v).size
    idx = draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=min(size, 300),
                        unique=True))
    return v, np.array(sorted(idx), dtype=np.int64), draw(st.sampled_from(SCORED)), \
        draw(st.sampled_from(["all", "candidates"]))


@settings(max_examples=120, deadline=None)
@given(large_node())
def test_node_choice_matches_matrix(case):
    v, cands, strategy, guesses = case
    want = Chooser(v, strategy, guesses, use_matrix=True).choose(cands)
    assert Chooser(v, strategy, guesses, use_matrix=False).choose(cands) == want


def test_default_uses_no_matrix_for_large_spaces():
    logik = Variant(5, "12345678", repeats=True)          # 32,768 codes: 1 GiB as a matrix
    assert Chooser(logik, "minimax").matrix is None
    assert Chooser(Variant.preset("mastermind"), "minimax").matrix is not None


@settings(max_examples=80, deadline=None)
@given(large_node(), st.integers(1, 400))
def test_choice_over_chunks_is_the_whole_choice(case, chunk_pairs):
    """With a deadline the guesses are scored in chunks (the deadline looked at between them)
    and the best of the chunks' winners is played: the same guess as one call over all."""
    v, cands, strategy, guesses = case
    want = Chooser(v, strategy, guesses, use_matrix=False).choose(cands)
    chunked = Chooser(v, strategy, guesses, use_matrix=False, deadline=Deadline.from_limit(None))
    chunked.chunk_pairs = chunk_pairs * cands.size          # 1..400 guesses a chunk
    assert chunked.choose(cands) == want


def test_expired_deadline_stops_between_chunks():
    """A spent deadline stops a node's choice before its first chunk is scored."""
    chooser = Chooser(Variant(14, "01", repeats=True), "minimax", use_matrix=False,
                      deadline=Deadline.from_limit(0.0))
    with pytest.raises(DeadlineExpired):
        chooser.choose(np.arange(CodeSpace(chooser.variant).size, dtype=np.int64))
