"""Symmetry: orbit representatives against a brute-force enumeration of the whole group."""
from functools import cache
from itertools import permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cbsolve.game.codes import CodeSpace
from cbsolve.game.rule import score
from cbsolve.game.symmetry import Symmetry, apply_perm, fixes_history, is_valid_perm
from cbsolve.game.variant import Variant

SMALL = [
    Variant(3, "01234", repeats=False),
    Variant(3, "0123", repeats=True),
    Variant(3, "01234", repeats=False, no_leading_zero=True),
    Variant(3, "0123", repeats=True, no_leading_zero=True),
    Variant(3, "0123", repeats=True, feedback="bulls"),
]


@cache
def whole_group(variant):
    """Every (position, symbol) permutation pair that keeps the code space, enumerated (once
    a variant: the tests ask it for many histories)."""
    return [(p, s) for p in permutations(range(variant.length))
            for s in permutations(range(variant.n_symbols)) if is_valid_perm(variant, (p, s))]


def brute_force_reps(variant, history):
    """Lowest index of each code's orbit under every (position, symbol) permutation pair that
    fixes the history and keeps the code space (the whole group, enumerated)."""
    space = CodeSpace(variant)
    codes = [tuple(int(x) for x in c) for c in space.codes]
    index = {c: i for i, c in enumerate(codes)}
    group = [perm for perm in whole_group(variant) if fixes_history(perm, history)]
    # the group's orbits partition the codes: each orbit is enumerated once, from its first
    # code, and all its members get its lowest index
    reps = np.full(len(codes), -1)
    for i, c in enumerate(codes):
        if reps[i] < 0:
            orbit = [index[apply_perm(g, c)] for g in group]
            reps[orbit] = min(orbit)
    return reps


def test_known_counts():
    # Bulls & Cows 4/10: one first guess and 20 second guesses after 0123 up to symmetry
    # (docs/optimal.md, "Results": the proof that 6 guesses fail runs over these 20).
    bc = Symmetry(Variant.preset("bulls-cows"))
    assert len(bc.guess_representatives([])) == 1
    assert len(bc.guess_representatives([(0, 1, 2, 3)])) == 20
    # Mastermind 4/6: 5 inequivalent first guesses 1111, 1112, 1122, 1123, 1234 (Knuth 1977).
    mm = Symmetry(Variant.preset("mastermind"))
    reps = mm.guess_representatives([])
    assert mm.space.format_many([mm.space.code_at(int(i)) for i in reps]) == \
        ["1111", "1112", "1122", "1123", "1234"]


@pytest.mark.parametrize("variant", SMALL, ids=lambda v: v.describe())
@pytest.mark.parametrize("n_hist", [0, 1, 2])
def test_orbits_match_brute_force(variant, n_hist):
    space = CodeSpace(variant)
    rng = np.random.default_rng(n_hist * 7 + variant.n_symbols)
    for _ in range(3):
        history = [tuple(int(x) for x in space.codes[rng.integers(space.size)])
                   for _ in range(n_hist)]
        sym = Symmetry(variant)
        idx, rep, perms = sym.orbit_map(history)
        assert np.array_equal(rep, brute_force_reps(variant, history))
        for i, r, p in zip(idx, rep, perms, strict=False):
            perm = (p.pos_perm, p.sym_perm)
            assert is_valid_perm(variant, perm)
            assert fixes_history(perm, history)
            assert apply_perm(perm, space.code_at(int(i))) == space.code_at(int(r))


@pytest.mark.parametrize("variant", [*SMALL, Variant(4, "01234", repeats=False),
                                     Variant(4, "0123", repeats=True, no_leading_zero=True)],
                         ids=lambda v: v.describe())
@pytest.mark.parametrize("n_hist", [1, 2])
def test_orbits_from_generators_equal_every_element(variant, n_hist):
    # large stabilisers (a guess of 8 distinct symbols: 8! elements) take their orbits from
    # generators; forced on here, the orbits must equal those from applying every element
    space = CodeSpace(variant)
    rng = np.random.default_rng(n_hist + 11 * variant.length)
    for _ in range(4):
        history = [tuple(int(x) for x in space.codes[rng.integers(space.size)])
                   for _ in range(n_hist)]
        _, every, _ = Symmetry(variant).orbit_map(history)
        forced = Symmetry(variant, generators_from=0)
        idx, generated, perms = forced.orbit_map(history, with_perms=False)
        cands = np.flatnonzero(np.isin(every, every[:5]))   # a union of orbits: closed
        _, generated_cands, _ = forced.orbit_map(history, cands, with_perms=False)
        assert perms is None and np.array_equal(generated, every)
        assert np.array_equal(generated_cands, every[cands])


def test_eight_distinct_symbols_after_one_guess():
    # Stab(01234567) has 8! elements; its orbits on the 40,320 codes are the cycle types of
    # permutations of 8 things (the partitions of 8)
    sym = Symmetry(Variant(8, "01234567", repeats=False))
    assert len(sym.guess_representatives([tuple(range(8))])) == 22


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_maps_preserve_scores_and_consistent_sets(data):
    """A map fixing the history maps the consistent set onto itself and keeps every score."""
    variant = Variant.preset("bulls-cows")
    space = CodeSpace(variant)
    n = data.draw(st.integers(1, 2))
    history = [space.code_at(data.draw(st.integers(0, space.size - 1))) for _ in range(n)]
    secret = space.code_at(data.draw(st.integers(0, space.size - 1)))
    guess = space.code_at(data.draw(st.integers(0, space.size - 1)))
    perm, rep = Symmetry(variant).mapping(history, guess)
    assert fixes_history((perm.pos_perm, perm.sym_perm), history)
    assert perm.apply(guess) == rep and space.index_of(rep) <= space.index_of(guess)
    image = perm.apply(secret)
    assert score(variant, image, rep) == score(variant, secret, guess)
    assert all(score(variant, image, h) == score(variant, secret, h) for h in history)


