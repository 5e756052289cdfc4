import json

import pytest

from cbsolve import InvalidFeedback, Variant
from cbsolve.game.feedback import FeedbackLog

BC = Variant.preset("bulls-cows")
BP = Variant.preset("black-peg")


def test_all_entry_syntaxes():
    log = FeedbackLog.parse(BC, ["0123:1,2", "4567:0A2B", "8901:0a1b"])
    assert [(e.text, e.bulls, e.cows) for e in log] == [("0123", 1, 2), ("4567", 0, 2), ("8901", 0, 1)]
    assert log.tokens() == ["0123:1,2", "4567:0,2", "8901:0,1"]
    bp = FeedbackLog.parse(BP, ["1122:1", "3456:0"])
    assert [(e.bulls, e.cows) for e in bp] == [(1, 0), (0, 0)]


@pytest.mark.parametrize("variant,tokens,fragment", [
    (BC, ["0123:1,2", "012:1,0"], "entry 2 .*'012:1,0'.*length 3"),
    (BC, ["01x3:1,0"], "entry 1.*symbol 'x' not in alphabet"),
    (BC, ["0113:1,0"], "entry 1.*repeats symbol '1'"),
    (BC, ["0123:3,2"], "bulls \\+ cows = 5 exceeds the length 4"),
    (BC, ["0123:3,1"], "3 bulls and 1 cow is impossible"),
    (BP, ["1234:1,2"], "cows given, but this variant reports bulls only"),
    (BP, ["1234:1,0"], "cows given, but this variant reports bulls only"),
    (BC, ["0123"], "malformed"),
    (BC, ["0123:1-2"], "malformed reply '1-2'"),
    (BC, ["0123:1"], "has no cows"),
    (BC, [":1,2"], "malformed"),
])
def test_invalid_entries_name_number_and_token(variant, tokens, fragment):
    with pytest.raises(InvalidFeedback, match=fragment):
        FeedbackLog.parse(variant, tokens)


def test_text_file_with_comments_and_mixed_tokens(tmp_path):
    f = tmp_path / "log.txt"
    f.write_text("# a game\n0123 1 2\n\n4567:0,1   # second\n")
    log = FeedbackLog.from_file(BC, f)
    assert log.tokens() == ["0123:1,2", "4567:0,1"]


def test_text_file_errors_count_entries_not_lines(tmp_path):
    f = tmp_path / "log.txt"
    f.write_text("# header\n0123 1 2\n4567 0\n")
    with pytest.raises(InvalidFeedback, match="entry 2 .*expected GUESS B C"):
        FeedbackLog.from_file(BC, f)


def test_json_file(tmp_path):
    f = tmp_path / "log.json"
    f.write_text(json.dumps([{"guess": "0123", "bulls": 1, "cows": 2}]))
    assert FeedbackLog.from_file(BC, f).tokens() == ["0123:1,2"]
    f.write_text(json.dumps([{"guess": "1234", "bulls": 2}]))
    assert FeedbackLog.from_file(BP, f).tokens() == ["1234:2"]


@pytest.mark.parametrize("content,fragment", [
    ("[{\"guess\": \"0123\", \"bulls\": 1,", "not valid JSON"),
    ("{\"guess\": \"0123\"}", "expected a JSON list"),
    ("[{\"guess\": 123, \"bulls\": 1, \"cows\": 0}]", "entry 1"),
    ("[{\"guess\": \"0123\", \"bulls\": -1, \"cows\": 0}]", "bulls must be a non-negative integer"),
])
def test_malformed_json_files(tmp_path, content, fragment):
    f = tmp_path / "log.json"
    f.write_text(content)
    with pytest.raises(InvalidFeedback, match=fragment):
        FeedbackLog.from_file(BC, f)


def test_unreadable_file(tmp_path):
    from cbsolve.errors import CbsolveError

    with pytest.raises(CbsolveError, match="missing.txt': no such file"):
        FeedbackLog.from_file(BC, tmp_path / "missing.txt")
