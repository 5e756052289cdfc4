"""The expected-case kernel's shortcuts for a new guess's reply classes (the scan that counts
only the guesses whose bound can matter, solve's tiers of the other codes, the closed forms of
small sets) change no answer: the same values, the same optimal guesses, the same nodes, on
random positions of two games; and regret's exact answers equal the full search's. The
worst-case kernel's review of a guess (one call; member-only strategies tried first) equals
each class decided in full."""
from __future__ import annotations

import numpy as np
import pytest
from testkit import random_positions

import cbsolve as cb
from cbsolve.game.codes import CodeSpace
from cbsolve.game.feedback import random_log
from cbsolve.search.position import Position
from cbsolve.strategy.exact import cached_search


def reply_class_sets(variant, positions: int, seed: int, most: int = 90):
    """(members, history) of random positions (two or three entries, 4..``most`` secrets) and
    of the reply classes of 4 or more secrets that random guesses leave there."""
    search = cached_search(variant)
    rng = np.random.default_rng(seed)
    out = []
    for s in range(positions):
        log, _ = random_log(variant, 2 + s % 2, seed * 1000 + s)
        p = Position.from_log(log)
        members = np.ascontiguousarray(p.members, dtype=np.int32)
        if not 4 <= members.size <= most:
            continue
        history = [int(x) for x in p.history]
        out.append((members, history))
        for g in rng.integers(search.matrix.shape[0], size=3):
            replies = search.replies(int(g), members)
            for r in np.unique(replies):
                cls = members[replies == r]
                if r != variant.win_response and cls.size >= 4:
                    out.append((np.ascontiguousarray(cls, dtype=np.int32), [*history, int(g)]))
    return out


def fresh_solve(search, members, history):
    """(total, worst, an optimal guess, nodes) of one set, the table cleared first."""
    s = search.solver
    s.clear_memo()
    before = s.nodes
    t, w, exact = s.solve(members, search.depth, 1 << 60, 1 << 30, search.played_mask(history),
                          None, search.native_history(history))
    assert exact
    return t, w, s.best_guess(members, search.depth), s.nodes - before


@pytest.mark.parametrize("preset, positions", [("bulls-cows", 40), ("mastermind", 16)])
def test_the_pruned_scan_and_the_tiers_change_no_value_guess_or_node(preset, positions):
    # opt_prefilter off: every guess of a scan counted (the search as it was); the nodes are
    # equal because the same guesses pop in the same order
    variant = cb.Variant.preset(preset)
    search = cached_search(variant)
    sets = reply_class_sets(variant, positions, seed=5)
    assert len(sets) >= 30
    try:
        for members, history in sets:
            search.solver.opt_prefilter = True
            pruned = fresh_solve(search, members, history)
            search.solver.opt_prefilter = False
            full = fresh_solve(search, members, history)
            assert pruned == full, (members.size, pruned, full)
    finally:
        search.solver.opt_prefilter = True
        search.solver.clear_memo()


def test_the_closed_forms_of_small_sets_agree_with_the_search():
    # opt_obvious off: no closed form at all, every small set searched
    variant = cb.Variant.preset("bulls-cows")
    search = cached_search(variant)
    small = [(m, h) for m, h in reply_class_sets(variant, 60, seed=9, most=60) if m.size <= 15]
    assert len(small) >= 40
    try:
        for members, history in small:
            search.solver.opt_obvious = True
            closed = fresh_solve(search, members, history)[:2]
            search.solver.opt_obvious = False
            assert fresh_solve(search, members, history)[:2] == closed
    finally:
        search.solver.opt_obvious = True
        search.solver.clear_memo()


