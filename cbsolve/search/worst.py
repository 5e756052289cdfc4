"""Worst-case optimal strategies: fewest guesses in the worst case, with a proof.

Place in the data flow: Variant -> CodeSpace -> scoring (the full reply matrix) -> **this
driver** -> native decision search (cbsolve/_native/search_worst.cpp) -> strategy tree
(docs/tree-format.md) and lower-bound certificate (docs/optimal.md) -> ``cbsolve verify``.

Method (Knuth 1977 for Mastermind's 5; the search shape of Koyama–Lai 1993): the decision
question "can every secret be found within d guesses?" is answered for d = L, L+1, ... where L
is the counting lower bound (with k guesses left at most cap(k) = 1 + (R-1) cap(k-1) secrets can
be told apart, R the number of possible replies). The upper bound is seeded by the greedy
minimax tree (Knuth's rule, here simply "first guess in lower-bound order that works with
unlimited depth"), so the loop stops at that depth at the latest. The first d that is feasible
is the optimum W; the tree of depth W is built by the same search, and the refutation tree of
W-1 is written out as a certificate that :mod:`cbsolve.certify` checks with the scorer alone.

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

import numpy as np

from .. import time_policy
from ..bounds.counting import worst_lower
from ..codes import CodeSpace
from ..deadline import Deadline, run_interruptible
from ..errors import InvalidVariant, SpaceTooLarge, unknown_name
from ..scoring import possible_responses, score_matrix
from ..status import Status, StopReason
from ..variant import Variant
from . import SearchInterrupted, SearchResult, memory, reply_matrix
PRUNINGS = ("symmetry", "capacity", "obvious", "order", "memo", "dedupe")
GUESS_MODES = ("all", "candidates")
CERT_FORMAT = "cbsolve-worst-lower-bound"
CERT_VERSION = 1


def capacity(n_responses: int, k: int) -> int:
    """cap(k): most secrets k guesses can always tell apart (R-1 non-winning replies).

    cap(0) = 0; cap(k) = 1 + (R-1) cap(k-1): the guess itself may be the secret (1), and each
    non-winning reply leads to a set that k-1 guesses must settle.

    >>> [capacity(14, k) for k in range(5)]
    [0, 1, 14, 183, 2380]
    """
    c = 0
    for _ in range(k):
        c = 1 + (n_responses - 1) * c
    return c


class _Native:
    """The native search with its control block (named progress counters, stop request)."""

    def __init__(self, variant: Variant, guesses: str, prune: dict, workers: int,
                 lookahead: int = 0, memo_bytes: int | None = None, root=None,
                 plan: memory.Plan | None = None, deadline: Deadline | None = None):
        from .._native.search_worst import WorstSearch

        space = CodeSpace(variant)
        self.variant = variant
        self.space = space
        self.codes = space.codes
        if plan is None:   # the Dask paths: the default budget (--memory-budget, $CBSOLVE_...)
            plan = memory.check(variant.describe(), space.size, "worst", memory.budget(),
                                max(1, workers))
        # the reply matrix, or None: the kernel scores replies on the fly (memory.plan). The
        # matrix stops at ``deadline`` or Ctrl-C: then ``setup_stopped`` says where and the
        # kernel scores on the fly (the driver reports the counting bound without searching).
        on_the_fly = plan.source == memory.ON_THE_FLY
        self.setup_stopped: reply_matrix.SetupStopped | None = None
        self.matrix = None
        if not on_the_fly:
            try:
                self.matrix = reply_matrix.build(variant, self.codes, deadline)
            except reply_matrix.SetupStopped as stop:
                self.setup_stopped = stop
        self.reply_source = memory.MATRIX if self.matrix is not None else memory.ON_THE_FLY
        replies = possible_responses(variant)
        self.n_responses = len(replies)
        # the replies that occur, so the kernel need not scan the n^2 matrix for them
        self.core = WorstSearch(self.matrix, self.codes, variant.n_symbols, variant.no_leading_zero,
                                variant.response_slots, variant.win_response, self.n_responses,
                                [variant.response_index(b, c) for b, c in replies],
                                repeats=variant.repeats, bulls_only=variant.bulls_only)
        opts = {k: bool(prune.get(k, True)) for k in PRUNINGS}
        opts.update(candidates_only=guesses == "candidates", threads=int(workers),
                    lookahead=int(lookahead))
        opts["memo_bytes"] = int(plan.memo_bytes)
        if on_the_fly:
            opts["table_bytes"] = int(plan.table_bytes)
        if memo_bytes is not None:
            opts["memo_bytes"] = int(memo_bytes)
        self.core.configure(opts)
        # The set searched and the guesses already played: the whole game, or ``root`` (a
        # :class:`cbsolve.search.position.Position`, the game from the entries of a log).
        self.all = np.arange(space.size, dtype=np.int64) if root is None else root.members
        self.empty = np.zeros(0, dtype=np.int64) if root is None else root.history
        self.phases: dict[str, float] = {}

    def replies(self, guess: int, members: np.ndarray) -> np.ndarray:
        """Reply indices of ``guess`` to the codes ``members`` (the matrix row, or scored)."""
        if self.matrix is not None:
            return self.matrix[guess, members]
        return score_matrix(self.variant, self.codes[[int(guess)]], self.codes[members])[0]

    def stop_reason(self) -> StopReason | None:
        """Why the kernel was stopped, as its control block says (None: it was not), or why
        its set-up was."""
        if self.setup_stopped is not None:
            return self.setup_stopped.reason
        why = StopReason(self.core.stop_reason())
        return None if why is StopReason.COMPLETE else why

    def run(self, method: str, d: int, deadline: Deadline | None = None, on_wait=None):
        """Call the native method in a worker thread (GIL released); the time limit and Ctrl-C
        set the kernel's stop flag (:func:`cbsolve.deadline.run_interruptible`), ``on_wait``
        (progress) is called every poll with ``(method, d, progress)``, ``progress`` the
        kernel's named counters (``nodes``, ``top_done``, ``top_total``, ``memo_entries``)."""
        t0 = time.perf_counter()
        poll = None if on_wait is None else (lambda: on_wait(method, d, self.core.progress()))
        try:
            return run_interruptible(lambda: getattr(self.core, method)(self.all, d, self.empty),
                                     self.core.request_stop, deadline=deadline, on_wait=poll)
        finally:
            key = f"{method}({d})"
            self.phases[key] = self.phases.get(key, 0.0) + time.perf_counter() - t0


