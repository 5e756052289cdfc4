"""The public API: one call per question, the same answers and JSON documents as the CLI.

Place in the data flow: a face beside the CLI (``cli/``), over the package faces
(:mod:`cbsolve.consistency`, :mod:`cbsolve.strategy`, :mod:`cbsolve.search`,
:mod:`cbsolve.bounds`, :mod:`cbsolve.certificates.certify`, :mod:`cbsolve.analysis`); it decides nothing
itself. Every function takes a log as a :class:`~cbsolve.game.feedback.FeedbackLog` or as entry
tokens (``"0123:1,2"``, ``"0123:1A2B"``, ``"1122:2"``) with ``variant=`` (a :class:`Variant`
or a preset name; default Bulls & Cows 4/10). Every result is a dataclass whose ``to_json()``
is the document the matching ``cbsolve ... --json`` command prints (docs/contract.md).

Time: long calls take ``deadline=`` (a :class:`~cbsolve.runtime.deadline.Deadline`, made once by the
caller) or the convenience ``time_limit=`` seconds; ``None`` means no limit. A limit that stops
the work is reported in the result, never silent. Ctrl-C raises :class:`KeyboardInterrupt`
(the exact searches' :class:`~cbsolve.search.SearchInterrupted` carries what was proved).

>>> import cbsolve as cb
>>> cb.consistent(["0123:1,2", "4567:0,1"], count=True, limit=3).count
108
>>> cb.next_guess(["0123:1,2", "4567:0,1"]).guess
'0145'
>>> cb.optimal(["1122:1,1", "3344:0,1"], variant="mastermind").worst
3
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import arguments as _check
from . import bounds as _bounds_package  # light (no NumPy); made callable at the end
from .game.codes import CodeSpace
from .runtime.deadline import Deadline
from .errors import CbsolveError, InvalidFeedback, InvalidVariant, SpaceTooLarge
from .game.feedback import FeedbackLog
from .game.rule import Score, score as rule
from .game.variant import Variant
from .lazy import lazy_module, lazy_names

if TYPE_CHECKING:   # the results' modules load NumPy: each call imports what it returns
    from .advisor.answers import Move
    from .analysis import SweepResult
    from .api_results import Optimum, PartitionTable, Verification
    from .bounds import Bounds
    from .consistency import ConsistencyResult
    from .puzzles.puzzle import Puzzle
    from .advisor.review import Regret
    from .strategy import Evaluation
    from .strategy.partition import Partition

#: What the calls ask, loaded by the first call that reaches it: each loads its own engines
#: (most load NumPy), and a light call (``score``, ``bounds`` from the atlas) loads none of them.
_advisor = lazy_module("cbsolve.advisor")
_answers = lazy_module("cbsolve.advisor.answers")
_review = lazy_module("cbsolve.advisor.review")
_heuristic_cost = lazy_module("cbsolve.advisor.heuristic_cost")
_consistency = lazy_module("cbsolve.consistency")
_lies = lazy_module("cbsolve.consistency.lies")
_strategy = lazy_module("cbsolve.strategy")
_puzzles = lazy_module("cbsolve.puzzles.puzzle")
_from_atlas = lazy_module("cbsolve.bounds.from_atlas")
_atlas_file = lazy_module("cbsolve.bounds.atlas_file")
_certify = lazy_module("cbsolve.certificates.certify")
_formats = lazy_module("cbsolve.formats")
_results = lazy_module("cbsolve.api_results")
_analysis = lazy_module("cbsolve.analysis")
_engine = lazy_module("cbsolve.play.engine")

#: A log: a FeedbackLog, or entries read with the call's ``variant``: tokens (``"0123:1,2"``),
#: the JSON log form (``{"guess": "0123", "bulls": 1, "cows": 2}``, what ``puzzle`` gives) or
#: ``(guess, bulls, cows)`` tuples.
LogLike = FeedbackLog | Iterable[str | dict | tuple]
#: A variant: the value itself or a preset name (docs/contract.md, "Every command").
VariantLike = Variant | str


__all__ = ["LogLike", "Move", "Optimum", "PartitionTable", "Verification", "VariantLike",
           "as_log", "as_variant", "Score", "atlas", "bounds", "consistent", "diagnose", "evaluate",
           "make_deadline", "next_guess", "optimal", "partition", "partition_table", "puzzle",
           "regret", "score", "sweep", "verify"]


# --- inputs ---------------------------------------------------------------------------------
def as_variant(variant: VariantLike | None) -> Variant:
    """``variant`` as a :class:`Variant` (a preset name, or None for ``bulls-cows``).

    >>> as_variant("mastermind").symbols
    '123456'
    """
    if variant is None:
        return Variant.preset("bulls-cows")
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, str):
        return Variant.preset(variant)
    raise _check.InvalidArgument("variant", "a Variant, a preset name or None", variant)


def as_log(log: LogLike = (), variant: VariantLike | None = None) -> FeedbackLog:
    """``log`` as a :class:`FeedbackLog`; entries (see :data:`LogLike`) are read with
    ``variant`` and numbered from 1. A FeedbackLog given with a different ``variant`` is
    refused (InvalidVariant).

    >>> as_log(["0123:1,2", {"guess": "4567", "bulls": 0, "cows": 1}, ("8901", 0, 0)]).tokens()
    ['0123:1,2', '4567:0,1', '8901:0,0']
    """
    if isinstance(log, FeedbackLog):
        if variant is not None and as_variant(variant) != log.variant:
            raise InvalidVariant(f"the log is for {log.variant.describe()}, not "
                                 f"{as_variant(variant).describe()}")
        return log
    if isinstance(log, str):       # one token, not a sequence of characters
        log = [log]
    if isinstance(log, (bytes, dict)) or not isinstance(log, Iterable):
        raise _check.InvalidArgument("log", "a FeedbackLog or a sequence of entries", log)
    out = FeedbackLog(as_variant(variant))
    for entry in log:
        if isinstance(entry, str):
            out.extend_tokens([entry])
        elif isinstance(entry, dict):
            # FeedbackLog.add names a missing or bad value (None included)
            guess: Any = entry.get("guess")
            bulls: Any = entry.get("bulls")
            out.add(guess, bulls, entry.get("cows"))
        elif isinstance(entry, tuple) and len(entry) in (2, 3):
            out.add(*entry)
        else:
            raise InvalidFeedback(f"entry {len(out) + 1}: {entry!r} is not a token, a "
                                  "{guess, bulls, cows} mapping or a (guess, bulls, cows) tuple")
    return out


def make_deadline(deadline: Deadline | None = None, time_limit: float | None = None) -> Deadline:
    """The call's one deadline: ``deadline`` when given, else ``time_limit`` seconds from now
    (None: no limit). Giving both is an error: a call has one budget."""
    _check.deadline(deadline)
    _check.seconds(time_limit)
    if deadline is not None and time_limit is not None:
        raise CbsolveError("give deadline= or time_limit=, not both")
    return Deadline.given(deadline, time_limit)


# --- the questions ----------------------------------------------------------------------------
def score(secret: str, guess: str, *, variant: VariantLike | None = None) -> Score:
    """Score ``guess`` against ``secret`` (the rule of docs/contract.md; LeetCode 299's
    example below). Codes are read in either case where the alphabet allows it and given back
    as the alphabet spells them.

    >>> score("1807", "7810")
    Score(secret='1807', guess='7810', bulls=1, cows=3)
    >>> score("rrgg", "grgr", variant=Variant.from_options(symbols="RGBYOP", repeats=True))
    Score(secret='RRGG', guess='GRGR', bulls=2, cows=2)
    """
    v = as_variant(variant)
    space = CodeSpace(v)
    s = space.parse(_check.text(secret, "secret"))
    g = space.parse(_check.text(guess, "guess"))
    bulls, cows = rule(v, s, g)
    return Score(space.format(s), space.format(g), bulls, None if v.bulls_only else cows)


def consistent(log: LogLike = (), *, variant: VariantLike | None = None, count: bool = False,
               limit: int | None = 20, sample: int | None = None, seed: int | None = None,
               backend: str = "auto", max_lies: int = 0, count_cap: int | None = None,
               approximate: bool = False, deadline: Deadline | None = None,
               time_limit: float | None = None) -> ConsistencyResult:
    """The secrets consistent with ``log`` (``cbsolve consistent``): an exact ``count`` when
    asked, at most ``limit`` listed (None: all), or ``sample`` drawn with ``seed``. An
    inconsistent log is an answer: ``status`` infeasible, ``conflict`` and ``corrections``.

    >>> r = consistent(["1122:1,1"], variant="mastermind", count=True, limit=0)
    >>> (r.count, r.exact, str(r.status))
    (208, True, 'optimal')
    """

    _check.choice(backend, "backend", _consistency.BACKEND_CHOICES)
    count, approximate = _check.flag(count, "count"), _check.flag(approximate, "approximate")
    limit, sample = _check.count(limit, "limit"), _check.count(sample, "sample")
    count_cap, seed = _check.count(count_cap, "count_cap"), _check.seed(seed)
    max_lies = _check.whole(max_lies, "max_lies")
    budget = make_deadline(deadline, time_limit)
    the_log = as_log(log, variant)
    query = _consistency.Query(count=count, limit=limit, sample=sample, seed=seed, count_cap=count_cap,
                               approximate=approximate)
    if max_lies:
        result = _lies.consistent_with_lies(the_log, max_lies, query, backend=backend, deadline=budget)
        result.time_limit = budget.seconds
        return result
    return _consistency.consistent(the_log, query, backend=backend, deadline=budget)


def diagnose(log: LogLike = (), *, variant: VariantLike | None = None,
             backend: str = "auto", deadline: Deadline | None = None,
             time_limit: float | None = None) -> ConsistencyResult:
    """Is ``log`` consistent, and if not, which replies conflict and which change fixes it:
    the count query of ``cbsolve consistent --count --limit 0`` (``conflict``: a minimal set of
    entry numbers that cannot all hold; ``corrections``: every reply that alone could be wrong
    with each score that fits it, likeliest first, else the fewest replies to change at once).

    >>> d = diagnose(["0123:1,2", "4567:0,2"])
    >>> (d.consistent, d.conflict, sorted({c["entry"] for c in d.corrections}))
    (False, [1, 2], [1, 2])
    >>> first = d.corrections[0]      # the likeliest fix
    >>> first["entry"], first["to"], first["secrets"]
    (2, '0,1', 108)
    """
    return consistent(log, variant=variant, count=True, limit=0, backend=backend,
                      deadline=deadline, time_limit=time_limit)


def next_guess(log: LogLike = (), *, variant: VariantLike | None = None,
               strategy: str = "minimax", objective: str = "worst", guesses: str = "all",
               seed: int | None = None, deadline: Deadline | None = None,
               time_limit: float | None = None) -> Move:
    """The best next guess after ``log`` (``cbsolve next``), from the position service
    (:class:`cbsolve.advisor.PositionService`): a heuristic (``minimax``, ``expected``,
    ``entropy``, ``parts``, ``first``, ``random``) or ``optimal`` for ``objective`` (``worst``
    or ``expected``: the certified tree while the log follows it, else the exact search from
    the position within the deadline, else the heuristic aiming at it). ``provenance`` says
    where the answer came from, whether the objective is honoured and whether the deadline
    cut it. No limit by default (the CLI's is 10 s). An inconsistent log raises
    :class:`~cbsolve.errors.InconsistentLog`.

    >>> m = next_guess(["1122:1,1", "3344:0,1"], variant="mastermind", strategy="optimal")
    >>> (m.candidates, m.source, m.provenance.honoured)
    (52, 'exact', True)
    """
    seed = _check.seed(seed)
    budget = make_deadline(deadline, time_limit)
    the_log = as_log(log, variant)
    service = _advisor.PositionService(the_log.variant, _check.text(guesses, "guesses"), seed=seed)
    advice = service.advise(the_log, strategy=_check.text(strategy, "strategy"),
                            objective=_check.text(objective, "objective"), deadline=budget)
    return _answers.Move.of(advice)


def partition(guess: str, log: LogLike = (), *, variant: VariantLike | None = None,
              members: bool = True, deadline: Deadline | None = None,
              time_limit: float | None = None) -> Partition:
    """How ``guess`` splits the secrets ``log`` leaves (``cbsolve partition``), from the
    position service (:meth:`cbsolve.advisor.PositionService.partition`): the reply classes
    and the four heuristics' scores beside the best any guess reaches (over one guess per
    symmetry class). A deadline that cuts that comparison leaves ``best`` None and
    ``best_complete`` False. ``members``: keep each class's secrets, which
    ``to_json(members=True)`` lists (``--list``); False lets the opening answer from its
    closed form (counts only).

    >>> p = partition("0145", ["0123:1,2", "4567:0,1"])
    >>> (p.candidates, len(p.classes), p.largest)
    (108, 8, 26)
    """
    budget = make_deadline(deadline, time_limit)
    members = _check.flag(members, "members")
    the_log = as_log(log, variant)
    return _advisor.PositionService(the_log.variant).partition(
        the_log, _check.text(guess, "guess"), deadline=budget, members=members)


def partition_table(log: LogLike = (), *, variant: VariantLike | None = None,
                    sort: str = "minimax", deadline: Deadline | None = None,
                    time_limit: float | None = None) -> PartitionTable:
    """Every guess up to symmetry (of the log's guesses) with the four heuristics' scores over
    the secrets ``log`` leaves, best first by ``sort`` (``cbsolve partition --all``). Cut by the
    deadline or Ctrl-C, the guesses scored so far, ranked, at most the best
    :data:`~cbsolve.strategy.partition.SHOWN_WHEN_CUT` of them (``stopped`` says why). An
    inconsistent log raises :class:`~cbsolve.errors.InconsistentLog`.

    >>> t = partition_table(["0123:1,2", "4567:0,1"])
    >>> best = t.guesses[0]
    >>> (t.candidates, t.complete, t.scored, best["guess"], best["minimax"])
    (108, True, 180, '0145', 26)
    """
    budget = make_deadline(deadline, time_limit)
    the_log = as_log(log, variant)
    return _advisor.PositionService(the_log.variant).partition_table(
        the_log, _check.text(sort, "sort"), deadline=budget)


def evaluate(strategy: str = "minimax", *, variant: VariantLike | None = None,
             first: str | None = None, guesses: str = "all", seed: int | None = None,
             sample: int | None = None, progress: Callable[[int, int], None] | None = None,
             deadline: Deadline | None = None, time_limit: float | None = None,
             keep_tree: bool = True, symmetry: bool | str = "auto") -> Evaluation:
    """Play ``strategy`` against every secret as one shared decision tree (``cbsolve
    evaluate``), exactly, or on ``sample`` random secrets (an estimate, labelled).
    ``progress(done, total)`` hears the secrets settled. A deadline that stops an exhaustive
    evaluation raises :class:`cbsolve.strategy.Unfinished` (no bound can be read off a partial
    tree); one that stops a sample gives the estimate of the secrets played, labelled.
    ``symmetry``: score one guess per symmetry class at the top of the tree (the same result;
    ``"auto"``: from 20,000 codes).

    >>> evaluate("minimax", variant="mastermind").total   # Knuth 1977
    5801
    """

    budget = make_deadline(deadline, time_limit)
    if not (symmetry == "auto" or isinstance(symmetry, bool)):
        raise _check.InvalidArgument("symmetry", 'True, False or "auto"', symmetry)
    return _strategy.evaluate(as_variant(variant), _check.text(strategy, "strategy"),
                              first=_check.optional_text(first, "first"),
                              guesses=_check.text(guesses, "guesses"), seed=_check.seed(seed),
                              progress=_check.callback(progress, "progress"),
                              sample=_check.positive(sample, "sample"), deadline=budget,
                              keep_tree=_check.flag(keep_tree, "keep_tree"), symmetry=symmetry)


def optimal(log: LogLike = (), *, variant: VariantLike | None = None, objective: str = "worst",
            guesses: str = "all", max_depth: int | None = None, certificate: bool = True,
            ties: bool = False, lookahead: int = 0, workers: int | None = None,
            progress: Callable[..., None] | bool | None = None,
            memory_budget: str | int | None = None, replies: str = "auto",
            checkpoint: Any = None, scheduler: str | None = None,
            trace: str | Path | None = None, out: str | Path | None = None,
            dot: str | Path | None = None, dot_depth: int | None = None,
            deadline: Deadline | None = None, time_limit: float | None = None) -> Optimum:
    """The proved optimum (``objective`` ``worst`` or ``expected``) of the whole game, or of
    the game from the position ``log`` leaves (guesses counted from there), with its tree and,
    for the worst case, a lower-bound certificate (``cbsolve optimal``). A limit leaves
    ``proved`` False and the interval ``lower``/``upper``, never worse than the proved ends
    known before the search of the whole game (:mod:`cbsolve.bounds.known`: the fast ends, the
    two-level bounds, the objective's own heuristic, the shipped trees; ``upper_from`` says
    what proves ``upper``); ends that meet are the value, proved.

    ``progress`` (a callable) is called ``(phase, depth, counters, lower, upper)`` while the
    search runs, the interval merged with the known one: with a time limit on the whole game,
    ``("bounds", 0, message, None, None)`` while ``bounds``' work runs before the search
    (``message`` as ``bounds`` prints it); then, when an interval is known
    before the search, ``("known", 0, known, lower, upper)`` with the
    :class:`~cbsolve.bounds.known.Known` (what proves each end); then the worst-case search's
    phases (``counters``: the kernel's ``nodes``, ``memo_entries``, ``top_done``,
    ``top_total``) or the expected-case search's polls (phase ``greedy`` or ``first``;
    ``counters`` as :class:`cbsolve.search.expected.progress.Counters`). ``True`` shows the
    expected-case search's own bar on stderr.
    ``lookahead=K``: the worst-case tree's guesses minimise what they leave for the last
    guess; ``ties``: also prove the worst objective's tie-breaks (whole game).
    ``checkpoint`` (whole game, in one process or on Dask): a directory, or an opened
    :class:`cbsolve.search.checkpoint.Checkpoint`, the search records what it proves into
    (every minute and on every stop) and resumes from when it holds this search's.
    ``scheduler`` (``tcp://host:8786`` or ``local``): split the search over a Dask cluster
    (``workers``: the processes of a local one); ``trace``: write its task trace there.
    ``out``: write the tree (else the certificate of a refuted depth) there; ``dot``: draw the
    tree as Graphviz DOT (its first ``dot_depth`` levels); the result names both files.
    An inconsistent log raises :class:`~cbsolve.errors.InconsistentLog`; Ctrl-C raises
    :class:`~cbsolve.search.SearchInterrupted` whose ``result`` is the :class:`Optimum`
    proved so far.

    >>> o = optimal(variant=Variant(2, "0123", repeats=True), objective="expected")
    >>> (o.proved, o.total, o.worst)
    (True, 45, 4)
    """
    budget = make_deadline(deadline, time_limit)
    max_depth, dot_depth = _check.positive(max_depth, "max_depth"), _check.count(dot_depth, "dot_depth")
    lookahead, workers = _check.whole(lookahead, "lookahead"), _check.workers(workers)
    certificate, ties = _check.flag(certificate, "certificate"), _check.flag(ties, "ties")
    if not isinstance(progress, bool):
        _check.callback(progress, "progress")
    if memory_budget is not None and not isinstance(memory_budget, str):
        _check.whole(memory_budget, "memory_budget", 1, 2**62)
    trace, out, dot = _check.path(trace, "trace"), _check.path(out, "out"), _check.path(dot, "dot")
    the_log = as_log(log, variant)
    return _advisor.PositionService(the_log.variant, _check.text(guesses, "guesses")).optimum(
        the_log, _check.text(objective, "objective"), budget, max_depth=max_depth,
        certificate=certificate, ties=ties, lookahead=lookahead, workers=workers,
        progress=progress, memory_budget=memory_budget, replies=_check.text(replies, "replies"),
        checkpoint=checkpoint, scheduler=_check.optional_text(scheduler, "scheduler"),
        trace=trace, out=out, dot=dot, dot_depth=dot_depth)


def regret(guess: str, log: LogLike = (), *, variant: VariantLike | None = None,
           objective: str = "expected", deadline: Deadline | None = None,
           time_limit: float | None = None) -> Regret:
    """What playing ``guess`` after ``log`` costs against the best guess there: the position
    service's review (:meth:`cbsolve.advisor.PositionService.review`, :mod:`cbsolve.advisor.review`;
    the service of the last game asked about is kept, with its caches): exact from positions
    of at most 500 secrets, else the heuristic estimate, ``exact`` False, ``known`` and
    ``method`` saying so; a space too large for the estimate raises SpaceTooLarge. Cost: the first call
    at a position solves it exactly (milliseconds on 100 candidates of Bulls & Cows 4/10);
    later guesses there cost the exact solves of their reply classes the core has not seen
    (``expected``: 0.1-0.6 ms; ``worst``, the worst-case kernel's decisions: 0.1-0.4 ms, more
    where a class needs a guess more than the position), tens of microseconds when it has
    (the same guess again).

    >>> r = regret("1122", ["1234:0,2"], variant="mastermind")
    >>> (r.exact, r.regret >= 0, regret(r.best_guess, ["1234:0,2"], variant="mastermind").regret)
    (True, True, 0)
    """

    the_log = as_log(log, variant)
    found = _reviewing(the_log.variant).review(the_log, _check.text(guess, "guess"),
                                               _check.text(objective, "objective"),
                                               make_deadline(deadline, time_limit))
    if found.known == _review.BOUNDS:       # no figure to give, as before the review had bounds
        raise SpaceTooLarge("a guess's cost is estimated on games of at most "
                            f"{_heuristic_cost.LIMIT} codes; {the_log.variant.describe()} is larger")
    return found


@functools.lru_cache(maxsize=1)
def _reviewing(variant):
    """The position service ``regret`` asks, one game at a time: a caller scores many guesses
    at one position, and the service keeps that position's exact cores."""
    return _advisor.PositionService(variant)


