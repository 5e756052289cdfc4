"""Code-breaking games for TextArena 0.7 (the ``textarena`` extra).

Importing this module registers, on TextArena's registry (``textarena.make`` finds them):

- ``cbsolve/BullsCows-v0``: Bulls & Cows, 4 distinct digits of 10;
- ``cbsolve/Mastermind-v0``: Mastermind, 4 pegs of 6 colours, repeats;
- ``cbsolve/BlackPeg-v0``: Mastermind with black pegs only;
- ``cbsolve/CodeBreaker-v0``: any variant, ``ta.make("cbsolve/CodeBreaker-v0", variant=
  "bulls-cows", letters=8, length=5)``;

each also under ``-train`` (TextArena's game-messages observation) and ``-raw`` (no wrapper).
Keyword arguments of ``make`` are :meth:`GameOptions.from_options
<cbsolve.integrations.game.GameOptions.from_options>`'s: the variant options, ``slack``,
``max_turns``, ``on_invalid``, ``turn_budget``, ...

One player; ``reset(num_players=1, seed=s)`` draws the secret with ``s`` (no seed: from
Python's ``random``, which TextArena seeds). Each ``step(action)`` hands the action to
:class:`~cbsolve.integrations.game.GameSession` and shows the player its answer. A re-prompted
bad reply does not advance TextArena's turn count (the player moves again). At the end the
player's reward is the game's ``total``; ``game_info[0]`` holds ``reason``, ``turn_count``
and ``cbsolve``, the game's record (every reward, metric and move).
"""
from __future__ import annotations

from ..errors import CbsolveError
from ..extras import require
from .game import GameOptions, GameSession
from .replies import OK

ta = require("textarena", "the TextArena adapter")
_registry = require("textarena.envs.registration", "the TextArena adapter")
_wrappers = require("textarena.wrappers", "the TextArena adapter")
ENV_REGISTRY, register_with_versions = _registry.ENV_REGISTRY, _registry.register_with_versions
LLMObservationWrapper = _wrappers.LLMObservationWrapper
GameMessagesObservationWrapper = _wrappers.GameMessagesObservationWrapper

IDS = {"cbsolve/BullsCows-v0": {"variant": "bulls-cows"},
       "cbsolve/Mastermind-v0": {"variant": "mastermind"},
       "cbsolve/BlackPeg-v0": {"variant": "black-peg"},
       "cbsolve/CodeBreaker-v0": {}}
ENTRY_POINT = "cbsolve.integrations.textarena:CodebreakerEnv"
# No ActionFormattingWrapper: it would bracket a reply that has no guess, turning an
# unparsable reply into an invalid one; the game reads the format itself.
WRAPPERS = {"default": [LLMObservationWrapper], "-train": [GameMessagesObservationWrapper]}


class CodebreakerEnv(ta.Env):
    """A single-player code-breaking game hosted by cbsolve (module docstring)."""

    def __init__(self, variant: str = "bulls-cows", **options):
        self.options = GameOptions.from_options(variant, **options)
        self.session: GameSession | None = None

    def reset(self, num_players: int = 1, seed: int | None = None):
        self.session = GameSession(self.options, seed=seed)
        self.state = ta.SinglePlayerState(num_players=num_players, seed=seed,
                                          max_turns=self.session.max_turns)
        self.state.reset(game_state={"secret": self.session.secret, "history": []},
                         player_prompt_function=lambda player_id, game_state:
                         self.session.prompt())

    def step(self, action: str):
        session = self.session
        if session is None:
            raise CbsolveError("call reset() before step()")
        self.state.add_observation(from_id=self.state.current_player_id, message=action,
                                   observation_type=ta.ObservationType.PLAYER_ACTION)
        turn = session.play(action)
        if turn.kind == OK:
            self.state.game_state["history"].append(
                {"guess": turn.guess, "bulls": turn.bulls, "cows": turn.cows})
        kind = ta.ObservationType.GAME_ACTION_DESCRIPTION if turn.kind == OK \
            else ta.ObservationType.GAME_ADMIN
        self.state.add_observation(message=turn.message, observation_type=kind)
        # a re-prompt is not a move: TextArena's turn count stays (its documented flag)
        self.state.made_invalid_move = not turn.counted
        if session.done:
            record = session.record()
            reason = (f"Solved with guess {session.used}." if session.solved else
                      f"Not solved in {session.max_turns} guesses; the secret was "
                      f"{session.secret}.")
            self.state.set_outcome(reward=record["rewards"]["total"], reason=reason)
            self.state.game_info[0]["cbsolve"] = record
        return self.state.step()


def register_ids() -> None:
    """Register :data:`IDS` (skipping any already registered: importing twice is harmless)."""
    for env_id, kwargs in IDS.items():
        if env_id not in ENV_REGISTRY:
            register_with_versions(id=env_id, entry_point=ENTRY_POINT, wrappers=WRAPPERS,
                                   **kwargs)


register_ids()

__all__ = ["IDS", "CodebreakerEnv", "register_ids"]
