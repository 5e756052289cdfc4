"""Every instruction-set path of the kernels (cbsolve.runtime.isa: AVX-512, AVX2, the portable baseline)
gives the same results: scoring, strategy choices and evaluations, both exact searches. Each
path is compared with the baseline on the same random inputs; the baseline itself is checked
against the NumPy reference by tests/test_scoring.py and tests/test_strategy*.py."""
from __future__ import annotations

import numpy as np
import pytest

from cbsolve.game import scoring
from cbsolve.runtime import isa
from cbsolve.game.codes import CodeSpace
from cbsolve.search.expected import solve_expected
from cbsolve.search.worst import solve_worst
from cbsolve.strategy import evaluation
from cbsolve.strategy.heuristics import Chooser
from cbsolve.game.variant import Variant

FAST = [p for p in isa.available() if p != "scalar"]
# One word of each kind (the AVX2 four-at-a-time replies), two position words (9 positions), a
# count word per symbol group beyond 64 bits (12 symbols x 6 repeats), bulls only.
VARIANTS = [Variant.preset("mastermind"), Variant.preset("bulls-cows"),
            Variant(9, "0123456789", False), Variant(6, "0123456789AB", True),
            Variant.preset("black-peg")]


def under(path, f):
    with isa.use(path):
        return f()


def test_the_paths_and_the_switch():
    assert isa.available()[0] == "scalar" and set(isa.available()) <= set(isa.PATHS)
    before = isa.current()
    for path in isa.available():
        assert under(path, isa.current) == path
    assert isa.current() == before
    with pytest.raises(ValueError, match="unknown"):
        isa.select("sse9")
    assert "kernels " + before in isa.describe()


@pytest.mark.skipif(not FAST, reason="this processor runs the baseline path only")
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.describe())
def test_scoring_agrees_on_every_path(variant):
    rng = np.random.default_rng(7)
    space = CodeSpace(variant)
    # more than 4 codes and an odd count, so the vector loops' tails are exercised
    g = space.codes[rng.choice(space.size, 37, replace=False)]
    c = space.codes[rng.choice(space.size, 1003, replace=False)]
    resp = scoring.score_matrix(variant, g[:3], c[:1])[:, 0]

    def run():
        return (scoring.score_matrix(variant, g, c), scoring.partition_counts(variant, g, c),
                scoring.counting_verdicts(variant, g, c, 40),
                scoring.filter_mask(variant, c, g[:3], resp))
    base = under("scalar", run)
    assert (base[0] == scoring.score_matrix(variant, g, c, backend="numpy")).all()
    for path in FAST:
        for a, b in zip(under(path, run), base, strict=True):
            assert np.array_equal(a, b), path


@pytest.mark.skipif(not FAST, reason="this processor runs the baseline path only")
@pytest.mark.parametrize("use_matrix", [True, False], ids=["matrix", "on-the-fly"])
def test_strategy_choices_agree_on_every_path(use_matrix):
    # Random candidate sets of every size class: the lane-parallel scan (<= 96 candidates) and
    # the row scan, every heuristic, all guesses and candidates only.
    variant = Variant.preset("bulls-cows")
    rng = np.random.default_rng(11)
    sets = [np.sort(rng.choice(5040, size, replace=False)) for size in (3, 17, 64, 96, 97, 400)]
    for strategy in ("minimax", "expected", "entropy", "parts"):
        for guesses in ("all", "candidates"):
            def run(strategy=strategy, guesses=guesses):
                ch = Chooser(variant, strategy, guesses=guesses, use_matrix=use_matrix)
                return [ch.choose(s) for s in sets]
            base = under("scalar", run)
            for path in FAST:
                assert under(path, run) == base, (path, strategy, guesses)


@pytest.mark.skipif(not FAST, reason="this processor runs the baseline path only")
@pytest.mark.parametrize("strategy", ["minimax", "entropy"])
def test_evaluations_agree_on_every_path(strategy):
    variant = Variant.preset("mastermind")

    def run():
        ev = evaluation.evaluate(variant, strategy, symmetry=False)
        return ev.total, ev.worst
    base = under("scalar", run)
    for path in FAST:
        assert under(path, run) == base, path


@pytest.mark.skipif(not FAST, reason="this processor runs the baseline path only")
@pytest.mark.parametrize("variant", [Variant(3, "1234", True), Variant(3, "012345", False)],
                         ids=["mastermind-3x4", "bulls-cows-3-6"])
def test_exact_searches_agree_on_every_path(variant):
    def run():  # replies from the matrix and scored on the fly
        out = []
        for replies in ("matrix", "on-the-fly"):
            w = solve_worst(variant, workers=1, replies=replies)
            e = solve_expected(variant, workers=1, progress=False, replies=replies)
            out += [w.worst, w.total, e.total, e.worst]
        return out
    base = under("scalar", run)
    for path in FAST:
        assert under(path, run) == base, path