def puzzle(variant: VariantLike | None = None, *, seed: int | None = None,
           difficulty: str = "medium", clues: int | None = None, distractors: int = 0,
           deadline: Deadline | None = None, time_limit: float | None = None,
           kind: str = "find") -> Puzzle:
    """A seeded log with exactly one consistent secret (``cbsolve puzzle``), verified over
    every code; every clue needed. ``difficulty`` easy/medium/hard is a band of the measured
    ``difficulty_measure`` (the candidates a fixed reference solver carries; drawn until it
    fits); ``clues=K`` exactly K clues; ``distractors=K`` wrong answers one symbol away from
    the secret (:mod:`cbsolve.puzzles.puzzle`); ``kind`` count, wrong-reply or best-guess turns
    it into another question with its ``answer`` (:mod:`cbsolve.puzzles.kinds`). A
    deadline stops the draws (CbsolveError).

    >>> p = puzzle("mastermind", seed=11, distractors=2)
    >>> consistent(p.tokens(), variant="mastermind", limit=None).secrets == [p.secret]
    True
    """

    budget = make_deadline(deadline, time_limit)
    return _puzzles.make_puzzle(as_variant(variant), seed=_check.seed(seed),
                                difficulty=_check.text(difficulty, "difficulty"),
                                clues=_check.positive(clues, "clues"),
                                distractors=_check.whole(distractors, "distractors"), deadline=budget,
                                kind=_check.text(kind, "kind"))