def test_disabled_is_identity():
    sym = Symmetry(Variant(3, "0123", repeats=False), enabled=False)
    assert len(sym.guess_representatives([])) == sym.space.size


def test_candidates_restrict_and_stay_inside_invariant_sets():
    variant = Variant.preset("mastermind")
    space = CodeSpace(variant)
    sym = Symmetry(variant)
    history = [(0, 0, 1, 1)]
    from cbsolve.game.scoring import score_against
    replies = score_against(variant, np.array(history, dtype=np.uint8), space.codes)
    cands = np.flatnonzero(replies == variant.response_index(0, 1))
    reps = sym.guess_representatives(history, cands)
    assert set(reps.tolist()) <= set(cands.tolist())
    assert 0 < len(reps) < len(cands)


def test_nlz_fixes_position_and_symbol_zero():
    variant = Variant.preset("bulls-cows-no-leading-zero")
    sym = Symmetry(variant)
    reps = sym.guess_representatives([])
    assert sym.space.format_many([sym.space.code_at(int(i)) for i in reps]) == ["1023", "1234"]
    for p, sigma in sym.stabilizer([]):
        assert p[0] == 0 and sigma[0] == 0


@pytest.mark.parametrize("variant, history", [
    (Variant.preset("mastermind"), [(0, 1, 2, 3)]),
    (Variant.preset("mastermind"), [(0, 0, 1, 1), (1, 2, 3, 4)]),
    (Variant(5, "01234567", repeats=True), [(0, 1, 2, 3, 4)]),
    (Variant.preset("bulls-cows"), [(0, 1, 2, 3)]),                   # listed by value search
    (Variant.preset("bulls-cows-no-leading-zero"), [(1, 0, 2, 3)]),
    (Variant(4, "012345", repeats=True), []),
])
def test_native_union_find_gives_the_numpy_orbits(variant, history):
    sym = Symmetry(variant)
    labels, roots = sym.orbit_labels(history)
    _, lowest, _ = sym.orbit_map(history, with_perms=False)
    assert np.array_equal(labels, lowest)
    assert np.array_equal(roots, np.unique(lowest))


def test_native_orbits_stop_at_an_expired_deadline():
    from cbsolve.runtime.deadline import Deadline

    sym = Symmetry(Variant.preset("mastermind"))
    assert sym.orbit_labels([(0, 1, 2, 3)], deadline=Deadline.from_limit(0)) is None


def test_native_union_find_in_small_chunks_reads_each_code_from_its_index():
    """Every base-d string: the kernel counts each code's digits up from its chunk's start."""
    sym = Symmetry(Variant(5, "01234567", repeats=True), orbit_chunk=97)
    labels, _ = sym.orbit_labels([(0, 1, 2, 3, 4)])
    _, lowest, _ = sym.orbit_map([(0, 1, 2, 3, 4)], with_perms=False)
    assert np.array_equal(labels, lowest)


def _column_only(variant):
    """A Symmetry that builds its stabiliser from column classes, as past 8 positions."""
    sym = Symmetry(variant)
    sym._listed = False
    return sym


@pytest.mark.parametrize("variant", SMALL + [Variant(5, "012", repeats=True),
                                             Variant(4, "012345", repeats=False)],
                         ids=lambda v: v.describe()[:30])
def test_column_classes_give_the_whole_group_for_one_guess(variant):
    """For the empty history and for one guess the column-class generators give the whole
    stabiliser: the same orbits as the brute-force group."""
    space = CodeSpace(variant)
    # every 7th code as the guess, at most about a dozen (the brute-force group of 4 of 6
    # distinct has 17,280 maps: its 52 guesses, one orbit, took 3.4 CPU s)
    for history in ([], *([tuple(int(x) for x in c)]
                          for c in space.codes[::max(7, space.size // 12)])):
        got = _column_only(variant).orbit_map(history, with_perms=False)[1]
        assert np.array_equal(got, brute_force_reps(variant, history)), history


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SMALL), st.data())
def test_column_classes_are_a_subgroup_for_longer_histories(variant, data):
    """Past one guess the column-class subgroup may give finer orbits, never coarser: every
    code's representative lies in its true orbit, and each map found fixes the history."""
    space = CodeSpace(variant)
    picks = data.draw(st.lists(st.integers(0, space.size - 1), min_size=2, max_size=3))
    history = [tuple(int(x) for x in space.codes[i]) for i in picks]
    true = brute_force_reps(variant, history)
    idx, reps, perms = _column_only(variant).orbit_map(history)
    assert np.array_equal(true[reps], true[idx])
    for k, perm in zip(idx, perms, strict=True):
        assert fixes_history((perm.pos_perm, perm.sym_perm), history)
        assert space.index_of(perm.apply(space.codes[k])) == reps[list(idx).index(k)]


def test_long_codes_never_list_every_position_map():
    """14 positions (87 billion position maps): the orbits of a guess's second guesses come
    from the column classes, in a few generators (the guess 11111111112222 keeps 10! x 4!)."""
    sym = Symmetry(Variant(14, "01", repeats=True))
    guess = (0,) * 10 + (1,) * 4
    reps = sym.guess_representatives([guess])
    # a second guess is known up to symmetry by its count of 1s in each block: 11 x 5 classes
    assert len(reps) == 11 * 5
