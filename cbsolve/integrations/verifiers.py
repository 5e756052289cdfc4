"""Code-breaking games for ``verifiers`` 0.4 (its ``verifiers.v1`` API; the ``verifiers`` extra).

The taskset id is ``cbsolve-codebreaker`` (verifiers imports it as the package
``cbsolve_codebreaker``, which re-exports this module): ``vf-eval cbsolve-codebreaker`` or, in
Python, ``vf.load_environment(vf.resolve_env_config({"taskset": {"id": "cbsolve-codebreaker",
"variant": "mastermind"}}))``. Like the built-in TextArena taskset, the taskset yields one task
per seed (the opening prompt holds the rules) and the environment plays the host: each model
reply goes to :class:`~cbsolve.integrations.game.GameSession`, whose answer is the next user
turn, until the game ends. The rewards and metrics of :mod:`cbsolve.integrations.game` land on
the player's trace (``trace.rewards``, each with its weight, and ``invalid_penalty``, so the
weighted sum is the game's ``total``); ``trace.info["cbsolve"]`` holds the game's record.

:func:`load_environment` takes the same options as keyword arguments (the call form of the
environments on the Prime hub) and returns the v1 environment.
"""
from __future__ import annotations

import asyncio
import itertools
import math
from collections.abc import Iterator
from typing import Literal

from ..extras import require
from .game import GameOptions, GameSession

vf = require("verifiers.v1", "the verifiers adapter (Python 3.11+)")

TASKSET_ID = "cbsolve-codebreaker"
SYSTEM_PROMPT = ("You are playing a code-breaking game against a host who knows the secret. "
                 "Use every reply you have been given. End each message with your next guess "
                 "in square brackets.")


class CodebreakerConfig(vf.TasksetConfig):
    """The game: a preset with cbsolve's variant options, and how it is hosted
    (:class:`~cbsolve.integrations.game.GameOptions`); task i plays the secret drawn with
    ``seed + i``."""

    variant: str = "bulls-cows"
    length: int | None = None
    digits: int | None = None
    letters: int | None = None
    symbols: str | None = None
    repeats: bool | None = None
    no_leading_zero: bool | None = None
    feedback: Literal["bulls-cows", "bulls"] | None = None
    slack: int = 2
    max_turns: int | None = None
    on_invalid: Literal["reprompt", "lose-turn"] = "reprompt"
    max_reprompts: int = 2
    invalid_penalty: float = 0.1
    turn_budget: float | None = 1.0
    regret_objective: Literal["expected", "worst"] = "expected"
    weights: dict[str, float] = {}
    seed: int = 0

    def game_options(self) -> GameOptions:
        fields = ("length", "digits", "letters", "symbols", "repeats", "no_leading_zero",
                  "feedback", "slack", "max_turns", "on_invalid", "max_reprompts",
                  "invalid_penalty", "turn_budget", "regret_objective")
        options = {name: getattr(self, name) for name in fields}
        if self.weights:
            options["weights"] = dict(self.weights)
        return GameOptions.from_options(self.variant, **options)


class CodebreakerData(vf.TaskData):
    info: dict
    """The seed the host draws the secret with (the environment re-creates the game)."""


class CodebreakerTask(vf.Task[CodebreakerData, vf.State, vf.TaskConfig]):
    pass


class CodebreakerEnvConfig(vf.EnvConfig):
    player: vf.AgentConfig = vf.AgentConfig(harness={"id": "null"})
    """The guesser: a tool-less chat loop by default (``--env.player.*``)."""


class CodebreakerEnv(vf.Env[CodebreakerEnvConfig]):
    """The host: plays :class:`GameSession` against the player, one reply a turn."""

    async def run(self, task, agents):
        options = self.taskset.config.game_options()
        session = GameSession(options, seed=task.data.info["seed"])
        async with agents.player.interaction(task) as interaction:
            segment = await interaction.turn()
            while not segment.terminated:
                # counting and regret are CPU work under the turn's deadline: off the loop
                turn = await asyncio.to_thread(session.play, segment.last_reply)
                if session.done:
                    break
                segment = await interaction.turn(turn.message)
        record_outcome(interaction.trace, session)


def record_outcome(trace, session: GameSession) -> None:
    """The game's rewards (weighted, so the trace's weighted sum is the game's total), its
    metrics (a NaN, such as turns over the optimum of a lost game, is left out) and record."""
    rewards = session.rewards()
    weights = session.options.weights
    for name, value in rewards.items():
        if name != "total":
            trace.record_reward(name, value, weights.get(name, 0.0))
    bad = session.metrics()["invalid_replies"]
    trace.record_reward("invalid_penalty", -session.options.invalid_penalty * bad, 1.0)
    for name, value in session.metrics().items():
        if not math.isnan(value):
            trace.record_metric(name, value)
    trace.info["cbsolve"] = session.record()


class CodebreakerTaskset(vf.Taskset[CodebreakerTask, CodebreakerConfig]):
    INFINITE = True

    def load(self) -> Iterator[CodebreakerTask]:
        options = self.config.game_options()
        prompt = GameSession(options, seed=self.config.seed).prompt()   # rules: seed-invariant
        name = options.variant.name or options.variant.describe()
        for i in itertools.count():
            seed = self.config.seed + i
            yield CodebreakerTask(
                CodebreakerData(name=f"{name}#{seed}", prompt=prompt,
                                system_prompt=SYSTEM_PROMPT, info={"seed": seed}),
                self.config.task)


def load_environment(**options) -> CodebreakerEnv:
    """The environment for ``options`` (:class:`CodebreakerConfig`'s fields; ``player`` an
    agent config for the guesser)."""
    player = options.pop("player", None)
    env: dict = {"taskset": {"id": TASKSET_ID, **options}}
    if player is not None:
        env["player"] = player
    return vf.load_environment(vf.resolve_env_config(env))


__all__ = ["CodebreakerConfig", "CodebreakerData", "CodebreakerEnv", "CodebreakerEnvConfig",
           "CodebreakerTask", "CodebreakerTaskset", "load_environment"]
