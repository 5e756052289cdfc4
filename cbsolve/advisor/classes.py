"""One guess per symmetry class of a position, kept for a game: the permutations of positions
and symbols that fix the log's guesses map every guess onto an equivalent one (same partition
of the secrets, up to renaming), so scoring one guess per class is scoring every guess.

Place in the data flow: :class:`cbsolve.game.symmetry.Symmetry` -> **these classes, per history of
guesses** -> the position service (its heuristic's rows, a large space's sampled ranking, the
comparison beside a guess's partition). A history's classes are found once a game and kept:
``next``, ``partition`` and the coach ask about the same positions.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..runtime.deadline import Deadline

if TYPE_CHECKING:
    import numpy as np

    from ..game.codes import CodeSpace


class GuessClasses:
    """The symmetry classes of the guesses after each history (a tuple of code indices)."""

    def __init__(self, space: CodeSpace, native_from: int | None = None) -> None:
        self.space = space
        self.native_from = native_from      # None: the symmetry's own threshold
        self._symmetry = None
        self._found: dict[tuple[int, ...], np.ndarray] = {}

    def symmetry(self):
        """The symmetry of the game, or None on a space too large for it: beyond
        :data:`~.choose.SYMMETRY_CODES` only with the native union-find (the NumPy orbits of
        Mastermind 8x8 take minutes)."""
        from ..game.symmetry import _orbits
        from .choose import SYMMETRY_CODES

        if self.space.size > SYMMETRY_CODES and _orbits() is None:
            return None
        if self._symmetry is None:
            from ..game.symmetry import Symmetry

            self._symmetry = (Symmetry(self.space.variant) if self.native_from is None else
                              Symmetry(self.space.variant, native_from=self.native_from))
        return self._symmetry

    def known(self, history: tuple[int, ...]) -> np.ndarray | None:
        """The representatives found before for ``history`` (None: not yet)."""
        return self._found.get(history)

    def of(self, history: tuple[int, ...], deadline: Deadline) -> np.ndarray | None:
        """Sorted code indices, one per class, of the guesses after ``history``; None when the
        game has no symmetry to use or ``deadline`` cut the search for them."""
        import numpy as np

        reps = self._found.get(history)
        if reps is not None:
            return reps
        symmetry = self.symmetry()
        if symmetry is None:
            return None
        guesses = [tuple(int(x) for x in self.space.codes_at(h)) for h in history]
        reps = symmetry.guess_representatives(guesses, deadline=deadline)
        if reps is None:
            return None
        return self._found.setdefault(history, np.asarray(reps, dtype=np.int64))
