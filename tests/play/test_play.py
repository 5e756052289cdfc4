"""`cbsolve play`: the game engine, the terminal loop driven by scripts, the CLI, a real pty."""
import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from testkit import run_game

from cbsolve.cli import main
from cbsolve.game.codes import CodeSpace
from cbsolve.consistency.native import consistent_indices
from cbsolve.runtime.deadline import Deadline
from cbsolve.errors import InconsistentLog, InvalidFeedback
from cbsolve.game.feedback import FeedbackLog
from cbsolve.play.engine import Guesser, Host
from cbsolve.play.inputs import Console, parse_reply
from cbsolve.play.terminal import Game
from cbsolve.game.rule import score
from cbsolve.game.scoring import possible_responses
from cbsolve.game.variant import Variant

BC = Variant.preset("bulls-cows")
SMALL = [Variant(3, "012345", repeats=False), Variant.preset("mastermind"),
         Variant(3, "1234", repeats=True, feedback="bulls"), Variant.preset("cowbull")]


# --- input parsing --------------------------------------------------------------------------
@pytest.mark.parametrize("text,want", [("1 2", (1, 2)), ("1,2", (1, 2)), ("1A2B", (1, 2)),
                                       (" 0 0 ", (0, 0)), ("4 0", (4, 0)), ("0a4b", (0, 4)),
                                       ("quit", None), ("fix 1 2 3", None)])
def test_parse_reply_accepts_the_usual_forms(text, want):
    assert parse_reply(BC, text) == want


@pytest.mark.parametrize("text,fragment", [("3 1", "impossible"), ("5 0", "exceeds the length 4"),
                                           ("2 3", "exceeds"), ("1", "has no cows")])
def test_parse_reply_rejects_impossible_scores(text, fragment):
    with pytest.raises(InvalidFeedback, match=fragment):
        parse_reply(BC, text)


def test_parse_reply_bulls_only():
    v = Variant.preset("black-peg")
    assert parse_reply(v, "2") == (2, 0)
    with pytest.raises(InvalidFeedback, match="black pegs only"):
        parse_reply(v, "1 2")


# --- engine ---------------------------------------------------------------------------------
def self_play(variant, strategy, secret, seed=0):
    """The guesser against a secret, replies computed by the scorer; returns the guesses."""
    g = Guesser(variant, strategy=strategy, seed=seed)
    space = CodeSpace(variant)
    code = space.parse(secret)
    played = []
    for _ in range(space.size):
        guess = g.suggest().guess
        played.append(guess)
        b, c = score(variant, code, space.parse(guess))
        if b == variant.length:
            return played
        g.record(guess, b, c)
    raise AssertionError("never solved")


@pytest.mark.parametrize("variant", SMALL, ids=lambda v: v.describe())
@pytest.mark.parametrize("strategy", ["first", "minimax", "random"])
def test_guesser_solves_every_secret_of_small_variants(variant, strategy):
    space = CodeSpace(variant)
    rng = np.random.default_rng(7)
    for i in rng.choice(space.size, size=min(space.size, 12), replace=False):
        secret = space.format(space.code_at(int(i)))
        played = self_play(variant, strategy, secret)
        assert played[-1] == secret
        assert len(set(played)) == len(played)  # never repeats a guess


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 5039))
def test_candidate_count_matches_brute_force(index):
    """After every reply the guesser's count equals a fresh filter of the whole log."""
    space = CodeSpace(BC)
    secret = space.code_at(index)
    g = Guesser(BC, strategy="first")
    for _ in range(4):
        guess = g.suggest().guess
        b, c = score(BC, secret, space.parse(guess))
        if b == 4:
            break
        g.record(guess, b, c)
        assert g.candidates == consistent_indices(g.log).size
        assert space.format(secret) in g.candidate_codes(limit=None)


def test_inconsistent_reply_is_diagnosed_with_checked_corrections():
    g = Guesser(BC, strategy="first")
    g.record("0123", 0, 0)
    with pytest.raises(InconsistentLog) as info:
        g.record("4567", 0, 0)  # 8 and 9 cannot fill four places
    conflict = info.value.conflict
    assert conflict == [1, 2]
    # minimal: dropping any one conflicting entry leaves a consistent log
    for k in conflict:
        assert consistent_indices(g.log.subset([j for j in conflict if j != k])).size > 0
    fixes = info.value.corrections
    assert fixes
    # the items of option 1 are one joint change (the fewest replies); applying them must give
    # a consistent log, re-checked by the native filter
    trial = FeedbackLog(BC, list(g.log.entries))
    for fix in first_option(fixes):
        b, c = fix_reply(fix)
        trial.entries[fix["entry"] - 1] = trial.make_entry(fix["guess"], b, c, fix["entry"])
    assert consistent_indices(trial).size > 0
    with pytest.raises(InconsistentLog):
        g.suggest()
    assert g.undo().text == "4567" and g.inconsistent is None and g.candidates == 360


