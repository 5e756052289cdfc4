"""`play` and `assist` as a game app, driven through stdin as a person would type: help lists
every command, undo at any prompt and depth, hint, again, confirm, Mastermind in pegs."""
import io
import json
import subprocess
import sys

from testkit import run_game

from cbsolve.game.codes import CodeSpace
from cbsolve.consistency.native import consistent_indices
from cbsolve.play.assistant import Assistant, AssistSession
from cbsolve.play.inputs import Console
from cbsolve.game.rule import score
from cbsolve.strategy import choose_next
from cbsolve.game.variant import Variant

BC = Variant.preset("bulls-cows")
MM = Variant.preset("mastermind")


def test_help_lists_every_command_at_every_prompt():
    _, out = run_game(["help", "0123", "help", "quit"], variant=BC, mode="both", secret="4567")
    for word in ("undo", "hint", "again", "fix K", "confirm K", "quit", "help"):
        assert out.count(f"  {word}") == 2, word          # at the guess and the score prompt


def test_undo_at_any_prompt_and_any_depth():
    # both: guess, score, guess; then at the score prompt undo three times, back to the start
    lines = ["0123", "1 1", "4567", "undo", "undo", "undo", "undo", "9876", "quit"]
    result, out = run_game(lines, variant=BC, mode="both", secret="4567", strategy="first")
    assert "took back your guess 4567" in out and "took back your score for 0123" in out
    assert "took back your guess 0123" in out and "nothing to undo" in out
    assert [g["guess"] for g in result.your_guesses] == ["9876"]
    assert result.computer_guesses == []


def test_hint_gives_what_your_guesses_leave_and_the_advice_of_next():
    result, out = run_game(["0123", "hint", "quit"], variant=BC, mode="guess", secret="4567")
    from cbsolve.game.feedback import FeedbackLog

    log = FeedbackLog.parse(BC, ["0123:0,0"])
    advice = choose_next(log, "minimax")
    assert f"your guesses leave {consistent_indices(log).size} possible secrets" in out
    assert f"best next guess: {advice.guess} (minimax)" in out


def test_again_starts_a_new_game_and_keeps_the_earlier_record():
    result, out = run_game(["0123", "again", "9876", "quit"], variant=BC, mode="guess",
                           secret="4567", seed=1)
    assert "New game. My secret was 4567." in out
    assert result.quit and len(result.earlier) == 1
    assert result.earlier[0]["your_guesses"][0]["guess"] == "0123"
    assert [g["guess"] for g in result.your_guesses] == ["9876"]   # the new game's own


def test_a_confirmed_reply_is_never_suggested_again_and_the_mistyped_one_is_named():
    """The player's secret is 1503; they mis-score the computer's first guess (0123 is 1,2,
    typed 2,0), notice nothing, and answer the next honestly. Confirming the newest reply
    moves the diagnosis to the reply actually mis-scored."""
    secret = CodeSpace(BC).parse("1503")
    lines = ["2 0"]
    # the computer's second guess after 0123:2,0, scored honestly
    from cbsolve.game.feedback import FeedbackLog

    second = choose_next(FeedbackLog.parse(BC, ["0123:2,0"]), "first").guess
    b, c = score(BC, secret, CodeSpace(BC).parse(second))
    lines += [f"{b} {c}", "confirm 2", "fix 1 1 2", "quit"]
    _, out = run_game(lines, variant=BC, mode="host", strategy="first")
    before, after = out.split("confirm 2", 1)
    assert "reply 1 (0123 -> 2 0) alone could be wrong" in before
    diagnosis = after.split("fix 1 1 2")[0]
    assert "stays" in diagnosis and "reply 2 (" not in diagnosis     # never suggested again
    assert "reply 1 (0123 -> 2 0) alone could be wrong; it fits as" in diagnosis
    assert "1 2 (" in diagnosis.split("reply 1 (")[1]                 # the true score named
    assert "consistent again" in after


def test_mastermind_is_spoken_in_pegs_and_echoed_as_typed():
    _, out = run_game(["1b1w", "quit"], variant=MM, mode="host", strategy="first")
    assert "black pegs then white pegs" in out
    result, out = run_game(["rrgg", "quit"], variant=Variant.from_options(
        "MASTERMIND", symbols="RGBYOP"), mode="guess", secret="RGBY")
    assert "RRGG: 1 black, 1 white" in out


def test_assist_commands_and_mastermind_replies():
    out = io.StringIO()
    console = Console(stdin=io.StringIO("1122 1B1W\nhint\nundo\nundo\nagain\nhelp\nquit\n"),
                      stdout=out)
    AssistSession(Assistant(MM, strategy="first"), console).run()
    text = out.getvalue()
    assert "entry 1: 1122 -> 1 black, 1 white" in text
    assert "took back 1122:1B1W" in text and "nothing to undo" in text
    assert "New game." in text
    for word in ("undo", "hint", "again", "list", "quit"):
        assert word in text.split("help\n", 1)[1]


def test_play_cli_through_stdin_prints_one_json_record():
    proc = subprocess.run([sys.executable, "-m", "cbsolve", "play", "--mode", "guess",
                           "--secret", "4567", "--json"], input="0123\nhint\nundo\n4567\n",
                          capture_output=True, text=True, timeout=120)
    data = json.loads(proc.stdout)
    assert proc.returncode == 0 and data["winner"] == "you"
    assert [g["guess"] for g in data["your_guesses"]] == ["4567"]


def test_assist_confirm_moves_the_diagnosis_and_fix_repairs():
    out = io.StringIO()
    lines = "0123 1 1\n0123 2 0\nconfirm 2\nfix 1 2 0\nquit\n"
    session = AssistSession(Assistant(BC, strategy="first"), Console(stdin=io.StringIO(lines),
                                                                     stdout=out))
    summary = session.run()
    text = out.getvalue()
    before, after = text.split("confirm 2", 1)
    assert "reply 2 (0123 -> 2 0) alone could be wrong" in before
    assert "entry 2: 0123 -> 2 bulls, 0 cows (confirmed)" in after
    assert summary["consistent"] and [e["bulls"] for e in summary["entries"]] == [2, 2]


def test_a_code_typed_in_capitals_is_a_guess_even_where_it_spells_a_command():
    v = Variant(4, "ABCDEFGHIJKLMNOPQRSTUVWXYZ", repeats=False)
    result, out = run_game(["UNDO", "hint", "HINT"], variant=v, mode="guess", secret="HINT")
    assert [g["guess"] for g in result.your_guesses] == ["UNDO", "HINT"]
    assert "best next guess:" in out and result.winner == "you"
