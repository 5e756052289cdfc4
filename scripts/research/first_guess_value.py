"""The exact value of one first guess, class by class: n + the optimum of each reply class.

Place in the data flow: Variant and a first guess -> the expected search's native solver, asked
about one reply class at a time (the position "guess, reply") -> per-class optima, or the bound
a capped search leaves -> when every class is solved, the tree of the classes' optimal
subtrees under that guess (``cbsolve verify`` replays it).

Why: the optimum is the least over first guesses (one per symmetry orbit) of n + the sum of
the optima of the guess's classes. The monolithic search of a game like ``numbers`` spends its
whole budget inside its first first guess; solving one guess's classes one by one, each with a
cap and the total of a known subtree as its budget, says which class is the bottleneck, and
when all finish gives the guess's exact value. With the first-guess lower bound of every other
orbit (:mod:`first_guess_bound`) at or above that value the game is settled;
that proof rests on the search's exact answers and fail-high bounds, as every expected-case
optimum of the project does (docs/optimal.md).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from cbsolve.game.variant import Variant


@dataclass
class ClassValue:
    reply: str
    secrets: int
    value: int            # the class's optimum when exact, else a proved lower bound
    exact: bool
    seconds: float


@dataclass
class FirstGuessValue:
    guess: str
    secrets: int
    classes: list[ClassValue] = field(default_factory=list)
    root: dict | None = None     # the tree of the optimal class subtrees, when all are exact

    @property
    def exact(self) -> bool:
        return all(c.exact for c in self.classes)

    @property
    def value(self) -> int:
        """n + the class values: the guess's optimum when ``exact``, else a lower bound."""
        return self.secrets + sum(c.value for c in self.classes)

    def to_json(self) -> dict:
        return {"guess": self.guess, "value": self.value, "exact": self.exact,
                "classes": [{"reply": c.reply, "secrets": c.secrets, "value": c.value,
                             "exact": c.exact, "seconds": round(c.seconds, 1)}
                            for c in self.classes]}


def first_guess_value(variant: Variant, guess: str, *, seconds: float = 60.0,
                      uppers: dict[str, int] | None = None, search=None,
                      log=None) -> FirstGuessValue:
    """Solve every reply class of ``guess`` within ``seconds`` each, smallest first.

    ``uppers`` (reply label -> the total of a known strategy for that class, e.g. a polished
    tree's subtree) become the budgets: the search then only looks for strategies at most as
    good, which prunes more. A class whose search runs out of time keeps the solver's
    two-level bound (docs/bounds.md), a proved lower bound."""
    from cbsolve.search.position import expected_search, solve_set, subtree

    log = log or (lambda msg: None)
    search = search or expected_search(variant, None, "all")
    space, solver = search.space, search.solver
    g = space.index_of(space.parse(guess))
    everyone = np.arange(search.n, dtype=np.int32)
    played, history = search.played_mask([g]), search.native_history([g])
    result = FirstGuessValue(space.format(search.codes[g]), search.n)
    children = {}
    for r, members in sorted(search.reply_classes(g, everyone), key=lambda c: len(c[1])):
        label = variant.format_response(r)
        budget = None if uppers is None or label not in uppers else (uppers[label] + 1, 0)
        started = time.perf_counter()
        out = solve_set(search, members, [g], budget=budget, depth=0, seconds=seconds)
        spent = time.perf_counter() - started
        if out is not None and out[2]:
            value, exact = int(out[0]), True
            children[label], _ = subtree(search, members, [g], depth=0)
        else:     # timed out, or (a wrong upper) failed high: a lower bound either way
            value = int(solver.lower_bound(members, 0, played, history)[0])
            value, exact = (max(value, int(out[0])) if out is not None else value), False
        result.classes.append(ClassValue(label, len(members), value, exact, spent))
        log(f"{result.guess} {label}: {len(members)} secrets, "
            f"{'=' if exact else '>='} {value} ({spent:.1f} s)")
    if result.exact:
        result.root = {"guess": result.guess, "children": children}
    return result
