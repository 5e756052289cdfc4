"""Evaluation: play a strategy against every secret as one shared decision tree.

Place in the data flow: builds on :mod:`cbsolve.strategy.heuristics` (the guess at a node) and
produces a strategy tree (:mod:`cbsolve.certificates.tree`, docs/tree-format.md) plus its statistics. The
tree is built once, node by node: at a node the strategy picks a guess for the candidates that
reach it, the candidates are split by reply, and each reply class becomes a child. Every secret
is therefore played by the same tree, never game by game.

Where the space is too large to evaluate exhaustively, :func:`estimate` plays ``k`` secrets
drawn uniformly at random (with replacement) through the same lazily built tree and reports
the mean with a normal-approximation 95% confidence interval, labelled as an estimate.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..game.codes import CodeSpace
from ..runtime.deadline import Deadline, stop_requested, stopped_by
from ..errors import Expired, InvalidVariant, SpaceTooLarge
from ..runtime.status import StopReason
from ..certificates.tree import make_tree, stats_of
from ..game.variant import Variant
from .heuristics import Chooser, DeadlineExpired, check_guesses, check_strategy, require_enumerable

#: Largest space evaluated exhaustively (the tree has one node a secret; the scored heuristics
#: compute replies on the fly, so memory stays O(n)). Beyond it, use ``--sample K``.
EXHAUSTIVE_LIMIT = 1_000_000


@dataclass
class Evaluation:
    """Result of playing a strategy against all secrets (or a sample of them)."""

    strategy: str
    first: str | None
    secrets: int
    worst: int | None
    total: int | None
    average: float
    histogram: dict[int, int]
    tree: dict | None = None
    guesses: str = "all"
    seconds: float = 0.0
    estimate: bool = False
    sample: int | None = None
    seed: int | None = None
    ci95: tuple[float, float] | None = None
    variant: Variant | None = None
    notes: list[str] = field(default_factory=list)
    requested: int | None = None    # a sample cut short by a stop: the size asked for
    time_limit_hit: bool = False    # that stop was the deadline (else Ctrl-C)

    def to_json(self) -> dict:
        data: dict[str, Any] = {"strategy": self.strategy, "first": self.first, "secrets": self.secrets,
                "worst": self.worst, "total": self.total, "average": self.average,
                "histogram": {str(k): v for k, v in sorted(self.histogram.items())},
                "guesses": self.guesses, "exact": not self.estimate,
                "seconds": round(self.seconds, 6)}
        if self.variant is not None:
            data["variant"] = self.variant.to_dict()
        if self.estimate:
            data.update({"estimate": True, "sample": self.sample, "seed": self.seed,
                         "ci95": list(self.ci95) if self.ci95 else None,
                         "worst_observed": self.worst})
            if self.requested is not None:
                data.update(complete=False, sample_requested=self.requested,
                            time_limit_hit=self.time_limit_hit)
        if self.notes:
            data["notes"] = self.notes
        return data


def _effective_guesses(strategy: str, guesses: str) -> str:
    # first/random always play a consistent code, whatever guess set was asked for.
    return "candidates" if strategy in ("first", "random") else guesses


def _opening(space: CodeSpace, first: str | None) -> int | None:
    return None if first is None else space.index_of(space.parse(first))


class Unfinished(Expired):
    """The deadline expired before every secret was settled (no bound can be read off)."""

    def __init__(self, strategy: str, settled: int, secrets: int,
                 deadline: Deadline | None = None):
        reason = stopped_by()
        super().__init__(f"strategy {strategy} settled {settled} of {secrets} secrets, stopped "
                         f"{reason.at()}", reason)
        self.strategy, self.settled, self.secrets = strategy, settled, secrets
        self.deadline = deadline

    @property
    def interrupted(self) -> bool:
        """Ctrl-C stopped it, not the time limit."""
        return self.reason is StopReason.INTERRUPTED

    def to_json(self) -> dict:
        """The document of ``cbsolve evaluate --json`` cut short (docs/contract.md)."""
        return {"strategy": self.strategy, "complete": False, "settled": self.settled,
                "secrets": self.secrets,
                "time_limit": None if self.deadline is None else self.deadline.seconds,
                "time_limit_hit": not self.interrupted}


def _exact_is_cheaper(variant: Variant, sample) -> bool:
    """A sample of at least every secret costs more than playing each once (1,296 secrets,
    --sample 100000: 9.6 s against 0.05 s exactly) and says less: evaluate exactly then."""
    if isinstance(sample, bool) or not isinstance(sample, int) or sample < 1:
        return False                     # estimate() names the bad value
    return CodeSpace(variant).size <= min(sample, EXHAUSTIVE_LIMIT)


def evaluate(variant: Variant, strategy: str, first: str | None = None, guesses: str = "all",
             seed=None, progress=None, *, sample: int | None = None,
             symmetry="auto", deadline: Deadline | None = None,
             keep_tree: bool = True) -> Evaluation:
    """Play ``strategy`` against every secret of ``variant`` as one shared decision tree.

    ``first`` fixes the opening guess; ``guesses`` is ``"all"`` or ``"candidates"``; ``seed``
    seeds ``random``; ``progress(done, total)`` is called as secrets are settled. With
    ``sample=K`` only K random secrets are played (see :func:`estimate`). ``symmetry``: see
    :class:`~cbsolve.strategy.heuristics.Chooser` (the tree is the same either way).
    ``deadline`` (a :class:`cbsolve.runtime.deadline.Deadline`) stops the construction between nodes
    with :class:`Unfinished` (None: no limit); ``keep_tree=False`` keeps only the statistics (``tree`` is None), which saves the memory of
    one dict a secret when only the numbers are wanted.
    """
    check_strategy(strategy)
    check_guesses(guesses)
    if sample is not None and not _exact_is_cheaper(variant, sample):
        return estimate(variant, strategy, sample, first=first, guesses=guesses, seed=seed,
                        progress=progress, symmetry=symmetry, deadline=deadline)
    start = time.perf_counter()
    space = CodeSpace(variant)
    if space.size > EXHAUSTIVE_LIMIT:
        require_enumerable(variant, "evaluation (exhaustive or sampled)")
        raise SpaceTooLarge(f"{variant.describe()} has {space.size} secrets; exhaustive "
                            f"evaluation is limited to {EXHAUSTIVE_LIMIT} (use --sample K)")
    opening = _opening(space, first)
    chooser = Chooser(variant, strategy, guesses, seed=seed, symmetry=symmetry, deadline=deadline)
    builder = _TreeBuilder(chooser, opening, progress, deadline, keep_tree)
    try:
        root = builder.build()
    except DeadlineExpired:
        raise Unfinished(strategy, builder.done, space.size, deadline) from None
    hist = builder.histogram
    used = _effective_guesses(strategy, guesses)
    tree = make_tree(variant, strategy, used, root, hist) if keep_tree else None
    stats = stats_of(hist)
    notes = [] if sample is None else [
        f"--sample {sample} would play at least as many games as the {space.size} secrets: "
        "evaluated every secret exactly instead"]
    return Evaluation(strategy=strategy, first=root["guess"], secrets=stats["secrets"], notes=notes,
                      worst=stats["worst"], total=stats["total"],
                      average=stats["total"] / stats["secrets"],
                      histogram=dict(sorted(hist.items())), tree=tree, guesses=used,
                      seconds=time.perf_counter() - start,
                      seed=seed if strategy == "random" else None, variant=variant)


class _TreeBuilder:
    """Depth-first construction of the shared tree (explicit stack: no recursion limit)."""

    def __init__(self, chooser: Chooser, opening: int | None, progress, deadline=None,
                 keep: bool = True):
        self.chooser = chooser
        self.opening = opening
        self.progress = progress
        self.deadline = deadline
        self.keep = keep  # False: nodes are not linked into the tree (statistics only)
        self.histogram: dict[int, int] = {}
        self.done = 0

    def build(self) -> dict:
        ch = self.chooser
        codes = ch.codes
        variant = ch.variant
        win = variant.win_response
        labels = [variant.format_response(r) for r in range(variant.response_slots)]
        names = _CodeNames(ch.space, codes)   # formatted when played, not all up front
        total = codes.shape[0]
        # Nodes of one or two candidates are finished inline (the lowest candidate is the
        # choice of every deterministic strategy there); ``random`` still draws at them.
        inline = ch.strategy != "random"
        root: dict = {}
        # stack entries: (node dict to fill, candidates, history of code indices)
        stack: list[tuple[dict, np.ndarray, tuple[int, ...]]] = [
            (root, np.arange(total, dtype=np.int64), ())]
        hist = self.histogram
        deadline = self.deadline
        keep = self.keep
        while stack:
            if deadline is not None and deadline.expired():
                raise Unfinished(ch.strategy, self.done, total, deadline)
            node, cands, history = stack.pop()
            depth = len(history) + 1
            if not history and self.opening is not None:
                g = self.opening
            else:
                g = ch.choose(cands, history)
            node["guess"] = names[g]
            children: dict = {}
            node["children"] = children
            if cands.size == 1 and cands[0] == g:
                hist[depth] = hist.get(depth, 0) + 1
                self._settled(1, total)
                continue
            resp = ch.responses(g, cands)
            order = np.argsort(resp, kind="stable")  # stable: classes stay sorted by code
            rs = resp[order]
            cuts = (np.flatnonzero(rs[1:] != rs[:-1]) + 1).tolist()
            pending: list[tuple[dict, np.ndarray, tuple[int, ...]]] = []
            history2 = (*history, g)
            settled = 0
            for a, b in zip([0, *cuts], [*cuts, rs.size], strict=True):
                r = int(rs[a])
                if r == win:
                    hist[depth] = hist.get(depth, 0) + 1
                    settled += 1
                    continue
                if inline and b - a <= 2:
                    first = int(cands[order[a]])
                    child: dict[str, Any] = {"guess": names[first], "children": {}}
                    hist[depth + 1] = hist.get(depth + 1, 0) + 1
                    settled += b - a
                    if b - a == 2:
                        second = int(cands[order[a + 1]])
                        r2 = int(ch.responses(first, cands[order[a + 1:b]])[0])
                        child["children"][labels[r2]] = {"guess": names[second], "children": {}}
                        hist[depth + 2] = hist.get(depth + 2, 0) + 1
                    if keep:
                        children[labels[r]] = child
                    continue
                child = {}
                if keep:
                    children[labels[r]] = child
                pending.append((child, cands[order[a:b]], history2))
            if settled:
                self._settled(settled, total)
            stack.extend(reversed(pending))  # visit replies in increasing order
        return root

    def _settled(self, n: int, total: int) -> None:
        self.done += n
        if self.progress is not None:
            self.progress(self.done, total)


def estimate(variant: Variant, strategy: str, k: int, first: str | None = None,
             guesses: str = "all", seed=None, progress=None, symmetry="auto",
             deadline=None) -> Evaluation:
    """Mean guess count over ``k`` secrets drawn uniformly with replacement (seeded).

    The secrets share one lazily built tree (a node's guess is chosen once, the first time a
    secret reaches it), so the estimate is of the same strategy :func:`evaluate` plays.
    The interval is mean +- 1.96 s / sqrt(k) (normal approximation). ``deadline`` (or Ctrl-C's
    stop request) ends the sample early: the estimate is then of the secrets played, and says
    so (``requested``); :class:`Unfinished` if none was.
    """
    check_strategy(strategy)
    check_guesses(guesses)
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InvalidVariant(f"--sample must be a positive integer, got {k!r}")
    start = time.perf_counter()
    space = require_enumerable(variant, "sampled evaluation")
    codes = space.codes
    rng = np.random.default_rng(seed)
    opening = _opening(space, first)
    chooser = Chooser(variant, strategy, guesses, seed=rng, use_matrix=False, symmetry=symmetry,
                      deadline=deadline)
    memo: dict[tuple[int, ...], int] = {}
    counts = []
    secrets = rng.integers(0, codes.shape[0], size=k)
    all_idx = np.arange(codes.shape[0], dtype=np.int64)
    win = variant.win_response
    try:
        for n, s in enumerate(secrets.tolist(), 1):
            if deadline is not None and deadline.expired():
                raise DeadlineExpired
            counts.append(_play_one(chooser, memo, opening, all_idx, s, win))
            if progress is not None:
                progress(n, k)
    except DeadlineExpired:
        if not counts:
            raise Unfinished(strategy, 0, k, deadline) from None
    played = len(counts)
    arr = np.array(counts, dtype=np.float64)
    mean = float(arr.mean())
    half = 1.96 * float(arr.std(ddof=1)) / math.sqrt(played) if played > 1 else None
    hist: dict[int, int] = {}
    for c in counts:
        hist[c] = hist.get(c, 0) + 1
    notes = [f"estimate from {played} secrets drawn uniformly with replacement; "
             "worst is the largest observed count (a lower bound)"]
    if played < k:
        notes.append(f"stopped after {played} of the {k} secrets asked for")
    return Evaluation(strategy=strategy, first=space.format(codes[memo[()]]), secrets=space.size,
                      worst=max(counts), total=None, average=mean, histogram=dict(sorted(hist.items())),
                      tree=None, guesses=_effective_guesses(strategy, guesses),
                      seconds=time.perf_counter() - start, estimate=True, sample=played, seed=seed,
                      ci95=None if half is None else (mean - half, mean + half), variant=variant,
                      notes=notes, requested=k if played < k else None,
                      time_limit_hit=played < k and not stop_requested())


def _play_one(chooser: Chooser, memo: dict, opening, all_idx: np.ndarray, s: int,
              win: int) -> int:
    """The guesses the strategy needs for secret ``s``, growing the shared lazy tree ``memo``
    (reply path -> guess)."""
    cands = all_idx
    history: tuple[int, ...] = ()
    path: tuple[int, ...] = ()
    while True:
        g = memo.get(path)
        if g is None:
            g = opening if (not history and opening is not None) else chooser.choose(cands, history)
            memo[path] = g
        resp = chooser.responses(g, cands)
        r = int(resp[np.searchsorted(cands, s)])
        history, path = (*history, g), (*path, r)
        if r == win:
            return len(history)
        cands = cands[resp == r]


class _CodeNames(dict):
    """``names[i]``: code ``i`` as text (:meth:`cbsolve.game.codes.CodeSpace.format`), formatted the
    first time a tree names it (listing all 531,441 codes of Mastermind 12x3 up front took 3 s
    before the deadline was first seen)."""

    def __init__(self, space, codes: np.ndarray):
        super().__init__()
        self._space, self._codes = space, codes

    def __missing__(self, i) -> str:
        name = self[i] = self._space.format(self._codes[i])
        return name

