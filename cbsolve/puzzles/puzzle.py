"""Unique-secret puzzles: seeded logs that exactly one secret satisfies (``cbsolve puzzle``).

Place in the data flow: Variant -> CodeSpace -> reply rows -> **puzzle** (drawn in
cbsolve/puzzles/draw.py, measured in cbsolve/puzzles/difficulty.py) -> the native
filter (:func:`cbsolve.game.scoring.filter_mask` over every code) verifies the result -> CLI, API,
``puzzle --count K --jsonl`` (cbsolve/puzzles/stream.py).
The shape LLM-evaluation and RL builders pre-play games into: a log, its one secret, its
measured difficulty and, for multiple-choice questions, distractors.

How a puzzle is made (every random choice a word of one SplitMix64 stream seeded with
``seed``, :class:`~.draw.Stream`, so the same seed and options give the same puzzle):

1. a secret uniformly at random;
2. clues until one secret remains: each a random guess scored against the secret, proposed
   by the label's recipe (``easy``: the strongest of a few random guesses, ``medium``: one,
   ``hard``: the weakest of several that still removes a candidate);
3. the clue set is made **minimal** (dropping any one clue leaves more than one secret), by
   trying to drop each clue in a random order, and listed in the reference solver's order;
4. its difficulty is **measured** (:mod:`.difficulty`: the candidates a fixed
   reference solver carries); draws go on (up to :data:`ATTEMPTS`) until the measure falls in
   the label's band and, with ``clues=K``, the puzzle has exactly K clues;
5. ``distractors=K``: K codes one symbol away from the secret (one position changed to
   another symbol of the alphabet), each ruled out by the log: wrong answers for
   multiple-choice questions that are as close to the secret as a code can be;
6. the native filter lists the codes consistent with the log: the puzzle is returned only
   when that list is exactly the secret (``verified``).

>>> p = make_puzzle(Variant.preset("bulls-cows"), seed=7, difficulty="medium")
>>> p.verified, p.minimal, p.secret == make_puzzle(Variant.preset("bulls-cows"), seed=7).secret
(True, True, True)
"""
from __future__ import annotations

import secrets as _secrets
from dataclasses import dataclass, field
from functools import lru_cache

from ..game.codes import CodeSpace
from ..runtime.deadline import Deadline
from ..errors import CbsolveError, InvalidCode, SpaceTooLarge, unknown_name
from ..game.feedback import FeedbackLog
from ..game.variant import Variant
from ..game.scoring import filter_mask, pack
from .difficulty import fits, label_of, measure, score
from .draw import MATRIX_LIMIT, WARM_UP, Replies, Stream, draw
from .kinds import apply_kind, check_kind

DIFFICULTIES = ("easy", "medium", "hard")
#: Puzzles drawn at most for one label (and number of clues).
ATTEMPTS = 200
#: Largest code space a puzzle is made in (a reply row and a fail set per code).
PUZZLE_LIMIT = 2_000_000


@dataclass
class Puzzle:
    """A log whose only consistent secret is ``secret`` (checked by the native filter)."""

    variant: Variant
    secret: str
    entries: list[dict]              # [{"guess", "bulls", "cows"}]: the JSON log `--log` reads
    seed: int
    difficulty: str                  # the band of difficulty_measure["score"]
    minimal: bool                    # dropping any one clue leaves more than one secret
    verified: bool                   # the native filter lists exactly the secret
    distractors: list[str] = field(default_factory=list)
    attempts: int = 1                # puzzles drawn to reach the label (and number of clues)
    difficulty_measure: dict = field(default_factory=dict)
    kind: str = "find"               # cbsolve/puzzles/kinds.py
    answer: dict | None = None       # the answer of a kind other than find

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
                "difficulty": self.difficulty, "difficulty_measure": self.difficulty_measure,
                "minimal": self.minimal, "verified": self.verified,
                "distractors": self.distractors, "attempts": self.attempts, "kind": self.kind,
                **({} if self.answer is None else {"answer": self.answer})}


def check_request(difficulty: str, clues: int | None, distractors: int,
                  kind: str = "find") -> None:
    check_kind(kind)
    if difficulty not in DIFFICULTIES:
        raise unknown_name("difficulty", difficulty, DIFFICULTIES)
    if clues is not None and clues < 1:
        raise CbsolveError(f"clues must be at least 1, got {clues}")
    if distractors < 0:
        raise CbsolveError(f"distractors must be at least 0, got {distractors}")


