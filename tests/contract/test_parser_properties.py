"""Every parser of the public surface under random text and values: entries (tokens and
replies), log files (text and JSON), variants (the constructor, presets, the CLI's options, the
JSON form) and codes. Each returns its value or raises a CbsolveError, nothing else."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

import fuzzkit
import pytest
from fuzzkit import CAMPAIGN_EXAMPLES, DEFAULT_EXAMPLES, JUNK, TINY_VARIANTS, near_codes, near_tokens, replies
from hypothesis import given, settings
from hypothesis import strategies as st

import cbsolve as cb
from cbsolve.game.codes import CodeSpace
from cbsolve.game.feedback import FeedbackLog, read_reply

CONTRACT = settings(fuzzkit.CONTRACT, max_examples=DEFAULT_EXAMPLES * 2)
CAMPAIGN = settings(fuzzkit.CAMPAIGN, max_examples=CAMPAIGN_EXAMPLES * 2)
SCRATCH = Path(tempfile.mkdtemp(prefix="cbsolve-parsers-"))

tiny = st.sampled_from(TINY_VARIANTS + [cb.Variant.preset("mastermind")])
symbols = st.one_of(st.text(min_size=0, max_size=6), st.sampled_from(["0123", "ABC", "123456"]))
variant_fields = {
    "length": st.one_of(st.integers(-2, 70), JUNK), "symbols": st.one_of(symbols, JUNK),
    "repeats": st.one_of(st.booleans(), JUNK), "no_leading_zero": st.one_of(st.booleans(), JUNK),
    "feedback": st.one_of(st.sampled_from(["bulls", "bulls-cows", "nope"]), JUNK),
}
option_fields = {
    "length": st.one_of(st.integers(-2, 70), JUNK), "digits": st.one_of(st.integers(-2, 12), JUNK),
    "letters": st.one_of(st.integers(-2, 30), JUNK), "symbols": st.one_of(symbols, JUNK),
    "repeats": st.one_of(st.none(), st.booleans(), JUNK),
    "no_leading_zero": st.one_of(st.none(), st.booleans(), JUNK),
    "feedback": st.one_of(st.none(), st.sampled_from(["bulls", "bulls-cows", "x"]), JUNK),
}
json_logs = st.lists(st.one_of(
    st.fixed_dictionaries({"guess": st.one_of(near_codes, JUNK.filter(lambda j: j is None))},
                          optional={"bulls": st.integers(-1, 5), "cows": st.integers(-1, 5)}),
    st.integers(), st.text(max_size=5)), max_size=4).map(json.dumps)
text_logs = st.lists(st.one_of(st.builds(lambda g, r: f"{g} {r}", near_codes, replies),
                               near_tokens, st.just("# a comment")), max_size=4).map("\n".join)


def kept(call) -> None:
    """``call`` answers or raises a CbsolveError (whose message is not empty)."""
    try:
        call()
    except cb.CbsolveError as exc:
        assert str(exc)


def parse_entries(v, tokens):
    kept(lambda: FeedbackLog.parse(v, tokens))


def parse_reply(text, length):
    try:
        answer = read_reply(text, length)
    except cb.CbsolveError:
        return
    assert answer is None or len(answer) == 3


def parse_log_file(v, text, suffix):
    path = SCRATCH / f"log{suffix}"
    path.write_text(text)
    kept(lambda: FeedbackLog.from_file(v, path))


def make_variant(fields):
    kept(lambda: cb.Variant(**{"length": 2, "symbols": "012", "repeats": True, **fields}))


def variant_from_options(name, fields):
    kept(lambda: cb.Variant.from_options(name, **fields))


def variant_from_dict(data):
    kept(lambda: cb.Variant.from_dict(data))


def parse_code(v, text):
    kept(lambda: CodeSpace(v).parse(text))


PROPERTIES = {
    "entries": (parse_entries, [tiny, st.lists(near_tokens, max_size=4)]),
    "replies": (parse_reply, [st.one_of(replies, st.text(max_size=8)), st.integers(1, 6)]),
    "log files": (parse_log_file, [tiny, st.one_of(json_logs, text_logs, st.text(max_size=30)),
                                   st.sampled_from([".txt", ".json", ".log"])]),
    "variant": (make_variant, [st.fixed_dictionaries({}, optional=variant_fields)]),
    "variant options": (variant_from_options, [
        st.one_of(st.none(), st.sampled_from(["mastermind", "cowbull", "Numbers ", "x"]), JUNK),
        st.fixed_dictionaries({}, optional=option_fields)]),
    "variant JSON": (variant_from_dict, [st.one_of(
        st.fixed_dictionaries({}, optional={**variant_fields, "name": st.one_of(st.none(), JUNK)}),
        JUNK)]),
    "codes": (parse_code, [tiny, st.one_of(near_codes, JUNK)]),
}


@pytest.mark.parametrize("name", sorted(PROPERTIES))
@CONTRACT
@given(data=st.data())
def test_every_parser_answers_or_raises_a_cbsolve_error(name, data):
    check, args = PROPERTIES[name]
    check(*(data.draw(a) for a in args))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PROPERTIES))
@CAMPAIGN
@given(data=st.data())
def test_campaign_every_parser_answers_or_raises_a_cbsolve_error(name, data):
    check, args = PROPERTIES[name]
    check(*(data.draw(a) for a in args))


def test_a_flag_of_a_variant_is_a_bool():
    """``repeats="no"`` was taken as true (a non-empty string); 0 and 1 read as the flags."""
    with pytest.raises(cb.InvalidVariant, match="repeats must be True or False"):
        cb.Variant(2, "012", "no")
    with pytest.raises(cb.InvalidVariant, match="no_leading_zero"):
        cb.Variant(2, "012", True, no_leading_zero="yes")
    assert cb.Variant(2, "012", 1) == cb.Variant(2, "012", True)
