"""Strategies: published Mastermind values, the native heuristic kernel against a plain
reference, tree replay with the pure-Python scorer, symmetry on/off, sampling, next-guess."""
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from testkit import replay_with_rule, variants

from cbsolve import CodeSpace, Variant
from cbsolve._native import strategy as _native
from cbsolve.errors import InconsistentLog, UnknownName
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.rule import score
from cbsolve.strategy import STRATEGIES, choose_next, evaluate
from cbsolve.strategy.heuristics import SCORED, Chooser, log2_table
from cbsolve.certificates.tree import count_nodes

MASTERMIND = Variant.preset("mastermind")


def check_consistent(evaluation, variant):
    """The tree solves every secret and its stats, the evaluation's numbers agree with a replay."""
    counts = replay_with_rule(variant, evaluation.tree)
    hist = Counter(counts.values())
    assert dict(hist) == evaluation.histogram
    assert evaluation.total == sum(counts.values())
    assert evaluation.worst == max(counts.values())
    assert evaluation.secrets == len(counts) == CodeSpace(variant).size
    stats = evaluation.tree["stats"]
    assert (stats["total"], stats["worst"], stats["secrets"]) == (
        evaluation.total, evaluation.worst, evaluation.secrets)
    assert stats["histogram"] == {str(k): v for k, v in sorted(hist.items())}


# --- published values ------------------------------------------------------------------------
# Mastermind 4 pegs, 6 colours, guesses from all 1296 codes. Totals, worst cases and the number
# of secrets needing 6 or more guesses, as tabulated by S. Gur, "Mastermind strategies"
# (serkangur.freeservers.com) and Kooi 2005, "Yet another Mastermind strategy", ICGA J. 28(1):
#   simple (first consistent code, opening 1111; Shapiro 1983): 7471, worst 9, 853 secrets 6+;
#   worst case (Knuth 1977, "The computer as Master Mind"):      5801, worst 5;
#   entropy (Neuwirth 1982):                                      5722, worst 6, 12 secrets 6+;
#   expected size (Irving 1979):                                  5696, worst 6, 3 secrets 6+;
#   most parts (Kooi 2005):                                       5668, worst 6, 7 secrets 6+.
@pytest.mark.parametrize("strategy, first, total, worst, six_plus", [
    ("minimax", None, 5801, 5, 0),
    ("expected", None, 5696, 6, 3),
    ("entropy", None, 5722, 6, 12),
    ("parts", None, 5668, 6, 7),
    ("first", "1111", 7471, 9, 853),
])
def test_published_mastermind(strategy, first, total, worst, six_plus):
    ev = evaluate(MASTERMIND, strategy, first=first)
    assert (ev.total, ev.worst) == (total, worst)
    assert sum(v for k, v in ev.histogram.items() if k >= 6) == six_plus
    check_consistent(ev, MASTERMIND)


def test_knuth_distribution():
    # Knuth 1977: 1, 6, 62, 533, 694 secrets solved in 1..5 guesses; opening 1122.
    ev = evaluate(MASTERMIND, "minimax")
    assert ev.histogram == {1: 1, 2: 6, 3: 62, 4: 533, 5: 694}
    assert ev.first == "1122"
    assert ev.to_json()["histogram"] == {"1": 1, "2": 6, "3": 62, "4": 533, "5": 694}


# --- the kernel against a plain reference ----------------------------------------------------
def reference_choice(variant, strategy, cands, guesses):
    """Best guess by the definitions, in Python integers (entropy compared exactly through
    prod n^n, which orders sum n log n exactly), with the documented tie-break."""
    space = CodeSpace(variant)
    codes = [space.code_at(i) for i in range(space.size)]
    cand_set = set(cands)
    pool = sorted(cands) if guesses == "candidates" else range(space.size)
    best = None
    for g in pool:
        sizes = Counter(score(variant, codes[s], codes[g]) for s in cands).values()
        if strategy == "minimax":
            key = max(sizes)
        elif strategy == "expected":
            key = sum(n * n for n in sizes)
        elif strategy == "entropy":
            key = 1
            for n in sizes:
                key *= n ** n
        else:
            key = -len(sizes)
        k = (key, g not in cand_set, g)
        if best is None or k < best:
            best = k
    return best[2]


