"""Static (non-adaptive) games: the fewest fixed guesses whose replies identify every secret.

Place in the data flow: code space + scorer -> here (PySAT) -> ``cbsolve static``, bounds table.

**Counting convention.** A static strategy asks ``questions`` guesses all at once, fixed in
advance; their replies must differ for every two secrets, so the secret is then known and one
more guess names it. The game therefore takes at most ``questions + 1`` guesses (the final
guess is not among the questions; when the secret happens to be one of them it is found
earlier, which the worst case ignores). This is the setting of static Mastermind (Chvátal 1983
for the asymptotics; Goddard 2003, Glazik–Jäger–Schiemann–Srivastav 2021 for exact values).

**Method: counterexample-guided refinement.** Separating *all* pairs of secrets at once is a huge
hitting-set problem, so the SAT model (one variable per possible guess, an incremental totalizer
for "at most k chosen", Bailleux–Boufkhad 2003) starts with no pairs at all:

1. ask the SAT solver for k guesses that separate every pair collected so far;
2. score all secrets against them (the native scorer is the only judge); if every reply vector
   is distinct, those k guesses are an **upper-bound certificate**;
3. otherwise add the pairs of secrets that still collide and go back to 1;
4. if the solver proves the collected pairs cannot be separated by k guesses, **no k guesses
   separate all secrets** -- a lower bound of k + 1, proved by UNSAT of a subset of the
   constraints (so it holds for the full problem).

One guess is fixed to a representative of its symmetry class (symbol and position permutations
map separating sets to separating sets), and the first lower bound is the counting one,
``R**k >= secrets``. A greedy separating set gives the first upper bound.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..extras import require
from ..game.codes import CodeSpace
from ..runtime.deadline import UNLIMITED, Deadline, stopped_by
from ..errors import SpaceTooLarge
from ..consistency.sat_call import StoppableSolve
from ..runtime.status import Status
from ..game.variant import Variant
from .adaptive import first_guess_representatives
from ..game import scoring

CONVENTION = ("questions = fixed guesses asked in advance whose replies identify every secret; "
              "a game then takes at most questions + 1 guesses (the last names the secret)")
#: Pairs added per refinement round, chosen among CANDIDATE_PAIRS colliding ones.
PAIRS_PER_ROUND = 200
CANDIDATE_PAIRS = 2000
#: Guesses scored per greedy step once the time limit has passed (a valid, larger set, fast).
LATE_BLOCK = 16
#: Largest space handled (every guess is a SAT variable; greedy scores all pairs).
STATIC_LIMIT = 50_000


@dataclass
class StaticResult:
    variant: Variant
    secrets: int
    lower: int                      # proved: fewer questions cannot identify every secret
    upper: int | None               # questions of the best separating set found
    guesses: list[str]
    status: Status
    seconds: float = 0.0
    rounds: int = 0
    pairs: int = 0
    proofs: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def proved(self) -> bool:
        return self.upper is not None and self.lower == self.upper

    def to_json(self) -> dict:
        return {"variant": self.variant.to_dict(), "secrets": self.secrets,
                "questions": self.upper, "game_guesses": None if self.upper is None else self.upper + 1,
                "guesses": self.guesses, "proved": self.proved, "lower": self.lower,
                "upper": self.upper, "status": str(self.status), "convention": CONVENTION,
                "proofs": self.proofs, "rounds": self.rounds, "pairs": self.pairs,
                "seconds": round(self.seconds, 3), "notes": self.notes}


def separates(variant: Variant, guesses, codes) -> bool:
    """True when the replies to ``guesses`` differ for every two of ``codes`` (scorer-checked)."""
    return len(collisions(variant, np.asarray(guesses, dtype=np.uint8), codes)) == 0


def collisions(variant: Variant, guesses: np.ndarray, codes) -> list[np.ndarray]:
    """Groups (index arrays into ``codes``) of two or more secrets with equal reply vectors."""
    if len(guesses) == 0:
        return [np.arange(len(codes))] if len(codes) > 1 else []
    replies = scoring.score_matrix(variant, guesses, codes).astype(np.int64)       # (k, S)
    keys = np.zeros(replies.shape[1], dtype=np.int64)
    for row in replies:                                                     # mixed-radix key
        keys = keys * variant.response_slots + row
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    cuts = np.flatnonzero(np.diff(sorted_keys)) + 1
    return [g for g in np.split(order, cuts) if len(g) > 1]


def _class_parts(variant: Variant, guesses: np.ndarray, packed, cls, key_type) -> np.ndarray:
    """Classes each of ``guesses`` (rows) would leave when added to the classes ``cls``."""
    keys = scoring.score_matrix(variant, guesses, packed).astype(key_type)
    keys += cls[None, :] * variant.response_slots
    keys.sort(axis=1)
    return 1 + np.count_nonzero(keys[:, 1:] != keys[:, :-1], axis=1)


def _late_step(variant: Variant, codes, packed, cls, key_type) -> tuple[int, int]:
    """(guess, classes): the best of LATE_BLOCK secrets spread over the unsplit classes."""
    _, inverse, counts = np.unique(cls, return_inverse=True, return_counts=True)
    pending = np.flatnonzero(counts[inverse] > 1)
    pick = pending[np.linspace(0, len(pending) - 1, min(LATE_BLOCK, len(pending))).astype(int)]
    parts = _class_parts(variant, codes[pick], packed, cls, key_type)
    i = int(parts.argmax())
    return int(pick[i]), int(parts[i])


def counting_lower(secrets: int, responses: int) -> int:
    """Smallest k with responses**k >= secrets (distinct reply vectors are necessary)."""
    k, reach = 0, 1
    while reach < secrets:
        reach *= responses
        k += 1
    return k


def greedy_separating_set(variant: Variant, codes: np.ndarray, packed,
                          deadline: Deadline | None = None) -> list[int]:
    """Guesses chosen one by one to maximise the number of reply-vector classes (an upper bound).
    Once ``deadline`` expires each step only scores LATE_BLOCK secrets of classes not yet split
    (a guess equal to one of them splits its class, so the set still separates, with more
    questions): scoring every guess at every step takes a minute at 15,120 secrets."""
    slots = variant.response_slots
    # Keys (class, reply) < secrets x slots: 32-bit keys sort twice as fast (Bulls & Cows: 1.7 s
    # against 3.4 s for the whole greedy set, same set).
    key_type = np.int32 if len(codes) * slots < 2**31 else np.int64
    cls = np.zeros(len(codes), dtype=key_type)
    chosen: list[int] = []
    block = max(1, 4_000_000 // max(1, len(codes)))
    while (classes := len(np.unique(cls))) < len(codes):
        best, best_parts = -1, -1
        start = 0
        while start < len(codes):
            if deadline is not None and deadline.expired():
                if best_parts <= classes:
                    best, best_parts = _late_step(variant, codes, packed, cls, key_type)
                break
            parts = _class_parts(variant, codes[start:start + block], packed, cls, key_type)
            i = int(parts.argmax())
            if parts[i] > best_parts:
                best, best_parts = start + i, int(parts[i])
            start += block
        _, cls = np.unique(cls * slots + scoring.score_matrix(variant, codes[best:best + 1], packed)[0],
                           return_inverse=True)
        cls = cls.astype(key_type)
        chosen.append(best)
    return chosen


def solve_static(variant: Variant, *,
                 max_questions: int | None = None, progress=None,
                 deadline: Deadline | None = None) -> StaticResult:
    """Fewest questions of a static game, with a certificate and, when reached, a proof.
    ``deadline`` (None: no limit) covers the whole
    call: the greedy upper bound and the SAT refinement."""
    ITotalizer = require("pysat.card", "the static game's search").ITotalizer
    IDPool = require("pysat.formula", "the static game's search").IDPool
    Solver = require("pysat.solvers", "the static game's search").Solver

    start = time.perf_counter()
    deadline = deadline or UNLIMITED
    space = CodeSpace(variant)
    if space.size > STATIC_LIMIT:
        raise SpaceTooLarge(f"{variant.describe()} has {space.size} secrets; static games are "
                            f"solved up to {STATIC_LIMIT} secrets")
    codes = space.codes
    packed = scoring.pack(variant, codes)
    secrets = len(codes)
    responses = len(scoring.possible_responses(variant))
    lower = counting_lower(secrets, responses)
    proofs = [f"{lower} questions needed by counting: {responses}^{lower - 1} < {secrets} secrets"
              ] if lower > 0 else []
    if progress:
        progress("choosing a greedy separating set (the first upper bound)")
    best = greedy_separating_set(variant, codes, packed, deadline)
    assert separates(variant, codes[best], packed)
    result = StaticResult(variant, secrets, lower, len(best), [space.format(codes[g]) for g in best],
                          Status.FEASIBLE, proofs=proofs,
                          notes=[f"greedy separating set: {len(best)} questions"
                                 + (f" (cut short: {stopped_by().reached()})" if deadline.expired()
                                    else "")])
    if lower >= len(best):
        result.status = Status.OPTIMAL
        result.seconds = time.perf_counter() - start
        return _within(result, max_questions)

    if deadline.expired():            # building the SAT model alone takes a second
        result.notes.append(f"{stopped_by().reached()} before the SAT refinement")
        result.seconds = time.perf_counter() - start
        return _within(result, max_questions)
    top = len(best) - 1 if max_questions is None else min(len(best) - 1, max_questions)
    best = _sat_refine(variant, space, packed, best, top, result, deadline, progress,
                       (IDPool, ITotalizer, Solver))
    if result.upper is not None and result.lower >= result.upper:
        result.status = Status.OPTIMAL
    assert separates(variant, codes[best], packed)
    result.seconds = time.perf_counter() - start
    return _within(result, max_questions)


def _sat_refine(variant: Variant, space: CodeSpace, packed, best: list[int], top: int,
                result: StaticResult, deadline: Deadline, progress, pysat) -> list[int]:
    """The SAT refinement of the greedy set ``best``: at most ``top`` questions, then fewer,
    until the solver proves a number impossible or the deadline comes (``result`` records
    the bounds, the proofs and the rounds); the best separating set found. ``pysat``: its
    (IDPool, ITotalizer, Solver), required by the caller before any work."""
    IDPool, ITotalizer, Solver = pysat
    codes, secrets, lower = space.codes, len(space.codes), result.lower
    pool = IDPool()
    xs = [pool.id(("x", g)) for g in range(secrets)]
    tot = ITotalizer(lits=xs, ubound=top + 1, top_id=pool.top)
    assert len(tot.rhs) > top
    reps = first_guess_representatives(variant, codes).tolist()
    # Glucose 4.2, not 4.1: measured here, 4.1 answered an interrupt up to 4 s late (pigeonhole
    # 11, 2 runs of 3) while 4.2 stopped within 0.08 s, so the time limit holds.
    sat = Solver(name="glucose42", bootstrap_with=tot.cnf.clauses)
    solve = StoppableSolve(sat)
    try:
        solve.add_clause([xs[g] for g in reps])   # WLOG one question is an orbit representative
        # Descending: each success lowers the upper bound; the first UNSAT at k proves k + 1
        # questions are needed, which then meets the upper bound (monotone in k).
        k = top
        while k >= max(lower, 1):
            result.rounds += 1
            status = solve([-tot.rhs[k]], deadline)
            if status is None:
                result.notes.append(f"{stopped_by().reached()} while testing {k} questions")
                break
            if not status:
                result.lower = k + 1
                result.proofs.append(
                    f"no {k} questions separate {result.pairs} collected secret pairs "
                    f"(SAT solver: UNSAT), so at least {k + 1} are needed")
                if progress:
                    progress(f"{k} questions impossible")
                break
            model = sat.get_model()
            chosen = [g for g in range(secrets) if model[xs[g] - 1] > 0]
            groups = collisions(variant, codes[chosen], packed)
            if not groups:
                best = chosen
                result.upper = len(chosen)
                result.guesses = [space.format(codes[g]) for g in chosen]
                if progress:
                    progress(f"{len(chosen)} questions suffice")
                k = len(chosen) - 1
                continue
            # Of the colliding pairs, add those separated by the fewest guesses: their clauses
            # are the shortest, hence the most constraining for the solver.
            cands = _pairs(groups)
            firsts = scoring.score_matrix(variant, packed, codes[[a for a, _ in cands]])
            seconds = scoring.score_matrix(variant, packed, codes[[b for _, b in cands]])
            sep = firsts != seconds                                          # (G, pairs)
            for j in np.argsort(sep.sum(axis=0), kind="stable")[:PAIRS_PER_ROUND].tolist():
                solve.add_clause([xs[g] for g in np.flatnonzero(sep[:, j]).tolist()])
                result.pairs += 1
    finally:
        solve.free()            # unless abandoned while it ran (then kept)
    return best


def _within(result: StaticResult, max_questions: int | None) -> StaticResult:
    """Answer the question ``max_questions`` asks: do that many questions suffice? When the
    proved lower bound exceeds it, the answer is none (status infeasible; the questions listed
    are the best set found, above the cap)."""
    if max_questions is None:
        return result
    if result.lower > max_questions:
        result.status = Status.INFEASIBLE
        result.notes.append(f"no {max_questions} questions separate every secret: at least "
                            f"{result.lower} are needed (proved)")
    elif result.upper > max_questions:
        result.notes.append(f"whether {max_questions} questions suffice is not decided (the best "
                            f"set found has {result.upper})")
    return result


def _pairs(groups):
    """Candidate pairs: in each collision group (largest first), its first member against the others."""
    out = []
    for g in sorted(groups, key=len, reverse=True):
        for other in g[1:].tolist():
            out.append((int(g[0]), other))
            if len(out) >= CANDIDATE_PAIRS:
                return out
    return out
