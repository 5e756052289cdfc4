"""``partition --all``: a complete table is printed block by block under the command's deadline,
so a limit or a Ctrl-C that comes once every guess is scored still ends the document at once,
with the best rows printed so far (``shown``, ``stopped``)."""
import json

from cbsolve.api import partition_table
from cbsolve.cli import partition as face
from cbsolve.cli._budget import TimeLimit
from cbsolve.runtime.deadline import Deadline
from cbsolve.game.feedback import FeedbackLog
from cbsolve.game.variant import Variant

LOG = ["0123:1,1"]          # Bulls & Cows: 720 secrets, 20 guesses up to symmetry


def printed(capsys, deadline, as_json: bool):
    table = partition_table(FeedbackLog.parse(Variant.preset("bulls-cows"), LOG))
    assert table.complete and table.scored == 20 and table.stopped is None
    # printed in blocks of 6 rows
    code = face._emit_whole_table(table, TimeLimit(deadline, False), as_json, block=6)
    return code, capsys.readouterr().out, table


def test_a_complete_table_past_its_deadline_stops_after_one_block(capsys):
    code, out, table = printed(capsys, Deadline(0), True)
    data = json.loads(out)
    assert code == 0 and data["stopped"] == "time" and data["time_limit_hit"] is True
    assert data["complete"] is True and data["shown"] == 6 == len(data["guesses"])
    assert data["guesses"] == table.guesses[:6]                # the best 6, best first
    assert data["scored"] == data["total"] == 20


def test_a_complete_table_in_time_is_printed_whole(capsys):
    code, out, table = printed(capsys, Deadline(None), True)
    data = json.loads(out)
    assert code == 0 and "stopped" not in data and "shown" not in data
    assert data["guesses"] == table.guesses


def test_the_text_table_says_how_many_rows_it_shows(capsys):
    code, out, _ = printed(capsys, Deadline(0), False)
    lines = out.strip().splitlines()
    assert len(lines) == 2 + 6 + 1 and "the best 6 of 20 rows shown" in lines[-1]
