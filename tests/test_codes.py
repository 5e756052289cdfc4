import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from testkit import brute_force_codes, variants

from cbsolve import CodeSpace, InvalidCode, SpaceTooLarge, Variant


@settings(max_examples=60, deadline=None)
@given(variants(max_length=5, max_symbols=7, max_size=20_000))
def test_enumeration_size_and_ranking_match_brute_force(variant):
    space = CodeSpace(variant)
    expected = brute_force_codes(variant)
    assert space.size == len(expected)
    assert [tuple(r) for r in space.codes] == expected  # lexicographic order
    np.testing.assert_array_equal(space.indices_of(space.codes), np.arange(space.size))
    np.testing.assert_array_equal(space.codes_of_indices(np.arange(space.size)), space.codes)
    for i in range(0, space.size, max(1, space.size // 50)):
        assert space.code_at(i) == expected[i]
        assert space.index_of(expected[i]) == i


def test_huge_spaces_are_counted_exactly_without_enumerating():
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    assert CodeSpace(Variant(40, letters, True)).size == 26 ** 40
    distinct = CodeSpace(Variant(20, letters, False, no_leading_zero=True))
    expected = 25
    for k in range(19):
        expected *= 25 - k
    assert distinct.size == expected
    code = distinct.code_at(distinct.size - 1)
    assert distinct.index_of(code) == distinct.size - 1
    with pytest.raises(SpaceTooLarge, match="more than the 20000000 that can be listed"):
        _ = distinct.codes


def test_random_codes_are_valid_and_seeded():
    space = CodeSpace(Variant(30, "0123456789", True, no_leading_zero=True))
    a = space.random_codes(5, np.random.default_rng(1))
    assert a == space.random_codes(5, np.random.default_rng(1))
    for c in a:
        assert space.validate(c) == c


@pytest.mark.parametrize("text,fragment", [
    ("012", "length 3"), ("01a3", "symbol 'a'"), ("0113", "repeats symbol '1'")])
def test_parse_errors(text, fragment):
    with pytest.raises(InvalidCode, match=fragment):
        CodeSpace(Variant.preset("bulls-cows")).parse(text)


def test_leading_zero_rejected():
    with pytest.raises(InvalidCode, match="starts with '0'"):
        CodeSpace(Variant.preset("numbers")).parse("0123")
    assert CodeSpace(Variant.preset("numbers")).format((1, 0, 0, 0)) == "1000"


@settings(max_examples=60, deadline=None)
@given(variants(max_length=5, max_symbols=7, max_size=20_000), st.sampled_from(["ascii", "unicode"]))
def test_format_many_matches_format_one_by_one(variant, alphabet):
    """The vectorised formatter (a byte string for ASCII alphabets, NumPy unicode otherwise)
    writes each code exactly as :meth:`CodeSpace.format` does."""
    if alphabet == "unicode":
        variant = Variant(variant.length, "αβγδεζηθ"[:variant.n_symbols], variant.repeats,
                          no_leading_zero=variant.no_leading_zero)
    space = CodeSpace(variant)
    codes = space.codes
    for given_as in (codes, codes.astype(np.intp), [tuple(c) for c in codes[:7]]):
        assert space.format_many(given_as) == [space.format(c) for c in given_as]
    assert space.format_many(codes[:0]) == []