def bounds(variant: VariantLike | None = None, *, search: bool = True, strategies: bool = True,
           deep: bool = True, progress: Callable[[str], None] | None = None,
           deadline: Deadline | None = None, time_limit: float | None = None,
           recompute: bool = False, improve: bool = False) -> Bounds:
    """Proved lower and upper bounds on the worst case and the total for any N and D
    (``cbsolve bounds``), each end naming its method and provenance. A game of the atlas
    (:func:`atlas`) is answered from it at once (``source`` "atlas"); ``improve`` (the CLI's
    explicit ``--time-limit``) computes within the deadline to better an open cell;
    ``recompute``, or leaving out part of the work (``search``, ``strategies`` or ``deep``
    False: a computation was asked for), ignores the atlas. Unlike the CLI (30 s by default), no limit is the default
    here: a library caller states its budget (``time_limit=30``); without one, the optional
    work (strategies, exact search) runs to its end.

    >>> b = bounds(Variant(40, "ABCDEFGHIJKLMNOPQRSTUVWXYZ", repeats=True))
    >>> (b.worst.lower, b.worst.upper, b.source)
    (21, 150, 'computed')
    >>> bounds("mastermind").worst.exact, bounds("mastermind").source
    (5, 'atlas')
    """

    the_variant = as_variant(variant)

    def compute() -> Bounds:
        return _advisor.PositionService(the_variant).bounds(
            budget, search=search, strategies=strategies, deep=deep, progress=progress)

    budget = make_deadline(deadline, time_limit)
    search = _check.flag(search, "search")
    strategies = _check.flag(strategies, "strategies")
    deep = _check.flag(deep, "deep")
    progress = _check.callback(progress, "progress")
    whole = search and strategies and deep
    recompute = _check.flag(recompute, "recompute") or not whole
    return _from_atlas.bounds_for(the_variant, compute, recompute=recompute,
                                  improve=_check.flag(improve, "improve"))


