"""Heuristics: which guess to play at a node, given the candidates still consistent.

Place in the data flow: consistency hands over the candidate set (sorted code indices); this
module picks the next guess; :mod:`cbsolve.strategy.evaluation` calls it at every node of a
shared decision tree and :mod:`cbsolve.strategy.advice` once for a live game.

Scored heuristics partition the candidates by the reply each guess would get and score the
partition (lower is better; see ``cbsolve/_native/strategy.cpp`` for the exact integers):

- ``minimax``  smallest largest class (Knuth 1977, "The computer as Master Mind");
- ``expected`` smallest sum of squared class sizes, i.e. smallest expected class size
  (Irving 1979, "Towards an optimum Mastermind strategy");
- ``entropy``  largest entropy of the class distribution (Neuwirth 1982), compared exactly;
- ``parts``    most classes (Kooi 2005, "Yet another Mastermind strategy").

The all-bulls class of a candidate guess (size 1) counts as a class. Ties: best score, then a
guess that is still a candidate, then the lowest code in alphabet order. Guesses come from all
codes of the variant (``guesses="all"``) or from the candidates only (``"candidates"``).
Unscored strategies play a consistent code: ``first`` the lowest candidate, ``random`` a
uniformly random candidate from a seeded generator.

Scoring runs in the native core (``cbsolve/_native/strategy.cpp``): on the fly from the packed
code space (O(n) memory; replies computed in vectorised blocks, few candidates scored many
guesses at a time), or over a cached full score matrix for small spaces
(:data:`MATRIX_AUTO_CODES`), where reading replies is cheaper than computing them. Both give the
same choice, tie-break included.
"""
from __future__ import annotations

import numpy as np

from ..game import scoring
from .._native import strategy as _native
from ..game.codes import CodeSpace
from ..game.symmetry import Symmetry
from ..runtime.deadline import stopped_by
from ..errors import Expired
from ..game.variant import Variant
from .partition import class_summary
from .rules import (
    GUESS_MODES,
    HEURISTIC_ID,
    SCORED,
    STRATEGIES,
    check_guesses,
    check_strategy,
    require_enumerable,
)

__all__ = ["GUESS_MODES", "SCORED", "STRATEGIES", "Chooser", "check_guesses", "check_strategy",
           "partition_summary", "require_enumerable"]

#: Largest space whose full score matrix is built by default (n^2 bytes: 16 MiB). Beyond it,
#: scoring on the fly is as fast (measured on Bulls & Cows, 5,040 codes) and needs no n^2 memory.
MATRIX_AUTO_CODES = 4096
#: Spaces from this size on score one guess per symmetry class at the top of the tree by default
#: (the orbit computation costs more than it saves on small spaces).
SYMMETRY_AUTO_CODES = 20_000

_MATRICES: dict[Variant, np.ndarray] = {}
_LOG_TABLE = np.zeros(2, dtype=np.int64)


def full_matrix(variant: Variant) -> np.ndarray:
    """The score matrix of all codes against all codes, computed once per variant.

    Only the most recent variant is kept, so sweeps over many variants do not accumulate
    gigabytes. Rows are guesses and columns secrets; the matrix is symmetric.
    """
    mat = _MATRICES.get(variant)
    if mat is None:
        _MATRICES.clear()
        codes = CodeSpace(variant).codes
        mat = scoring.score_matrix(variant, codes, codes)
        mat.setflags(write=False)
        _MATRICES[variant] = mat
    return mat


def log2_table(nmax: int) -> np.ndarray:
    """Fixed-point log2 of 0..nmax (at least), built additively so entropy ties are exact."""
    global _LOG_TABLE
    if _LOG_TABLE.size <= nmax:
        _LOG_TABLE = _native.log2_fixed_table(max(int(nmax), 2 * _LOG_TABLE.size))
    return _LOG_TABLE


#: Pair scorings a kernel call makes between two looks at the deadline (about 0.1-0.2 s).
CHUNK_PAIRS = 10_000_000


class DeadlineExpired(Expired):
    """The chooser's deadline expired while it prepared a node (the caller reports it)."""

    def __init__(self) -> None:
        super().__init__("the chooser's deadline expired", stopped_by())


