"""The TextArena 0.7 adapter (cbsolve/integrations/textarena.py), offline: environments made by
``textarena.make`` from the registered ids, played by scripted actions to the end."""
from __future__ import annotations

import pytest

ta = pytest.importorskip("textarena")

from testkit import check_moves, reference_reply  # noqa: E402

import cbsolve.integrations.textarena as adapter  # noqa: E402  (registers the ids)
from cbsolve.integrations.game import GameSession  # noqa: E402


def make(env_id, seed, **kwargs):
    env = ta.make(env_id, **kwargs)
    env.reset(num_players=1, seed=seed)
    return env, _inner(env).session


def _inner(env):
    while isinstance(env, ta.Wrapper):
        env = env.env
    return env


def test_every_id_is_registered_with_its_training_and_raw_forms():
    for env_id in adapter.IDS:
        for suffix in ("", "-train", "-raw"):
            assert isinstance(_inner(ta.make(env_id + suffix)), adapter.CodebreakerEnv)
    adapter.register_ids()          # importing twice is harmless


def test_scripted_game_to_the_end():
    env, session = make("cbsolve/CodeBreaker-v0", seed=4, variant="bulls-cows", length=3,
                        digits=6)
    _, first = env.get_observation()
    assert session.prompt() in first
    secret = session.secret
    wrong = "012" if secret != "012" else "345"
    steps = []
    for action in ["let me think", f"[{wrong}]", f"[{wrong}]", f"[{secret}]"]:
        done, _ = env.step(action)
        _, observation = env.get_observation()
        steps.append((done, observation))
    assert [done for done, _ in steps] == [False, False, False, True]
    assert "Please answer again" in steps[0][1]
    b, c = reference_reply(session.variant, secret, wrong)
    assert f"[{wrong}]: {b} bull" in steps[1][1]
    rewards, info = env.close()
    record = info[0]["cbsolve"]
    assert rewards[0] == pytest.approx(record["rewards"]["total"])
    assert info[0]["turn_count"] == 3           # the re-prompted reply was not a move
    assert record["solved"] and record["metrics"]["repeated_guesses"] == 1
    check_moves(session)


def test_letters_game_lost_at_the_limit_with_lost_turns():
    env, session = make("cbsolve/CodeBreaker-v0", seed=9, letters=5, length=3, max_turns=3,
                        on_invalid="lose-turn")
    wrong = "ABC" if session.secret != "ABC" else "CBA"
    for action in ["[AAB]", f"[{wrong.lower()}]", "no guess"]:
        done, _ = env.step(action)
    assert done
    _, observation = env.get_observation()
    assert f"the secret was [{session.secret}]" in observation
    rewards, info = env.close()
    assert info[0]["cbsolve"]["metrics"]["lost_turns"] == 2 and not info[0]["cbsolve"]["solved"]
    assert rewards[0] == pytest.approx(info[0]["cbsolve"]["rewards"]["total"])
    check_moves(session)


def test_black_peg_and_mastermind_presets():
    env, session = make("cbsolve/BlackPeg-v0", seed=1, max_turns=4)
    assert session.variant.bulls_only and session.variant.symbols == "123456"
    env.step("[1122]")
    _, observation = env.get_observation()
    assert "black peg" in observation and "white" not in observation.split("[Player] [1122]")[1]
    env, session = make("cbsolve/Mastermind-v0", seed=1, max_turns=4)
    assert not session.variant.bulls_only
    env.step(f"[{session.secret}]")
    assert env.close()[1][0]["cbsolve"]["solved"]


def test_the_same_seed_gives_the_same_game_as_the_session():
    _, session = make("cbsolve/BullsCows-v0", seed=21, max_turns=3)
    assert session.secret == GameSession(session.options, seed=21).secret


def test_win_on_the_last_allowed_turn_ends_the_game_won():
    env, session = make("cbsolve/Mastermind-v0", seed=2, max_turns=3)
    wrong = "1111" if session.secret != "1111" else "2222"
    assert [env.step(f"[{wrong}]")[0] for _ in range(2)] == [False, False]
    done, _ = env.step(f"[{session.secret}]")
    rewards, info = env.close()
    assert done and info[0]["cbsolve"]["solved"] and info[0]["turn_count"] == 3
    assert info[0]["cbsolve"]["metrics"]["turns"] == 3
    check_moves(session)