def solve_worst(variant: Variant, *, guesses: str = "all", max_depth: int | None = None,
                time_limit: float | None = None, workers: int | None = None, progress=None,
                certificate: bool = True, prune: dict | None = None,
                lookahead: int = 0, ties: bool = False,
                ties_limit: float | None = None,
                memory_budget: str | int | None = None, position=None,
                replies: str = "auto", deadline: Deadline | None = None) -> SearchResult:
    """Fewest guesses that find every secret in the worst case, proved, with tree and certificate.

    ``max_depth`` caps the depths tried (the answer is then "no strategy within K" when the
    optimum is larger); ``deadline`` (the caller's budget; else one of ``time_limit`` seconds,
    None or 0: none) stops the search and reports the bounds proved so far;
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
    """
    run = _WorstRun(variant, guesses, max_depth, Deadline.given(deadline, time_limit or None),
                    workers, progress, prune, lookahead, memory_budget, position, replies)
    try:
        return run.solve(certificate, ties, ties_limit, lookahead)
    except KeyboardInterrupt:
        raise SearchInterrupted(_interrupted(run.result, run.native, run.notes, run.start)) from None


class _WorstRun:
    """One :func:`solve_worst` call as named steps: the bounds (counting, greedy), the
    decisions d = lower, lower+1, ..., the optimal tree with its certificate, the count at the
    worst depth (and the tie-breaks); ``finish`` fills the result once."""

    def __init__(self, variant: Variant, guesses: str, max_depth: int | None,
                 deadline: Deadline, workers: int | None, progress, prune: dict | None,
                 lookahead: int, memory_budget, position, replies: str = "auto") -> None:
        self.start = time.perf_counter()
        self.prune = dict(prune or {})
        if workers is None:
            import os
            workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
        n, budget, plan = _check(variant, guesses, self.prune, max_depth, memory_budget,
                                 max(1, workers), replies)
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
        greedy_tree = self.run("greedy", 0)
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
            answer = self.run("feasible", d)
            if answer < 0:
                notes.append(f"time limit reached while deciding whether {d} guesses suffice")
                self.report_greedy(greedy_tree, self.refuted.get(d - 1))
                self.finish(Status.FEASIBLE if greedy_tree is not None else Status.UNKNOWN, False)
                return None
            if answer == 1:
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
        root = self.run("tree", optimum)
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
                                                   "count" if ties == "count" else "both")
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


