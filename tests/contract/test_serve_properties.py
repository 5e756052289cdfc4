"""``cbsolve serve`` under random request lines: every line is answered with the command's
document and exit 0 or 1, or with ``{"error": ..., "exit": 2}``; never an internal error (what
the command line would print as a traceback), never an exception out of the service.
Requests are answered in this process (``serve.answer_line``), each kept cheap: games of at
most a few thousand codes and a time limit of at most 0.2 s."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

import click
import fuzzkit
import pytest
from fuzzkit import CAMPAIGN_EXAMPLES, DEFAULT_EXAMPLES
from fuzzkit import near_codes as codes
from fuzzkit import near_tokens as tokens
from hypothesis import event, given, settings
from hypothesis import strategies as st

from cbsolve.cli import app
from cbsolve.cli._requests import SERVABLE, fields_of
from cbsolve.cli.serve import answer_line

CONTRACT = settings(fuzzkit.CONTRACT, max_examples=DEFAULT_EXAMPLES * 5)
CAMPAIGN = settings(fuzzkit.CAMPAIGN, max_examples=CAMPAIGN_EXAMPLES * 5)
TREES = Path(__file__).resolve().parents[1] / "fixtures" / "trees"
SCRATCH = Path(tempfile.mkdtemp(prefix="cbsolve-serve-"))

#: JSON values of every kind a request may carry by mistake.
json_junk = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2**40, 2**40), st.floats(-1e6, 1e6),
              st.text(max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=4), inner, max_size=2)),
    max_leaves=6)
#: Junk sizes of a game: out of range or not a number only, so no request asks for a game a
#: 0.2 s limit cannot bound (long codes over small alphabets are the limits' own tests').
sizes = st.one_of(st.integers(-5, 0),
                  st.integers(65, 2**40), st.text(max_size=3), st.none(), st.booleans())
scratch = st.builds(lambda n: str(SCRATCH / n), st.sampled_from(["a.json", "b", "c.dot",
                                                                 "d.html", "e.yml"]))
paths = st.one_of(st.sampled_from([str(p) for p in sorted(TREES.iterdir())]), scratch,
                  st.sampled_from(["", "-", "/no/such/file"]))
entry_objects = st.fixed_dictionaries({"guess": codes},
                                      optional={"bulls": st.integers(-1, 4),
                                                "cows": st.one_of(st.none(), st.integers(0, 4)),
                                                "x": st.integers()})
#: Fields that name files; junk there names none (the service writes only into SCRATCH).
FILE_FIELDS = ("source", "target", "file", "log", "out", "dot", "html", "trace", "checkpoint",
               "resume", "plan")
not_a_name = st.one_of(st.none(), st.booleans(), st.lists(st.integers(), max_size=2),
                       st.dictionaries(st.text(max_size=2), st.integers(), max_size=1),
                       st.just(""))
WORDS = ["minimax", "expected", "entropy", "parts", "first", "random", "optimal", "worst",
         "all", "candidates", "auto", "native", "sat", "cpsat", "matrix", "on-the-fly",
         "cbsolve", "irving", "arfst-yaml", "mastermind", "bulls-cows", "cowbull", "black-peg",
         "numbers", "bulls", "orbit", "1/2", "1G", "nope"]


def valid_value(field: str, param) -> st.SearchStrategy:
    """A value the command line would take for ``field`` (kept small and cheap)."""
    if field in ("length", "digits", "letters"):
        return st.integers(1, 4)
    if field in ("time_limit", "checkpoint_every"):
        return st.sampled_from([0.05, 0.1, 0.2])
    if field in ("source", "file", "log", "resume"):         # read: the fixtures too
        return paths
    if field in FILE_FIELDS:                                  # written: the scratch only
        return scratch
    if field == "entries":
        return st.lists(st.one_of(tokens, entry_objects), max_size=3)
    if field in ("symbols", "file_symbols"):
        return st.sampled_from(["0123", "ABC", "123456", "xyz"])
    if field == "feedback":
        return st.sampled_from(["bulls", "bulls-cows"])
    if field in ("secret", "guess", "first"):
        return codes
    if field == "variant":
        return st.sampled_from(["mastermind", "bulls-cows", "cowbull", "black-peg", "numbers"])
    if isinstance(param, click.Option) and param.is_flag:
        return st.booleans()
    if isinstance(param.type, click.Choice):
        return st.sampled_from(list(param.type.choices))
    if isinstance(param.type, click.IntRange):
        return st.integers(max(param.type.min or 0, 0), min(param.type.max or 6, 6))
    return st.sampled_from(WORDS)


@st.composite
def requests(draw) -> str:
    """One request line: a command with valid values for some of its fields (its required
    arguments among them), in about half the lines one field spoiled; now and then a junk
    command, an unknown field or a line that is no request at all."""
    kind = draw(st.integers(0, 19))     # 17, 18, 19: the odd lines (Hypothesis favours 0)
    if kind == 19:
        return draw(st.one_of(st.text(max_size=20), json_junk.map(json.dumps)))
    name = draw(st.sampled_from(SERVABLE))
    command = app.get_command(None, name)
    known = fields_of(command)
    fields = sorted(set(known) - {"scheduler"})
    required = [p.name for p in command.params if isinstance(p, click.Argument) and p.required]
    request: dict = {"cmd": name if kind != 18 else draw(json_junk)}
    for field in [*required, *draw(st.lists(st.sampled_from(fields), max_size=4, unique=True))]:
        request[field] = draw(valid_value(field, known[field][0]))
    if "time_limit" in fields:                     # every example stays cheap
        request["time_limit"] = draw(st.sampled_from([0.05, 0.1, 0.2]))
    spoilable = [f for f in request if f not in ("cmd", "time_limit")]
    if spoilable and draw(st.integers(0, 2)) == 2:
        field = draw(st.sampled_from(spoilable))
        request[field] = draw(sizes if field in ("length", "digits", "letters")
                              else not_a_name if field in FILE_FIELDS else json_junk)
    if draw(st.booleans()):
        request["id"] = draw(json_junk)
    if kind == 17:
        request[draw(st.text(max_size=5))] = draw(json_junk)
    return json.dumps(request)


def check(line: str) -> None:
    answer = answer_line(line)
    assert isinstance(answer, dict)
    if "error" in answer:
        assert answer["exit"] == 2, answer
        assert isinstance(answer["error"], str) and "\n" not in answer["error"]
        event("error")
    else:
        assert answer["exit"] in (0, 1), answer
        event(f"answered, exit {answer['exit']}")
    json.dumps(answer)             # every answer can be written as one JSON line


@CONTRACT
@given(requests())
def test_every_request_is_answered_within_the_contract(line):
    check(line)


@pytest.mark.slow
@CAMPAIGN
@given(requests())
def test_campaign_every_request_is_answered_within_the_contract(line):
    check(line)


def test_entries_take_the_json_log_form_puzzle_emits():
    import cbsolve as cb

    p = cb.puzzle("mastermind", seed=3)
    answer = answer_line(json.dumps({"cmd": "consistent", "variant": "mastermind",
                                     "entries": p.entries, "limit": 5}))
    assert answer["exit"] == 0 and answer["secrets"] == [p.secret]
    mixed = answer_line(json.dumps({"cmd": "consistent", "count": True, "limit": 0, "entries": [
        {"guess": "0123", "bulls": 1, "cows": 2}, "4567:0,1"]}))
    assert mixed["count"] == 108            # as `consistent 0123:1,2 4567:0,1 --count`
    bad = answer_line(json.dumps({"cmd": "consistent", "entries": [{"guess": "0123"}]}))
    assert bad["exit"] == 2 and "bulls" in bad["error"]


def test_an_unknown_command_error_names_the_field_and_lists_every_command():
    answer = answer_line(json.dumps({"cmd": "x" * 100}))
    assert answer["exit"] == 2 and answer["error"].startswith("field 'cmd' must be one of: ")
    assert all(name in answer["error"] for name in SERVABLE)
    assert "(102 characters)" in answer["error"]
