"""Properties of the scoring rule and agreement of the native core with the NumPy reference."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from testkit import brute_force_codes, variants

from cbsolve import CodeSpace, Variant
from cbsolve.game import scoring as S
from cbsolve.game.rule import score

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@st.composite
def variant_and_pair(draw):
    """Any variant up to N=64 (multi-word packing, uint16 responses) and two random codes."""
    symbols = LETTERS + LETTERS.lower() + "0123456789"  # 62 symbols
    repeats = draw(st.booleans())
    n = draw(st.integers(1, 64 if repeats else len(symbols)))
    d = draw(st.integers(1 if repeats else n, len(symbols)))
    nlz = draw(st.booleans()) and d >= 2
    v = Variant(n, symbols[:d], repeats, nlz, draw(st.sampled_from(["bulls-cows", "bulls"])))
    space = CodeSpace(v)
    idx = st.integers(0, space.size - 1)
    return v, space.code_at(draw(idx)), space.code_at(draw(idx))


@settings(max_examples=300, deadline=None)
@given(variant_and_pair())
def test_rule_properties(case):
    v, s, g = case
    b, c = score(v, s, g)
    assert (b, c) == score(v, g, s)                      # symmetric
    assert (b == v.length) == (s == g)                   # all bulls iff equal
    assert 0 <= b + c <= v.length
    assert (b, c) != (v.length - 1, 1)                   # never N-1 bulls and 1 cow
    assert (b, c) in S.possible_responses(v)


@settings(max_examples=200, deadline=None)
@given(variant_and_pair())
def test_native_equals_rule_and_reference_on_any_variant(case):
    v, s, g = case
    expected = v.response_index(*score(v, s, g))
    native = S.score_matrix(v, [g], [s])
    reference = S.score_matrix(v, [g], [s], backend="numpy")
    assert native.dtype == S.response_dtype(v)
    assert int(native[0, 0]) == int(reference[0, 0]) == expected


@settings(max_examples=40, deadline=None)
@given(variants(max_length=6, max_symbols=9, max_size=3000), st.integers(0, 2**32 - 1))
def test_native_kernels_equal_numpy_reference(v, seed):
    codes = CodeSpace(v).codes
    rng = np.random.default_rng(seed)
    rows = codes[rng.integers(0, len(codes), size=min(len(codes), 40))]
    assert np.array_equal(S.score_matrix(v, rows, codes), S.score_matrix(v, rows, codes, backend="numpy"))
    assert np.array_equal(S.partition_counts(v, rows, codes),
                          S.partition_counts(v, rows, codes, backend="numpy"))
    resp = S.score_against(v, rows[0], rows[:3])
    assert np.array_equal(S.filter_mask(v, codes, rows[:3], resp),
                          S.filter_mask(v, codes, rows[:3], resp, backend="numpy"))
    full = S.score_matrix(v, codes, codes)
    cols = np.flatnonzero(rng.random(len(codes)) < 0.5)
    assert np.array_equal(S.partition_counts_from_matrix(full, np.arange(len(rows)), cols, v.response_slots),
                          S.partition_counts(v, codes[:len(rows)], codes[cols]))


@settings(max_examples=40, deadline=None)
@given(variants(max_length=5, max_symbols=8, max_size=3000), st.integers(0, 2**32 - 1))
def test_counting_verdicts_equal_numpy_reference(v, seed):
    codes = CodeSpace(v).codes
    rng = np.random.default_rng(seed)
    secrets = codes[rng.random(len(codes)) < rng.uniform(0.01, 1.0)]
    if len(secrets) == 0:
        secrets = codes[:1]
    # each guess is scored alone (the kernel stops a guess at its threshold): 200 random guesses
    # (every code of a smaller game); every code of games up to 3,000 cost about 9 CPU s of reference
    guesses = codes if len(codes) <= 200 else codes[rng.choice(len(codes), 200, replace=False)]
    for threshold in (0, 1, int(rng.integers(0, len(secrets) + 1)), len(secrets)):
        native = S.counting_verdicts(v, guesses, secrets, threshold)
        assert np.array_equal(native, S.counting_verdicts(v, guesses, secrets, threshold,
                                                          backend="numpy"))


@settings(max_examples=40, deadline=None)
@given(variants(max_length=5, max_symbols=6, max_size=1500))
def test_possible_responses_are_exactly_those_observed(v):
    codes = CodeSpace(v).codes
    observed = {v.response_of(int(r)) for r in np.unique(S.score_matrix(v, codes, codes))}
    assert observed == set(S.possible_responses(v))


@pytest.mark.parametrize("n,d,repeats,expected", [
    (4, 6, True, 14), (4, 10, False, 14), (10, 26, False, 65), (10, 26, True, 65), (4, 6, False, 11)])
def test_documented_response_counts(n, d, repeats, expected):
    # 14 for N=4; 65 = (N+1)(N+2)/2 - 1 for N=10 with enough symbols; 4 of 6 distinct has 11.
    assert len(S.possible_responses(Variant(n, LETTERS[:d], repeats))) == expected


@pytest.mark.parametrize("secret,guess,expected", [
    ("1807", "7810", (1, 3)),   # LeetCode 299 example 1: "1A3B"
    ("1123", "0111", (1, 1)),   # LeetCode 299 example 2: "1A1B"
])
def test_leetcode_299_vectors(secret, guess, expected):
    v = Variant(4, "0123456789", repeats=True)
    space = CodeSpace(v)
    assert score(v, space.parse(secret), space.parse(guess)) == expected
    assert S.score_against(v, space.parse(guess), [space.parse(secret)])[0] == v.response_index(*expected)


def test_knuth_first_guess_partition_of_1122():
    # Knuth, "The computer as Master Mind", J. Recreational Math. 9 (1976-77), table of 1122.
    v = Variant.preset("mastermind")
    space = CodeSpace(v)
    hist = S.partition_counts(v, [space.parse("1122")], space.codes)[0]
    got = {v.response_of(i): int(x) for i, x in enumerate(hist) if x}
    assert got == {(0, 0): 256, (0, 1): 256, (0, 2): 96, (0, 3): 16, (0, 4): 1, (1, 0): 256,
                   (1, 1): 208, (1, 2): 36, (2, 0): 114, (2, 1): 32, (2, 2): 4, (3, 0): 20,
                   (4, 0): 1}


def test_out_buffer_is_reused_and_checked():
    v = Variant.preset("mastermind")
    codes = CodeSpace(v).codes
    buf = np.empty((len(codes), len(codes)), dtype=np.uint8)
    assert S.score_matrix(v, codes, codes, out=buf) is buf
    with pytest.raises(ValueError, match="shape"):
        S.score_matrix(v, codes[:2], codes, out=buf)


def test_brute_force_helper_agrees_with_enumeration():
    v = Variant(3, "0123", False, no_leading_zero=True)
    assert [tuple(r) for r in CodeSpace(v).codes] == brute_force_codes(v)
