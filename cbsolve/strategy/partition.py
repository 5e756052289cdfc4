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
from math import fsum, log2
from numbers import Integral
from typing import TYPE_CHECKING

from ..errors import InconsistentLog
from ..game.feedback import FeedbackLog
from . import rules
from ..lazy import lazy_module

#: Loaded on first use (cbsolve/lazy.py): NumPy comes with scoring and symmetry, and the
#: partition of a small game (listed_partition) runs without it.
native = lazy_module("cbsolve.consistency.native")
scoring = lazy_module("cbsolve.game.scoring")
symmetry = lazy_module("cbsolve.game.symmetry")
core = lazy_module("cbsolve._native.scoring")

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


#: Rows :meth:`Table.ranked` formats between looks at its deadline (about 0.1 s).
RANKED_BLOCK = 20_000
#: Rows a table cut by the time limit or Ctrl-C shows, its best: the 450,000 rows scored in 3 s
#: on Bulls & Cows 7/10 took 4-6 s to format and print, far past the limit or the Ctrl-C.
SHOWN_WHEN_CUT = 1000


def _empty(dtype: str) -> np.ndarray:
    import numpy as np  # where used: the list-based path runs without NumPy

    return np.zeros(0, dtype)


@dataclass
class Table:
    """The guesses up to symmetry scored so far, best first (:meth:`ranked`)."""

    candidates: int
    space: object = None               # the CodeSpace that formats the guesses
    codes: np.ndarray = field(default_factory=lambda: _empty("int64"))  # ranked
    equivalent: np.ndarray = field(default_factory=lambda: _empty("int64"))
    candidate: np.ndarray = field(default_factory=lambda: _empty("bool"))
    scores: dict[str, np.ndarray] = field(default_factory=dict)
    total: int | None = None           # guesses up to symmetry (None: the classes not found)

    @property
    def scored(self) -> int:
        return int(self.codes.size)

    @property
    def complete(self) -> bool:
        return self.total is not None and self.scored == self.total

    def ranked(self, top: int | None = None, deadline=None, block: int = RANKED_BLOCK
               ) -> list[dict]:
        """The rows, best first: all, or the best ``top`` (formatting 450,000 rows takes
        seconds: a stopped table shows its best). Formatted in blocks of ``block`` rows
        (:data:`RANKED_BLOCK`); a ``deadline`` that expires part-way leaves the best rows
        formatted so far."""
        n = self.scored if top is None else min(top, self.scored)
        rows: list[dict] = []
        for start in range(0, n, block):
            if start and deadline is not None and deadline.expired():
                break
            rows += self._rows(start, min(n, start + block))
        return rows

    def _rows(self, start: int, stop: int) -> list[dict]:
        space = self.space
        guesses = space.format_many(space.codes_at(self.codes[start:stop]))
        columns = {k: self.scores[k][start:stop].tolist() for k in SCORES}
        for k in ("expected", "entropy"):
            columns[k] = [round(x, 6) for x in columns[k]]
        equivalent = self.equivalent[start:stop].tolist()
        candidate = self.candidate[start:stop].tolist()
        return [{"guess": guesses[i], "equivalent": equivalent[i], "candidate": candidate[i],
                 **{k: columns[k][i] for k in SCORES}} for i in range(stop - start)]


def _candidates(log: FeedbackLog) -> np.ndarray:
    rules.require_enumerable(log.variant, "a partition")
    cands = native.consistent_indices(log)
    if cands.size == 0:
        raise InconsistentLog("no secret is consistent with this log")
    return cands


def _best(scores: dict[str, np.ndarray]) -> dict[str, float]:
    return {k: plain(scores[k].max() if high else scores[k].min()) for k, high in SCORES.items()}


def plain(x) -> float | int:
    return int(x) if isinstance(x, Integral) else round(float(x), 6)   # NumPy's ints too