def _check(variant: Variant, guesses: str, prune: dict, max_depth: int | None,
           memory_budget, workers: int = 1,
           replies: str = "auto") -> tuple[int, int, memory.Plan]:
    """Validate the arguments; the number of codes, the memory budget (bytes) and the plan
    (where the replies come from)."""
    if guesses not in GUESS_MODES:
        raise unknown_name("guess set", guesses, GUESS_MODES)
    bad = sorted(set(prune) - set(PRUNINGS))
    if bad:
        raise unknown_name("pruning", bad[0], PRUNINGS)
    if variant.response_slots > 256:
        raise SpaceTooLarge(f"code length {variant.length} too large for the exact search "
                            "(replies must fit in a byte: at most 14)")
    if max_depth is not None and max_depth < 1:
        raise InvalidVariant(f"--max-depth must be >= 1, got {max_depth}")
    n = CodeSpace(variant).size
    budget = memory.budget(memory_budget)
    plan = memory.check(variant.describe(), n, "worst", budget, workers, replies)
    return n, budget, plan


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


def tie_weights(n: int, W: int) -> list[int]:
    """Per-depth weights whose sum orders W-guess strategies by (secrets at depth W, total).

    weight(k) = k + BIG * [k == W] with BIG = n*W + 1: a strategy with c secrets at depth W and
    total T (<= n*W < BIG) weighs c*BIG + T, so c decides and T breaks ties.
    """
    big = n * W + 1
    return [k + (big if k == W else 0) for k in range(1, W + 1)]


def count_weights(W: int) -> list[int]:
    """Per-depth weights counting only the secrets found with guess W: [0, ..., 0, 1]."""
    return [0] * (W - 1) + [1]


def _solve_ties(variant: Variant, result: SearchResult, W: int, guesses: str,
                deadline: Deadline, workers: int, lo: int, notes: list[str],
                mode="both"):
    """Replace ``result``'s tree by one with the fewest secrets at depth W, then the smallest
    total, proved by the weighted expected-case search (see the module docstring).

    Two phases sharing ``deadline``: (1) weights :func:`count_weights` prove the fewest
    secrets at depth W alone (every subtree that needs no W-th guess costs 0, so the search
    stops at the first such tree: much cheaper than phase 2 when the total is hard); (2) weights
    :func:`tie_weights` prove (count, total). Returns the proved interval (lower, upper) on the
    fewest secrets at depth W; the tree kept is the best found (always within W guesses) and
    ``result.tree["ties"]`` says what was proved.
    """
    from .expected import solve_expected

    n = result.secrets
    ties = {"at_worst": result.histogram[W], "total": result.total, "proved": False,
            "at_worst_proved": False, "total_lower": None}

    def adopt(found) -> None:
        # keep the better (count at W, total) tree; both are within W guesses
        if found.total is not None and (found.histogram.get(W, 0), found.total) < (
                result.histogram[W], result.total):
            _adopt_tree(variant, result, found, guesses)

    # Phase 1: the fewest secrets at depth W.
    count = solve_expected(variant, max_depth=W, guesses=guesses, weights=count_weights(W),
                           deadline=deadline, workers=workers, progress=False)
    result.phases["ties_count"] = round(count.seconds, 3)
    nodes = count.nodes
    adopt(count)
    if count.lower is not None:
        lo = max(lo, count.lower)
    at_proved = count.proved
    if at_proved:
        lo = count.lower
    # Phase 2: the smallest total among the strategies with that count.
    if at_proved and mode != "count" and not deadline.expired():
        weights = tie_weights(n, W)
        big = weights[-1] - W
        both = solve_expected(variant, max_depth=W, guesses=guesses, weights=weights,
                              deadline=deadline, workers=workers, progress=False)
        result.phases["ties_total"] = round(both.seconds, 3)
        nodes += both.nodes
        adopt(both)
        if both.lower is not None and both.lower // big == lo:
            ties["total_lower"] = both.lower - lo * big   # T >= this for count lo
        if both.proved:
            ties["proved"] = True
            ties["total_lower"] = result.total
    hi = result.histogram[W]
    ties.update(at_worst=hi, total=result.total, at_worst_proved=at_proved and lo == hi)
    result.tree["ties"] = ties
    if ties["proved"]:
        notes.append(f"proved tie-breaks: {hi} secrets need {W} guesses at fewest, and "
                     f"{result.total} guesses in total is the smallest with {hi}")
    elif at_proved:
        why = "not searched" if mode == "count" else "time limit"
        notes.append(f"proved: {hi} secrets need {W} guesses at fewest; the smallest total with "
                     f"{hi} is in [{ties['total_lower'] or '?'}, {result.total}] ({why})")
    else:
        notes.append("time limit reached while proving the tie-breaks")
    return lo, hi, nodes