def test_fix_repairs_an_earlier_reply():
    g = Guesser(BC, strategy="first")
    g.record("0123", 0, 0)
    with pytest.raises(InconsistentLog):
        g.record("4567", 0, 0)
    g.fix(1, 0, 2)
    assert g.inconsistent is None
    assert g.candidates == consistent_indices(g.log).size > 0
    with pytest.raises(InvalidFeedback, match="allowed 1..2"):
        g.fix(5, 0, 0)


def first_option(fixes):
    """The corrections of the likeliest fix (option 1: one or several replies changed at once)."""
    return [f for f in fixes if f["option"] == 1]


def fix_reply(fix):
    """(bulls, cows) a correction proposes."""
    return parse_reply(BC, fix["to"])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.integers(0, 5039), st.lists(st.integers(0, 5039), min_size=2, max_size=5),
       st.integers(0, 13))
def test_a_mistyped_newest_score_is_corrected_there_and_never_to_a_win(secret, guesses, typo):
    """After the newest score is mistyped, the suggested correction changed an older, correct
    reply, sometimes to 4 bulls, which would have ended the game. Among the fewest changes the
    newest reply is preferred, and no non-winning guess is corrected to the winning reply."""
    space = CodeSpace(BC)
    truth = space.codes[secret]
    log = FeedbackLog(BC)
    for g in guesses:
        b, c = score(BC, truth, space.codes[g])
        if b == 4:
            return                                   # the game would have ended
        log.add(space.format(space.codes[g]), b, c)
    replies = [r for r in possible_responses(BC) if r != (log[-1].bulls, log[-1].cows)
               and r[0] != 4]
    b, c = replies[typo % len(replies)]
    truth_reply = (log[-1].bulls, log[-1].cows)
    log.entries[-1] = log.make_entry(log[-1].text, b, c, len(log))
    if consistent_indices(log).size:
        return                                       # the typo still fits some secret
    g = Guesser(BC, strategy="first")
    with pytest.raises(InconsistentLog) as info:
        for e in log:
            g.record(e.text, e.bulls, e.cows)
    fixes = info.value.corrections
    best = first_option(fixes)
    assert [f["entry"] for f in best] == [len(log)]           # the true secret needs only this
    assert all(fix_reply(f)[0] < 4 for f in best)
    # the reply actually mistyped, with its true score, is among the options named
    assert (len(log), f"{truth_reply[0]},{truth_reply[1]}") in {(f["entry"], f["to"]) for f in fixes}
    trial = FeedbackLog(BC, list(log.entries))
    for fix in best:
        trial.entries[fix["entry"] - 1] = trial.make_entry(fix["guess"], *fix_reply(fix),
                                                           fix["entry"])
    assert consistent_indices(trial).size > 0


def test_large_space_plays_through_the_constraint_backend():
    v = Variant(30, "ABCDEFGHIJ", repeats=True)
    g = Guesser(v, strategy="minimax", seed=3)
    first = g.suggest(Deadline.from_limit(20))
    assert first.candidates == 10**30 and len(first.guess) == 30
    secret = CodeSpace(v).random_codes(1, np.random.default_rng(1))[0]
    b, c = score(v, secret, CodeSpace(v).parse(first.guess))
    nxt = g.record(first.guess, b, c, deadline=Deadline.from_limit(20))
    assert nxt.guess is not None and nxt.guess != first.guess
    # the suggested code is consistent with the reply, re-checked with the scorer
    assert score(v, CodeSpace(v).parse(first.guess), CodeSpace(v).parse(nxt.guess)) == (b, c)


def test_host_scores_with_the_rule():
    h = Host(BC, secret="1807")
    assert h.check("7810") == (1, 3)  # LeetCode 299 example: secret 1807, guess 7810 -> 1A3B
    assert h.secret_text == "1807"


# --- terminal loop --------------------------------------------------------------------------
def test_guess_mode_reprompts_on_every_bad_class():
    result, out = run_game(["012", "01a3", "0113", "0 1 2 3", "", "9876", "0123"],
                           variant=BC, mode="guess", secret="0123")
    assert "has length 3; this variant needs 4" in out
    assert "symbol 'a' not in alphabet" in out
    assert "repeats symbol '1'" in out
    assert out.count("Your guess #1:") == 6 and "Your guess #2:" in out
    assert result.winner == "you" and [g["guess"] for g in result.your_guesses] == ["9876", "0123"]
    assert result.your_guesses[0]["bulls"] == 0 and result.your_guesses[0]["cows"] == 0


