"""One status vocabulary for every backend and search (never raw solver codes)."""
from __future__ import annotations

from enum import Enum


class Status(str, Enum):
    OPTIMAL = "optimal"        # the answer is complete/proved (all secrets found, optimum proved)
    FEASIBLE = "feasible"      # an answer exists; it may be partial (limit or time cap hit)
    INFEASIBLE = "infeasible"  # proved: no answer (e.g. an inconsistent log)
    UNKNOWN = "unknown"        # a limit was hit before anything was proved

    def __str__(self) -> str:
        return self.value
