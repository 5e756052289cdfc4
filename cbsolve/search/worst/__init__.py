"""The worst-case search: fewest guesses in the worst case, with a proof (a face: it only
re-exports; the driver is :mod:`.driver`, docs/optimal.md the method)."""
from __future__ import annotations

from ...game.guess_pool import GUESS_POOLS as GUESS_MODES
from .driver import solve_worst
from .kernel import PRUNINGS
from .ties import count_weights, tie_weights
from .trees import CERT_FORMAT, CERT_VERSION

__all__ = ["CERT_FORMAT", "CERT_VERSION", "GUESS_MODES", "PRUNINGS", "count_weights", "solve_worst",
           "tie_weights"]
