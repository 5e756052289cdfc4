"""`cbsolve assist`: advice, remaining counts, undo, inconsistency, certified trees."""
import io
import json
import sys

import pytest

from cbsolve.cli import main
from cbsolve.game.codes import CodeSpace
from cbsolve.consistency.native import consistent_indices
from cbsolve.play.assistant import MODELS, Assistant, AssistSession, find_tree
from cbsolve.play.inputs import Console
from cbsolve.game.rule import score
from cbsolve.search.position import Position, solve_from
from cbsolve.certificates.tree import InvalidTree
from cbsolve.game.variant import Variant

BC = Variant.preset("bulls-cows")
MM = Variant.preset("mastermind")


def session(lines, variant=BC, **kwargs):
    out = io.StringIO()
    console = Console(stdin=io.StringIO("".join(x + "\n" for x in lines)), stdout=out)
    a = Assistant(variant, **kwargs)
    summary = AssistSession(a, console).run()
    return a, summary, out.getvalue()


def test_counts_suggestions_and_undo():
    a, summary, out = session(["0123 1 2", "1 1", "undo", "4567:0,1", "list 3", "quit"])
    assert [e["guess"] for e in summary["entries"]] == ["0123", "4567"]
    # remaining counts printed are the native filter's counts of the same log
    want = consistent_indices(a.log).size
    assert f"{want} secrets remain" in out
    assert "5040 secrets remain. Suggested guess" in out
    assert "took back" in out
    listed = out.split("> list 3\n")[1].splitlines()[0].split()
    assert len(listed) == 3 and all(c in a.guesser.candidate_codes(limit=None) for c in listed)
    assert summary["consistent"] and summary["suggestion"]["candidates"] == want


def test_suggestions_solve_a_game_played_elsewhere():
    """Feed back the true scores of the assistant's own suggestions: it must finish."""
    space = CodeSpace(BC)
    secret = space.parse("7302")
    a = Assistant(BC, strategy="entropy")
    for _ in range(9):
        guess = a.advise().guess
        b, c = score(BC, secret, space.parse(guess))
        if b == 4:
            break
        a.add(guess, b, c)
    assert guess == "7302"


def test_bad_input_is_reprompted():
    _, summary, out = session(["01234 1 2", "0123 5 0", "0123 x", "0113 1 1", "0123 0 0"])
    assert "has length 5" in out and "exceeds the length 4" in out
    assert "is not a score" in out and "repeats symbol '1'" in out
    assert len(summary["entries"]) == 1


def test_a_guess_typed_without_its_score_is_named_as_such():
    # "1122" alone in Mastermind is a code of the game, not a malformed score
    _, summary, out = session(["1122", "1122 1B1W"], variant=MM)
    assert "1122 needs its score after it" in out and "has no white" not in out
    assert [e["guess"] for e in summary["entries"]] == ["1122"]
    _, _, out = session(["rrgg"], variant=Variant(4, "RGBYOP", repeats=True))
    assert "RRGG needs its score after it" in out


def test_inconsistency_names_the_entries_and_undo_recovers():
    a, summary, out = session(["0123 0 0", "4567 0 0"])
    assert "These replies are inconsistent" in out and "#1 0123" in out and "#2 4567" in out
    assert not summary["consistent"] and summary["conflict"] == [1, 2]
    _, summary, out = session(["0123 0 0", "4567 0 0", "undo"])
    assert summary["consistent"] and "took back 4567 -> 0 0" in out     # echoed as typed


def test_solved_ends_the_session():
    _, summary, out = session(["0123 4 0"])
    assert summary["solved"] and "Solved in 1 guess." in out


@pytest.mark.parametrize("variant, off_tree", [(MM, ("1111", 0, 0)), (BC, ("4567", 0, 1))],
                         ids=["mastermind", "bulls-cows"])
@pytest.mark.parametrize("objective", ["worst", "expected"])
def test_optimal_follows_the_tree_then_the_same_objective(variant, off_tree, objective):
    path = find_tree(variant, objective)
    assert path is not None, "models/ holds certified trees for Mastermind and Bulls & Cows"
    a = Assistant(variant, strategy="optimal", objective=objective)
    root = a.tree["root"]
    assert a.tree["strategy"] == f"optimal-{objective}"
    # the whole game: the certified tree's first guess, the objective honoured
    first = a.advise()
    assert first.guess == root["guess"] and first.strategy == "optimal"
    assert "certified tree" in first.note and first.provenance.honoured
    # on the tree: its next guess, never another source
    reply = next(iter(root["children"]))
    b, c = variant.response_of(variant.response_index(*map(int, reply.split(","))))
    a.add(root["guess"], b, c)
    s = a.advise()
    assert s.guess == root["children"][reply]["guess"] and s.provenance.source == "tree"
    a.undo()
    # off the tree: the exact search for the same objective where it fits in time, else a
    # heuristic aiming at it, labelled, never the other objective
    a.add(*off_tree)
    s = a.advise()
    assert s.provenance.objective == objective and "left the certified tree" in s.note
    if s.provenance.source == "exact":
        best = solve_from(Position.from_log(a.log), objective, certificate=False)
        assert s.provenance.honoured and s.guess == best.tree["root"]["guess"]
    else:
        assert s.provenance.source == "heuristic" and not s.provenance.honoured


