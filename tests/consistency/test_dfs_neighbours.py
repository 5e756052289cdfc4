"""One-move neighbour walks (consistency/neighbours.py: MoveTable, local_neighbours), which list
many secrets of a huge consistent set per solver call: the move rule against the scoring core
on every small variant, and the walk's answers (distinct, re-scored) on a huge set."""
import string

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from testkit import variants

from cbsolve import CodeSpace, Variant
from cbsolve.consistency import Query, get_backend
from cbsolve.consistency.native import consistent_indices
from cbsolve.consistency.neighbours import MoveTable, local_neighbours, neighbour_codes
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog, random_log
from cbsolve.game.rule import score


@settings(max_examples=150, deadline=None)
@given(variants(max_length=6, max_symbols=8, max_size=20_000), st.integers(0, 6), st.data())
def test_move_table_keeps_exactly_the_consistent_neighbours(v, n_guesses, data):
    """For consistent codes, the moves the table keeps (no clue's bulls or total changes) are
    exactly the one-move neighbours the scoring core finds consistent."""
    space = CodeSpace(v)
    idx = st.integers(0, space.size - 1)
    secret = space.code_at(data.draw(idx))
    log = FeedbackLog(v)
    for _ in range(n_guesses):
        g = space.code_at(data.draw(idx))
        b, c = score(v, secret, g)
        log.add(space.format(g), b, None if v.bulls_only else c)
    ok = {tuple(c) for c in space.codes[consistent_indices(log)].tolist()}
    codes = sorted(ok)[:: max(1, len(ok) // 4)][:4]      # a few consistent codes, the secret's set
    table = MoveTable(log)
    got = table.of(np.array(codes, dtype=np.uint8))
    want = [tuple(n) for c in codes for n in neighbour_codes(v, c).tolist() if tuple(n) in ok]
    assert sorted(map(tuple, got.tolist())) == sorted(want)   # same moves, none twice per code


def test_walk_lists_many_distinct_consistent_secrets_of_a_huge_set():
    """N=20 of 26 letters with 10 clues (a set far beyond any enumeration): from the hidden
    secret the walk lists 3,000 distinct secrets, each re-scored here."""
    v = Variant(20, string.ascii_uppercase, True)
    log, secret = random_log(v, 10, 3)
    got = local_neighbours(log, [tuple(secret)], 3000, Deadline(20))
    assert len(got) == len(set(got)) == 3000 and got[0] == tuple(secret)
    for code in got[:: 97]:
        for e in log:
            assert score(v, code, e.guess) == (e.bulls, e.cows)


def test_walk_stops_in_a_sparse_set_and_the_solver_completes_it():
    """A sparse set (8 pegs, 6 colours, 4 clues; one-move neighbours rarely consistent):
    listing everything by the SAT backend (walk, then blocks) still gives the whole set."""
    from cbsolve.consistency import dfs

    log, _ = random_log(Variant(8, "123456", True), 4, 1)
    want = dfs.count(log).count
    r = get_backend("sat").solve(log, Query(limit=want + 5), deadline=Deadline.from_limit(60))
    assert r.exact and r.count == want == len(set(r.secrets))


def test_move_table_with_more_than_64_clues():
    """Clue masks span two words: one clue repeated 64 times, then three others (clues 65-67
    live in the second word), on 7 pegs of 4 colours; every consistent code's moves checked."""
    v = Variant(7, "0123", True)
    space = CodeSpace(v)
    secret, *guesses = space.random_codes(4, np.random.default_rng(4))
    log = FeedbackLog(v)
    for g in [guesses[0]] * 64 + guesses[1:]:
        log.add(space.format(g), *score(v, secret, g))
    ok = {tuple(c) for c in space.codes[consistent_indices(log)].tolist()}
    assert len(ok) >= 20
    got = MoveTable(log).of(np.array(sorted(ok), dtype=np.uint8))
    want = [tuple(nb) for c in sorted(ok) for nb in neighbour_codes(v, c).tolist() if tuple(nb) in ok]
    assert sorted(map(tuple, got.tolist())) == sorted(want)
