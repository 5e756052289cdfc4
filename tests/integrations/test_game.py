"""The game session every LLM adapter shares (cbsolve/integrations/game.py): scripted model
replies played to the end, each reply checked against the NumPy reference scorer and each
count against plain enumeration; bad replies under both policies; the turn limit."""
from __future__ import annotations

import math

import pytest
from testkit import check_moves, reference_reply, weighted_total

import cbsolve as cb
from cbsolve.errors import CbsolveError
from cbsolve.integrations.game import DEFAULT_WEIGHTS, GameOptions, GameSession
from cbsolve.integrations.oracle import turn_limit

BC3 = {"variant": "bulls-cows", "length": 3, "digits": 6}       # 120 secrets


def options(**kw) -> GameOptions:
    return GameOptions.from_options(**{**BC3, **kw})


def certified_worst(variant) -> int:
    return cb.bounds(variant).worst.upper


def test_scripted_game_to_the_end_with_correct_replies_and_rewards():
    game = GameSession(options(), secret="354")
    assert game.max_turns == certified_worst(game.variant) + 2      # default slack 2
    script = ["Let me start with [012].", "Now [345]", "I think [354]"]
    messages = [game.play(reply).message for reply in script]
    assert game.done and game.solved and game.used == 3
    check_moves(game)
    for reply, message in zip(script, messages, strict=True):
        guess = reply[reply.rindex("[") + 1:reply.rindex("]")]
        b, c = reference_reply(game.variant, "354", guess)
        assert message.startswith(f"[{guess}]: {b} bull{'' if b == 1 else 's'}, "
                                  f"{c} cow{'' if c == 1 else 's'}.")
    rewards = game.rewards()
    assert rewards["solved"] == 1.0 and rewards["information"] == 1.0 and rewards["format"] == 1.0
    assert rewards["efficiency"] == 1.0          # 3 guesses, within the certified worst case
    # every position had at most 120 candidates: each regret is cbsolve's exact one
    regrets = [t.regret for t in game.turns]
    assert all(r.exact and r.value >= 0 for r in regrets)
    assert rewards["regret"] == pytest.approx(-sum(r.value for r in regrets) / 3)
    assert rewards["total"] == pytest.approx(weighted_total(rewards, DEFAULT_WEIGHTS, 0.1, 0))
    record = game.record()
    assert [e["guess"] for e in record["entries"]] == ["012", "345", "354"]
    assert record["metrics"]["turns_over_optimum"] == 3 - certified_worst(game.variant)


def test_unparsable_reply_is_reprompted_then_the_turn_is_lost():
    game = GameSession(options(max_reprompts=1), secret="354")
    first = game.play("I am not sure yet.")
    assert first.kind == "unparsable" and not first.counted and game.used == 0
    assert "Please answer again" in first.message and "[012]" in first.message
    second = game.play("still thinking")        # a second bad reply in a row: the turn is lost
    assert second.counted and game.used == 1 and "lost" in second.message
    game.play("[354]")
    rewards = game.rewards()
    assert rewards["format"] == pytest.approx(1 / 3)
    assert game.metrics()["lost_turns"] == 1 and game.metrics()["invalid_replies"] == 2
    assert rewards["total"] == pytest.approx(weighted_total(rewards, DEFAULT_WEIGHTS, 0.1, 2))


@pytest.mark.parametrize("reply, problem", [("[0012]", "length"), ("[011]", "repeats"),
                                            ("[0A9]", "not in alphabet")])
def test_invalid_guess_under_the_lose_turn_policy_uses_the_guess(reply, problem):
    game = GameSession(options(on_invalid="lose-turn", invalid_penalty=0.5), secret="354")
    turn = game.play(reply)
    assert turn.kind == "invalid" and turn.counted and problem in turn.problem
    assert game.used == 1 and not game.log.entries
    assert game.rewards()["total"] == pytest.approx(
        weighted_total(game.rewards(), DEFAULT_WEIGHTS, 0.5, 1))


def test_repeated_guess_is_scored_and_costs_exactly_one_guess_per_secret():
    game = GameSession(options(), secret="354")
    game.play("[012]")
    again = game.play("[012]")
    assert again.kind == "ok" and again.counted and again.repeated
    assert again.candidates == game.turns[0].candidates          # no new information
    # A guess whose reply is known splits nothing: the optimal play after it is the optimal
    # play before it, one guess later for every secret, so its expected regret is exactly 1.
    assert again.regret.exact and again.regret.value == 1.0
    assert game.metrics()["repeated_guesses"] == 1
    check_moves(game)


def test_win_on_the_last_allowed_turn():
    game = GameSession(options(slack=1), secret="354")
    worst = certified_worst(game.variant)
    assert game.max_turns == worst + 1
    for _ in range(game.max_turns - 1):
        game.play("[012]")
    assert not game.done
    last = game.play("[354]")
    assert game.solved and game.done and "found the secret" in last.message
    assert game.rewards()["efficiency"] == pytest.approx(1 / 2)   # one over the optimum, slack 1
    check_moves(game)


