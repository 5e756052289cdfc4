"""A proved lower bound on the expected-case optimum, first guess by first guess.

Place in the data flow: Variant -> the expected search's native solver (one set at a time) ->
a lower bound on the smallest total, reported beside a polished tree's total (an upper bound)
by ``scripts/polish_tree.py --lower-bound``.

The optimum is the minimum over first guesses g (one per symmetry orbit: equivalent guesses
have equal optima) of n + the sum of the optima of g's reply classes, each class being the game
from the position "g, reply". Any lower bound of each class's optimum therefore gives a lower
bound for g, and the least over g one for the game. Per class we take the best of:

* the exact optimum, when the single-set exact search finishes within ``seconds`` (classes of
  at most ``exact_max`` secrets);
* otherwise the solver's bound of the set (its transposition table's entry, the fill bound,
  and the least one-level bound over the second guesses up to the history's symmetry: the
  two-level partition bound of docs/bounds.md, restricted to the class).

Sound because every ingredient is: each term bounds the optimum of its class.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..variant import Variant


@dataclass
class FirstGuessBound:
    guess: str
    bound: int                 # n + sum of the class bounds
    classes: int
    exact: int                 # classes whose bound is their exact optimum
    seconds: float


@dataclass
class GameBound:
    bound: int                               # min over the first guesses
    guesses: list[FirstGuessBound] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {"bound": self.bound, "seconds": round(self.seconds, 1),
                "first_guesses": [{"guess": g.guess, "bound": g.bound, "classes": g.classes,
                                   "exact": g.exact, "seconds": round(g.seconds, 1)}
                                  for g in self.guesses]}


def game_bound(variant: Variant, *, exact_max: int = 1000, seconds: float = 30.0,
               search=None, log=None) -> GameBound:
    """The least first-guess bound over one first guess per symmetry orbit (see module doc)."""
    from .position import expected_search, solve_set

    log = log or (lambda msg: None)
    search = search or expected_search(variant, None, "all")
    solver = search.solver
    started = time.perf_counter()
    everyone = np.arange(search.n, dtype=np.int32)
    firsts = solver.scan(everyone, 0, search._played([]), None, search._history([]))
    result = GameBound(bound=0)
    for g, _lbt, _lbw, _cand in sorted(firsts, key=lambda x: (x[1], x[0])):
        t0 = time.perf_counter()
        resp = search.replies(g)
        played, history = search._played([g]), search._history([g])
        total, exact = search.n, 0
        classes = [everyone[resp == r] for r in np.flatnonzero(np.bincount(resp))
                   if r != variant.win_response]
        for members in classes:
            value = None
            if len(members) <= exact_max:
                search.set_deadline(seconds)
                try:
                    out = solve_set(search, members, [g], depth=0)
                finally:
                    search.set_deadline(0)
                if out is not None and out[2]:
                    value, exact = int(out[0]), exact + 1
            if value is None:
                value = int(solver.lower_bound(members, 0, played, history)[0])
            total += value
        name = search.space.format(search.codes[g])
        result.guesses.append(FirstGuessBound(name, total, len(classes), exact,
                                              time.perf_counter() - t0))
        log(f"first guess {name}: total >= {total} ({exact} of {len(classes)} classes exact, "
            f"{time.perf_counter() - t0:.0f} s)")
    result.bound = min(g.bound for g in result.guesses)
    result.seconds = time.perf_counter() - started
    return result
