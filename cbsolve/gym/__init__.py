"""Gymnasium environments for code-breaking (the ``gym`` extra: ``pip install cbsolve[gym]``).

``import cbsolve`` registers these ids on Gymnasium's registry (when Gymnasium is imported,
before or after: :mod:`cbsolve.gym_registration`); importing this package does it too:

- ``cbsolve/BullsCows-v0``: Bulls & Cows, 4 distinct digits of 10 (5040 secrets);
- ``cbsolve/Mastermind-v0``: Mastermind, 4 pegs of 6 colours with repeats (1296 secrets);
- ``cbsolve/CodeBreaker-v0``: any variant, ``gymnasium.make("cbsolve/CodeBreaker-v0",
  variant=cbsolve.Variant(...))`` (or a preset name).

``gymnasium.make("cbsolve.gym:cbsolve/BullsCows-v0")`` imports this package itself. Keyword
arguments of :class:`~cbsolve.gym.env.CodeBreakerEnv` (``reward``, ``max_guesses``, ...) pass
through ``make``; :func:`make_env` builds one without the registry.
"""
from __future__ import annotations

try:
    import gymnasium
except ModuleNotFoundError as exc:      # one message naming what to install
    raise ModuleNotFoundError("cbsolve.gym needs Gymnasium: pip install 'cbsolve[gym]'") from exc

from .env import REWARDS, CodeBreakerEnv, make_env

from ..gym_registration import ENTRY_POINT, IDS, register_ids

register_ids(gymnasium)

__all__ = ["ENTRY_POINT", "IDS", "REWARDS", "CodeBreakerEnv", "make_env"]
