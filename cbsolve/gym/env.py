"""One code-breaking game as a Gymnasium environment (registered ids: :mod:`cbsolve.gym`).

Place in the data flow: a face beside the CLI and the API. The rules are the package's
(:mod:`cbsolve.game.rule` through the native scorer); the candidates after each reply come from the
same filter as ``cbsolve consistent``; the regret reward is :func:`cbsolve.regret`'s.

**Actions**: ``Discrete(S)``, the index of a guess among the variant's S codes in
lexicographic order (``env.unwrapped.decode(a)`` -> ``"0123"``, ``encode("0123")`` -> a).
Every code is a legal guess; ``info["action_mask"]`` (``int8``, length S) marks the codes
still consistent with the replies, for agents that play consistent guesses only.

**Observations**: ``Box(-1, H, (T, N + 2), int64)``: row t is guess t's N symbols (indices
into the alphabet) then its bulls and cows (cows 0 in bulls-only games); rows not yet played
are -1. T is ``max_guesses``; H is max(D - 1, N).

``slack=k`` sets ``max_guesses`` to the variant's certified worst case plus k (the turn limit
of the LLM adapters, :func:`cbsolve.integrations.oracle.turn_limit`).

**Episode**: a secret drawn uniformly with the reset's seed (or ``options={"secret":
"0123"}``); it ends (``terminated``) when a guess is the secret, and is cut (``truncated``)
after ``max_guesses`` guesses. ``options={"entries": ["0123:1,2", ...]}`` starts from a
position: the entries are played first (they count towards ``max_guesses``) and the secret is
drawn among the codes consistent with them (a given secret must be one). ``info``:
``candidates`` (secrets still consistent), ``action_mask``, and after the end ``secret``.

**Rewards** (``reward=``), each labelled in ``info["reward_kind"]``:

- ``"guess"`` (default): -1 a guess, so the return is minus the number of guesses;
- ``"information"``: log2(candidates before / after) bits, the information the reply gave
  (the return over a won game is log2 S);
- ``"regret"``: minus the guess's expected regret per secret against the optimal strategy
  from the position (:func:`cbsolve.regret`), exact while the position has at most 500
  candidates; beyond that no exact value is known and the reward is 0 with
  ``info["reward_exact"]`` False (the label says so).
"""
from __future__ import annotations

import math
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from .. import arguments
from ..advisor import PositionService
from ..api import as_log, as_variant
from ..consistency.native import consistent_indices
from ..game.codes import CodeSpace
from ..errors import CbsolveError, SpaceTooLarge
from ..game.feedback import FeedbackLog
from ..game.scoring import pack, score_against
from ..game.variant import Variant
from ..integrations.oracle import turn_limit
from ..strategy.exact import EXACT_SECRETS

REWARDS = ("guess", "information", "regret")
#: Guesses an episode allows by default (the optimal worst case of both presets is at most 7).
MAX_GUESSES = 10
#: Largest code space an environment takes (the action space lists every code).
ENV_LIMIT = 1_000_000
#: Most guesses an episode may allow (the observation holds one row per guess).
MOST_GUESSES = 10_000
#: What ``reset(options=...)`` reads.
RESET_OPTIONS = ("entries", "secret")


class ResetNeeded(CbsolveError, gymnasium.error.ResetNeeded):
    """``step`` before the first ``reset`` or after the episode's end: Gymnasium's own error
    (what its order-enforcing wrapper raises), and a CbsolveError."""


class InvalidAction(CbsolveError, gymnasium.error.InvalidAction, ValueError):
    """An action that is no code's index (``decode(-1)``, ``step(5040)`` in Bulls & Cows)."""