@st.composite
def node_case(draw):
    v = draw(variants(max_length=4, max_symbols=5, max_size=400))
    size = CodeSpace(v).size
    idx = draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=min(size, 40),
                        unique=True))
    return v, sorted(idx), draw(st.sampled_from(["minimax", "expected", "entropy", "parts"])), \
        draw(st.sampled_from(["all", "candidates"]))


@settings(max_examples=150, deadline=None)
@given(node_case())
def test_kernel_matches_reference(case):
    v, cands, strategy, guesses = case
    want = reference_choice(v, strategy, cands, guesses)
    arr = np.array(cands, dtype=np.int64)
    for use_matrix in (True, False):  # full-matrix kernel and on-the-fly histograms
        ch = Chooser(v, strategy, guesses, use_matrix=use_matrix)
        assert ch.choose(arr) == want, (use_matrix, v, cands)
    # the uint16 instantiation (response indices of N >= 15) on the same matrix, widened
    ch = Chooser(v, strategy, guesses, use_matrix=True)
    wide = ch.matrix.astype(np.uint16)
    got = _native.best_guess_matrix(wide, np.empty(0, np.int64), arr, ch.slots, ch.win,
                                    ch.max_classes, SCORED.index(strategy),
                                    guesses == "candidates", log2_table(arr.size))
    assert got == want


def test_entropy_ties_are_exact():
    # {4,1,1,1,1} and {2,2,2,2} have equal sum n log2 n (= 8): the fixed-point table must give
    # bit-identical sums, in any order; so do 6^6 = 2^6 3^6 ({6} vs {2,2,2,3,3}).
    L = log2_table(64).astype(object)
    t = [n * L[n] for n in range(65)]
    assert t[4] + 4 * t[1] == 4 * t[2]
    assert t[6] + 6 * t[1] == 3 * t[2] + 2 * t[3]
    rng = np.random.default_rng(0)
    for a, b in rng.integers(1, 64, size=(50, 2)):
        big = log2_table(int(a * b))
        assert big[a * b] == big[a] + big[b]
    assert abs(float(L[3]) / 2**52 - np.log2(3)) < 1e-12


# --- trees, strategies, variants -------------------------------------------------------------
@pytest.mark.parametrize("variant", [
    Variant(3, "0123", repeats=True, feedback="bulls"),          # bulls-only replies
    Variant(3, "012345", repeats=False, no_leading_zero=True),  # distinct, no leading zero
    Variant(2, "ABC", repeats=True),
    Variant(1, "xyz", repeats=False),
])
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_trees_replay(variant, strategy):
    ev = evaluate(variant, strategy, seed=3)
    check_consistent(ev, variant)
    assert ev.tree["variant"] == variant.to_dict()
    assert ev.tree["format"] == "cbsolve-tree" and ev.tree["version"] == 1


def test_guesses_candidates_only_plays_candidates():
    ev = evaluate(MASTERMIND, "minimax", guesses="candidates")
    check_consistent(ev, MASTERMIND)
    space = CodeSpace(MASTERMIND)

    def walk(node, cands):
        guess = space.parse(node["guess"])
        assert guess in cands
        for reply, child in node.get("children", {}).items():
            b, c = map(int, reply.split(","))
            walk(child, [s for s in cands if score(MASTERMIND, s, guess) == (b, c)])

    walk(ev.tree["root"], [space.code_at(i) for i in range(space.size)])
    assert ev.guesses == "candidates"


def test_random_is_seeded():
    a = evaluate(MASTERMIND, "random", seed=7)
    b = evaluate(MASTERMIND, "random", seed=7)
    assert a.tree == b.tree
    check_consistent(a, MASTERMIND)


def test_first_guess_fixed():
    ev = evaluate(MASTERMIND, "minimax", first="1234")
    assert ev.first == "1234" and ev.tree["root"]["guess"] == "1234"
    check_consistent(ev, MASTERMIND)