def test_optimal_without_a_tree_falls_back_and_says_so(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["assist", "--variant", "numbers", "--strategy", "optimal", "--json"]) == 0
    note = json.loads(capsys.readouterr().out)["suggestion"]["note"]
    assert "no certified tree" in note and "minimax" in note


def test_a_tampered_tree_is_rejected(tmp_path):
    path = find_tree(MM)
    assert path is not None
    doc = json.loads(path.read_text())
    doc["stats"]["histogram"]["5"] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(InvalidTree, match="do not match"):
        Assistant(MM, tree_path=str(bad))
    for key, value in (("total", 23), ("worst", 4)):   # the histogram kept: caught too (audit)
        doc = json.loads(path.read_text())
        doc["stats"][key] = value
        bad.write_text(json.dumps(doc))
        with pytest.raises(InvalidTree, match="do not match"):
            Assistant(MM, tree_path=str(bad))
    doc = json.loads(path.read_text())
    doc["root"]["children"].pop(next(iter(doc["root"]["children"])))
    bad.write_text(json.dumps(doc))
    with pytest.raises(InvalidTree, match="not solved"):
        Assistant(MM, tree_path=str(bad))
    good = tmp_path / "good.json"          # a user's tree: replayed, not called certified
    good.write_text(path.read_text())
    note = Assistant(MM, tree_path=str(good)).advise().note
    assert note.startswith("from the tree good.json") and "certified" not in note


def test_cli_json_one_shot(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code = main(["assist", "0123:1,2", "4567:0,1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["consistent"]
    assert data["suggestion"]["candidates"] == 108  # same log as the CLI foundation test
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code = main(["assist", "0123:1,2", "4567:0,2", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["conflict"] == [1, 2]


def test_cli_bad_entry_exit_2(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["assist", "0123:9,9"]) == 2
    assert "exceeds the length 4" in capsys.readouterr().err


def test_huge_space_reports_a_bound_or_exact_count():
    v = Variant(30, "ABCDEFGHIJKLMNOPQRSTUVWXYZ", repeats=True)
    first = "ABCDEFGHIJKLMNOPQRSTUVWXYZABCD"
    a, summary, out = session([f"{first} 3 5"], variant=v, time_limit=20)
    s = summary["suggestion"]
    assert s["candidates"] is None or s["candidates"] >= 1
    assert "remain" in out
    # the suggested code is consistent with the entry (re-checked with the scorer)
    space = CodeSpace(v)
    assert score(v, space.parse(s["guess"]), space.parse(first)) == (3, 5)


def test_models_dir_is_found():
    assert MODELS.name == "models"


def test_a_mis_scored_reply_beyond_the_filter_is_diagnosed_with_counts():
    """12 of 20 letters (beyond the filter: the advice finds the log inconsistent): assist
    shows every reply that alone could be wrong with the scores that fit and their counts
    (exact or "at least"), asks for a fix instead of stopping with an error, and its JSON
    carries the corrections with the count fields."""
    big = Variant(12, "ABCDEFGHIJKLMNOPQRST", repeats=False)
    lines = ["BROCEFSMQHLN 0,7", "ROPEFMSKDCJH 0,8", "ARGOBSLDNKTI 0,6", "DILEBMTSNGPC 0,7",
             "NMSCLPRIFKEG 1,8", "RCMPFQAHTOEL 0,6", "HJLKCENBTGRD 0,8", "AKONIFQHPMCE 1,8"]
    a, summary, out = session(lines, variant=big, strategy="first", time_limit=1)
    assert a.guesser.inconsistent is not None and not summary["consistent"]
    assert "alone could be wrong; it fits as" in out and "Type undo" in out
    fixes = summary["corrections"]
    assert fixes and {f["entry"] for f in fixes} <= set(a.guesser.inconsistent.conflict)
    for f in fixes:
        assert f["secrets_at_least"] >= 1
        assert f["secrets"] == (f["secrets_at_least"] if f["secrets_exact"] else None)


def test_entries_that_already_won_end_the_session(capsys, monkeypatch):
    # `assist 0123:4,0` said "1 secret remains. It must be 0123." and "solved": false
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code = main(["assist", "4561:0,1", "0123:4,0", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["solved"] and "suggestion" not in data


def test_a_guess_with_half_a_score_is_named_as_such():
    # "0123 1" was read as the score 123 bulls 1 cow of the suggestion: "bulls + cows = 124
    # exceeds the length 4"; a code of the game first is the guess, the rest its score
    _, summary, out = session(["0123 1"])
    assert "exceeds" not in out and "score '1' has no cows" in out and summary["entries"] == []


def test_ctrl_c_in_text_mode_prints_the_entries_to_go_on_with(capsys, monkeypatch):
    # Ctrl-C printed only "cbsolve: interrupted": the entries typed were lost (JSON had them)
    class CtrlC(io.StringIO):
        def readline(self, *args):
            line = super().readline(*args)
            if not line:
                raise KeyboardInterrupt
            return line

    monkeypatch.setattr(sys, "stdin", CtrlC("0123 1 2\n4567:0,1\n"))
    assert main(["assist"]) == 130
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == ("entries so far: 0123:1,2 4567:0,1 (give them to cbsolve "
                                    "assist to go on)")