def test_bulls_only_variant_rejects_repeated_symbol_only_when_distinct():
    v = Variant(3, "1234", repeats=True, feedback="bulls")
    result, out = run_game(["111", "123"], variant=v, mode="guess", secret="123")
    assert result.winner == "you" and "111: 1 bull\n" in out


class Scorer(Console):
    """A scripted player in host mode: answers with the true score, after some bad inputs."""

    def __init__(self, variant, secret, noise=(), lie=None):
        super().__init__(stdin=io.StringIO(), stdout=io.StringIO(), echo=True)
        self.variant, self.space = variant, CodeSpace(variant)
        self.secret, self.noise, self.lie = self.space.parse(secret), list(noise), lie
        self.turn = 0

    def ask(self, prompt):
        self.stdout.write(prompt)
        if self.noise:
            line = self.noise.pop(0)
        elif prompt.startswith("Score for "):
            guess = prompt[len("Score for "):].rstrip(": ")
            b, c = score(self.variant, self.secret, self.space.parse(guess))
            self.turn += 1
            if self.lie and self.turn == self.lie[0]:
                self.truth = (b, c)
                b, c = self.lie[1]
            line = f"{b} {c}"
        elif prompt.startswith("Correction"):
            # first take back the latest (true) score, then fix the lie (entry lie[0])
            self.corrections = getattr(self, "corrections", 0) + 1
            line = "undo" if self.corrections == 1 else f"fix {self.lie[0]} {self.truth[0]} {self.truth[1]}"
        else:
            line = "quit"
        self.stdout.write(line + "\n")
        return line


@pytest.mark.parametrize("variant,secret", [(BC, "9501"), (Variant.preset("mastermind"), "6612")])
def test_host_mode_finds_the_secret_with_a_scripted_player(variant, secret):
    console = Scorer(variant, secret, noise=["4 4", "x", "3 1" if not variant.repeats else "1"])
    result = Game(variant, "host", console, strategy="minimax").run()
    out = console.stdout.getvalue()
    assert result.winner == "computer" and result.your_secret == secret
    assert "exceeds the length 4" in out and "is not a score" in out
    for g in result.computer_guesses:  # every recorded reply re-checked with the scorer
        code = CodeSpace(variant).parse(g["guess"])
        assert (g["bulls"], g["cows"]) == score(variant, CodeSpace(variant).parse(secret), code)


def test_host_mode_names_the_conflicting_replies_and_recovers():
    # turn 2's score is a lie that contradicts turn 1; the scripted player then types undo
    console = Scorer(BC, "5601", lie=(2, (0, 0)))
    lines = []
    g = Game(BC, "host", console, strategy="first")
    result = g.run()
    out = console.stdout.getvalue()
    lines = [x for x in out.splitlines() if "cannot all be right" in x or "suggestion" in x]
    assert result.your_secret == "5601", out
    assert "These replies are inconsistent" in out and lines
    assert "took back your score" in out


def test_both_mode_declares_a_result():
    console = Scorer(BC, "1234", noise=["0123", "4567", "8901", "1234"])
    # after the noise runs out the scripted player only scores; guesses become "quit"
    result = Game(BC, "both", console, strategy="minimax", secret="9876").run()
    assert result.quit or result.winner in ("you", "computer", "draw")
    assert result.your_guesses[0] == {"guess": "0123", "bulls": 0, "cows": 0}


def test_both_mode_draw_when_both_solve_in_the_same_round():
    result, out = run_game(["0123", "4 0"], variant=BC, mode="both", secret="0123",
                           strategy="first")  # the first strategy opens with 0123
    assert result.winner == "draw" and "A draw" in out


# --- CLI ------------------------------------------------------------------------------------
def test_cli_play_json_record(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("0123\n4567\n"))
    code = main(["play", "--mode", "guess", "--secret", "4567", "--json"])
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert code == 0 and data["winner"] == "you" and len(data["your_guesses"]) == 2
    assert "Your guess #1:" in err


@pytest.mark.parametrize("args,fragment", [(["--mode", "watch"], "unknown mode 'watch'"),
                                           (["--strategy", "magic"], "unknown strategy 'magic'"),
                                           (["--secret", "1123"], "repeats symbol '1'")])
