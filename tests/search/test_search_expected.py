"""Exact expected-case search: cross-checked against a plain exhaustive search on tiny games,
every pruning switched off in turn, trees replayed with the scoring rule, known results."""
from __future__ import annotations

import itertools
from functools import cache
from pathlib import Path

import pytest
from testkit import TINY, informative_splits, replay

from cbsolve.game.codes import CodeSpace
from cbsolve.runtime.deadline import Deadline
from cbsolve.errors import InvalidVariant, SpaceTooLarge, UnknownName
from cbsolve.game.rule import score
from cbsolve.search.expected import PRUNINGS, solve_expected
from cbsolve.runtime.status import Status, StopReason
from cbsolve.game.variant import Variant

INF = (10**9, 10**9)


def exhaustive(variant: Variant, max_depth: int | None = None, candidates_only: bool = False):
    """(total, worst) of the best strategy by plain recursion over every guess: no bounds, no
    symmetry, no shortcuts; the definition the search must match. None if the cap is infeasible."""
    codes = [tuple(c) for c in CodeSpace(variant).codes]
    table = {(g, s): score(variant, s, g) for g in codes for s in codes}
    win = (variant.length, 0)

    @cache
    def best(secrets: tuple, left: int):
        if left <= 0:
            return INF
        if len(secrets) == 1:
            return (1, 1)
        result = INF
        for _g, classes in informative_splits(table, secrets if candidates_only else codes,
                                               secrets, win):
            total, worst = len(secrets), 1
            for reply, members in classes.items():
                if reply == win:
                    continue
                t, w = best(tuple(members), left - 1)
                total, worst = total + t, max(worst, 1 + w)
            result = min(result, (total, worst))
        return result

    value = best(tuple(codes), max_depth or len(codes) + 1)
    return None if value[0] >= INF[0] else value


def check(result, variant: Variant) -> None:
    """The returned tree solves every secret and its statistics are what the result claims."""
    hist = replay(variant, result.tree)
    assert hist == result.histogram
    assert result.total == sum(k * v for k, v in hist.items())
    assert result.worst == max(hist)
    assert result.tree["stats"]["total"] == result.total
    assert result.tree["strategy"] == "optimal-expected"




@pytest.mark.parametrize("variant", TINY, ids=lambda v: v.describe())
def test_optimum_matches_exhaustive_search(variant):
    want = exhaustive(variant)
    result = solve_expected(variant, progress=False, workers=2)
    assert result.proved and result.status is Status.OPTIMAL
    assert (result.total, result.worst) == want
    assert result.lower == result.upper == result.total
    check(result, variant)


@pytest.mark.parametrize("variant", TINY[:6], ids=lambda v: v.describe())
def test_consistent_guesses_only(variant):
    want = exhaustive(variant, candidates_only=True)
    result = solve_expected(variant, guesses="candidates", progress=False)
    assert (result.total, result.worst) == want
    assert result.tree["guesses"] == "candidates"
    check(result, variant)
    # every guess of the tree is consistent with the replies on its path
    space = CodeSpace(variant)

    def walk(node, history):
        guess = space.parse(node["guess"])
        assert all(score(variant, guess, g) == r for g, r in history)
        for reply, child in (node.get("children") or {}).items():
            b, _, c = reply.partition(",")
            walk(child, history + [(guess, (int(b), int(c or 0)))])

    walk(result.tree["root"], [])


@pytest.mark.parametrize("variant", [TINY[1], TINY[3], TINY[4], TINY[6]], ids=lambda v: v.describe())
def test_depth_cap(variant):
    free = exhaustive(variant)
    for cap in range(1, free[1] + 1):
        want = exhaustive(variant, max_depth=cap)
        result = solve_expected(variant, max_depth=cap, progress=False)
        assert result.proved
        if want is None:
            assert result.status is Status.INFEASIBLE and result.total is None
            assert any("at most" in note for note in result.notes)
        else:
            assert (result.total, result.worst) == want
            assert result.worst <= cap
            check(result, variant)


@pytest.mark.parametrize("off", PRUNINGS)
def test_each_pruning_switched_off_gives_the_same_optimum(off):
    for variant in (TINY[1], TINY[4], TINY[6]):
        want = exhaustive(variant)
        result = solve_expected(variant, progress=False, prune={off: False})
        assert (result.total, result.worst) == want
        check(result, variant)


@pytest.mark.parametrize("variant", [TINY[1], TINY[4], TINY[6], Variant(4, "1234", True)],
                         ids=lambda v: v.describe())