def test_regret_equals_the_full_search_on_random_positions():
    # each guess's cost against n + the full search of each reply class (every shortcut off),
    # on a table the position's solve did not fill
    variant = cb.Variant.preset("bulls-cows")
    space, search = CodeSpace(variant), cached_search(variant)
    rng = np.random.default_rng(17)
    checked = 0
    for log, position in random_positions(variant, range(400, 450), 100, min_size=2):
        members = np.asarray(position.members)
        for g in rng.integers(space.size, size=4):
            r = cb.regret(space.format(space.codes[int(g)]), log.tokens(), variant=variant)
            assert r.exact and r.regret >= 0 and r.cost >= r.best
            replies = search.replies(int(g), members)
            full = int(members.size)
            try:
                search.solver.opt_prefilter = search.solver.opt_obvious = False
                for reply in np.unique(replies):
                    cls = np.ascontiguousarray(members[replies == reply], dtype=np.int32)
                    if reply != variant.win_response:
                        full += fresh_solve(search, cls, [*position.history, int(g)])[0]
            finally:
                search.solver.opt_prefilter = search.solver.opt_obvious = True
                search.solver.clear_memo()
            assert r.cost == full
            checked += 1
    assert checked >= 40


def plain_minimax(core, members, hist) -> int:
    """The minimax optimum of ``members`` after ``hist`` by the kernel's decisions alone,
    upward from 1 guess."""
    d = 1
    while not core.feasible(members, d, hist):
        d += 1
    return d


def plain_core(search):
    """The worst-case kernel with no member-first shortcut (every node searched)."""
    from cbsolve.advisor.exact_cost import worst_core

    core = worst_core(search)
    core.configure({"candidates_only": search.cand_only, "threads": 1, "members_first": 0})
    return core


@pytest.mark.parametrize("preset, seeds", [("bulls-cows", range(700, 740)),
                                           ("mastermind", range(300, 330))])
def test_a_guess_worst_case_in_one_call_equals_each_class_decided_in_full(preset, seeds):
    # the one call (partition, classes largest first, member-only strategies first, decisions
    # from the floor up) against 1 + the largest minimax optimum of the classes, each decided
    # from 1 upward by a kernel without the shortcut
    from cbsolve.runtime.deadline import Deadline
    from cbsolve.advisor.exact_cost import PositionCores, worst_core

    variant = cb.Variant.preset(preset)
    space, search = CodeSpace(variant), cached_search(variant)
    rng = np.random.default_rng(23)
    fast, plain = worst_core(search), plain_core(search)
    checked = 0
    for _, position in random_positions(variant, seeds, 100, min_size=2):
        cores = PositionCores(search, lambda: fast, position)
        members = cores.members.astype(np.int64)
        hist = [int(g) for g in position.history]
        optimum = cores.worst_optimum(Deadline(None))[0]
        assert optimum == plain_minimax(plain, members, np.asarray(hist, dtype=np.int64))
        for g in map(int, rng.integers(space.size, size=4)):
            replies = search.replies(g, cores.members)
            after = np.asarray([*hist, g], dtype=np.int64)
            classes = [members[replies == r] for r in np.unique(replies)
                       if r != variant.win_response]
            full = 1 + max((plain_minimax(plain, c, after) for c in classes), default=0)
            assert cores.worst_cost(g, Deadline(None)) == full >= optimum
            checked += 1
    assert checked >= 40


@pytest.mark.parametrize("preset", ["bulls-cows", "mastermind"])
def test_member_only_strategies_decide_as_the_full_search(preset):
    # a node settled by guessing only its members is feasible, and the answers with the
    # shortcut equal those without it at every depth from 2 to 4 (yes and no both occur)
    from cbsolve.advisor.exact_cost import worst_core

    variant = cb.Variant.preset(preset)
    search = cached_search(variant)
    answers = {True: 0, False: 0}
    for members, history in reply_class_sets(variant, 24, seed=9, most=60):
        members64, hist = members.astype(np.int64), np.asarray(history, dtype=np.int64)
        for d in (2, 3, 4):
            fast, plain = worst_core(search), plain_core(search)   # fresh tables
            answer = fast.feasible(members64, d, hist)
            assert answer == plain.feasible(members64, d, hist)
            answers[bool(answer)] += 1
    assert answers[True] >= 20 and answers[False] >= 20