def test_cli_play_bad_options_exit_2(capsys, monkeypatch, args, fragment):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code = main(["play", *args])
    err = capsys.readouterr().err
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_play_in_a_pseudo_terminal():
    import pty  # noqa: F401 - POSIX only
    import select

    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "cbsolve", "play", "--mode", "guess",
                             "--secret", "0123"], stdin=slave, stdout=slave, stderr=slave,
                            close_fds=True)
    os.close(slave)
    seen = b""

    def read_until(token, timeout=30.0):
        nonlocal seen
        import time

        end = time.time() + timeout
        while token not in seen and time.time() < end:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    seen += os.read(master, 4096)
                except OSError:
                    break
        return token in seen

    try:
        assert read_until(b"Your guess #1: ")
        os.write(master, b"01\n")
        assert read_until(b"this variant needs 4")
        os.write(master, b"0123\n")
        assert read_until(b"You found my secret in 1 guess")
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()
        os.close(master)


@pytest.mark.parametrize("strategy", ["minimax", "expected", "entropy", "parts", "first"])
def test_guesser_agrees_with_next_guess_also_from_its_cache(strategy):
    """The bot's cached and matrix-backed advice is exactly `cbsolve next`'s advice."""
    import cbsolve.strategy as strategies
    space = CodeSpace(BC)
    warm = Guesser(BC, strategy=strategy)
    assert warm.precompute(depth=1) > 1
    for index in (0, 777, 2024, 5039):
        secret = space.code_at(index)
        g = Guesser(BC, strategy=strategy)
        for _ in range(3):
            mine = g.suggest()
            ref = strategies.choose_next(g.log, strategy=strategy)
            assert (mine.guess, mine.candidates) == (ref.guess, ref.candidates)
            b, c = score(BC, secret, space.parse(mine.guess))
            if b == 4:
                break
            g.record(mine.guess, b, c)


def test_hosting_beyond_the_filter_always_guesses_a_code(monkeypatch):
    """12 of 20 letters (6.0e14 codes): each guess is a code (a uniform draw, or a find-one
    when the draw's count took its time; it asked "Score for None" and ended with an error);
    a turn whose search finds nothing in time says so and lets the player undo, quit or retry."""
    from cbsolve.play import engine
    from cbsolve.game.variant import Variant

    big = Variant(12, "ABCDEFGHIJKLMNOPQRST", repeats=False)
    result, out = run_game(["1,5"] * 3, variant=big, mode="host", seed=1, time_limit=2)
    assert "None" not in out
    assert all(isinstance(g["guess"], str) and len(g["guess"]) == 12
               for g in result.computer_guesses)
    calls = []
    real = engine.Guesser.suggest

    def nothing_once(self, deadline=None):
        if not calls and len(self.log) == 1:
            calls.append(1)
            return engine.Suggestion(None, "consistent", None, False, note="no time")
        return real(self, deadline)

    monkeypatch.setattr(engine.Guesser, "suggest", nothing_once)
    result, out = run_game(["1,5", "", "1,5"], variant=big, mode="host", seed=1, time_limit=2)
    assert "I found no code that fits your scores in time (no time)" in out
    assert "None" not in out.replace("(no time)", "") and len(result.computer_guesses) == 2


def test_beyond_the_filter_a_conflict_the_service_finds_is_kept_for_the_repair():
    """12 of 20 letters (too many codes to list): the reply 0 0 to twelve distinct letters is
    impossible, and only the position service's search finds it. The guesser keeps that
    diagnosis, as the filter's, so the game asks for a correction instead of asking the
    service again and again (it did, without end)."""
    variant = Variant.from_options("bulls-cows", length=12, letters=20)
    g = Guesser(variant, seed=1)
    first = g.suggest(Deadline.from_limit(2.0)).guess
    g.record(first, 0, 0, advise=False)
    with pytest.raises(InconsistentLog):
        g.suggest(Deadline.from_limit(2.0))
    assert g.inconsistent is not None and g.inconsistent.conflict == [1]
    assert all(f["entry"] == 1 for f in g.inconsistent.corrections)


def test_a_game_beyond_the_filter_with_an_impossible_score_asks_for_a_correction():
    out = subprocess.run([sys.executable, "-m", "cbsolve", "play", "--length", "12", "--letters",
                          "20", "--time-limit", "1", "--mode", "host", "--seed", "1"],
                         input="0 0\n", capture_output=True, text=True, timeout=120)
    assert out.returncode == 0
    assert "inconsistent" in out.stdout and "Correction:" in out.stdout