def test_large_classes_split_among_workers_give_the_same_optimum(variant):
    # The driver expands big classes itself, guesses shared by the threads; force it on tiny
    # games (every class) and compare with the plain search and the exhaustive reference.
    want = exhaustive(variant) if variant.length < 4 else None
    split = solve_expected(variant, progress=False, workers=2, split_min=2)
    plain = solve_expected(variant, progress=False, workers=1, split_min=10**9)
    assert (split.total, split.worst) == (plain.total, plain.worst)
    if want is not None:
        assert (split.total, split.worst) == want
    check(split, variant)
    if variant.length < 4:  # consistent guesses only, and a depth cap, through the split too
        cands = solve_expected(variant, guesses="candidates", progress=False, workers=2,
                               split_min=2)
        assert (cands.total, cands.worst) == exhaustive(variant, candidates_only=True)
        check(cands, variant)
        cap = want[1] - 1
        capped = solve_expected(variant, max_depth=cap, progress=False, workers=2)
        best = exhaustive(variant, max_depth=cap)
        assert (capped.total, capped.worst) == (best if best else (None, None))


def test_single_worker_and_threads_agree():
    v = Variant(4, "1234", True)
    one = solve_expected(v, progress=False, workers=1)
    two = solve_expected(v, progress=False, workers=2)
    assert (one.total, one.worst) == (two.total, two.worst)
    check(two, v)


def test_mastermind_4_6():  # ~0.5-1 s (scripts/bench/bench_expected.py)
    # Koyama & Lai (1993), J. Recreational Math. 25: optimal expected case 5625/1296 = 4.340.
    v = Variant.preset("mastermind")
    result = solve_expected(v, progress=False)
    assert result.proved and result.total == 5625
    check(result, v)


def test_mastermind_4_6_at_most_5_guesses():  # ~1 s
    # Koyama & Lai (1993): 5626 when no secret may need a sixth guess.
    v = Variant.preset("mastermind")
    result = solve_expected(v, max_depth=5, progress=False)
    assert result.proved and result.total == 5626 and result.worst == 5
    check(result, v)


@pytest.mark.slow  # ~150 s wall on the shared 2-core machine (scripts/bench/bench_expected.py)
def test_bulls_cows_4_10():
    # Tanaka (1996): the optimal expected case of Bulls & Cows 4/10 is 26274/5040 = 5.213.
    v = Variant.preset("bulls-cows")
    result = solve_expected(v, progress=False, deadline=Deadline.from_limit(3600))
    assert result.proved and result.total == 26274
    check(result, v)


def test_time_limit_returns_proved_bounds():
    """Under a 0.05 s deadline the search decides one of three things, and what it claims must
    hold whichever it was (how far it got depends on the machine and its load): the optimum;
    a strategy and an interval around the optimum; or, stopped before any strategy, only a
    lower bound. Each stop says so in a note."""
    v = Variant.preset("mastermind")
    result = solve_expected(v, deadline=Deadline.from_limit(0.05), progress=False, workers=1)
    if result.proved:  # a very fast machine: then it must be the optimum
        assert result.status is Status.OPTIMAL and result.total == 5625
        return
    assert result.stop is StopReason.TIME
    assert any(note.startswith("time limit") for note in result.notes), result.notes
    if result.status is Status.UNKNOWN:   # stopped before the greedy strategy was complete
        assert result.upper is None and result.total is None and result.tree is None
        assert result.lower is None or result.lower <= 5625
        return
    assert result.status is Status.FEASIBLE
    assert result.lower <= 5625 <= result.upper == result.total
    check(result, v)


def test_an_expired_deadline_leaves_the_counting_bound_alone():
    """A deadline already spent (a library's time_limit=0): no strategy, the counting bound as
    the lower bound (4986 < 5625, Mastermind 4x6), and a note saying why."""
    v = Variant.preset("mastermind")
    result = solve_expected(v, deadline=Deadline.from_limit(0), progress=False, workers=1)
    assert result.status is Status.UNKNOWN and not result.proved and result.upper is None
    assert result.lower is not None and result.lower <= 5625
    assert result.notes == [f"time limit before a strategy was found: total at least {result.lower}"]


def test_bad_arguments():
    v = Variant(2, "012", True)
    with pytest.raises(UnknownName, match="candidates"):
        solve_expected(v, guesses="consistent")
    with pytest.raises(InvalidVariant, match="max depth"):
        solve_expected(v, max_depth=0)
    with pytest.raises(UnknownName, match="memo"):
        solve_expected(v, prune={"nope": False})
    with pytest.raises(SpaceTooLarge, match="memory-budget"):
        solve_expected(Variant(5, "0123456789", False), memory_budget="512M")