@pytest.mark.parametrize("strategy", ["minimax", "expected", "entropy", "parts"])
@pytest.mark.parametrize("variant", [MASTERMIND, Variant(4, "012345", False, True),
                                     Variant.preset("black-peg")])
def test_symmetry_gives_identical_trees(variant, strategy):
    plain = evaluate(variant, strategy)
    reduced = evaluate(variant, strategy, symmetry=True)
    assert plain.tree == reduced.tree


def test_sample_estimate():
    exact = evaluate(MASTERMIND, "minimax")
    # estimate() itself: evaluate() plays every secret once a sample is at least their number
    from cbsolve.strategy.evaluation import estimate

    est = estimate(MASTERMIND, "minimax", 1500, seed=11)
    assert est.estimate and est.total is None and est.sample == 1500
    assert sum(est.histogram.values()) == 1500
    assert set(est.histogram) <= set(exact.histogram)   # same strategy, same depths
    lo, hi = est.ci95
    assert lo < exact.average < hi
    js = est.to_json()
    assert js["estimate"] is True and js["exact"] is False and js["worst_observed"] <= 5


def test_unknown_names():
    with pytest.raises(UnknownName, match="strategy 'knuth'"):
        evaluate(MASTERMIND, "knuth")
    with pytest.raises(UnknownName, match="guess set"):
        evaluate(MASTERMIND, "minimax", guesses="some")


# --- next guess -------------------------------------------------------------------------------
def test_next_guess_opening_and_determined():
    log = FeedbackLog(MASTERMIND)
    advice = choose_next(log, "minimax")
    assert advice.guess == "1122" and advice.candidates == 1296 and not advice.determined
    log.add("1122", 4, 0)
    advice = choose_next(log, "entropy")
    assert advice.determined and advice.guess == "1122" and advice.candidates == 1


def test_next_guess_follows_the_tree():
    # The advice after a log equals the evaluation tree's node for the same replies.
    ev = evaluate(MASTERMIND, "expected")
    node, log = ev.tree["root"], FeedbackLog(MASTERMIND)
    for _ in range(3):
        # follow the reply with the biggest subtree, so the path is three guesses deep
        reply, child = max(node["children"].items(), key=lambda kv: count_nodes(kv[1]))
        b, c = map(int, reply.split(","))
        log.add(node["guess"], b, c)
        node = child
        assert choose_next(log, "expected").guess == node["guess"]


def test_next_guess_inconsistent():
    log = FeedbackLog.parse(Variant.preset("bulls-cows"), ["0123:0,1", "0123:1,1"])
    with pytest.raises(InconsistentLog) as info:
        choose_next(log)
    assert info.value.conflict == [1, 2]


@pytest.mark.parametrize("preset", ["bulls-cows", "bulls-cows-no-leading-zero"])
def test_bulls_and_cows_tree_replays(preset):
    variant = Variant.preset(preset)
    ev = evaluate(variant, "minimax")
    check_consistent(ev, variant)
    # counting bound: three more guesses settle at most 1 + 13 + 13^2 = 183 codes (13
    # non-winning replies), so a root reply class larger than that forces a 5th guess
    space = CodeSpace(variant)
    opening = space.parse(ev.first)
    largest = max(Counter(score(variant, space.code_at(i), opening)
                          for i in range(space.size)).values())
    assert largest > 183 and ev.worst >= 5


def test_one_advice_type_the_service_wraps_the_strategy_layers_choice():
    """The strategy layer returns its choice (no advice type of its own); the position
    service's Advice wraps it with the provenance, the document `cbsolve next` prints."""
    import cbsolve.strategy as strategy
    from cbsolve.advisor import Advice, PositionService

    assert not hasattr(strategy, "Advice")
    log = FeedbackLog.parse(Variant.preset("bulls-cows"), ["0123:1,2", "4567:0,1"])
    choice = choose_next(log, "first")
    advice = PositionService(log.variant).advise(log, strategy="first")
    assert isinstance(advice, Advice) and not isinstance(choice, Advice)
    assert (advice.guess, advice.candidates, advice.partition) == (
        choice.guess, choice.candidates, choice.partition)
    assert advice.source == "heuristic" and advice.to_json()["guess"] == choice.guess