class Chooser:
    """Picks guesses for one variant and strategy; reused across all nodes of a tree.

    ``use_matrix``: ``"auto"`` keeps the full score matrix for spaces up to
    :data:`MATRIX_AUTO_CODES` codes, ``False`` always scores on the fly, ``True`` always uses it.
    ``symmetry``: ``"auto"`` is on from :data:`SYMMETRY_AUTO_CODES` codes;
    True (or a :class:`cbsolve.game.symmetry.Symmetry`) scores only one guess per
    class of guesses equivalent under the permutations of positions and symbols that fix every
    guess of the history, at nodes less than ``symmetry_depth`` guesses deep (deeper, the
    stabiliser is usually trivial and computing orbits costs more than scoring). Such maps
    preserve every partition and map candidates to candidates, and each class is represented
    by its lowest code, so the choice is exactly the one made without the reduction.
    """

    #: pair scorings between two looks at the deadline (:data:`CHUNK_PAIRS`)
    chunk_pairs = CHUNK_PAIRS

    def __init__(self, variant: Variant, strategy: str, guesses: str = "all", seed=None,
                 use_matrix="auto", symmetry=None, symmetry_depth: int = 3, deadline=None):
        self.variant = variant
        self.strategy = check_strategy(strategy)
        self.guesses = check_guesses(guesses)
        self.space = CodeSpace(variant)
        self.rng = np.random.default_rng(seed)
        if symmetry == "auto":
            symmetry = self.space.size >= SYMMETRY_AUTO_CODES
        if symmetry is True:
            symmetry = Symmetry(variant)
        self.symmetry = symmetry or None
        self.symmetry_depth = symmetry_depth
        self._reps: dict[tuple[int, ...], np.ndarray] = {}
        self.slots = variant.response_slots
        self.win = variant.win_response
        # replies a non-candidate guess can get (for the kernel's lower bound)
        self.max_classes = max(1, len(scoring.possible_responses(variant)) - 1)
        if use_matrix == "auto":
            use_matrix = self.strategy in SCORED and self.space.size <= MATRIX_AUTO_CODES
        self.matrix = full_matrix(variant) if use_matrix else None
        self._packed_space = None
        self._none = np.empty(0, dtype=np.int64)
        self.deadline = deadline  # stops the orbit computation (DeadlineExpired)

    @property
    def codes(self) -> np.ndarray:
        """Every code, listed on first use: the sampled choice on a large space reads only the
        rows it scores (:meth:`cbsolve.game.codes.CodeSpace.codes_at`)."""
        return self.space.codes

    # --- replies -------------------------------------------------------------------------
    def responses(self, guess: int, cands: np.ndarray) -> np.ndarray:
        """Reply indices of code ``guess`` against each candidate."""
        if self.matrix is not None:
            return self.matrix[guess, cands]
        return scoring.score_against(self.variant, self.codes[guess], self.codes[cands])

    # --- choice --------------------------------------------------------------------------
    def choose(self, cands: np.ndarray, history=()) -> int:
        """Code index of the guess to play; ``cands`` sorted ascending, non-empty."""
        if self.strategy == "first":
            return int(cands[0])
        if self.strategy == "random":
            return int(cands[self.rng.integers(cands.size)])
        if cands.size <= 2:
            # The lowest candidate splits one or two candidates into singletons, which is
            # optimal for every scored heuristic, and it takes the tie-break.
            return int(cands[0])
        return self.best_of(cands, self._guess_rows(cands, history))

    def best_of(self, cands: np.ndarray, rows: np.ndarray) -> int:
        """The best of the code indices ``rows`` for ``cands`` (an empty ``rows``: every code),
        with the usual tie-break: the choice restricted to those guesses (a caller with a
        deadline scores the guesses in chunks and keeps the best so far)."""
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        heur = HEURISTIC_ID[self.strategy]
        table = log2_table(cands.size) if self.strategy == "entropy" else _LOG_TABLE
        if self.matrix is not None:
            return int(_native.best_guess_matrix(
                self.matrix, rows, cands, self.slots, self.win, self.max_classes, heur,
                self.guesses == "candidates", table))
        return self._choose_on_the_fly(cands, rows, heur, table)

    def _guess_rows(self, cands: np.ndarray, history) -> np.ndarray:
        """Code indices of the guesses to score (empty array = every code, in order)."""
        if self.symmetry is not None and len(history) < self.symmetry_depth:
            key = tuple(int(h) for h in history)  # siblings share their history: cache it
            reps = self._reps.get(key)
            if reps is None:
                reps = self.symmetry.guess_representatives(
                    [tuple(int(x) for x in self.codes[h]) for h in key], deadline=self.deadline)
                if reps is None:
                    raise DeadlineExpired
                reps = np.asarray(reps, dtype=np.int64)
                self._reps[key] = reps
            if self.guesses == "candidates":
                reps = reps[np.isin(reps, cands)]
            return np.ascontiguousarray(reps)
        if self.guesses == "candidates":
            return np.ascontiguousarray(cands, dtype=np.int64)
        return self._none

    def _choose_on_the_fly(self, cands, rows, heur, table) -> int:
        """The kernel's choice; with a deadline, over chunks of the guesses (each about
        :data:`CHUNK_PAIRS` pair scorings, the deadline looked at between them), then among the
        chunks' winners: the choice is a total order (score, candidate, index), so the best of
        the winners is the best of all (a long code's first node is 16,384 x 16,384 pairs on
        Mastermind 14x2, 2.5 s in one call)."""
        if self._packed_space is None:
            v = self.variant
            self._packed_space = _native.PackedSpace(self.codes, v.n_symbols, v.repeats,
                                                     v.bulls_only)
        cands = np.ascontiguousarray(cands, dtype=np.int64)

        def best(guesses: np.ndarray) -> int:
            return int(_native.best_guess_packed(
                self._packed_space, guesses, cands, self.slots, self.win, self.max_classes,
                heur, self.guesses == "candidates", table))

        n_rows = rows.size or self.space.size
        per_chunk = max(1, self.chunk_pairs // cands.size)
        if self.deadline is None or n_rows <= per_chunk:
            return best(rows)
        winners = []
        for start in range(0, n_rows, per_chunk):
            if self.deadline.expired():
                raise DeadlineExpired
            stop = min(n_rows, start + per_chunk)
            chunk = rows[start:stop] if rows.size else np.arange(start, stop, dtype=np.int64)
            winners.append(best(np.ascontiguousarray(chunk)))
        return best(np.unique(np.array(winners, dtype=np.int64)))


def partition_summary(variant: Variant, responses: np.ndarray) -> dict:
    """Describe the partition a guess induces (for advice): classes, largest, expected, entropy
    (:func:`~cbsolve.strategy.partition.class_summary` of its class sizes)."""
    return class_summary(np.bincount(np.asarray(responses, dtype=np.int64),
                                     minlength=variant.response_slots).tolist())