def test_exhaustive_reference_itself():
    # Hand-checkable: 2 positions over {0,1} with repeats (4 secrets). Guess 01: 00 -> 1,0 ...
    # every reply class has at most 2 members; the best total is 1 + 2*1 + ... computed by hand:
    # guess 00 first: replies 2,0 (00), 1,0 (01, 10), 0,0 (11); then 01 splits {01, 10}.
    # totals: 00 -> 1; 11 -> 2; 01 -> 2; 10 -> 3 => 8, worst 3 (no guess splits all four).
    v = Variant(2, "01", True)
    codes = list(itertools.product(range(2), repeat=2))
    assert len({tuple(score(v, s, g) for s in codes) for g in codes}) > 1
    assert exhaustive(v) == (8, 3)
    assert (solve_expected(v, progress=False).total, solve_expected(v, progress=False).worst) == (8, 3)


@pytest.mark.parametrize("variant", [Variant.preset("mastermind"), Variant.preset("bulls-cows"),
                                     Variant(3, "01234", False, no_leading_zero=True),
                                     Variant(4, "012345", True, feedback="bulls")],
                         ids=lambda v: v.describe())
def test_native_stabiliser_matches_the_symmetry_module(variant):
    """The core's guess reduction by the stabiliser of the history keeps exactly the orbit
    representatives (lowest index) that cbsolve.game.symmetry computes, at depths 0, 1 and 2."""
    import numpy as np

    from cbsolve.search.expected.search import _Search
    from cbsolve.game.symmetry import Symmetry

    search = _Search(variant, None, "all", 1, True, None, 1000)
    sym = Symmetry(variant)
    space, matrix = search.space, search.matrix
    rng = np.random.default_rng(7)
    secret = int(rng.integers(space.size))
    histories = [[], [0], [0, int(rng.integers(space.size))], [int(rng.integers(space.size))]]
    for history in histories:
        members = np.arange(space.size)
        for g in history:
            members = members[matrix[g][members] == matrix[g][secret]]
        members = np.ascontiguousarray(members, dtype=np.int32)
        if len(members) < 3:
            continue
        played = search.played_mask(history)
        native = {x[0] for x in search.solver.scan(members, 0, played, None, history)}
        reps = sym.guess_representatives([tuple(space.codes[g]) for g in history])
        python = {x[0] for x in search.solver.scan(members, 0, played,
                                                   np.asarray(reps, dtype=np.int32), None)}
        assert native == python, history


MODELS = Path(__file__).resolve().parents[2] / "models"
# Koyama & Lai (1993): 5625 (first guess 1123), 5626 with at most 5 guesses.
# Tanaka (1996): 26274 for Bulls & Cows 4/10 (first guess 0123 up to symmetry).
STORED = {"mastermind-4-6-expected.json": (5625, None), "mastermind-4-6-expected-depth5.json": (5626, 5),
          "bulls-cows-4-10-expected.json": (26274, None)}


@pytest.mark.parametrize("name", sorted(STORED))
def test_stored_trees_replay_to_the_published_optimum(name):
    from cbsolve.certificates.tree import histogram_of, read_tree

    tree = read_tree(MODELS / name)
    variant = Variant.from_dict(tree["variant"])
    total, cap = STORED[name]
    hist = replay(variant, tree)
    assert sum(k * v for k, v in hist.items()) == total == tree["stats"]["total"]
    assert histogram_of(variant, tree["root"]) == hist
    assert tree["strategy"] == "optimal-expected" and tree["proved"] is True
    if cap is not None:
        assert max(hist) <= cap and tree["max_depth"] == cap


def test_the_guess_queue_tier_changes_no_node():
    # the core heaps a node's guesses below a tier (smallest bound + slack) and sets the others
    # aside: any tier, or none (-1), pops the same guesses in the same order
    import numpy as np

    from cbsolve.game.feedback import random_log
    from cbsolve.search.expected import INF_T, INF_W
    from cbsolve.search.position import Position, expected_search

    v = Variant.preset("mastermind")
    positions = [Position.from_log(random_log(v, 1, seed)[0]) for seed in range(8)]
    seen = set()
    for slack in (-1, 0, 10, 400):
        search = expected_search(v, None, "all", memo_entries=1 << 18)
        search.solver.tier_slack_pct = slack
        out = []
        for p in positions:
            members = np.ascontiguousarray(p.members, dtype=np.int32)
            hist = [int(g) for g in p.history]
            out.append((search.solver.solve(members, 0, INF_T, INF_W, search.played_mask(hist),
                                             None, search.native_history(hist)),
                        search.solver.best_guess(members, 0)))
        seen.add((tuple(out), search.solver.nodes))
    assert len(seen) == 1
