"""Unique-secret puzzles: seeded logs that exactly one secret satisfies (``cbsolve puzzle``).

Place in the data flow: Variant -> CodeSpace -> scoring -> **puzzle** -> the native filter
(:func:`cbsolve.consistency.native.consistent_indices`) verifies the result -> CLI, API.
The shape LLM-evaluation and RL builders pre-play games into: a log, its one secret and,
for multiple-choice questions, distractors.

How a puzzle is made (everything drawn from one ``numpy`` generator seeded with ``seed``, so
the same seed and options give the same puzzle):

1. a secret uniformly at random;
2. clues until one secret remains: each a random guess scored against the secret. At
   ``hard`` difficulty each clue is the weakest of :data:`HARD_CHOICES` random guesses (the
   one leaving the most candidates while still removing some), so more, subtler clues;
3. ``medium`` and ``hard``: the clue set is made **minimal** (dropping any one clue leaves
   more than one secret), by trying to drop each clue in a random order;
4. ``clues=K``: steps 1-3 are repeated (up to :data:`ATTEMPTS` draws from the same generator)
   until the puzzle has exactly K clues;
5. ``distractors=K``: K codes one symbol away from the secret (one position changed to
   another symbol of the alphabet), each ruled out by the log: wrong answers for
   multiple-choice questions that are as close to the secret as a code can be;
6. the native filter lists the codes consistent with the log: the puzzle is returned only
   when that list is exactly the secret (``verified``).

Each clue's consistent set is a boolean mask over the code space, so uniqueness checks while
building and minimising are ANDs of masks (Mastermind 6x9, 531,441 codes: well under 2 s).

>>> p = make_puzzle(Variant.preset("bulls-cows"), seed=7, difficulty="medium")
>>> p.verified, p.minimal, p.secret == make_puzzle(Variant.preset("bulls-cows"), seed=7).secret
(True, True, True)
"""
from __future__ import annotations

import secrets as _secrets
from dataclasses import dataclass, field

from ..deadline import Deadline
from ..errors import CbsolveError, unknown_name
from ..feedback import FeedbackLog
from ..variant import Variant

DIFFICULTIES = ("easy", "medium", "hard")
#: Random guesses a ``hard`` clue is chosen from (the weakest that still removes a secret).
HARD_CHOICES = 8
#: Puzzles drawn at most when a number of clues is asked for.
ATTEMPTS = 200
#: Largest code space a puzzle is made in (one boolean mask per clue over every code).
PUZZLE_LIMIT = 2_000_000


@dataclass
class Puzzle:
    """A log whose only consistent secret is ``secret`` (checked by the native filter)."""

    variant: Variant
    secret: str
    entries: list[dict]              # [{"guess", "bulls", "cows"}]: the JSON log `--log` reads
    seed: int
    difficulty: str
    minimal: bool                    # dropping any one clue leaves more than one secret
    verified: bool                   # the native filter lists exactly the secret
    distractors: list[str] = field(default_factory=list)
    attempts: int = 1                # puzzles drawn to reach the number of clues asked

    @property
    def clues(self) -> int:
        return len(self.entries)

    def tokens(self) -> list[str]:
        """The entries as command-line tokens (``GUESS:B,C``, or ``GUESS:B`` bulls only)."""
        return self.log().tokens()

    def log(self) -> FeedbackLog:
        out = FeedbackLog(self.variant)
        for e in self.entries:
            out.add(e["guess"], e["bulls"], e.get("cows"))
        return out

    def to_json(self) -> dict:
        return {"variant": self.variant.to_dict(), "secret": self.secret,
                "entries": self.entries, "clues": self.clues, "seed": self.seed,
                "difficulty": self.difficulty, "minimal": self.minimal,
                "verified": self.verified, "distractors": self.distractors,
                "attempts": self.attempts}


def make_puzzle(variant: Variant, *, seed: int | None = None, difficulty: str = "medium",
                clues: int | None = None, distractors: int = 0,
                deadline: Deadline | None = None) -> Puzzle:
    """A verified unique-secret puzzle (see the module docstring); ``seed`` None draws one,
    recorded in the result. A number of clues not reached in :data:`ATTEMPTS` draws, or
    before ``deadline`` expires (checked between draws), raises CbsolveError naming the
    counts that were reached."""
    import numpy as np

    from ..codes import CodeSpace
    from ..errors import SpaceTooLarge

    if difficulty not in DIFFICULTIES:
        raise unknown_name("difficulty", difficulty, DIFFICULTIES)
    if clues is not None and clues < 1:
        raise CbsolveError(f"clues must be at least 1, got {clues}")
    if distractors < 0:
        raise CbsolveError(f"distractors must be at least 0, got {distractors}")
    most = most_distractors(variant)
    if distractors > most:
        raise CbsolveError(f"distractors must be at most {most} for {variant.describe()} (the "
                           f"codes one symbol away from a secret), got {distractors}")
    space = CodeSpace(variant)
    if space.size > PUZZLE_LIMIT:
        raise SpaceTooLarge(f"a puzzle keeps one mask per clue over every code; "
                            f"{variant.describe()} has {space.size} codes (limit {PUZZLE_LIMIT})")
    if space.size < 2:
        raise CbsolveError(f"{variant.describe()} has one code: there is nothing to deduce")
    seed = _secrets.randbits(32) if seed is None else int(seed)
    rng = np.random.default_rng(seed)
    maker = _Maker(variant, space, rng, difficulty)
    seen: set[int] = set()
    for attempt in range(1, ATTEMPTS + 1):
        secret, chosen = maker.draw()
        seen.add(len(chosen))
        if clues is None or len(chosen) == clues:
            return maker.finish(secret, chosen, seed, distractors, attempt)
        if deadline is not None and deadline.expired():
            raise CbsolveError(f"no {difficulty} puzzle with {clues} clues within the time "
                               f"limit ({attempt} draws, seed {seed}); the draws had "
                               f"{min(seen)}-{max(seen)} clues")
    raise CbsolveError(f"no {difficulty} puzzle with {clues} clues in {ATTEMPTS} draws (seed "
                       f"{seed}); the draws had {min(seen)}-{max(seen)} clues")


