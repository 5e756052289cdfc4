"""How a guess splits the secrets a log leaves: reply classes and the heuristics' scores.

Place in the data flow: FeedbackLog -> native consistency filter (the candidates) -> the
partition of one guess (``cbsolve partition GUESS``), or of every guess up to symmetry
(``--all``), the first table of every paper on these games (Knuth 1977's first-guess table).

The four scores are those the heuristics rank guesses by (:mod:`.heuristics`): ``minimax``
the largest class (Knuth 1977), ``expected`` the expected class size sum(s^2)/n (Irving
1979), ``entropy`` the class distribution's entropy in bits (Neuwirth 1982), ``parts`` the
number of classes (Kooi 2005). The all-bulls class of a candidate guess counts as a class.
Each score is given beside the best any guess reaches from the same position.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from math import log2
from numbers import Integral
from typing import TYPE_CHECKING

from ..errors import InconsistentLog
from ..feedback import FeedbackLog

if TYPE_CHECKING:  # NumPy is imported where used: listed_partition runs without it
    import numpy as np

#: score name -> True when larger is better
SCORES = {"minimax": False, "expected": False, "entropy": True, "parts": True}


def scores_of(counts: np.ndarray) -> dict[str, np.ndarray]:
    """The four scores of each row of a (guesses, replies) class-size matrix."""
    import numpy as np

    counts = np.asarray(counts, dtype=np.float64)
    n = counts.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        plogp = np.where(counts > 0, counts * np.log2(np.where(counts > 0, counts, 1)), 0.0)
    return {"minimax": counts.max(axis=1).astype(np.int64),
            "expected": (counts ** 2).sum(axis=1) / n,
            "entropy": np.log2(n) - plogp.sum(axis=1) / n,
            "parts": np.count_nonzero(counts, axis=1)}


@dataclass
class Partition:
    guess: str
    candidates: int
    candidate: bool                    # the guess itself can be the secret
    classes: list[dict]                # {"reply", "count", "members"} by reply
    scores: dict[str, float]
    best: dict[str, float] | None      # the best each score reaches over all guesses
    best_complete: bool = True         # False: the deadline stopped the comparison (best None)

    @property
    def largest(self) -> int:
        return max(c["count"] for c in self.classes)

    def to_json(self, members: bool = False) -> dict:
        classes = [{k: v for k, v in c.items() if members or k != "members"} for c in self.classes]
        return {"guess": self.guess, "candidates": self.candidates, "candidate": self.candidate,
                "classes": classes, "largest": self.largest, "scores": self.scores,
                "best": self.best, "best_complete": self.best_complete}


@dataclass
class Table:
    candidates: int
    rows: list[dict] = field(default_factory=list)   # one per guess up to symmetry


def _candidates(log: FeedbackLog) -> np.ndarray:
    from ..consistency.native import consistent_indices
    from .heuristics import require_enumerable

    require_enumerable(log.variant, "a partition")
    cands = consistent_indices(log)
    if cands.size == 0:
        raise InconsistentLog("no secret is consistent with this log")
    return cands


def _all_counts(log: FeedbackLog, cands: np.ndarray) -> np.ndarray:
    from .. import scoring

    v = log.variant
    codes = log.space.codes
    return scoring.partition_counts(v, scoring.pack(v, codes), scoring.pack(v, codes[cands]))


def _best(scores: dict[str, np.ndarray]) -> dict[str, float]:
    return {k: plain(scores[k].max() if high else scores[k].min()) for k, high in SCORES.items()}


def plain(x) -> float | int:
    return int(x) if isinstance(x, Integral) else round(float(x), 6)   # NumPy's ints too


def partition(log: FeedbackLog, guess: str, cands: np.ndarray | None = None,
              rows: np.ndarray | None = None, deadline=None) -> Partition:
    """The reply classes of ``guess`` over the secrets ``log`` leaves (raises
    InconsistentLog when none is left, InvalidCode for a bad guess). ``cands``: those secrets
    when the caller has them; ``rows``: the guesses the best scores range over (one per
    symmetry class gives the same best; None: every code); a ``deadline`` that expires
    before they are all scored leaves ``best`` None (``best_complete`` False)."""
    import numpy as np

    from .. import scoring

    v, space = log.variant, log.space
    g = space.index_of(space.parse(guess))
    cands = _candidates(log) if cands is None else cands
    replies = scoring.score_against(v, space.codes[g], space.codes[cands])
    sizes = np.bincount(replies.astype(np.int64), minlength=v.response_slots)[None, :]
    classes = []
    for r in np.unique(replies):
        members = cands[replies == r]
        classes.append({"reply": v.format_response(int(r)), "count": int(members.size),
                        "members": space.format_many(space.codes[members])})
    best = _best_over(log, cands, rows, deadline)
    return Partition(guess=space.format(space.codes[g]), candidates=int(cands.size),
                     candidate=bool(np.any(replies == v.win_response)), classes=classes,
                     scores={k: plain(x[0]) for k, x in scores_of(sizes).items()},
                     best=best, best_complete=best is not None)


#: Guess x candidate pairs counted per block of the best scores (about 0.05 s), so a
#: deadline is seen often.
BLOCK_PAIRS = 20_000_000


def _best_over(log: FeedbackLog, cands: np.ndarray, rows, deadline) -> dict | None:
    """The best of each score over ``rows`` (None: every code), in blocks; None when the
    deadline expires first."""
    import numpy as np

    from .. import scoring

    v, codes = log.variant, log.space.codes
    rows = np.arange(codes.shape[0]) if rows is None else np.asarray(rows)
    packed = scoring.pack(v, codes[cands])
    step = max(1, BLOCK_PAIRS // max(1, int(cands.size)))
    best = None
    for start in range(0, rows.size, step):
        if deadline is not None and deadline.expired():
            return None
        counts = scoring.partition_counts(v, scoring.pack(v, codes[rows[start:start + step]]),
                                          packed)
        block = _best(scores_of(counts))
        best = block if best is None else {
            k: (max if high else min)(best[k], block[k]) for k, high in SCORES.items()}
    return best


def partition_table(log: FeedbackLog, sort: str = "minimax") -> Table:
    """Every guess up to symmetry (permutations of positions and symbols fixing the log's
    guesses, :mod:`cbsolve.symmetry`), with its scores, best first by ``sort``."""
    import numpy as np

    from ..symmetry import Symmetry

    cands = _candidates(log)
    counts = _all_counts(log, cands)
    scores = scores_of(counts)
    history = [e.guess for e in log]
    _, rep, _ = Symmetry(log.variant).orbit_map(history, with_perms=False)
    reps, sizes = np.unique(rep, return_counts=True)
    in_cands = np.zeros(log.space.codes.shape[0], dtype=bool)
    in_cands[cands] = True
    rows = [{"guess": log.space.format(log.space.codes[g]), "equivalent": int(n),
             "candidate": bool(in_cands[g]), **{k: plain(scores[k][g]) for k in SCORES}}
            for g, n in zip(reps, sizes, strict=True)]
    order = [sort] + [k for k in SCORES if k != sort]
    rows.sort(key=lambda r: tuple(-r[k] if SCORES[k] else r[k] for k in order)
              + (not r["candidate"], r["guess"]))
    return Table(candidates=int(cands.size), rows=rows)


# --- the list-based path: a small game's partition without NumPy ------------------------------
#: ``listed_partition`` compares the guess with every code when that is at most this many
#: guess x candidate pairs (one kernel call, about 0.05 s); beyond, :func:`partition` compares
#: one guess per symmetry class.
LISTED_PAIRS = 20_000_000


def scores_of_sums(n: int, largest: int, squares: int, plogp: float, parts: int) -> dict:
    """The four scores of a partition of ``n`` secrets from its class sizes' largest, sum of
    squares, sum of c*log2(c) and number (as :func:`scores_of` computes them)."""
    return {"minimax": int(largest), "expected": plain(squares / n),
            "entropy": plain(log2(n) - plogp / n), "parts": int(parts)}


def best_of_sums(n: int, sums) -> dict:
    """The best of each score over the partitions whose sums are ``sums`` (see
    :func:`scores_of_sums`): entropy falls as sum c*log2(c) grows, for a fixed n."""
    largest, squares, plogp, parts = zip(*sums, strict=True)
    return scores_of_sums(n, min(largest), min(squares), min(plogp), max(parts))


def row_sums(row) -> tuple[int, int, float, int]:
    """:func:`scores_of_sums`'s sums of one row of class sizes (a closed-form partition)."""
    sizes = [int(c) for c in row if c]
    return max(sizes), sum(c * c for c in sizes), sum(c * log2(c) for c in sizes), len(sizes)