def make_puzzle(variant: Variant, *, seed: int | None = None, difficulty: str = "medium",
                clues: int | None = None, distractors: int = 0,
                deadline: Deadline | None = None, kind: str = "find") -> Puzzle:
    """A verified unique-secret puzzle (see the module docstring); ``seed`` None draws one,
    recorded in the result. A label (and number of clues) not reached in :data:`ATTEMPTS`
    draws, or before ``deadline`` expires (checked between draws), raises CbsolveError naming
    what the draws reached."""
    check_request(difficulty, clues, distractors, kind)
    most = most_distractors(variant)
    if distractors > most:
        raise CbsolveError(f"distractors must be at most {most} for {variant.describe()} (the "
                           f"codes one symbol away from a secret), got {distractors}")
    maker = maker_for(variant)
    seed = _secrets.randbits(32) if seed is None else int(seed)
    rng = Stream(seed)
    seen: set[int] = set()
    labels: set[str] = set()
    for attempt in range(1, ATTEMPTS + 1):
        d = maker.draw(rng, difficulty)
        seen.add(len(d.guesses))
        if (clues is None or len(d.guesses) == clues) and \
                fits(difficulty, d.candidates_after, maker.size):
            puzzle = maker.finish(d, rng, seed, difficulty, distractors, attempt)
            if kind != "find":
                apply_kind(maker, puzzle, d, rng, kind, deadline)
            return puzzle
        labels.add(label_of(score(sum(d.candidates_after[:-1]), maker.size)))
        if deadline is not None and deadline.expired():
            break
    what = f"{difficulty} puzzle" + ("" if clues is None else f" with {clues} clues")
    when = (f"within the time limit ({attempt} draws" if attempt < ATTEMPTS
            else f"in {ATTEMPTS} draws (")
    raise CbsolveError(f"no {what} {when}, seed {seed}); the draws had {min(seen)}-{max(seen)} "
                       f"clues and were {'/'.join(sorted(labels))}")


@lru_cache(maxsize=4)
def maker_for(variant: Variant) -> _Maker:
    """The puzzle maker of ``variant`` (its reply rows and code names, kept for the process:
    a stream, ``serve`` and a loop over :func:`cbsolve.puzzle` pay for them once)."""
    space = CodeSpace(variant)
    if space.size > PUZZLE_LIMIT:
        raise SpaceTooLarge(f"a puzzle keeps a reply row and a fail set per code; "
                            f"{variant.describe()} has {space.size} codes (limit {PUZZLE_LIMIT})")
    if space.size < 2:
        raise CbsolveError(f"{variant.describe()} has one code: there is nothing to deduce")
    return _Maker(variant, space)


class _Maker:
    """Puzzles of one variant: draws, verification, entries, distractors."""

    def __init__(self, variant: Variant, space):
        self.variant, self.space = variant, space
        self.size = int(space.size)
        self.replies = Replies(variant, space)
        self.packed = pack(variant, space.codes)
        self.width = variant.length + 1
        self.drawn = 0
        # every code's name, listed once where the reply matrix can be kept (small spaces)
        self.names = space.format_many(space.codes) if self.size <= MATRIX_LIMIT else None

    def name(self, index: int) -> str:
        if self.names is not None:
            return self.names[index]
        return self.space.format(self.space.codes[index])

    def draw(self, rng, difficulty: str):
        self.drawn += 1
        if self.drawn > WARM_UP:
            self.replies.whole()
        return draw(self.replies, rng, difficulty)

    def verify(self, d, replies: list[int]) -> bool:
        """Every code checked against the listed entries: exactly the secret is consistent
        (filtered through the whole reply matrix, scored by the native kernel, where it is
        kept; else by the native filter). Independent of the fail sets the draw reasoned on."""
        import numpy as np

        full = self.replies.full
        if full is not None:
            found = np.flatnonzero(full[d.guesses[0]] == replies[0])
            for g, r in zip(d.guesses[1:], replies[1:]):
                found = found[full[g, found] == r]
        else:
            found = np.flatnonzero(filter_mask(self.variant, self.packed,
                                               self.space.codes[d.guesses], replies))
        return found.size == 1 and int(found[0]) == d.secret

    def entry(self, guess: int, reply: int) -> dict:
        if self.variant.bulls_only:
            return {"guess": self.name(guess), "bulls": reply}
        bulls, cows = divmod(reply, self.width)
        return {"guess": self.name(guess), "bulls": bulls, "cows": cows}

    def finish(self, d, rng, seed: int, difficulty: str, distractors: int,
               attempt: int) -> Puzzle:
        replies = [int(self.replies.row(g)[d.secret]) for g in d.guesses]
        if not self.verify(d, replies):
            raise AssertionError(f"internal error: puzzle (seed {seed}) does not leave its one "
                                 "secret alone")
        puzzle = Puzzle(self.variant, self.name(d.secret),
                        [self.entry(g, r) for g, r in zip(d.guesses, replies, strict=True)],
                        seed, difficulty, minimal=True, verified=True, attempts=attempt,
                        difficulty_measure=measure(d.candidates_after, self.size, True))
        if distractors:
            puzzle.distractors = self._distractors(rng, tuple(self.space.codes[d.secret]),
                                                   distractors)
            if len(puzzle.distractors) < distractors:   # only when the secret's neighbours vary
                raise CbsolveError(f"distractors: {puzzle.secret} has only "
                                   f"{len(puzzle.distractors)} codes one symbol away; asked for "
                                   f"{distractors}")
        return puzzle

    def _distractors(self, rng, secret: tuple[int, ...], k: int) -> list[str]:
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
        if not near:
            return []
        picked = rng.permutation(len(near))[:k]         # the puzzle's own random stream
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
    try:
        space.validate(code)
    except InvalidCode:
        return False
    return True
