import pytest

from cbsolve import InvalidVariant, UnknownName, Variant
from cbsolve.game.codes import CodeSpace


@pytest.mark.parametrize("name,size", [
    ("bulls-cows", 5040), ("bulls-cows-no-leading-zero", 4536), ("mastermind", 1296),
    ("black-peg", 1296), ("numbers", 9000), ("cowbull", 256)])
def test_presets_have_the_documented_spaces(name, size):
    assert CodeSpace(Variant.preset(name)).size == size


def test_black_peg_is_mastermind_scored_by_bulls():
    v = Variant.preset("black-peg")
    assert v.bulls_only and v.symbols == "123456" and v.repeats


@pytest.mark.parametrize("kwargs,fragment", [
    (dict(length=11, symbols="0123456789", repeats=False), "length 11"),
    (dict(length=0, symbols="01", repeats=True), "length 0"),
    (dict(length=65, symbols="01", repeats=True), "length 65"),
    (dict(length=3, symbols="", repeats=True), "empty"),
    (dict(length=3, symbols="ABA", repeats=True), "duplicate"),
    (dict(length=3, symbols="A B", repeats=True), "not allowed"),
    (dict(length=2, symbols="A", repeats=True, no_leading_zero=True), "no codes"),
])
def test_invalid_variants_name_the_problem(kwargs, fragment):
    with pytest.raises(InvalidVariant, match=fragment):
        Variant(**kwargs)


def test_unknown_feedback_and_preset_list_the_valid_names():
    with pytest.raises(UnknownName, match="bulls-cows"):
        Variant(4, "0123", True, feedback="pegs")
    with pytest.raises(UnknownName, match="mastermind"):
        Variant.preset("chess")


def test_overrides_apply_and_revalidate():
    v = Variant.from_options("mastermind", length=5, digits=8)
    assert (v.length, v.symbols, v.repeats, v.name) == (5, "12345678", True, None)
    assert Variant.from_options(letters=26, length=10).symbols == "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    assert Variant.from_options(symbols="xyz", length=3).symbols == "xyz"
    assert Variant.from_options("bulls-cows").name == "bulls-cows"
    with pytest.raises(InvalidVariant, match="length 5"):
        Variant.from_options(digits=4, length=5)
    with pytest.raises(InvalidVariant, match="only one of"):
        Variant.from_options(digits=4, letters=4)
    with pytest.raises(InvalidVariant, match="--digits 11"):
        Variant.from_options(digits=11)


def test_round_trip_through_dict():
    v = Variant.from_options("numbers", feedback="bulls")
    assert Variant.from_dict(v.to_dict()) == v


def test_response_encoding():
    v = Variant.preset("bulls-cows")
    assert v.response_index(1, 2) == 7 and v.response_of(7) == (1, 2)
    assert v.win_response == 20 and v.response_slots == 25
    bp = Variant.preset("black-peg")
    assert bp.response_index(3, 0) == 3 and bp.win_response == 4 and bp.response_slots == 5
