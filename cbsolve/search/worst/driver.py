"""Worst-case optimal strategies: fewest guesses in the worst case, with a proof.

Place in the data flow: Variant -> CodeSpace -> scoring (the full reply matrix) -> **this
driver** -> native decision search (cbsolve/_native/search_worst.cpp) -> strategy tree
(docs/tree-format.md) and lower-bound certificate (docs/tree-format.md) -> ``cbsolve verify``.

Method (Knuth 1977 for Mastermind's 5; the search shape of Koyama–Lai 1993): the decision
question "can every secret be found within d guesses?" is answered for d = L, L+1, ... where L
is the counting lower bound (with k guesses left at most cap(k) = 1 + (R-1) cap(k-1) secrets can
be told apart, R the number of possible replies). The upper bound is seeded by the greedy
minimax tree (Knuth's rule, here simply "first guess in lower-bound order that works with
unlimited depth"), so the loop stops at that depth at the latest. The first d that is feasible
is the optimum W; the tree of depth W is built by the same search, and the refutation tree of
W-1 is written out as a certificate that :mod:`cbsolve.certificates.certify` checks with the scorer alone.

Tie-breaks (``ties=True``): among strategies within W guesses, the fewest secrets needing W,
then the smallest total, proved by the expected-case branch and bound
(:mod:`cbsolve.search.expected`) run with the cap W and per-depth weights
weight(k) = k + BIG * [k == W], BIG = n*W + 1 > any total: the weighted sum orders strategies
lexicographically by (secrets at depth W, total). The certificate (W-1 impossible) is
unchanged. Without ``ties`` the decision search prefers, at every node, the first working
guess in lower-bound order (smallest largest class, candidates first), and the count at depth
W is reported as an interval (``at_worst``; ``lookahead`` tightens it).

Every pruning can be switched off (``prune={"symmetry": False, ...}``) for the tests that
compare results with and without it.
"""
from __future__ import annotations

import time

from ...runtime import time_policy
from ...game.capacity import worst_lower
from ...game.codes import CodeSpace
from ...runtime.deadline import UNLIMITED, Deadline
from ...runtime.status import Status, StopReason
from ...game.variant import Variant
from .. import memory
from ..options import SearchOptions
from ..result import SearchInterrupted, SearchResult, Verdict
from .kernel import PRUNINGS, _Native
from .ties import _at_worst_lower, _solve_ties
from .trees import _certificate, _depth, _fill_stats, _tree_doc


def solve_worst(variant: Variant, *, guesses: str = "all", max_depth: int | None = None,
                workers: int | None = None, progress=None,
                certificate: bool = True, prune: dict | None = None,
                lookahead: int = 0, ties: bool = False,
                ties_limit: float | None = None,
                memory_budget: str | int | None = None, position=None,
                replies: str = "auto", deadline: Deadline | None = None,
                checkpoint=None) -> SearchResult:
    """Fewest guesses that find every secret in the worst case, proved, with tree and certificate.

    ``max_depth`` caps the depths tried (the answer is then "no strategy within K" when the
    optimum is larger); ``deadline`` (the caller's budget; None: no limit) stops the search
    and reports the bounds proved so far;
    ``workers`` threads share the top of the search (default: all cores); ``progress`` is a
    callable ``(phase, depth, counters, lower, upper)`` polled while the native search runs
    (``lower``/``upper``: the interval proved so far). Ctrl-C stops the search within a
    fraction of a second and raises :class:`SearchInterrupted` with that interval.
    ``memory_budget`` (bytes or "6G"; default :func:`cbsolve.search.memory.budget`): the reply
    matrix if it fits, else replies scored on the fly (:func:`cbsolve.search.memory.plan`; the
    result's ``reply_source`` says which); a game for which neither fits is refused
    (SpaceTooLarge, naming what each needs). ``replies`` forces a source ("matrix",
    "on-the-fly"; default "auto"). ``lookahead``
    (tie-break, slower): at each node of the optimal tree compare up to that many working
    guesses on a lower bound of the secrets they leave for the last guess (0: the first one).
    ``ties``: also prove the tie-breaks (fewest secrets needing the worst case, then smallest
    total; :func:`_solve_ties`) and return that tree; a time limit leaves an interval.
    ``ties_limit``: seconds for the tie-breaks alone (default: what the deadline leaves).
    ``ties="count"``: the first tie-break only (fewest secrets at the worst depth).
    ``position``: search the game from a position (:mod:`cbsolve.search.position`) instead of
    from the start; depths then count the guesses from that position (no tie-breaks).
    ``checkpoint`` (:class:`cbsolve.search.checkpoint.Checkpoint`, whole game):
    decide each depth one first-guess orbit and reply class at a time, record what is proved
    there and skip what it already holds (:mod:`cbsolve.search.checkpoint.worst`); the
    tie-break searches record theirs in parts of it (``ties_count``, ``ties_total``); it is
    written on every stop.
    """
    run = _WorstRun(variant, guesses, max_depth, deadline or UNLIMITED,
                    workers, progress, prune, lookahead, memory_budget, position, replies)
    if checkpoint is not None:
        run.steps = checkpoint.worst_steps(run.native, variant, run.guesses, run.deadline,
                                           run.report)
    try:
        return run.solve(certificate, ties, ties_limit, lookahead)
    except KeyboardInterrupt:
        raise SearchInterrupted(_interrupted(run.result, run.native, run.notes, run.start)) from None
    finally:
        if checkpoint is not None:
            checkpoint.report(run.result)


