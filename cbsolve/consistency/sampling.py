"""How ``--sample K`` secrets are drawn, and the label (``ConsistencyResult.sampling``) that says
so: one wording for every engine, so a script can tell exact uniform samples from the others.

Place in the data flow: (this module) -> native.py, answer.py, dfs_answer.py, solve.py.
"""
from __future__ import annotations

import numpy as np

#: Exact uniform, the whole set listed (the filter, or a solver's complete enumeration).
FROM_THE_SET = "exact uniform, without replacement, from the enumerated set"
#: Exact uniform, the set counted by the depth-first search and the codes fetched by rank.
BY_RANKS = ("exact uniform, without replacement: counted by depth-first search, then ranks "
            "drawn uniformly")
#: Near-uniform (CMSGen), with why the exact ways could not be taken.
NEAR_UNIFORM = ("near-uniform by CMSGen (heuristic sampler, no formal guarantee), with "
                "replacement; {why}")
#: Not uniform: drawn from the first secrets an engine listed.
NOT_UNIFORM = "NOT uniform: drawn from the first secrets {listed} ({why})"
#: An inconsistent log: nothing to draw.
NOTHING = "nothing to draw: no secret is consistent"


def draw(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """``min(k, n)`` distinct ranks of ``range(n)``, uniformly, in increasing order."""
    k = min(k, n)
    return np.sort(rng.choice(n, size=k, replace=False)) if k else np.zeros(0, dtype=np.int64)
