"""Exact optimal search: worst case, expected case, depth-capped (see docs/tree-format.md).

The face of the search wing: it only re-exports. Layers, each importing only from the ones
above it (docs/architecture.md, "Search, layer by layer"): the result type (:mod:`.result`),
the set-up (:mod:`.memory`, :mod:`.reply_matrix`), the worst case (:mod:`.worst`), the
expected case (:mod:`.expected`), a position's search (:mod:`.position`) and the Dask drivers
(:mod:`.distributed`).
"""
from __future__ import annotations

from . import memory, reply_matrix
from .distributed import cluster_client, solve_expected_distributed, solve_worst_distributed
from .expected import solve_expected
from .position import Position, solve_expected_from, solve_from, stamp
from .result import SearchInterrupted, SearchResult, Verdict
from .worst import solve_worst

__all__ = ["Position", "SearchInterrupted", "SearchResult", "Verdict", "cluster_client", "memory",
           "reply_matrix", "solve_expected", "solve_expected_distributed", "solve_expected_from",
           "solve_from", "solve_worst", "solve_worst_distributed", "stamp"]
