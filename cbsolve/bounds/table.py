"""One row of the bounds table (N, D, distinct or repeats): the work a table cell does.

Place in the data flow: scripts/research/bounds_table.py builds the cells and hands :func:`table_row` to
a local process pool or a Dask cluster (:mod:`cbsolve.analysis.runners`); it lives in the
package, not the script, so that Dask workers can import it.
"""
from __future__ import annotations

import math
import time

from ..game.codes import CodeSpace
from ..runtime.deadline import Deadline
from ..game.variant import Variant
from .compute import compute_bounds

LETTERS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
FIELDS = ["N", "D", "kind", "secrets", "responses", "worst_lower", "worst_upper", "worst_exact",
          "worst_lower_method", "worst_upper_method", "total_lower", "total_upper", "total_exact",
          "total_lower_method", "total_upper_method", "avg_lower", "avg_upper", "chvatal",
          "seconds", "verified", "notes"]


def chvatal(n: int, d: int) -> float:
    """Chvátal's (1983) counting bound for n positions and d colours: n log d / log C(n+2, 2)."""
    return n * math.log(d) / math.log(math.comb(n + 2, 2))


def table_cell(n: int, d: int, repeats: bool, options: dict) -> dict:
    """A cell: the variant's shape and the :func:`compute_bounds` options; ``time_limit`` among
    them is the cell's seconds (a cell runs in a worker process: its Deadline is made there)."""
    return {"N": n, "D": d, "repeats": repeats, "options": options,
            "secrets": CodeSpace(Variant(n, LETTERS[:d], repeats)).size}


def cell_cost(cell: dict) -> float:
    """Rough cost (larger spaces first keeps both workers busy to the end)."""
    return float(cell["secrets"])


def table_row(cell: dict) -> dict:
    """Bounds for one cell, flattened for the CSV and the Markdown table."""
    start = time.perf_counter()
    n, d = cell["N"], cell["D"]
    options = dict(cell["options"])
    deadline = Deadline.from_limit(options.pop("time_limit", None))
    b = compute_bounds(Variant(n, LETTERS[:d], cell["repeats"]), workers=1, deadline=deadline,
                       **options)
    w, e = b.worst, b.expected
    return {"N": n, "D": d, "kind": "repeats" if cell["repeats"] else "distinct",
            "secrets": b.secrets, "responses": b.responses, "worst_lower": w.lower,
            "worst_upper": w.upper, "worst_exact": w.exact is not None,
            "worst_lower_method": w.lower_method, "worst_upper_method": w.upper_method,
            "total_lower": e.lower, "total_upper": e.upper, "total_exact": e.exact is not None,
            "total_lower_method": e.lower_method, "total_upper_method": e.upper_method,
            "avg_lower": e.lower / b.secrets, "avg_upper": e.upper / b.secrets,
            "chvatal": chvatal(n, d), "seconds": round(time.perf_counter() - start, 2),
            "verified": verified(b.checks), "notes": "; ".join(b.notes)}


def verified(checks: dict) -> str:
    """What the verifier said of the cell's exact searches ("" when none ran), e.g.
    "worst: confirmed (upper: tree replayed; lower: certificate checked; 0.12 s)"."""
    out = []
    for objective, c in checks.items():
        if c["rejected"]:
            out.append(f"{objective}: rejected ({c['seconds']} s)")
        else:
            how = [f"{end}: {c[end + '_how']}" for end in ("upper", "lower") if c[end + "_how"]]
            if c.get("unconfirmed"):
                how.append("certificate not checked in time")
            out.append(f"{objective}: confirmed ({'; '.join(how) or 'nothing to use'}; "
                       f"{c['seconds']} s)")
    return "; ".join(out)
