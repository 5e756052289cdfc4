"""Worst-case exact search: known optima, brute force on tiny games, prunings never change results."""
from functools import cache

import numpy as np
import pytest

from cbsolve.game.capacity import capacity
from cbsolve.certificates.certify import verify
from cbsolve.game.codes import CodeSpace
from cbsolve.runtime.deadline import Deadline
from cbsolve.errors import CbsolveError
from cbsolve.game.rule import score
from cbsolve.search.worst import solve_worst
from cbsolve.search.worst.kernel import _Native
from cbsolve.runtime.status import Status
from cbsolve.game.symmetry import Symmetry
from cbsolve.game.variant import Variant

TINY = [
    Variant(2, "012", repeats=True),
    Variant(3, "012", repeats=True),
    Variant(3, "0123", repeats=False),
    Variant(2, "01234", repeats=False),
    Variant(3, "0123", repeats=False, no_leading_zero=True),
    Variant(3, "012", repeats=True, feedback="bulls"),
    Variant(2, "0123", repeats=True, no_leading_zero=True),
]


def brute_force_worst(variant, candidates_only=False):
    """Plain minimax over every guess, no pruning: the definition of the worst-case optimum."""
    codes = [tuple(int(x) for x in c) for c in CodeSpace(variant).codes]

    @cache
    def worst(S: frozenset) -> int:
        if len(S) == 1:
            return 1
        best = 10 ** 9
        for g in (sorted(S) if candidates_only else codes):
            classes: dict = {}
            for s in S:
                classes.setdefault(score(variant, s, g), []).append(s)
            if len(classes) == 1 and g not in S:
                continue
            cost = max(0 if len(c) == 1 and c[0] == g else worst(frozenset(c))
                       for c in classes.values())
            best = min(best, 1 + cost)
        return best

    return worst(frozenset(codes))


@pytest.mark.parametrize("variant", TINY, ids=lambda v: v.describe())
@pytest.mark.parametrize("guesses", ["all", "candidates"])
def test_tiny_games_match_brute_force(variant, guesses):
    result = solve_worst(variant, guesses=guesses, workers=1)
    assert result.proved and result.status == Status.OPTIMAL
    assert result.worst == brute_force_worst(variant, guesses == "candidates")
    report = verify(result.tree)
    assert report.valid and report.optimal, report.message
    assert report.worst == result.worst and report.total == result.total


def test_mastermind_worst_case_is_five():
    # Knuth 1977: every Mastermind 4/6 secret is found within 5 guesses, and 4 do not suffice.
    result = solve_worst(Variant.preset("mastermind"))
    assert (result.worst, result.lower, result.upper, result.proved) == (5, 5, 5, True)
    assert sum(result.histogram.values()) == 1296
    report = verify(result.tree)
    assert report.valid and report.kind == "tree+lower-bound" and report.optimal
    assert report.lower_bound == 5 and report.total == result.total


SMALL = [Variant(3, "012345", repeats=False), Variant(3, "01234", repeats=True),
         Variant(4, "01234", repeats=False, no_leading_zero=True),
         Variant(3, "0123", repeats=True, feedback="bulls")]


@pytest.mark.parametrize("variant", SMALL, ids=lambda v: v.describe())
def test_prunings_do_not_change_answers(variant):
    """Each pruning switched off alone, and all together: the same decision at every depth."""
    settings = [{}] + [{k: False} for k in ("symmetry", "capacity", "obvious", "order", "memo",
                                            "dedupe")]
    settings.append(dict.fromkeys(("symmetry", "capacity", "obvious", "order", "memo", "dedupe"),
                                  False))
    reference = None
    for prune in settings:
        native = _Native(variant, "all", prune, workers=1)
        answers = [native.run("feasible", d) for d in range(1, 7)]
        if reference is None:
            reference = answers
            assert 0 in answers and 1 in answers
        assert answers == reference, prune
    result = solve_worst(variant, workers=1, prune={"symmetry": False, "memo": False})
    assert result.worst == solve_worst(variant, workers=1).worst == reference.index(1) + 1


@pytest.mark.parametrize("variant", [Variant.preset("bulls-cows"), Variant.preset("mastermind"),
                                     Variant.preset("bulls-cows-no-leading-zero"),
                                     Variant(3, "0123", repeats=True, feedback="bulls")],
                         ids=lambda v: v.describe())
def test_native_symmetry_matches_python(variant):
    native = _Native(variant, "all", {}, workers=1)
    sym = Symmetry(variant)
    space = CodeSpace(variant)
    rng = np.random.default_rng(5)
    for n_hist in (0, 1, 2):
        history = [int(i) for i in rng.integers(space.size, size=n_hist)]
        codes = [space.code_at(i) for i in history]
        got = native.core.representatives(np.array(history, dtype=np.int64))
        assert got == sym.guess_representatives(codes).tolist()