def atlas(**filters: Any) -> list[dict]:
    """The atlas's records (``cbsolve bounds --table --json``): ``{id, variant, length,
    symbols, repeats, no_leading_zero, feedback, secrets, responses, status, worst, expected}``,
    filtered by equal fields (``n_symbols=`` compares the alphabet's size). A damaged atlas
    raises :class:`cbsolve.bounds.atlas_file.DamagedAtlas`.

    >>> (row,) = atlas(length=4, n_symbols=6, feedback="bulls-cows", repeats=True)
    >>> row.get("id"), row.get("worst").get("exact")
    ('mastermind-4x6', 5)
    """

    return _atlas_file.matching(filters)


def verify(file: str | Path, *, variant: VariantLike | None = None, format: str | None = None,
           file_symbols: str | None = None, deadline: Deadline | None = None,
           time_limit: float | None = None) -> Verification:
    """Check a strategy tree or lower-bound certificate with the scorer alone (``cbsolve
    verify``): replay every secret, check every claim. ``format``: one of docs/tree-format.md
    (default: from the name); ``variant``: the game the file must be for (a cbsolve file) or
    is for (the other formats). The result keeps the tree as read in ``document``. A
    certificate check still running at ``deadline`` (or after ``time_limit`` seconds) raises
    :class:`cbsolve.certificates.certify.OutOfTime`; a file that is no tree, or whose space is too large to
    replay, is bad input naming it.

    >>> import tempfile, os
    >>> from cbsolve.certificates.tree import write_tree
    >>> tree = optimal(variant=Variant(2, "0123", repeats=True)).tree
    >>> path = os.path.join(tempfile.mkdtemp(), "tree.json"); write_tree(tree, path)
    >>> r = verify(path); (r.valid, r.worst, r.optimal)
    (True, 4, True)
    """

    _check.deadline(deadline)
    if time_limit is not None:      # None: no deadline at all (Ctrl-C stays KeyboardInterrupt)
        deadline = make_deadline(deadline, time_limit)
    expect = None if variant is None else as_variant(variant)
    name = str(_check.path(file, "file", optional=False))
    file_symbols = _check.optional_text(file_symbols, "file_symbols")
    format = _check.optional_text(format, "format")
    fmt = _formats.check_format(format if format is not None else _formats.format_of(name))
    try:
        doc = _formats.read_document(name, fmt, expect, file_symbols)
        # a cbsolve file names its variant: ``variant`` states the game it must be for
        report = _certify.verify(doc, expect if fmt == "cbsolve" else None, deadline=deadline)
    except _certify.NotATree as exc:
        raise _certify.NotATree(f"{name}: {exc}") from None
    except SpaceTooLarge as exc:
        raise SpaceTooLarge(f"{name}: cannot be verified here: replaying every secret needs "
                            f"their list, and {exc}") from None
    verification: Verification = _results.extend(report, _results.Verification, format=fmt,
                                                 document=doc)
    return verification