def test_loss_at_the_turn_limit():
    game = GameSession(options(max_turns=3), secret="354")
    for reply in ["[012]", "[013]", "[014]"]:
        turn = game.play(reply)
    assert game.done and not game.solved and game.used == 3
    assert "No guesses left: the secret was [354]" in turn.message
    assert game.play("[354]").kind == "over" and game.used == 3      # nothing after the end
    rewards = game.rewards()
    assert rewards["solved"] == 0 and rewards["efficiency"] == 0
    left = game.turns[2].candidates.upper
    assert rewards["information"] == pytest.approx(math.log(120 / left) / math.log(120))
    assert "turns_over_optimum" in game.metrics() and math.isnan(
        game.metrics()["turns_over_optimum"])
    check_moves(game)


def test_letters_variant_game():
    game = GameSession(GameOptions.from_options(letters=5, length=3), secret="ECA")
    assert game.variant.symbols == "ABCDE"
    for reply in ["[abc]", "[C E A]", "[E,C,A]"]:       # either case; spaces and commas ignored
        game.play(reply)
    assert [t.guess for t in game.turns] == ["ABC", "CEA", "ECA"] and game.solved
    check_moves(game)


def test_black_peg_variant_game_speaks_pegs_and_gives_no_white_pegs():
    game = GameSession(GameOptions.from_options("black-peg", length=3, digits=4), secret="114")
    assert game.variant.bulls_only
    turn = game.play("[1 2 1]")
    b, _ = reference_reply(game.variant, "114", "121")
    assert turn.message.startswith(f"[121]: {b} black peg") and "white" not in turn.message
    assert "nothing is said about symbols in the wrong place" in game.prompt()
    game.play("[114]")
    assert game.solved
    check_moves(game)


def test_a_count_that_cannot_finish_is_given_as_labelled_bounds():
    # 26^10 codes: the session never lists them; the count stops at the turn's budget
    game = GameSession(GameOptions.from_options(letters=26, length=10, repeats=True,
                                                turn_budget=0.2, max_turns=5), seed=7)
    turn = game.play("[ABCDEFGHIJ]")
    count = turn.candidates
    assert turn.kind == "ok" and 1 <= count.lower <= count.upper <= 26 ** 10
    if not count.exact:     # what the budget decided is labelled so
        assert count.method.startswith("bounds") and count.upper == 26 ** 10
    # far beyond the positions cbsolve solves exactly: no regret, and the label says why
    assert turn.regret.value is None and turn.regret.method.startswith("not computed")


def test_seeded_secret_is_reproducible_and_a_code():
    a, b = GameSession(options(), seed=5), GameSession(options(), seed=5)
    assert a.secret == b.secret
    assert cb.score(a.secret, a.secret, variant=a.variant).bulls == 3


def test_turn_limit_is_the_certified_worst_case_plus_slack():
    v = cb.Variant.from_options("mastermind", length=3, digits=4)
    assert turn_limit(v, slack=0) == certified_worst(v)
    assert GameOptions.from_options(v, slack=3).turn_limit() == certified_worst(v) + 3


@pytest.mark.parametrize("bad", [{"on_invalid": "ignore"}, {"regret_objective": "best"},
                                 {"slack": -1}, {"max_turns": 0}, {"weights": {"speed": 1}}])
def test_bad_options_are_cbsolve_errors(bad):
    with pytest.raises(CbsolveError):
        options(**bad)


def test_regret_is_exact_or_not_computed_never_the_slow_heuristic():
    from cbsolve.game.feedback import FeedbackLog
    from cbsolve.integrations.oracle import Count, move_regret

    v = cb.Variant.from_options(**BC3)
    log = FeedbackLog(v)
    log.extend_tokens(["012:0,1"])
    n = int(cb.consistent(log, count=True).count)
    before = Count(n, n, True, "counted")
    exact = move_regret("345", log, before, "expected", cb.Deadline(None))
    assert exact.exact and exact.value == cb.regret("345", log).average_regret
    # an expired budget at a new position: a labelled "not computed", not the estimate's figure
    fresh = FeedbackLog(v)
    fresh.extend_tokens(["012:1,0"])
    late = move_regret("345", fresh, before, "expected", cb.Deadline(0))
    assert late.value is None and not late.exact and late.method.startswith("not computed")
    game = GameSession(options(turn_budget=0), secret="354")
    first = game.play("[012]")      # a first guess of a one-class game: the atlas's, at once
    assert first.regret.exact and first.regret.value == 0.0
    turn = game.play("[345]")
    assert turn.regret.value is None and turn.regret.method.startswith("not computed")
    assert game.rewards()["regret"] == 0.0 and game.metrics()["regret_exact_moves"] == 1
