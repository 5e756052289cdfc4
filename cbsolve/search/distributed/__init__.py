"""The exact searches split over a Dask cluster (a face: it only re-exports; the expected
case's driver is :mod:`.expected`, the worst case's :mod:`.worst`, the Dask client
:mod:`.cluster`)."""
from __future__ import annotations

from .cluster import cluster_client, wait_any
from .expected import DistributedExpected, Split, solve_class, solve_expected_distributed, solve_guess
from .worst import decide_guess, solve_worst_distributed

__all__ = ["DistributedExpected", "Split", "cluster_client", "decide_guess", "solve_class",
           "solve_expected_distributed", "solve_guess", "solve_worst_distributed", "wait_any"]