def test_capacity():
    # Bulls & Cows: 13 non-winning replies, cap(k) = (13^k - 1) / 12 (PROTOTYPE-NOTES).
    assert [capacity(k, 14) for k in range(6)] == [(13 ** k - 1) // 12 for k in range(6)]


def test_max_depth_below_optimum_is_certified_infeasible():
    result = solve_worst(Variant.preset("mastermind"), max_depth=4)
    assert result.status == Status.INFEASIBLE and result.lower == 5 and result.tree is None
    from cbsolve.certificates.certify import verify_certificate
    nodes, lower = verify_certificate(result.certificate)
    assert lower == 5 and nodes >= 1


def test_time_limit_reports_bounds():
    result = solve_worst(Variant.preset("bulls-cows"), deadline=Deadline.from_limit(0.05), workers=1)
    assert not result.proved
    assert result.lower is not None and result.lower <= 7
    if result.upper is not None:  # the greedy tree finished before the limit
        assert result.upper >= 7 and verify(result.tree).valid


def test_deadline_while_building_the_tree_is_a_stop_not_an_error():
    """The deadline can pass while the tree is built (after the depth is proved): every guess
    then looks as if it did not work. `optimal --time-limit 3` on Bulls & Cows used to crash
    there ("tree: no guess works"); the kernel now reports a stop (None) and solve_worst falls
    back on the greedy tree."""
    native = _Native(Variant.preset("bulls-cows"), "all", {}, workers=1)
    native.core.set_deadline(0.01)   # checked every 256 nodes; the tree needs far more
    assert native.run("tree", 7) is None


def test_bad_options():
    with pytest.raises(CbsolveError, match="guess set"):
        solve_worst(Variant.preset("mastermind"), guesses="some")
    with pytest.raises(CbsolveError, match="pruning"):
        solve_worst(Variant.preset("mastermind"), prune={"magic": False})
    # Bulls & Cows 5/10: 30,240 codes, a 0.85 GiB reply matrix (and ~0.2 GiB on the fly),
    # over a 128 MiB budget
    with pytest.raises(CbsolveError, match="memory-budget"):
        solve_worst(Variant(5, "0123456789", repeats=False), memory_budget="128M")


@pytest.mark.slow
def test_bulls_and_cows_worst_case_is_seven():
    # Bulls & Cows 4/10: 7 guesses suffice and 6 do not (PROTOTYPE-NOTES; Koyama-Lai style
    # exhaustive search results for MOO are 7).
    result = solve_worst(Variant.preset("bulls-cows"))
    assert (result.worst, result.lower, result.proved) == (7, 7, True)
    report = verify(result.tree)
    assert report.valid and report.optimal and report.lower_bound == 7


def brute_force_fewest_at_depth(variant, W):
    """Fewest secrets finishing at guess W over all strategies finishing every secret by W."""
    codes = [tuple(int(x) for x in c) for c in CodeSpace(variant).codes]
    INF = 10 ** 9

    @cache
    def h(S: frozenset, d: int) -> int:
        if len(S) == 1:
            return 1 if d == 1 else 0
        if d <= 1:
            return INF
        best = INF
        for g in codes:
            classes: dict = {}
            for s in S:
                classes.setdefault(score(variant, s, g), []).append(s)
            if len(classes) == 1 and g not in S:
                continue
            cost = sum(h(frozenset(c), d - 1) for c in classes.values()
                       if not (len(c) == 1 and c[0] == g))
            best = min(best, cost)
        return best

    return h(frozenset(codes), W)


@pytest.mark.parametrize("variant", TINY[:5], ids=lambda v: v.describe())
def test_tie_break_interval_contains_true_minimum(variant):
    result = solve_worst(variant, workers=1, lookahead=8)
    assert verify(result.tree).optimal
    lo, hi = result.at_worst
    assert hi == result.histogram[result.worst]
    assert lo <= brute_force_fewest_at_depth(variant, result.worst) <= hi


def test_memo_stays_within_its_cap():
    """A memo at its byte cap stores nothing more, not even an empty bucket per new set."""
    native = _Native(Variant(4, "0123456", False), "all", {}, 1, memo_bytes=4000)
    assert native.core.feasible(native.all, 5, native.empty) in (0, 1)
    assert 0 < native.core.memo_bytes() <= 4000
    assert native.core.memo_buckets() <= native.core.memo_size()