class _Maker:
    """One generator's puzzles for one variant: secrets, clue masks, minimisation."""

    def __init__(self, variant: Variant, space, rng, difficulty: str):
        self.variant, self.space, self.rng, self.difficulty = variant, space, rng, difficulty
        self.codes = space.codes

    def _mask(self, guess: int, secret: int, among=None):
        """Which codes (of ``among``, default all) reply to ``guess`` as the secret does."""
        from ..scoring import score_against

        codes = self.codes if among is None else self.codes[among]
        replies = score_against(self.variant, self.codes[guess], codes)
        wanted = score_against(self.variant, self.codes[guess], self.codes[secret:secret + 1])[0]
        return replies == wanted

    def draw(self) -> tuple[int, list[tuple[int, object]]]:
        """A secret and clues (guess index, mask) that leave it alone, minimal unless easy."""
        import numpy as np

        n = self.codes.shape[0]
        secret = int(self.rng.integers(n))
        left = np.arange(n)            # the candidates still consistent with the clues
        chosen: list[tuple[int, object]] = []
        while left.size > 1:
            tries = HARD_CHOICES if self.difficulty == "hard" else 1
            best = None
            for _ in range(tries):
                g = int(self.rng.integers(n))
                if g == secret:
                    continue          # the winning guess would end the game, not narrow it
                keep = self._mask(g, secret, left)
                after = int(np.count_nonzero(keep))
                if after < left.size and (best is None or after > best[0]):
                    best = (after, g, keep)
            if best is None:
                continue              # no guess drawn removed a secret: draw again
            _, g, keep = best
            left = left[keep]
            chosen.append((g, None))
        if self.difficulty != "easy":
            chosen = self._minimal([(g, self._mask(g, secret)) for g, _ in chosen])
        return secret, chosen

    def _minimal(self, chosen):
        """Drop clues, in a random order, while exactly one secret stays consistent."""
        import numpy as np

        keep = list(chosen)
        for i in self.rng.permutation(len(chosen)):
            g = chosen[int(i)][0]
            rest = [c for c in keep if c[0] != g]
            if not rest:
                continue
            left = np.logical_and.reduce([m for _, m in rest])
            if np.count_nonzero(left) == 1:
                keep = rest
        return keep

    def finish(self, secret: int, chosen, seed: int, distractors: int, attempt: int) -> Puzzle:
        from ..consistency.native import consistent_indices
        from ..rule import score

        v, space = self.variant, self.space
        s_code = space.code_at(secret)
        log = FeedbackLog(v)
        for g, _ in chosen:
            code = space.code_at(g)
            bulls, cows = score(v, s_code, code)
            log.add(space.format(code), bulls, None if v.bulls_only else cows)
        puzzle = Puzzle(v, space.format(s_code), log.to_json(), seed, self.difficulty,
                        minimal=self.difficulty != "easy", verified=False, attempts=attempt)
        found = consistent_indices(log)           # the verification: the native filter
        puzzle.verified = found.tolist() == [secret]
        if not puzzle.verified:
            raise AssertionError(f"internal error: puzzle (seed {seed}) leaves {found.size} "
                                 "secrets, not its one")
        puzzle.distractors = self._distractors(s_code, distractors)
        if len(puzzle.distractors) < distractors:   # only when the secret's neighbours vary
            raise CbsolveError(f"distractors: {puzzle.secret} has only "
                               f"{len(puzzle.distractors)} codes one symbol away; asked for "
                               f"{distractors}")
        return puzzle

    def _distractors(self, secret: tuple[int, ...], k: int) -> list[str]:
        """``k`` codes one symbol away from the secret (all of them if fewer exist), drawn at
        random; the log rules each out since the secret is its only consistent code."""
        v, space = self.variant, self.space
        near = []
        for pos in range(v.length):
            for sym in range(v.n_symbols):
                if sym == secret[pos]:
                    continue
                code = secret[:pos] + (sym,) + secret[pos + 1:]
                if _valid(space, code):
                    near.append(code)
        if k == 0 or not near:
            return []
        picked = self.rng.permutation(len(near))[:k]
        return [space.format(near[int(i)]) for i in sorted(picked)]


def most_distractors(variant: Variant) -> int:
    """The most codes one symbol away from a secret of ``variant`` (each position changed to
    another allowed symbol), over every secret: the most distractors a puzzle can have.

    >>> most_distractors(Variant.preset("bulls-cows")), most_distractors(Variant.preset("mastermind"))
    (24, 20)
    """
    n, d = variant.length, variant.n_symbols
    if variant.repeats:       # any other symbol, but the first symbol not first
        return n * (d - 1) - (1 if variant.no_leading_zero and d >= 2 else 0)
    # a symbol the code lacks; without a leading zero, a secret holding the first symbol
    # elsewhere loses none (one of one symbol and a leading zero: no code has a neighbour)
    most = n * (d - n)
    if variant.no_leading_zero and n == 1:
        most = max(0, d - 2)
    return max(0, most)


def _valid(space, code: tuple[int, ...]) -> bool:
    """A code of the space (distinct symbols, no leading zero, as the variant says)."""
    from ..errors import InvalidCode

    try:
        space.validate(code)
    except InvalidCode:
        return False
    return True