def sweep(out: str | Path, *, families: Iterable[VariantLike] | None = None,
          lengths: Iterable[int] | None = None, alphabets: Iterable[int] | None = None,
          strategies: Iterable[str] | None = None, include_bounds: bool = True, seed: int = 0,
          workers: int | None = None, scheduler: str | None = None,
          progress: Callable[[int, int], None] | None = None, plots: bool = True,
          deadline: Deadline | None = None, time_limit: float | None = None) -> SweepResult:
    """Sweep variants x strategies (and bounds) into ``out``/results.csv, results.md and plots
    (``cbsolve analyze``; None: its defaults), on a local pool of ``workers`` processes (0:
    this process) or a Dask scheduler (``tcp://host:8786``). Cells already in ``out`` are
    kept: a stopped sweep resumes. ``progress(done, total)`` hears the cells as they finish.
    At the deadline (or Ctrl-C) the running cells are ended and not kept; the result says so
    (``time_limit_hit``, ``interrupted``) and is written from the cells finished."""

    budget = make_deadline(deadline, time_limit)
    out = _check.path(out, "out", optional=False)
    workers, seed = _check.workers(workers, low=0), _check.whole(seed, "seed", 0, _check.MAX_SEED)
    include_bounds, plots = _check.flag(include_bounds, "include_bounds"), _check.flag(plots, "plots")
    progress = _check.callback(progress, "progress")
    names = tuple(_check.items(strategies, "strategies", _analysis.DEFAULT_STRATEGIES,
                               lambda name: _check.choice(name, "strategy", _engine.strategy_names())))
    fams = _check.items(families, "families", _analysis.DEFAULT_FAMILIES, as_variant)
    fams = [f if isinstance(f, str) else as_variant(f) for f in fams]
    ns = _check.items(lengths, "lengths", _analysis.DEFAULT_LENGTHS,
                      lambda n: _check.whole(n, "lengths", 1, 64))
    ds = _check.items(alphabets, "alphabets", _analysis.DEFAULT_ALPHABETS,
                      lambda d: _check.whole(d, "alphabets", 1, 62))
    cells = _analysis.make_cells(fams, ns, ds, names, bounds=include_bounds, seed=seed)
    return _analysis.run_sweep(cells, out, workers, scheduler, progress, plots, deadline=budget)


class _CallableBounds(type(_bounds_package)):   # type: ignore[misc]
    """``cbsolve.bounds(variant, ...)`` is :func:`bounds`: the function and the subpackage
    :mod:`cbsolve.bounds` share the name, and importing the subpackage binds the module on
    ``cbsolve``, so the subpackage answers the call (``cbsolve.bounds.compute_bounds`` stays)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Bounds:
        return bounds(*args, **kwargs)


_bounds_package.__class__ = _CallableBounds


#: The results that add the CLI document's fields (:mod:`cbsolve.api_results`), loaded on
#: first use: they subclass the package faces' results, which load NumPy; ``Move``, the
#: advice's, loads none (:mod:`cbsolve.advisor.answers`).
__getattr__ = lazy_names(__name__, {"Move": "cbsolve.advisor.answers",
                                    "Optimum": "cbsolve.api_results",
                                    "PartitionTable": "cbsolve.api_results",
                                    "Verification": "cbsolve.api_results"}, globals())[0]
