"""A proved lower bound on the expected-case optimum, first guess by first guess.

Place in the data flow: Variant -> the expected search's native solver (one set at a time) ->
a lower bound on the smallest total, reported beside a polished tree's total (an upper bound)
by ``scripts/research/polish_tree.py --lower-bound``.

The optimum is the minimum over first guesses g (one per symmetry orbit: equivalent guesses
have equal optima) of n + the sum of the optima of g's reply classes, each class being the game
from the position "g, reply". Any lower bound of each class's optimum therefore gives a lower
bound for g, and the least over g one for the game. A class starts at the solver's bound of
the set (the fill bound and the least one-level bound over the second guesses up to the
history's symmetry: the two-level partition bound of docs/bounds.md, restricted to the
class) and is raised, best first (always a class of the first guess whose bound is least), by
**probes**: the single-set exact search asked for a strategy below bound + step, within
``seconds``. When it fails high, its answer (at least the budget) is a proved lower bound of
the class and the step doubles; when it finds a strategy, that is the class's optimum; when it
runs out of time the class keeps its bound. Classes of more than ``max_class`` secrets keep
the two-level bound (a probe there rarely ends in time). A budget just above the bound lets
the search refute most second guesses by their one-level bounds, so a probe is far cheaper
than solving the class outright (Logik 5x8, class 0,0 of 11234, 1,024 secrets: the unbudgeted
search did not finish in 30 s).

Sound because every ingredient is: each term bounds the optimum of its class, and the search's
fail-high value is a lower bound by its contract (``Solver.solve``).
"""
from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field

import numpy as np

from cbsolve.runtime.deadline import Deadline
from cbsolve.game.variant import Variant

#: The first probe asks for a strategy this much above a class's bound (then doubles).
FIRST_STEP = 8


@dataclass
class _Class:
    members: np.ndarray
    lower: int
    exact: bool = False
    open: bool = True          # False once exact or a probe ran out of time
    step: int = FIRST_STEP     # the next probe's budget above the bound


@dataclass
class FirstGuessBound:
    guess: str
    bound: int                 # n + sum of the class bounds
    classes: int
    exact: int                 # classes whose bound is their exact optimum (a probe found it)
    seconds: float = 0.0


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


def game_bound(variant: Variant, *, max_class: int = 1000, seconds: float = 30.0,
               time_limit: float | None = None, search=None, log=None,
               deadline: Deadline | None = None) -> GameBound:
    """The least first-guess bound over one first guess per symmetry orbit (module doc);
    ``deadline`` (else ``time_limit`` seconds) ends the refinement (the bound proved so far
    stands); each probe takes at most ``seconds``."""
    from cbsolve.search.position import expected_search

    log = log or (lambda msg: None)
    search = search or expected_search(variant, None, "all")
    solver = search.solver
    started = time.perf_counter()
    deadline = Deadline.given(deadline, time_limit)
    everyone = np.arange(search.n, dtype=np.int32)
    firsts = solver.scan(everyone, 0, search.played_mask([]), None, search.native_history([]))
    guesses = {}
    for g, *_ in firsts:
        played, history = search.played_mask([g]), search.native_history([g])
        classes = [_Class(m, int(solver.lower_bound(m, 0, played, history)[0]),
                          open=len(m) <= max_class)
                   for _, m in search.reply_classes(g, everyone)]
        guesses[g] = (classes, [0.0])
    heap = [(_total(search.n, c), g) for g, (c, _) in guesses.items()]
    heapq.heapify(heap)
    while heap and not deadline.expired():
        bound, g = heapq.heappop(heap)
        classes, spent = guesses[g]
        todo = [c for c in classes if c.open]
        if not todo:      # every class as far as it goes: this guess's bound is final
            heapq.heappush(heap, (bound, g))
            break
        c = min(todo, key=lambda c: len(c.members))   # smallest first: the cheapest probes
        t0 = time.perf_counter()
        _refine(search, c, [g], deadline.capped(seconds))
        spent[0] += time.perf_counter() - t0
        heapq.heappush(heap, (_total(search.n, classes), g))
        log(f"{search.space.format(search.codes[g])}: class of {len(c.members)} >= {c.lower}"
            f"{' (exact)' if c.exact else ''}; first guess >= {_total(search.n, classes)} "
            f"({time.perf_counter() - started:.0f} s)")
    result = GameBound(bound=0, seconds=time.perf_counter() - started)
    for g, (classes, spent) in sorted(guesses.items(), key=lambda x: _total(search.n, x[1][0])):
        result.guesses.append(FirstGuessBound(search.space.format(search.codes[g]),
                                              _total(search.n, classes), len(classes),
                                              sum(c.exact for c in classes), spent[0]))
    result.bound = min(x.bound for x in result.guesses)
    return result


def _total(n: int, classes: list[_Class]) -> int:
    return n + sum(c.lower for c in classes)


def _refine(search, c: _Class, history: list[int], probe: Deadline) -> None:
    """Raise one class's bound by one probe above it (or find its optimum) before ``probe``."""
    from cbsolve.search.position import solve_set

    budget = (c.lower + c.step, 0)
    c.step *= 2
    out = solve_set(search, c.members, history, budget=budget, depth=0, deadline=probe)
    if out is None:          # out of time: this class keeps its bound
        c.open = False
        return
    total, _worst, exact = out
    c.lower = max(c.lower, int(total))
    if exact:
        c.exact, c.open = True, False
