"""The Gymnasium environments (cbsolve/gym): registered ids, Gymnasium's own checker, the
rules and the three rewards."""
from __future__ import annotations

import math

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import cbsolve as cb  # noqa: E402
import cbsolve.gym  # noqa: E402,F401  (registers the ids)


@pytest.mark.parametrize("env_id", ["cbsolve/BullsCows-v0", "cbsolve/Mastermind-v0"])
def test_registered_envs_pass_gymnasiums_checker(env_id):
    env = gymnasium.make(env_id)
    check_env(env.unwrapped, skip_render_check=False)
    env.close()


def test_any_variant_through_the_registry_and_make_env():
    v = cb.Variant(3, "0123", repeats=True, feedback="bulls")
    env = gymnasium.make("cbsolve/CodeBreaker-v0", variant=v, reward="information")
    check_env(env.unwrapped)
    assert env.action_space.n == 64
    assert cbsolve.gym.make_env("mastermind").observation_space.shape == (10, 6)


def play_first_candidate(env, seed):
    """Play the first code still consistent (info's action mask) until the game ends."""
    obs, info = env.reset(seed=seed)
    rewards, steps = [], []
    while True:
        a = int(np.flatnonzero(info["action_mask"])[0])
        obs, r, term, trunc, info = env.step(a)
        rewards.append(r)
        steps.append((env.unwrapped.decode(a), info["candidates"]))
        if term or trunc:
            return obs, rewards, steps, info, term


def test_episode_follows_the_rules_and_the_filter():
    env = cbsolve.gym.make_env("mastermind")
    obs, rewards, steps, info, won = play_first_candidate(env, seed=3)
    assert won and rewards == [-1.0] * len(steps) and steps[-1][0] == info["secret"]
    # every reply recorded is the rule's, and the candidate counts are the filter's
    v, played = env.variant, []
    for t, (guess, n) in enumerate(steps):
        reply = cb.score(info["secret"], guess, variant=v)
        b, c = reply.bulls, reply.cows
        assert obs[t, -2:].tolist() == [b, c]
        played.append(f"{guess}:{b},{c}")
        assert cb.consistent(played, variant=v, count=True, limit=0).count == n
    assert (obs[len(steps):] == -1).all()
    with pytest.raises(cb.CbsolveError):
        env.step(0)                       # the episode is over


def test_information_reward_sums_to_log2_of_the_space():
    env = cbsolve.gym.make_env("bulls-cows", reward="information")
    _, rewards, _, info, won = play_first_candidate(env, seed=11)
    assert won and math.isclose(sum(rewards), math.log2(5040))
    assert info["reward_kind"] == "information"


def test_regret_reward_is_exact_on_small_positions_and_labelled_elsewhere():
    env = cbsolve.gym.make_env("mastermind", reward="regret")
    env.reset(seed=0, options={"secret": "3456"})
    _, r, *_, info = env.step(env.unwrapped.encode("1122"))      # 1296 candidates: unknown
    assert r == 0.0 and info["reward_exact"] is False
    log = [f"1122:{env.unwrapped._played[0].split(':')[1]}"]
    _, r, *_, info = env.step(env.unwrapped.encode("1111"))
    assert info["reward_exact"] is True
    assert r == -cb.regret("1111", log, variant="mastermind").average_regret


def test_truncation_after_max_guesses():
    env = cbsolve.gym.make_env("bulls-cows", max_guesses=2)
    env.reset(seed=1, options={"secret": "9876"})
    _, _, term, trunc, _ = env.step(env.unwrapped.encode("0123"))
    assert not term and not trunc
    _, _, term, trunc, info = env.step(env.unwrapped.encode("0124"))
    assert trunc and not term and info["secret"] == "9876"


def test_an_episode_can_start_from_a_position():
    env = cbsolve.gym.make_env("bulls-cows")
    log = ["0123:1,2", "4567:0,1"]
    secrets = set()
    for seed in range(20):
        obs, info = env.reset(seed=seed, options={"entries": log})
        assert info["candidates"] == 108          # the filter's count after those replies
        assert obs[:2, -2:].tolist() == [[1, 2], [0, 1]] and (obs[2:] == -1).all()
        secrets.add(env.unwrapped._secret)
    assert all(env.unwrapped.decode(s) in cb.consistent(log, limit=None).secrets
               for s in secrets)
    with pytest.raises(cb.CbsolveError):
        env.reset(options={"entries": log, "secret": "0123"})     # not consistent with them
    puzzle = cb.puzzle("mastermind", seed=2)
    menv = cbsolve.gym.make_env("mastermind")
    _, info = menv.reset(options={"entries": puzzle.tokens()})
    assert info["candidates"] == 1
    _, reward, terminated, _, _ = menv.step(menv.encode(puzzle.secret))
    assert terminated and reward == -1.0
