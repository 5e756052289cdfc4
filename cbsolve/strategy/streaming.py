"""Streaming evaluation: a sampled heuristic strategy played exactly against every secret of a
game too large for a strategy tree (10^6..10^8 codes), and the same strategy replayed on one secret.

Place in the data flow: beside :mod:`cbsolve.strategy.evaluation` (which builds the whole tree,
up to 10^6 secrets); what it proves is an upper end of the worst case and of the total, with the
depth histogram, for the atlas of guess budgets. The native kernel (``cbsolve/_native/streaming.cpp``)
plays the strategy level by level: each level's reply classes are ranges of one array of uint32
code indices, partitioned stably into a second array, so memory is ``8 bytes x secrets`` plus the
list of classes; codes are decoded from their index when scored: base-D digits when every string
is a code, else row ``i`` of the listed space, ``CodeSpace.code_at(i)`` (games without repeats,
Bulls & Cows rules, and the no-leading-zero rule; N bytes a code, 160 MB for 8 positions of 12
distinct symbols, the largest such atlas cell).

The strategy is fully determined by its :class:`Recipe` (every parameter and the seed):

* first guess ``first`` (a code), or, when absent, the best code pattern by ``sampled_heuristic``
  on ``sample_top`` secrets (the result's recipe then names it);
* a class of one or two secrets: its lowest code;
* else the best guess of a pool: the class's candidates (all up to ``candidates``, else an evenly
  spaced sample of that many), at depth 1 one guess per orbit of the symmetries fixing the first
  guess (``symmetric``), and ``randoms`` codes of the whole space drawn with the node's seed;
* scored on the whole class by ``heuristic`` when it holds at most ``sample`` secrets
  (``sample_top`` at depths 0 and 1), else on an evenly spaced sample of that many by
  ``sampled_heuristic``; ties go to a candidate, then the smaller sum of squared class sizes,
  then the lower code index; a candidate splitting the whole class into singletons is taken at
  once, and so is any guess doing it once every candidate was tried;
* a class of at most ``escalate_below`` secrets (and ``candidates``) that no guess of the pool
  splits into singletons tries ``escalate_randoms`` more draws (the first that does it is taken);
* in a class of at most ``lookahead_below`` secrets the guesses are first compared by a one-level
  lookahead: 1 + the most guesses one of its reply classes needs (0 for the guess itself, 1 for
  one secret, 2 for two or for a class one of its own secrets splits apart, else 3);
* the tight tail rule, when ``target`` (a worst case sought) is set: at a node scored on its
  whole class, when the chosen guess leaves a reply class that a cheap test says cannot be
  finished by guess ``target`` (a count of replies; with two guesses left, no secret of the class
  splits it into singletons; with three, no secret of a small class leaves classes that pass
  that; with ``tight_helpers`` set, that many of the node's best guesses from outside its class
  are tried by the test besides its secrets), the pool is ranked again with the secrets so left behind first, then ``tight_randoms``
  more draws (every code when as many as codes) are tried until one leaves none. Only such rare
  nodes pay; the choice is still a function of the node;
* the local search, when ``climb`` is set (games where every string is a code): at a node of at
  least ``climb_above`` secrets after the first guess, the pool's best guess is compared with
  every code differing from it in one position or by two positions swapped (scored as the pool
  was: same sample, same key);
  the best of them is taken when its key is lower, up to ``climb`` times (steepest descent). A
  class of permutations of seven distinct symbols, say, is split far better by codes repeating
  a symbol than by its own members, and no sample of the pool is likely to hold them;
* the tail search, when ``search_below``, ``search_left`` and ``target`` are set: a node of
  3..``search_below`` secrets scored on its whole class, with at most ``search_left`` guesses
  left to the target, keeps the guess chosen above only when the strategy below it (searched
  the same way) ends every secret by guess ``target``; else it takes the first of
  ``search_tries`` - 1 other guesses (the pool's and the codes one position or one swap from
  the chosen guess, best key first) under which it does, else the chosen guess. The cheap
  tests of the tight rule only guess whether a class can be finished; this search plays it
  out, exactly, with the strategy's own choices (a class failing the count is not searched).
  Its children are such nodes too, so the guess a search finds for a child is the one the
  child's own search makes: the choice is still a function of the node.

A node's random draws are seeded by ``seed`` and the node itself (depth, lowest code, size), so
the evaluation does not depend on thread order and :func:`play_streaming` makes the same choices.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache

import numpy as np

from ..game.codes import ENUMERATION_LIMIT, CodeSpace
from ..game.symmetry import Symmetry
from ..runtime.deadline import Deadline, run_interruptible, stopped_by
from ..errors import InvalidRecipe, SpaceTooLarge
from ..runtime.status import StopReason
from ..game.variant import Variant
from ..game import patterns

#: Largest space evaluated: two uint32 index arrays (8 bytes a secret) and the classes' list
#: (at most another 8 bytes for every third secret) stay under 3 GB.
STREAMING_LIMIT = 250_000_000
#: Heuristic names, as the kernel numbers them.
HEURISTICS = {"minimax": 0, "expected": 1, "entropy": 2, "parts": 3}
#: The scheme a recipe replays with: bump it whenever the kernel's choices change.
SCHEME = "streaming-1"
#: Fields of the tight tail rule, the local search and the tail search: 0 (off) plays exactly as the scheme did
#: before they existed, and a recipe's JSON leaves them out then.
LATER_FIELDS = ("target", "tight_randoms", "tight_helpers", "climb", "climb_above",
                "search_below", "search_left", "search_tries")


@dataclass(frozen=True)
class Recipe:
    """Everything that determines a streaming strategy (see the module docstring)."""

    first: str | None = None
    heuristic: str = "minimax"
    sampled_heuristic: str = "expected"
    sample: int = 2000
    sample_top: int = 20000
    candidates: int = 200
    randoms: int = 100
    escalate_below: int = 0
    escalate_randoms: int = 0
    lookahead_below: int = 0
    target: int = 0
    tight_randoms: int = 0
    tight_helpers: int = 0
    climb: int = 0
    climb_above: int = 0
    search_below: int = 0
    search_left: int = 0
    search_tries: int = 0
    symmetric: bool = True
    seed: int = 0
    scheme: str = SCHEME

    def __post_init__(self) -> None:
        for name in ("heuristic", "sampled_heuristic"):
            if getattr(self, name) not in HEURISTICS:
                raise InvalidRecipe(f"recipe {name} {getattr(self, name)!r} unknown; choose one of: "
                                    f"{', '.join(sorted(HEURISTICS))}")
        for name, low in (("sample", 1), ("sample_top", 1), ("candidates", 1), ("randoms", 0),
                          ("escalate_below", 0), ("escalate_randoms", 0),
                          ("lookahead_below", 0), ("target", 0), ("tight_randoms", 0),
                          ("tight_helpers", 0), ("climb", 0), ("climb_above", 0), ("search_below", 0),
                          ("search_left", 0), ("search_tries", 0), ("seed", 0)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value < 2**63:
                raise InvalidRecipe(f"recipe {name} must be an integer >= {low}, got {value!r}")
        if not isinstance(self.symmetric, bool):
            raise InvalidRecipe(f"recipe symmetric must be true or false, got {self.symmetric!r}")
        if self.scheme != SCHEME:
            raise InvalidRecipe(f"recipe scheme {self.scheme!r} is not this version's {SCHEME!r}")

    def to_json(self) -> dict:
        """The fields; the later ones (LATER_FIELDS) only when set, so older recipes keep their form."""
        data = asdict(self)
        for name in LATER_FIELDS:
            if not data[name]:
                del data[name]
        return data

    @classmethod
    def from_json(cls, data: dict) -> Recipe:
        if not isinstance(data, dict):
            raise InvalidRecipe(f"a recipe is a JSON object, got {type(data).__name__}")
        known = {f for f in cls.__dataclass_fields__}
        extra = sorted(set(data) - known)
        if extra:
            raise InvalidRecipe(f"recipe field {extra[0]!r} unknown; allowed: {', '.join(sorted(known))}")
        return cls(**data)


@dataclass
class StreamingResult:
    """A streaming evaluation. ``worst``, ``total`` and ``histogram`` (number of guesses ->
    secrets solved with that many, the final guess counted) are None unless ``complete``:
    a stopped evaluation proves nothing."""

    variant: Variant
    recipe: Recipe
    secrets: int
    worst: int | None
    total: int | None
    histogram: dict[int, int] | None
    seconds: float
    complete: bool
    stop: StopReason | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def average(self) -> float | None:
        return None if self.total is None else self.total / self.secrets

    def to_json(self) -> dict:
        data = {"variant": self.variant.to_dict(), "recipe": self.recipe.to_json(),
                "secrets": self.secrets, "complete": self.complete, "worst": self.worst,
                "total": self.total, "average": self.average,
                "histogram": None if self.histogram is None
                else {str(k): v for k, v in sorted(self.histogram.items())},
                "seconds": round(self.seconds, 3)}
        if self.stop is not None:
            data["stop"] = self.stop.value
        if self.notes:
            data["notes"] = list(self.notes)
        return data


def _native():
    from .._native import streaming

    return streaming


def _check_space(variant: Variant) -> CodeSpace:
    space = CodeSpace(variant)
    if space.size > STREAMING_LIMIT:
        raise SpaceTooLarge(f"{variant.describe()} has {space.size} codes; the streaming evaluation "
                            f"takes at most {STREAMING_LIMIT}")
    if not _plain(variant) and space.size > ENUMERATION_LIMIT:
        raise SpaceTooLarge(f"{variant.describe()} has {space.size} codes; the streaming evaluation "
                            f"lists the codes of a game without repeats or with the no-leading-zero "
                            f"rule, at most {ENUMERATION_LIMIT}")
    return space


def _plain(variant: Variant) -> bool:
    """Every base-D string is a code and its index is its value (the kernel decodes it)."""
    return variant.repeats and not variant.no_leading_zero


@lru_cache(maxsize=4)
def _depth1_pool(variant: Variant, first: int) -> np.ndarray:
    """One guess per orbit of the symmetries fixing the first guess (cached: a replay needs it)."""
    space = CodeSpace(variant)
    reps = Symmetry(variant).guess_representatives([space.code_at(first)])
    return np.asarray(reps, dtype=np.uint32)


def _root_pool(variant: Variant) -> np.ndarray:
    """One first guess per code pattern (the guesses up to every symmetry)."""
    if _plain(variant):     # ranked without listing the space (Symmetry lists it: 20 M at most)

        codes = np.array([patterns.pattern_code(p) for p in patterns.guess_patterns(variant)], dtype=np.int64)
        return np.unique(CodeSpace(variant).indices_of(codes)).astype(np.uint32)

    return np.asarray(Symmetry(variant).guess_representatives([]), dtype=np.uint32)


def _engine(variant: Variant, recipe: Recipe, space: CodeSpace):
    """The native strategy of ``recipe`` (whose ``first``, when given, is a code of the game)."""
    native = _native()
    r = native.Recipe()
    r.heuristic = HEURISTICS[recipe.heuristic]
    r.sampled_heuristic = HEURISTICS[recipe.sampled_heuristic]
    r.sample, r.sample_top = recipe.sample, recipe.sample_top
    r.candidates, r.randoms, r.seed = recipe.candidates, recipe.randoms, recipe.seed
    r.escalate_below, r.escalate_randoms = recipe.escalate_below, recipe.escalate_randoms
    r.lookahead_below = recipe.lookahead_below
    r.target, r.tight_randoms = recipe.target, recipe.tight_randoms
    r.tight_helpers = recipe.tight_helpers
    if recipe.climb and not _plain(variant):
        raise InvalidRecipe(f"recipe climb works on games where every string is a code; "
                            f"{variant.describe()} lists its codes")
    r.climb, r.climb_above = recipe.climb, recipe.climb_above
    r.search_below, r.search_left = recipe.search_below, recipe.search_left
    r.search_tries = recipe.search_tries
    first = -1 if recipe.first is None else space.index_of(space.parse(recipe.first))
    r.first = first
    listed = (np.empty((0, variant.length), np.uint8) if _plain(variant) else space.codes)
    root = _root_pool(variant) if first < 0 else np.empty(0, np.uint32)
    depth1 = (_depth1_pool(variant, first) if recipe.symmetric and first >= 0
              else np.empty(0, np.uint32))
    return native.Streaming(variant.length, variant.n_symbols, variant.repeats, variant.bulls_only,
                            listed, space.size, variant.response_slots, variant.win_response,
                            r, root.tolist(), depth1.tolist())


def resolve_first(variant: Variant, recipe: Recipe) -> Recipe:
    """``recipe`` with its first guess named (the best pattern when it named none)."""
    space = _check_space(variant)
    if recipe.first is not None:
        space.parse(recipe.first)           # an InvalidCode names the problem
        return recipe
    index = _engine(variant, recipe, space).first_guess()
    return replace(recipe, first=space.format(space.code_at(int(index))))


def evaluate_streaming(variant: Variant, recipe: Recipe | None = None,
                       deadline: Deadline | None = None) -> StreamingResult:
    """Play ``recipe``'s strategy against every secret of ``variant``: its exact worst case,
    total and histogram, or, when ``deadline`` expires first, a result that says so and holds
    no number. Ctrl-C stops the kernel and is re-raised as KeyboardInterrupt."""
    deadline = Deadline.given(deadline)
    recipe = recipe or Recipe()
    space = _check_space(variant)
    start = time.perf_counter()

    def stopped(why: StopReason) -> StreamingResult:
        return StreamingResult(variant, recipe, space.size, None, None, None,
                               time.perf_counter() - start, False, why)

    if deadline.expired():
        return stopped(stopped_by())
    recipe = resolve_first(variant, recipe)
    if deadline.expired():
        return stopped(stopped_by())
    engine = _engine(variant, recipe, space)
    counts, word = run_interruptible(engine.evaluate, engine.stop, deadline=deadline)
    seconds = time.perf_counter() - start
    if word != StopReason.COMPLETE.value:
        return stopped(StopReason(word))
    histogram = {k: int(v) for k, v in enumerate(counts) if v}
    if sum(histogram.values()) != space.size:   # the kernel's bookkeeping, checked every time
        raise RuntimeError(f"streaming histogram sums to {sum(histogram.values())}, "
                           f"not {space.size} secrets")
    return StreamingResult(variant, recipe, space.size, max(histogram),
                           sum(k * v for k, v in histogram.items()), histogram, seconds, True)


def play_streaming(variant: Variant, recipe: Recipe, secret) -> list[str]:
    """The guesses ``recipe``'s strategy makes against ``secret`` (a code string or symbol
    indices), the last one the secret, as code strings."""
    space = _check_space(variant)
    code = space.parse(secret) if isinstance(secret, str) else space.validate(secret)
    recipe = resolve_first(variant, recipe)
    engine = _engine(variant, recipe, space)
    guesses = engine.play(space.index_of(code))
    return [space.format(space.code_at(int(g))) for g in guesses]