def _adopt_tree(variant: Variant, result: SearchResult, found: SearchResult,
                guesses: str) -> None:
    from ..tree import make_tree

    cert = result.tree.get("certificate")
    doc = make_tree(variant, "optimal-worst", guesses, found.tree["root"], found.histogram,
                    objective="worst", proved=True)
    if cert is not None:
        doc["certificate"] = cert
    result.tree = doc
    _fill_stats(result, doc)


def _at_worst_lower(variant: Variant, native: _Native, W: int) -> int | None:
    """Proved lower bound on the secrets any W-guess strategy leaves for its W-th guess.

    One level deep: for every first guess up to symmetry, each reply class C that cannot be
    settled within W-2 more guesses puts at least max(1, |C| - cap(W-2)) secrets at depth W
    (cap(W-2) secrets at most finish earlier). The bound is the minimum over first guesses.
    """
    if W <= 1:
        return 1 if len(native.all) == 1 else None
    reps = native.core.representatives(native.empty)
    cap = capacity(native.n_responses, W - 2)
    best = None
    for g in reps:
        replies = native.replies(g, native.all)
        total = 0
        hist = np.array([g], dtype=np.int64)
        for r in np.unique(replies):
            if r == variant.win_response:
                continue
            members = native.all[replies == r]
            if W - 1 == 1:
                total += len(members)
                continue
            answer = native.core.feasible(members, W - 2, hist)
            if answer < 0:
                return None
            if answer == 0:
                total += max(1, len(members) - cap)
        best = total if best is None else min(best, total)
        if best == 0:
            break
    return best


def _depth(node: dict) -> int:
    best, stack = 0, [(node, 1)]
    while stack:
        nd, k = stack.pop()
        best = max(best, k)
        stack.extend((c, k + 1) for _, c in nd["children"])
    return best


def _fill_stats(result: SearchResult, tree_doc: dict) -> None:
    stats = tree_doc["stats"]
    result.worst, result.total = stats["worst"], stats["total"]
    result.histogram = {int(k): v for k, v in stats["histogram"].items()}


def _tree_doc(variant: Variant, native: _Native, root: dict, guesses: str,
              proved: bool = True) -> dict:
    """Native tree (code indices, reply indices) -> docs/tree-format.md document."""
    from ..tree import make_tree

    fmt, codes = native.space.format, native.codes
    hist: dict[int, int] = {}

    def convert(node: dict, members: np.ndarray, depth: int) -> dict:
        g = node["guess"]
        replies = native.replies(g, members)
        won = int(np.count_nonzero(replies == variant.win_response))
        if won:
            hist[depth] = hist.get(depth, 0) + won
        out = {"guess": fmt(codes[g]), "children": {}}
        for reply, child in node["children"]:
            out["children"][variant.format_response(reply)] = convert(
                child, members[replies == reply], depth + 1)
        return out

    root_doc = convert(root, native.all, 1)
    name = "optimal-worst" if proved else "greedy-minimax"
    return make_tree(variant, name, guesses, root_doc, hist, objective="worst", proved=proved)


def _certificate(variant: Variant, native: _Native, d: int, guesses: str, deadline: Deadline,
                 progress) -> dict | None:
    """Refutation tree proving that ``d`` guesses do not suffice (docs/optimal.md)."""
    raw = native.run("certificate", d, deadline, progress)
    if raw is None:
        return None
    fmt, codes = native.space.format, native.codes

    def convert(node: dict) -> dict:
        out: dict = {"left": node["left"]}
        refuted, same, mapped, perms, perm_ids = {}, {}, {}, [], {}
        for e in node["entries"]:
            g = fmt(codes[e["guess"]])
            if e["kind"] == 0:
                child = convert(e["child"])
                entry = {"reply": variant.format_response(e["reply"])}
                if child is not None:
                    entry["node"] = child
                refuted[g] = entry
            elif e["kind"] == 1:
                key = (tuple(e["pos_perm"]), tuple(e["sym_perm"]))
                if key not in perm_ids:
                    perm_ids[key] = len(perms)
                    perms.append([list(key[0]), list(key[1])])
                mapped[g] = [perm_ids[key], fmt(codes[e["other"]])]
            else:
                same[g] = fmt(codes[e["other"]])
        for key, value in (("refuted", refuted), ("same", same), ("mapped", mapped),
                           ("perms", perms)):
            if value:
                out[key] = value
        return out

    return {"format": CERT_FORMAT, "version": CERT_VERSION, "variant": variant.to_dict(),
            "guesses": guesses, "responses": native.n_responses,
            "claim": {"max_guesses": d, "solvable": False},
            "root": convert(raw)}