def partition(log: FeedbackLog, guess: str, cands: np.ndarray | None = None,
              rows: np.ndarray | None = None, deadline=None, members: bool = True) -> Partition:
    """The reply classes of ``guess`` over the secrets ``log`` leaves (raises
    InconsistentLog when none is left, InvalidCode for a bad guess). ``cands``: those secrets
    when the caller has them; ``rows``: the guesses the best scores range over (one per
    symmetry class gives the same best; None: every code); a ``deadline`` that expires
    before they are all scored leaves ``best`` None (``best_complete`` False). ``members``
    False leaves the classes' member lists empty (formatting 1.4 M secrets takes seconds)."""
    import numpy as np

    v, space = log.variant, log.space
    g = space.index_of(space.parse(guess))
    cands = _candidates(log) if cands is None else cands
    replies = scoring.score_against(v, space.codes_at(g), space.codes_at(cands))
    sizes = np.bincount(replies.astype(np.int64), minlength=v.response_slots)[None, :]
    classes = []
    for r in np.unique(replies):
        inside = cands[replies == r]
        classes.append({"reply": v.format_response(int(r)), "count": int(inside.size),
                        "members": space.format_many(space.codes_at(inside)) if members else []})
    best = _best_over(log, cands, rows, deadline)
    return Partition(guess=space.format(space.codes_at(g)), candidates=int(cands.size),
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

    v, codes_at = log.variant, log.space.codes_at     # rows read from their indices
    rows = np.arange(log.space.size) if rows is None else np.asarray(rows)
    packed = scoring.pack(v, codes_at(cands))
    step = max(1, BLOCK_PAIRS // max(1, int(cands.size)))
    best = None
    for start in range(0, rows.size, step):
        if deadline is not None and deadline.expired():
            return None
        counts = scoring.partition_counts(v, scoring.pack(v, codes_at(rows[start:start + step])),
                                          packed)
        block = _best(scores_of(counts))
        best = block if best is None else {
            k: (max if high else min)(best[k], block[k]) for k, high in SCORES.items()}
    return best


def partition_table(log: FeedbackLog, sort: str = "minimax", deadline=None,
                    block_pairs: int = BLOCK_PAIRS) -> Table:
    """Every guess up to symmetry (permutations of positions and symbols fixing the log's
    guesses, :mod:`cbsolve.game.symmetry`), with its scores, best first by ``sort``. Scored in
    blocks of about ``block_pairs`` pairs (:data:`BLOCK_PAIRS`): a ``deadline`` (a time limit or Ctrl-C) that
    expires part-way leaves the guesses scored so far, ranked (``scored`` of ``total``)."""
    import numpy as np

    cands = _candidates(log)
    v, space = log.variant, log.space
    found = symmetry.Symmetry(v).guess_classes([e.guess for e in log], deadline)
    if found is None:                  # the deadline came while the classes were found
        return Table(candidates=int(cands.size))
    reps, sizes = found
    packed = scoring.pack(v, space.codes_at(cands))
    step = max(1, block_pairs // max(1, int(cands.size)))
    blocks: list[dict[str, np.ndarray]] = []
    done = 0
    for start in range(0, reps.size, step):
        if deadline is not None and deadline.expired():
            break
        block = reps[start:start + step]
        blocks.append(scores_of(scoring.partition_counts(v, scoring.pack(v, space.codes_at(block)),
                                                         packed)))
        done += block.size
    scores = {k: np.concatenate([b[k] for b in blocks]) if blocks else np.zeros(0)
              for k in SCORES}
    rows = reps[:done]
    not_candidate = ~_members(rows, cands)
    keys = [-scores[k] if SCORES[k] else scores[k] for k in [sort] + [k for k in SCORES
                                                                        if k != sort]]
    # best first: the sort score, then the others, a candidate, the lowest code (lexsort
    # takes its last key as the first)
    order = np.lexsort([rows, not_candidate, *[np.round(k, 6) for k in reversed(keys)]])
    return Table(candidates=int(cands.size), space=space, codes=rows[order],
                 equivalent=sizes[:done][order], candidate=~not_candidate[order],
                 scores={k: scores[k][order] for k in SCORES}, total=int(reps.size))


def _members(rows: np.ndarray, cands: np.ndarray) -> np.ndarray:
    """Which of ``rows`` are in ``cands`` (sorted, as the filter lists them), by binary search:
    ``np.isin`` hashes every candidate (1.9 M after a reply on Mastermind 8x8: 1.4 s, past the
    deadline that had just cut the table)."""
    import numpy as np

    if cands.size > 1 and not np.all(cands[1:] >= cands[:-1]):
        cands = np.sort(cands)
    where = np.minimum(np.searchsorted(cands, rows), max(cands.size - 1, 0))
    return cands[where] == rows if cands.size else np.zeros(rows.size, dtype=bool)


# --- the list-based path: a small game's partition without NumPy ------------------------------
#: ``listed_partition`` compares the guess with every code when that is at most this many
#: guess x candidate pairs (one kernel call, about 0.05 s); beyond, :func:`partition` compares
#: one guess per symmetry class.
LISTED_PAIRS = 20_000_000
#: Largest space this path lists whole: the comparison over every code needs size x secrets
#: pairs within :data:`LISTED_PAIRS`, so beyond this the listing itself (Mastermind 8x8: 2.6 s
#: at load 17) was work thrown away.
LISTED_CODES = 1_000_000


def scores_of_sums(n: int, largest: int, squares: int, plogp: float, parts: int) -> dict:
    """The four scores of a partition of ``n`` secrets from its class sizes' largest, sum of
    squares, sum of c*log2(c) and number (as :func:`scores_of` computes them)."""
    return {"minimax": int(largest), "expected": plain(squares / n),
            "entropy": plain(log2(n) - plogp / n), "parts": int(parts)}


def class_summary(sizes) -> dict:
    """What advice says of a partition, from its class sizes (zeros skipped): the classes, the
    largest, the expected class size sum(c^2)/n and the entropy in bits. Plain Python, so the
    array path (:func:`~.heuristics.partition_summary`) and the list-based one
    (:mod:`.listed`) give the same numbers to the last bit."""
    live = [int(c) for c in sizes if c]
    n = sum(live)
    return {"classes": len(live), "largest": max(live),
            "expected_size": sum(c * c for c in live) / n,
            "entropy_bits": log2(n) - fsum(c * log2(c) for c in live) / n}


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
    v, space = log.variant, log.space
    g = space.parse(guess)
    if not space.enumerable or space.size > LISTED_CODES:
        return None
    n, cands = native.consistent_rows(log)
    if n == 0:
        raise InconsistentLog("no secret is consistent with this log")
    if space.size * n > LISTED_PAIRS:
        return None
    kind = (v.length, v.n_symbols, v.repeats, v.bulls_only)
    counts = core.partition_listed(*kind, bytes(g), cands, v.response_slots)[0]
    mine = core.partition_sums_listed(*kind, bytes(g), cands, v.response_slots)[0]
    best = None
    if deadline is None or not deadline.expired():
        _, every = native.consistent_rows(FeedbackLog(v))
        best = best_of_sums(n, core.partition_sums_listed(*kind, every, cands, v.response_slots))
    classes = [{"reply": v.format_response(r), "count": int(c), "members": []}
               for r, c in enumerate(counts) if c]
    return Partition(guess=space.format(g), candidates=n, candidate=counts[v.win_response] > 0,
                     classes=classes, scores=scores_of_sums(n, *mine), best=best,
                     best_complete=best is not None)