def listed_partition(log: FeedbackLog, guess: str, deadline=None) -> Partition | None:
    """:func:`partition` (classes without members) through the kernel's list-based entries:
    the candidates from the native filter, the best scores over every code; None when the
    space is too large to list or the comparison would exceed :data:`LISTED_PAIRS`.
    Raises InconsistentLog when no secret is left."""
    from .._native import scoring as core
    from ..consistency.native import consistent_rows

    v, space = log.variant, log.space
    g = space.parse(guess)
    if not space.enumerable or space.size > LISTED_PAIRS:
        return None
    n, cands = consistent_rows(log)
    if n == 0:
        raise InconsistentLog("no secret is consistent with this log")
    if space.size * n > LISTED_PAIRS:
        return None
    kind = (v.length, v.n_symbols, v.repeats, v.bulls_only)
    counts = core.partition_listed(*kind, bytes(g), cands, v.response_slots)[0]
    mine = core.partition_sums_listed(*kind, bytes(g), cands, v.response_slots)[0]
    best = None
    if deadline is None or not deadline.expired():
        _, every = consistent_rows(FeedbackLog(v))
        best = best_of_sums(n, core.partition_sums_listed(*kind, every, cands, v.response_slots))
    classes = [{"reply": v.format_response(r), "count": int(c), "members": []}
               for r, c in enumerate(counts) if c]
    return Partition(guess=space.format(g), candidates=n, candidate=counts[v.win_response] > 0,
                     classes=classes, scores=scores_of_sums(n, *mine), best=best,
                     best_complete=best is not None)
