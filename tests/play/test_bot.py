"""`cbsolve bot`: the line protocol (in-process and as a real subprocess) and the referee."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cbsolve.cli import main as cli_main
from cbsolve.game.codes import CodeSpace
from cbsolve.play.bot import Bot, serve
from cbsolve.play.referee import BotProcess, LocalBot, match
from cbsolve.game.rule import score
from cbsolve.game.variant import Variant

BC = Variant.preset("bulls-cows")
ROOT = Path(__file__).resolve().parents[2]


def test_protocol_answers_one_line_each_and_never_crashes():
    bot = Bot(BC, strategy="first", seed=5)
    secret = bot.host.secret  # "new" below draws another one
    answers = [bot.handle(x) for x in [
        "score 1 2",            # before any guess
        "guess", "guess",       # the same pending guess twice
        "score 0 0", "guess",
        "score x y", "score 5 0", "score 3 1",
        "check 0123", "check 012", "check", "check 0a12",
        "dance", "", "new", "guess"]]
    assert answers[0].startswith("error no guess to score")
    assert answers[1] == answers[2] == "0123"
    assert answers[3] == "ok" and answers[4] == "4567"  # first consistent after 0123:0,0
    assert answers[5].startswith("error malformed score")
    assert answers[6].startswith("error") and "exceeds the length 4" in answers[6]
    assert answers[7].startswith("error") and "impossible" in answers[7]
    b, c = map(int, answers[8].split())
    assert (b, c) == score(BC, secret, (0, 1, 2, 3))  # re-checked with the scorer
    assert answers[9].startswith("error code '012' has length 3")
    assert answers[10].startswith("error check needs a code")
    assert "not in alphabet" in answers[11]
    assert answers[12].startswith("error unknown command 'dance'")
    assert answers[13].startswith("error empty command")
    assert answers[14] == "ok" and answers[15] == "0123"
    assert all("\n" not in a for a in answers)


def test_inconsistent_scores_name_the_conflict_and_block_guessing():
    bot = Bot(BC, strategy="first")
    assert bot.handle("guess") == "0123" and bot.handle("score 0 0") == "ok"
    assert bot.handle("guess") == "4567"
    assert bot.handle("score 0 0") == "inconsistent 1 2"
    assert bot.handle("guess") == "error inconsistent 1 2"
    assert bot.handle("new") == "ok" and bot.handle("guess") == "0123"


def test_game_over_after_all_bulls():
    bot = Bot(BC, strategy="minimax")
    bot.handle("guess")
    assert bot.handle("score 4 0") == "ok"
    assert bot.handle("guess").startswith("error game over")
    assert bot.handle("quit") == "ok" and bot.done


def test_bulls_only_protocol():
    v = Variant.preset("black-peg")
    bot = Bot(v, strategy="minimax", seed=2)
    ans = bot.handle("check 1234")
    assert ans.isdigit() and int(ans) == score(v, bot.host.secret, CodeSpace(v).parse("1234"))[0]
    bot.handle("guess")
    assert bot.handle("score 1") == "ok"
    bot.handle("guess")
    assert bot.handle("score 1 2").startswith("error")


@pytest.mark.parametrize("variant", [BC, Variant.preset("mastermind"),
                                     Variant(3, "1234", repeats=True, feedback="bulls")],
                         ids=lambda v: v.name or v.describe())
@pytest.mark.parametrize("strategy", ["minimax", "random"])
def test_bot_solves_its_opponents_secret(variant, strategy):
    """A bot against a host bot: every game ends with the secret found, replies re-scored."""
    guesser, host = Bot(variant, strategy=strategy, seed=1), Bot(variant, strategy="first", seed=9)
    space = CodeSpace(variant)
    for _ in range(5):
        assert host.handle("new") == "ok" and guesser.handle("new") == "ok"
        for _turn in range(1, 12):
            g = guesser.handle("guess")
            reply = host.handle(f"check {g}")
            expect = score(variant, host.host.secret, space.parse(g))
            assert reply.split() == [str(x) for x in expect[:1 if variant.bulls_only else 2]]
            assert guesser.handle(f"score {reply}") == "ok"
            if expect[0] == variant.length:
                assert g == host.host.secret_text
                break
        else:
            raise AssertionError("bot did not solve in 11 guesses")


def test_serve_stops_at_quit():
    import io

    out = io.StringIO()
    n = serve(Bot(BC, strategy="first"), io.StringIO("guess\nquit\nguess\n"), out)
    assert n == 2 and out.getvalue() == "0123\nok\n"


def test_bot_subprocess_speaks_the_protocol():
    proc = subprocess.run([sys.executable, "-m", "cbsolve", "bot", "--strategy", "first",
                           "--seed", "3"], input="guess\nscore 0 0\nguess\nfoo\ncheck 12\nquit\n",
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0 and proc.stderr == ""
    assert lines[:3] == ["0123", "ok", "4567"]
    assert lines[3].startswith("error unknown command") and lines[4].startswith("error code")
    assert lines[5] == "ok" and len(lines) == 6


def test_cli_bot_rejects_unknown_strategy(capsys):
    from cbsolve.cli import main

    assert main(["bot", "--strategy", "psychic"]) == 2
    assert "unknown strategy 'psychic'" in capsys.readouterr().err


def test_referee_in_process_counts_add_up():
    a = LocalBot(Bot(BC, strategy="minimax", seed=1), "A")
    b = LocalBot(Bot(BC, strategy="first", seed=2), "B")
    r = match(BC, a, b, games=6)
    assert r.a.wins + r.b.wins + r.draws == 6
    assert r.a.faults == r.b.faults == 0
    # minimax solves Bulls & Cows 4/10 in at most 7 guesses (Knuth-style bound; see strategy tests)
    assert all(1 <= g <= 7 for g in r.a.guesses)
    assert len(r.a.guesses) == r.a.wins + r.draws


class Liar(Bot):
    """A bot whose check answers are always 0 0: its opponent must call it out."""

    def check(self, args):
        super().check(args)
        return "0 0"


def test_referee_faults_a_lying_checker():
    a = LocalBot(Bot(BC, strategy="first", seed=1), "honest")
    b = LocalBot(Liar(BC, strategy="first", seed=2), "liar")
    r = match(BC, a, b, games=2)
    assert r.b.faults == 2 and r.a.wins == 2
    assert "inconsistent" in r.b.fault_messages[0]


def test_referee_with_two_subprocesses(capsys):
    assert cli_main(["referee", "--a", "minimax", "--b", "entropy", "--games", "3", "--variant",
                     "mastermind", "--seed", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 3 and data["variant"]["name"] == "mastermind" and data["complete"]
    assert data["a"]["wins"] + data["b"]["wins"] + data["draws"] == 3
    assert data["a"]["faults"] == data["b"]["faults"] == 0
    assert data["a"]["worst_guesses"] <= 6  # Mastermind 4/6 minimax worst case 5 (Knuth 1977)


def test_bot_process_reports_a_dead_bot():
    from cbsolve.play.referee import BotFailure

    # it reads its first command before answering and exiting, so the first exchange never races
    # its exit
    bot = BotProcess([sys.executable, "-c", "import sys; sys.stdin.readline(); print('ok')"],
                     name="dead", timeout=5)
    assert bot.ask("new") == "ok"
    with pytest.raises(BotFailure, match="dead"):
        bot.ask("guess")
    bot.close()


def test_the_first_answers_budget_bounds_the_warm_up():
    """``first_deadline`` (``cbsolve bot``: from the process's start) bounds the warm-up: an
    expired one leaves the replies to the opening uncomputed, the opening still answered; a
    budget without limit precomputes every reply."""
    from cbsolve.runtime.deadline import Deadline
    from cbsolve.play import engine

    v = Variant(3, "012345", repeats=True)        # a game no other test warms up

    def replies_cached():
        return [k for k in engine._ADVICE_CACHE if k[0] == v and len(k[-1]) == 1]

    bot = Bot(v, strategy="minimax", seed=1, first_deadline=Deadline(0))
    assert replies_cached() == []
    assert bot.handle("guess") == Bot(v, strategy="minimax", seed=1).handle("guess")
    assert len(replies_cached()) > 1
