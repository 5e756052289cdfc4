"""Polish an expected-case strategy tree: exact optima below a size, better guesses above it.

Place in the data flow: a heuristic tree (``cbsolve evaluate --out``, docs/tree-format.md) ->
**polish** -> a tree with a smaller (never larger) total -> ``cbsolve verify``. Games too large
for the exact expected search (Logik 5x8, Mastermind 5x6, Bulls & Cows 5/10) still get trees
close to their optimum this way; the result is an upper bound, not a proof.

Two moves, applied top-down from the root:

* **exact**: at the first node on a path whose set has at most ``exact_max`` secrets, the
  single-set exact search (:mod:`cbsolve.search.position`'s solver, with the history played so
  far fixing the symmetry) is asked for a strategy strictly better than the subtree there
  (total, then worst case). The optimum from a node is exact, so a replaced subtree is never
  worse; when the search proves no better one exists the subtree is kept as it is. A search
  that hits ``node_seconds`` is abandoned and the node's children are polished instead.
* **alternatives**: at a node of at most ``alt_max`` secrets above ``exact_max``, the
  ``alternatives`` guesses with the best one-level lower bound (one per symmetry orbit of the
  history, from the core's scan) are each played with Irving's greedy strategy (1979) below
  and those classes polished by the exact move; the best total is kept. A guess is abandoned
  as soon as its classes done plus the lower bounds of the rest reach the best total.

Totals count guesses from the node (the node's guess is guess 1), as the exact search does.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from cbsolve.runtime.deadline import UNLIMITED, Deadline
from cbsolve.game.variant import Variant

#: Sets this small are left as the input tree plays them: two secrets need 3 guesses at
#: best and every strategy in the project plays them so.
TRIVIAL = 2


@dataclass
class PolishStats:
    """What a polish run did (for the script's report and the tests)."""

    before: int = 0                 # input tree's total
    after: int = 0                  # polished tree's total
    solved: int = 0                 # exact searches that finished
    improved: int = 0               # ... and replaced a subtree
    timed_out: int = 0              # exact searches stopped by node_seconds
    alternatives: int = 0           # alternative guesses played out
    switched: int = 0               # nodes whose guess an alternative replaced
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {k: getattr(self, k) for k in ("before", "after", "solved", "improved",
                                               "timed_out", "alternatives", "switched")} | {
            "seconds": round(self.seconds, 1), "notes": self.notes}


class Polisher:
    """Polish trees of one variant (one reply matrix and transposition table for all calls)."""

    def __init__(self, variant: Variant, *, exact_max: int = 300, node_seconds: float = 10.0,
                 alternatives: int = 0, alt_max: int = 0, time_limit: float | None = None,
                 memory_budget=None, log=None):
        from cbsolve.search.position import expected_search

        self.variant = variant
        self.search = expected_search(variant, None, "all", memory_budget=memory_budget)
        self.space = self.search.space
        self.exact_max = exact_max
        self.node_seconds = node_seconds
        self.alternatives = alternatives
        self.alt_max = alt_max
        self.time_limit = time_limit
        self.log = log or (lambda msg: None)
        self.labels = [variant.format_response(r) for r in range(variant.response_slots)]
        self.stats = PolishStats()
        self._deadline = UNLIMITED
        self._started = time.perf_counter()
        self.log_depth = 1   # log the polished classes this many guesses deep

    # --- public ------------------------------------------------------------------------------
    def polish(self, root: dict, members: np.ndarray | None = None,
               history: list[int] | None = None) -> tuple[dict, int]:
        """The polished tree of ``root`` (a tree-format node) over ``members`` (default: every
        code) after ``history`` (code indices); returns (root, total from the node)."""
        started = self._started = time.perf_counter()
        self._deadline = Deadline.from_limit(self.time_limit)
        members = (np.arange(self.search.n, dtype=np.int32) if members is None
                   else np.ascontiguousarray(members, dtype=np.int32))
        history = list(history or [])
        self.stats.before = self.measure(root, members)[0]
        node, (total, _) = self._polish(root, members, history, top=True)
        self.stats.after = total
        self.stats.seconds = time.perf_counter() - started
        return node, total

    def measure(self, node: dict, members: np.ndarray) -> tuple[int, int]:
        """(total, worst) of a subtree over ``members``, counted from the node (a secret not
        solved raises ValueError)."""
        total, worst = len(members), 1
        children = node.get("children") or {}
        for r, sub in self.search.reply_classes(self._index(node), members):
            child = children.get(self.labels[r])
            if child is None:
                raise ValueError(f"the tree has no move after {node['guess']} -> "
                                 f"{self.labels[r]}")
            t, w = self.measure(child, sub)
            total, worst = total + t, max(worst, 1 + w)
        return total, worst

    def class_totals(self, root: dict) -> dict[str, int]:
        """The total of each reply class of ``root``'s first guess in the tree (reply label ->
        total), e.g. as the budgets of :func:`first_guess_value.first_guess_value`."""
        everyone = np.arange(self.search.n, dtype=np.int32)
        return {self.labels[r]: self.measure(root["children"][self.labels[r]], sub)[0]
                for r, sub in self.search.reply_classes(self._index(root), everyone)}

    # --- the two moves ---------------------------------------------------------------------------
    def _polish(self, node: dict, members: np.ndarray, history: list[int],
                top: bool = False, alternatives: bool = True) -> tuple[dict, tuple[int, int]]:
        n = len(members)
        if n <= TRIVIAL or self._out_of_time():
            return node, self.measure(node, members)
        if n <= self.exact_max:
            # measured only here: above exact_max the value comes from the polished children
            # (measuring every node walked its whole subtree again, once per ancestor)
            old = self.measure(node, members)
            found = self._exact(members, history, old)
            if found is not None:   # the optimum's subtree, or None when the search timed out
                return found if found[0] is not None else (node, old)
        node, value = self._children(node, members, history, alternatives)
        if alternatives and self.alternatives and n <= self.alt_max:
            node, value = self._try_alternatives(node, value, members, history, top)
        return node, value

    def _exact(self, members, history, old):
        """(the optimum's subtree, its value) when it beats ``old``; (None, old) when the
        search proves nothing does; None when it ran out of time."""
        from cbsolve.search.position import solve_set, subtree

        search = self.search
        out = solve_set(search, members, history, budget=old, depth=0,
                        deadline=self._deadline.capped(self.node_seconds))
        if out is None:
            self.stats.timed_out += 1
            return None
        self.stats.solved += 1
        total, worst, exact = out
        if not exact:
            return None, old   # proved: nothing beats the subtree
        self.stats.improved += 1
        root, _ = subtree(search, members, history, depth=0)
        return root, (int(total), int(worst))

    def _children(self, node, members, history, alternatives):
        g = self._index(node)
        total, worst = len(members), 1
        children = dict(node.get("children") or {})
        for r, sub in self.search.reply_classes(g, members):
            label = self.labels[r]
            child, (t, w) = self._polish(children[label], sub, history + [g],
                                         alternatives=alternatives)
            children[label] = child
            if len(history) < self.log_depth:
                self.log(f"{self._path(history + [g])} {label}: {len(sub)} secrets, total {t} "
                         f"({time.perf_counter() - self._started:.0f} s)")
            total, worst = total + t, max(worst, 1 + w)
        return {"guess": node["guess"], "children": children}, (total, worst)

    def _try_alternatives(self, node, value, members, history, top):
        search = self.search
        solver = search.solver
        current = self._index(node)
        scan = solver.scan(members, 0, search.played_mask(history), None, search.native_history(history))
        scan.sort(key=lambda x: (x[1], x[2], not x[3], x[0]))
        tried = 0
        for g, lbt, lbw, _cand in scan:
            if tried >= self.alternatives or (lbt, lbw) >= value or self._out_of_time():
                break
            if g == current:
                continue
            tried += 1
            self.stats.alternatives += 1
            found = self._play(g, members, history, value)
            if found is not None and found[1] < value:
                node, value = found
                self.stats.switched += 1
                if top:
                    self.log(f"root guess {node['guess']}: total {value[0]}")
        return node, value

    def _play(self, g, members, history, best):
        """Guess ``g`` with greedy classes, each polished by the exact move; None once its
        classes cannot beat ``best``."""
        search, solver = self.search, self.search.solver
        subs = search.reply_classes(g, members)
        child_history = history + [g]
        played, hist = search.played_mask(child_history), search.native_history(child_history)
        bounds = [int(solver.lower_bound(s, 0, played, hist)[0]) for _, s in subs]
        total, worst, rest = len(members), 1, sum(bounds)
        children = {}
        for (r, sub), bound in sorted(zip(subs, bounds, strict=True), key=lambda x: -len(x[0][1])):
            rest -= bound
            if (total + bound + rest, 0) >= best:
                return None
            child = self._greedy(sub, child_history)
            child, (t, w) = self._polish(child, sub, child_history, alternatives=False)
            children[self.labels[r]] = child
            total, worst = total + t, max(worst, 1 + w)
        return {"guess": self.space.format(self.search.codes[g]), "children": children}, (total, worst)

    def _greedy(self, members, history):
        """Irving's greedy subtree of a set (the native core's; smallest expected class)."""
        return self.search.greedy_subtree(members, history)

    # --- helpers ---------------------------------------------------------------------------------
    def _index(self, node: dict) -> int:
        return self.space.index_of(self.space.parse(node["guess"]))

    def _path(self, history) -> str:
        return " ".join(self.space.format(self.search.codes[g]) for g in history)

    def _out_of_time(self) -> bool:
        return self._deadline.expired()