class CodeBreakerEnv(gymnasium.Env):
    """Guess the secret of ``variant`` (a :class:`~cbsolve.game.variant.Variant` or a preset name);
    see the module docstring for the spaces and rewards."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, variant: Variant | str = "bulls-cows", reward: str = "guess",
                 max_guesses: int = MAX_GUESSES, render_mode: str | None = None,
                 slack: int | None = None):
        arguments.choice(reward, "reward", REWARDS)
        if slack is not None:     # the LLM adapters' turn limit: certified worst case + slack

            max_guesses = turn_limit(as_variant(variant),
                                     arguments.whole(slack, "slack", 0, MOST_GUESSES))
        max_guesses = arguments.whole(max_guesses, "max_guesses", 1, MOST_GUESSES)
        if render_mode is not None:
            arguments.choice(render_mode, "render_mode", self.metadata["render_modes"])
        self.variant = as_variant(variant)
        self.space = CodeSpace(self.variant)
        if self.space.size > ENV_LIMIT:
            raise SpaceTooLarge(f"an environment's actions are every code; "
                                f"{self.variant.describe()} has {self.space.size} "
                                f"(limit {ENV_LIMIT})")
        self.codes = self.space.codes
        # packed once: packing the candidates anew each step was most of a step's time
        self._packed = pack(self.variant, self.codes)
        self.reward_kind, self.max_guesses, self.render_mode = reward, max_guesses, render_mode
        n, d = self.variant.length, self.variant.n_symbols
        self.action_space = spaces.Discrete(self.space.size)
        self.observation_space = spaces.Box(-1, max(d - 1, n), shape=(max_guesses, n + 2),
                                            dtype=np.int64)
        self._obs = np.full((max_guesses, n + 2), -1, dtype=np.int64)
        self._cands = np.arange(self.space.size)
        self._secret = 0
        self._played: list[str] = []
        self._done = True              # no episode until the first reset
        self._started = False
        self._service: Any = None     # the regret reward's PositionService (its caches)

    # --- codes ----------------------------------------------------------------------------
    def decode(self, action: int) -> str:
        """The guess an action stands for (InvalidAction for no code's index)."""
        return self.space.format(self.codes[self._index(action)])

    def _index(self, action: Any) -> int:
        """``action`` as an index into the codes: a whole number (Python or NumPy) in
        0..S-1; anything else is InvalidAction naming the range (a negative index counted
        from the end once gave a code)."""
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            action = action.item()              # a 0-d array, as Discrete.sample() may give
        try:
            return arguments.whole(action, "action", 0, self.space.size - 1)
        except arguments.InvalidArgument as exc:
            raise InvalidAction(str(exc)) from None

    def encode(self, guess: str) -> int:
        """The action of a guess (its rank among the codes)."""
        return self.space.index_of(self.space.parse(guess))

    # --- the game ---------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        if seed is not None:
            arguments.whole(seed, "seed", 0, arguments.MAX_SEED)
        if options is not None and not isinstance(options, dict):
            raise arguments.InvalidArgument("options", "None or a dict", options)
        unknown = sorted(set(options or {}) - set(RESET_OPTIONS), key=str)
        if unknown:
            raise CbsolveError(f"unknown reset option {unknown[0]!r}; the options are: "
                               f"{', '.join(RESET_OPTIONS)}")
        super().reset(seed=seed)
        options = options or {}
        self._obs.fill(-1)
        self._cands = np.arange(self.space.size)
        self._played = []
        self._done = False
        entries = options.get("entries") or ()
        if isinstance(entries, str) or not isinstance(entries, (list, tuple)):
            raise arguments.InvalidArgument("options['entries']", "a list of entries", entries)
        if entries:
            self._start_from(list(entries))
        secret = arguments.optional_text(options.get("secret"), "options['secret']")
        if secret is None:
            self._secret = int(self._cands[self.np_random.integers(self._cands.size)])
        else:
            self._secret = self.encode(secret)
            if not np.isin(self._secret, self._cands):
                raise CbsolveError(f"secret {secret} does not fit the entries given")
        self._started = True
        return self._obs.copy(), self._info()

    def _start_from(self, entries: list[str]) -> None:
        """Play ``entries`` (tokens, as the CLI reads them): the position an episode starts at."""
        if len(entries) >= self.max_guesses:
            raise CbsolveError(f"{len(entries)} entries leave no guess of the {self.max_guesses}")
        log = as_log(entries, self.variant)   # tokens, JSON log objects or tuples
        self._cands = consistent_indices(log)
        if self._cands.size == 0:
            raise CbsolveError("no secret is consistent with the entries given")
        n = self.variant.length
        for t, e in enumerate(log):
            self._obs[t, :n] = e.guess
            self._obs[t, n:] = (e.bulls, e.cows)
        self._played = log.tokens()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        if not self._started:
            raise ResetNeeded("call reset() before step(): no episode has started")
        if self._done:
            raise ResetNeeded("the episode has ended: call reset()")
        g = self._index(action)
        v = self.variant
        before = int(self._cands.size)
        every = score_against(v, self.codes[g], self._packed)     # the guess against all codes
        replies, reply = every[self._cands], int(every[self._secret])
        reward, exact = self._reward(g, before, replies == reply)
        self._cands = self._cands[replies == reply]
        bulls, cows = v.response_of(reply)
        t = len(self._played)
        self._obs[t, :v.length] = self.codes[g]
        self._obs[t, v.length:] = (bulls, cows)
        self._played.append(f"{self.decode(g)}:{v.format_response(reply)}")
        terminated = g == self._secret
        truncated = not terminated and len(self._played) >= self.max_guesses
        self._done = terminated or truncated
        info = self._info()
        info["reward_exact"] = exact
        return self._obs.copy(), reward, terminated, truncated, info

    def _reward(self, g: int, before: int, keep: np.ndarray) -> tuple[float, bool]:
        if self.reward_kind == "guess":
            return -1.0, True
        if self.reward_kind == "information":
            return math.log2(before / int(np.count_nonzero(keep))), True

        if before > EXACT_SECRETS:        # no exact value known here (the label says so)
            return 0.0, False
        if self._service is None:         # the position service's review, kept by the env

            self._service = PositionService(self.variant)
        r = self._service.review(self._log(), self.decode(g), "expected")
        return (-r.average_regret, True) if r.exact else (0.0, False)

    def _log(self):
        log = FeedbackLog(self.variant)
        log.extend_tokens(self._played)
        return log

    def _info(self) -> dict:
        mask = np.zeros(self.space.size, dtype=np.int8)
        mask[self._cands] = 1
        info = {"candidates": int(self._cands.size), "action_mask": mask,
                "reward_kind": self.reward_kind}
        if self._done:
            info["secret"] = self.decode(self._secret)
        return info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        lines = [self.variant.describe(), *self._played,
                 f"{self._cands.size} candidates left"]
        return "\n".join(lines)


def make_env(variant: Variant | str = "bulls-cows", **kwargs: Any) -> CodeBreakerEnv:
    """An environment for any variant, without the registry (``reward``, ``max_guesses`` and
    ``render_mode`` as :class:`CodeBreakerEnv`)."""
    return CodeBreakerEnv(variant, **kwargs)