class _WorstRun:
    """One :func:`solve_worst` call as named steps: the bounds (counting, greedy), the
    decisions d = lower, lower+1, ..., the optimal tree with its certificate, the count at the
    worst depth (and the tie-breaks); ``finish`` fills the result once."""

    def __init__(self, variant: Variant, guesses: str, max_depth: int | None,
                 deadline: Deadline, workers: int | None, progress, prune: dict | None,
                 lookahead: int, memory_budget, position, replies: str = "auto") -> None:
        self.start = time.perf_counter()
        options = SearchOptions.checked(variant, "worst", PRUNINGS, guesses=guesses,
                                        max_depth=max_depth, prune=prune, workers=workers,
                                        memory_budget=memory_budget, replies=replies)
        self.prune, workers, plan = options.prune, options.workers, options.plan
        guesses, n, budget = options.guesses, CodeSpace(variant).size, options.budget
        self.variant, self.guesses, self.max_depth = variant, guesses, max_depth
        self.deadline, self.workers, self.progress = deadline, workers, progress
        # The deadline counts the set-up (the reply matrix: seconds at 32,768 codes), as the
        # expected search's does: Logik 5x8 with a 2 s limit ended 4.4 s past it. The matrix
        # stops at it too (and at Ctrl-C).
        self.native = _Native(variant, guesses, self.prune, max(1, workers), lookahead,
                              root=position, plan=plan, deadline=deadline)
        self.notes: list[str] = [] if plan.source == memory.MATRIX else [plan.note(n, budget)]
        self.result = SearchResult(objective="worst", status=Status.UNKNOWN, proved=False,
                                   secrets=len(self.native.all), guesses=guesses,
                                   max_depth=max_depth, reply_source=plan.source)
        self.extra_nodes = 0  # nodes of the tie-break searches
        # d -> certificate that d guesses do not suffice, written as soon as feasible(d) says
        # no (the memo still holds the refutation, so it is cheap): a search stopped later
        # still leaves a checkable proof of the lower bound it reached.
        self.refuted: dict[int, dict] = {}
        self.steps = None     # the checkpointed decisions (checkpoint.worst.WorstSteps)
        self.witness = None   # their tree of the optimal depth

    def report(self, method: str, d: int, counters) -> None:
        if self.progress is not None:
            self.progress(method, d, counters, self.result.lower, self.result.upper)

    def run(self, method: str, d: int):
        return self.native.run(method, d, self.deadline, self.report)

    def finish(self, status: Status, proved: bool) -> SearchResult:
        result, notes = self.result, self.notes
        result.status, result.proved = status, proved
        result.stop = self.native.stop_reason()
        if result.stop not in (None, StopReason.TIME):
            # the notes were written as for a time limit: say what stopped the search
            word = "interrupted" if result.stop is StopReason.INTERRUPTED else "stopped"
            notes[:] = [x.replace("time limit reached", word) for x in notes]
            result.interrupted = result.stop is StopReason.INTERRUPTED and not proved
        result.seconds = time.perf_counter() - self.start
        result.nodes = int(self.native.core.nodes()) + self.extra_nodes
        result.notes = notes
        result.phases = {**{k: round(v, 3) for k, v in self.native.phases.items()},
                         **result.phases}
        return result

    def solve(self, certificate: bool, ties, ties_limit: float | None,
              lookahead: int) -> SearchResult:
        if self.native.setup_stopped is not None:
            return self.stopped_in_setup()
        greedy_tree = self.bounds()
        optimum = self.decide(greedy_tree, certificate)
        if optimum is None:
            return self.result  # finished: infeasible within max_depth, or stopped
        tree_doc = self.optimal_tree(optimum, greedy_tree, certificate)
        if tree_doc is not None:
            self.count_at_worst(optimum, tree_doc, ties, ties_limit, lookahead)
        return self.finish(Status.OPTIMAL, True)

    def counting_bound(self) -> int:
        """The fewest guesses that can tell the secrets apart (1 without the capacity pruning)."""
        if not self.prune.get("capacity", True):
            return 1
        return worst_lower(self.result.secrets, self.native.n_responses)

    def stopped_in_setup(self) -> SearchResult:
        """Stopped while the reply matrix was built: the counting bound, as a search stopped
        right after its set-up reports it; Ctrl-C raises KeyboardInterrupt (the interval is
        reported by :func:`_interrupted`)."""
        self.result.lower = self.counting_bound()
        self.notes.append(self.native.setup_stopped.note())
        if self.native.setup_stopped.reason is StopReason.INTERRUPTED:
            raise KeyboardInterrupt
        return self.finish(Status.UNKNOWN, False)

    def bounds(self) -> dict | None:
        """The counting lower bound and the greedy tree's depth (upper); the greedy tree."""
        result = self.result
        result.lower = self.counting_bound()
        greedy_tree = (self.run("greedy", 0) if self.steps is None
                       else self.steps.greedy(lambda: self.run("greedy", 0)))
        result.upper = _depth(greedy_tree) if greedy_tree is not None else None
        return greedy_tree

    def decide(self, greedy_tree: dict | None, certificate: bool) -> int | None:
        """The optimum: the first d from the lower bound that is feasible (the greedy depth at
        the latest). None when the search ended without one (the result is then finished)."""
        result, notes, upper = self.result, self.notes, self.result.upper
        d = result.lower
        while True:
            if self.max_depth is not None and d > self.max_depth:
                notes.append(f"no strategy finds every secret within {self.max_depth} guesses")
                if certificate:
                    result.certificate = self.refutation(self.max_depth)
                self.finish(Status.INFEASIBLE, True)
                return None
            if upper is not None and d >= upper:
                return upper  # the greedy tree reaches it
            if self.steps is None:
                answer = Verdict(self.run("feasible", d))
            else:
                answer, self.witness = self.steps.decide(d)
                if answer is Verdict.NO:
                    self.refuted[d] = self.steps.refuted(d)
            if answer is Verdict.STOPPED:
                notes.append(f"time limit reached while deciding whether {d} guesses suffice")
                self.report_greedy(greedy_tree, self.refuted.get(d - 1))
                self.finish(Status.FEASIBLE if greedy_tree is not None else Status.UNKNOWN, False)
                return None
            if answer is Verdict.YES:
                return d
            if certificate:
                cert = self.refutation(d)
                if cert is not None:
                    self.refuted[d] = cert
            result.lower = d + 1
            d += 1

    def refutation(self, d: int) -> dict | None:
        """The certificate that ``d`` guesses do not suffice: the one written when ``d`` was
        refuted, else written now from the memo (None when stopped)."""
        return self.refuted.get(d) or _certificate(self.variant, self.native, d, self.guesses,
                                                   self.deadline, self.report)

    def optimal_tree(self, optimum: int, greedy_tree: dict | None,
                     certificate: bool) -> dict | None:
        """The tree of depth ``optimum`` and the certificate that ``optimum - 1`` fails; None
        when stopped while building the tree (:meth:`greedy_fallback`)."""
        result, notes = self.result, self.notes
        result.lower = result.upper = optimum
        root = self.witness if self.witness is not None else self.run("tree", optimum)
        if root is None:
            self.greedy_fallback(optimum, greedy_tree)
            return None
        tree_doc = _tree_doc(self.variant, self.native, root, self.guesses)
        if tree_doc["stats"]["worst"] != optimum:   # depth <= optimum by construction, and
            # optimum - 1 was refuted: anything else means the decisions contradict each other
            raise AssertionError(f"internal error: the tree of depth {optimum} has worst case "
                                 f"{tree_doc['stats']['worst']}")
        if certificate and optimum > 1:
            cert = self.refutation(optimum - 1)
            if cert is None:
                notes.append("time limit reached while writing the lower-bound certificate")
            else:
                tree_doc["certificate"] = cert
                result.certificate = cert
        result.tree = tree_doc
        _fill_stats(result, tree_doc)
        return tree_doc

    def greedy_fallback(self, optimum: int, greedy_tree: dict | None) -> None:
        """Stopped while building the optimal tree: the optimum stays proved (lower = upper),
        but the tree reported is the greedy one, which may be deeper. It is labelled not
        optimal, carries no tie-break claims (they would describe the wrong tree), and its
        worst case is not the optimum: read the value from lower/upper."""
        self.notes.append("time limit reached while building the optimal tree; the greedy tree "
                          f"(not optimal) is reported; the optimum {optimum} is proved")
        self.report_greedy(greedy_tree, self.refuted.get(optimum - 1))

    def report_greedy(self, greedy_tree: dict | None, cert: dict | None) -> None:
        """Report the greedy tree, labelled not optimal, with ``cert``: the certificate of the
        lower bound reached (embedded, so ``cbsolve verify`` checks both)."""
        result = self.result
        result.certificate = cert
        if greedy_tree is not None:
            result.tree = _tree_doc(self.variant, self.native, greedy_tree, self.guesses,
                                    proved=False)
            _fill_stats(result, result.tree)
            if cert is not None:
                result.tree["certificate"] = cert

    def count_at_worst(self, optimum: int, tree_doc: dict, ties, ties_limit: float | None,
                       lookahead: int) -> None:
        """The interval on the secrets needing ``optimum`` guesses, proved by the tie-break
        searches when ``ties`` (and time enough to start them)."""
        result, notes = self.result, self.notes
        hi = result.histogram[optimum]
        if ties and not self.deadline.unlimited:
            # The tie-break search sets up and reports a tree even when stopped at once: on
            # Bulls & Cows that took 3-4x building the worst-case tree. With less time left than
            # that, starting it would only overrun the limit.
            left = self.deadline.left()
            need = time_policy.TIES_SETUP_FACTOR * self.native.phases.get(f"tree({optimum})", 0.0)
            if left < need:
                notes.append(f"time limit: {max(left, 0):.1f} s left, too little to start the "
                             f"tie-break search (about {need:.1f} s to set it up)")
                ties = False
        # The certificate shows optimum-1 guesses fail, so at least one secret needs the optimum;
        # with lookahead (the user asked for tie-break work) a one-level bound is computed too.
        lo = _at_worst_lower(self.variant, self.native, optimum) if lookahead > 0 and not ties else 1
        if lo is not None and optimum > 1:
            lo = max(lo, 1)
        if ties:
            budget = self.deadline if ties_limit is None else self.deadline.capped(ties_limit)
            lo, hi, self.extra_nodes = _solve_ties(self.variant, result, optimum, self.guesses,
                                                   budget, self.workers, lo, notes,
                                                   "count" if ties == "count" else "both",
                                                   None if self.steps is None else self.steps.cp)
            tree_doc = result.tree
        if lo is not None:
            result.at_worst = (lo, hi)
            tree_doc["at_worst"] = {"lower": lo, "upper": hi}
        if not ties:  # _solve_ties writes its own notes
            if lo == hi:
                notes.append(f"proved: the worst case, and {hi} secrets at that depth is the fewest "
                             "possible")
            else:
                notes.append(f"proved: the worst case; fewest secrets needing {optimum} guesses in "
                             f"[{lo if lo is not None else '?'}, {hi}] (tie-break not proved "
                             "minimal; the total is that of the tree found)")


def _interrupted(result: SearchResult, native: _Native, notes: list[str],
                 start: float) -> SearchResult:
    """What Ctrl-C leaves: the interval proved so far (no tree: building it would delay the
    exit; a value already proved stays proved)."""
    result.interrupted = True
    result.stop = StopReason.INTERRUPTED
    result.seconds = time.perf_counter() - start
    result.nodes = int(native.core.nodes())
    if result.lower is not None and result.lower == result.upper:
        result.status, result.proved = Status.OPTIMAL, True
    else:
        result.status = Status.FEASIBLE if result.upper is not None else Status.UNKNOWN
        result.proved = False
    notes.append(f"interrupted: worst case in [{result.lower}, "
                 f"{'?' if result.upper is None else result.upper}]")
    result.notes = notes
    return result
