"""cbsolve: constraint solver and analyzer for Bulls-and-Cows-family code-breaking games.

The curated public API (docs: "API"). ``import cbsolve`` loads only the rules (variants, codes,
errors, logs, deadlines); every other name is loaded on first use (PEP 562), so a script that
only scores codes never pays for NumPy or the solvers.

>>> import cbsolve as cb
>>> cb.Variant.preset("mastermind").length
4
>>> cb.consistent(["0123:1,2", "4567:0,1"], count=True, limit=0).count
108
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .game.codes import CodeSpace
from .runtime.deadline import Deadline
from .errors import (
                     CbsolveError,
                     Expired,
                     InconsistentLog,
                     InvalidCode,
                     InvalidFeedback,
                     InvalidVariant,
                     SpaceTooLarge,
                     UnknownName,
)
from .arguments import InvalidArgument
from . import gym_registration
from .game.feedback import Feedback, FeedbackLog
from .lazy import lazy_names
from .game.variant import PRESETS, Variant

#: The log type under its short name.
Log = FeedbackLog

# Gymnasium's ids (cbsolve/BullsCows-v0 ...), registered without importing Gymnasium now.
gym_registration.install()

#: Names loaded on first use: name -> module (relative to this package) that defines it.
_LAZY = {name: ".api" for name in (
    "Move", "Optimum", "PartitionTable", "Score", "Verification", "as_log", "as_variant",
    "atlas", "bounds", "consistent", "diagnose", "evaluate", "next_guess", "optimal", "partition",
    "partition_table", "puzzle", "regret", "score", "sweep", "verify")}
_LAZY.update({"Regret": ".advisor.review", "Puzzle": ".puzzles.puzzle",
              "SearchInterrupted": ".search", "Unfinished": ".strategy"})
#: Names of optional extras (``make_env``: the ``gym`` extra), kept out of ``__all__`` so
#: ``from cbsolve import *`` works without them.
_OPTIONAL = {"make_env": ".gym"}

if TYPE_CHECKING:     # what type checkers and IDEs see; at run time __getattr__ loads them
    from .api import (
        Move,
        Optimum,
        PartitionTable,
        Score,
        Verification,
        as_log,
        as_variant,
        atlas,
        bounds,
        consistent,
        diagnose,
        evaluate,
        next_guess,
        optimal,
        partition,
        partition_table,
        puzzle,
        regret,
        score,
        sweep,
        verify,
    )
    from .gym import make_env as make_env  # the gym extra: not in __all__
    from .puzzles.puzzle import Puzzle
    from .advisor.review import Regret
    from .search import SearchInterrupted
    from .strategy import Unfinished


_load, __dir__ = lazy_names(__name__, {**_LAZY, **_OPTIONAL}, globals())


def __getattr__(name: str) -> Any:
    if name == "bounds":     # the subpackage, made callable as the API function by .api
        importlib.import_module(".api", __name__)
        return importlib.import_module(".bounds", __name__)
    return _load(name)       # then a plain attribute


__all__ = ["CbsolveError", "CodeSpace", "Deadline", "Expired", "Feedback", "FeedbackLog",
           "InconsistentLog", "InvalidArgument", "InvalidCode", "InvalidFeedback", "InvalidVariant", "Log",
           "Move", "Optimum", "PRESETS", "PartitionTable", "Puzzle", "Regret", "Score", "SearchInterrupted",
           "SpaceTooLarge", "Unfinished", "UnknownName", "Variant", "Verification", "as_log",
           "as_variant", "atlas", "bounds", "consistent", "diagnose", "evaluate", "next_guess", "optimal",
           "partition", "partition_table", "puzzle", "regret", "score", "sweep", "verify"]
__version__ = "0.1.0"
