"""Every share of a time budget, and why: the one place to change how the time is split.

A command makes one :class:`~cbsolve.runtime.deadline.Deadline` at its edge; the layers below take a
part of what is left (``deadline.part``, ``capped``, ``share``, ``reserving``). The parts are
here, each with the measurement or the reason that set it (the figures: docs/benchmarks.md under
the heading each cites). "No limit" is spelled ``None`` everywhere in Python
(``Deadline.from_limit(None)``, a ``time_limit=None``); only the native kernels' arguments
spell it otherwise (``-1`` for the depth-first and local-search kernels: :func:`kernel_seconds`;
``0`` for the exact searches' ``set_deadline``: :func:`search_seconds`), and the CLI's
``--time-limit 0``, turned into ``None`` at the edge. Where a step must end even with no
limit (a model counter can run for hours), its *untimed* budget is here too.

Budgets kept elsewhere because they are not shares of a query's time: the poll interval of a
waiting caller (``deadline.POLL_SECONDS``) and the Ctrl-C grace periods (``cli/_interrupt.py``).
The depth-first kernel gives its count vectors a quarter of its call's time (``dfs.cpp``,
``settle_vectors``).
"""
from __future__ import annotations

# --- command defaults (``--time-limit`` not given) -----------------------------------------------
# A user waits for these; what did not fit is reported (partial answers, notes), never dropped.
#: ``consistent``: long enough for the hard band's find-one from 60 guesses up
#: (docs/benchmarks.md, "Hard band").
CONSISTENT_SECONDS = 30.0
#: ``static``: the exact refinement of small games; larger ones get an interval.
STATIC_SECONDS = 60.0
#: ``bounds``: the proved bounds take milliseconds; the optional work (strategies, exact
#: searches) shares the rest (docs/benchmarks.md, "Bounds").
BOUNDS_SECONDS = 30.0
#: ``assist`` (and the game engine's solver calls): one answer per typed entry, within seconds.
ASSIST_SECONDS = 10.0
#: ``puzzle``: drawing puzzles until one fits the label (and K clues); a draw takes about
#: 0.1 ms of CPU on Bulls & Cows 4/10 (docs/benchmarks.md, "Puzzle streams"), up to 1 s on
#: Mastermind 6x9.
PUZZLE_SECONDS = 30.0

# --- ``auto``: choosing an engine (consistency/plan.py) ------------------------------------------
#: The native filter answers when its cost model says at most this long (docs/benchmarks.md,
#: "`auto`: cost model and probes").
FILTER_SECONDS = 1.0
#: The depth-first search's probe before a list, count or sample: long enough to finish the
#: rows it wins, short beside the SAT engine's time (docs/benchmarks.md, "`auto`: cost model
#: and probes") ...
PROBE_SECONDS = 0.25
#: ... and at most this share of a query's time limit (a short limit keeps most for the answer).
PROBE_FRACTION = 0.1
#: The probe before a find-one / unique query: short, because CP-SAT's portfolio answers the
#: long-code rows in ~0.05 s where the search finds nothing (docs/benchmarks.md, "Find one
#: and `determined`") ...
FIND_PROBE_SECONDS = 0.03
#: ... and longer on spaces of at most FIND_PROBE_SMALL_SPACE codes, where the search found a
#: first secret within 55 ms on every seed measured (Mastermind 16x6, N=10 of 26 letters) and
#: the portfolio's tail is ten times that, while on N=20 and N=40 it found none in 0.5 s.
FIND_PROBE_SMALL_SECONDS, FIND_PROBE_SMALL_SPACE = 0.1, 10**15
#: Before PySAT takes a count, a sample or a whole list, CP-SAT looks for one secret with this
#: share of the time (at most CHECK_SECONDS): its LP proves many inconsistent logs at once that
#: CDCL cannot (N=40 of 10 digits, 33 entries: `unknown` after 5 s by PySAT, proved in 0.18 s
#: by CP-SAT; scripts/stress/audit_inconsistent.py).
CHECK_SHARE, CHECK_SECONDS = 0.1, 1.0

# --- engines ---------------------------------------------------------------------------------
#: The pairwise pre-check is quadratic in the log (20,000 entries: 13.6 s): at most this long,
#: or this share of the call's time if less (docs/benchmarks.md, "Time limits, Ctrl-C and
#: input caps").
PAIR_CHECK_SECONDS, PAIR_CHECK_SHARE = 1.0, 0.1
#: CP-SAT's count-vector enumeration before the first solve (N=40: 0.02-0.07 s): at most this
#: long, or this share of the time left if less.
PIN_SECONDS, PIN_SHARE = 1.0, 0.1
#: After a first secret the racing local search stops after this long and leaves the core to
#: CP-SAT: a second secret is usually found near the first at once, and when there is none
#: CP-SAT must prove it, which a competing thread only slows (docs/benchmarks.md,
#: "Local-search portfolio").
RACE_AFTER_FIRST = 0.3

# --- counting and sampling (consistency/answer.py, dfs_answer.py, counting.py) ----------------
#: A count with no time limit stops after this long (a count of 10^12 codes, or a model
#: counter, can run for hours); the answer then says "at least" and why.
UNTIMED_COUNT_SECONDS = 60.0
#: A solver's count enumerates with this share of the time; a model counter (Ganak) takes the
#: rest when the enumeration is capped or timed out.
ENUMERATE_SHARE = 0.5
#: ``--approximate`` keeps this share of the whole for ApproxMC (else the exact counter, which
#: fails on large counts, took it all: "no time left for approximate counting").
APPROX_SHARE = 0.4
#: A solver's sample enumerates the set with this share of the time, to draw uniformly from it;
#: the rest goes to the near-uniform sampler when the set is too large.
SAMPLE_ENUMERATE_SHARE = 0.3
#: The depth-first search's sample counts the set with this share (the draw by ranks needs the
#: rest) ...
SAMPLE_COUNT_SHARE = 0.7
#: ... and when the count did not finish, the near-uniform sampler, then the listing of the first
#: secrets to draw from, each get what is left, at least this long (a sample, even a labelled
#: NOT uniform one, is the answer asked for; a spent budget would give none).
SAMPLE_FLOOR_SECONDS = 0.01
#: The exact count by the depth-first search takes this share when Ganak is installed (Ganak
#: counts the CNF with the rest); all of it otherwise.
SEARCH_COUNT_SHARE = 0.5

# --- diagnosis of an inconsistent log (consistency/diagnose.py) --------------------------------
#: The minimal conflict and the fewest corrections each get this share of the time left.
CONFLICT_SHARE = 0.5
#: Of what the conflict leaves, the search for every single reply that alone could be wrong
#: takes this share; the fewest joint corrections, needed only when none is found, the rest.
REPAIRS_SHARE = 0.5
#: Beyond the filter, finding and counting the secrets each single repair leaves takes at most
#: this long (within the repairs' share): the counts are given where cheap, and a count not
#: finished is reported as "at least" (12 of 20 letters, 10 clues: every count exact in
#: 0.3-1.4 s; 10 of 26 letters, 6 clues, counts up to 1.2e8: 11 of 37 not finished in 2 s).
REPAIRS_COUNT_SECONDS = 2.0
#: Beyond the filter, the depth-first search diagnoses first with this share (an inconsistent
#: N=10 log of 26 letters: a minimal conflict in 3 ms, where the SAT deletion had not finished
#: in 15 s; docs/benchmarks.md, "Diagnosis"), the solvers then take what is left ...
DIAGNOSE_SEARCH_SHARE = 0.5
#: ... and the search this long when the query has no time limit.
DIAGNOSE_SEARCH_UNTIMED_SECONDS = 10.0
#: A deletion test starts with this budget and alternates two engines with doubling budgets:
#: the first (the search, or CP-SAT) decides most tests fast, but a few leave the search an
#: exhaustive proof that SAT makes in ms (Mastermind 16x6: 10 s against 5 ms).
TEST_FIRST_SECONDS = 0.02
#: CP-SAT's tests start with this budget: it rarely answers in less (model, presolve, LP).
CPSAT_TEST_FIRST_SECONDS = 0.1
#: A test's cap in the deletion's first pass when untimed (timed: :func:`deletion_test_cap`).
TEST_UNTIMED_CAP = 1.0
#: The solvers' conflict starts with PySAT's failed-assumption core (a small set in ms where
#: CDCL is strong) with this share of the time (this long when untimed), then CP-SAT's
#: deletion from what it left.
SAT_CORE_SHARE, SAT_CORE_UNTIMED_SECONDS = 0.1, 2.0

# --- exact searches, bounds, advice -------------------------------------------------------------
#: The worst-case tie-break search's set-up and tree, relative to building the worst-case tree
#: (Bulls & Cows: 2.7 s against 0.8 s): it starts only with at least this much of that time left.
TIES_SETUP_FACTOR = 4.0
#: A stopped expected-case search still reports a tree: building it took 2-4x the root's greedy
#: value on Bulls & Cows (0.34 s), so the search stops this many times that before its limit.
TREE_RESERVE = 3.0
#: A search from a position stopped by its limit or Ctrl-C reports the one-level bound of the
#: position's set, a scan of it against every guess: 1.2 s past a 10 s limit on 8 of 8 distinct
#: when it was not timed. Cut at this many seconds, the fill bound and the table's entry stand.
STOPPED_BOUND_SECONDS = 0.3
#: ``bounds``: the two-level partition bound takes at most this share of the time left (the
#: strategies' upper bounds are usually worth more).
SECOND_LEVEL_SHARE = 0.5
#: ``bounds``: share of the time left the worst-case search may take. Checking its certificate
#: takes r times the search's own time T, r from 0.2 (4 of 11) to 1.1 (4 of 10) measured: a value
#: is confirmed when T(1 + r) fits in the time left, and a share of 1/(1 + 0.25) loses none of the
#: cells with r <= 0.25 (most) while keeping a fifth of the time for checking the certificate of
#: a stopped search's lower end (and for the expected-case search) (docs/bounds.md,
#: "Verification of the exact searches").
WORST_SEARCH_SHARE = 0.8
#: ``bounds``: seconds ``first`` takes per secret, about (5x11 with repeats 3.1 s for 161,051
#: secrets, 7x7 with repeats 16.8 s for 823,543; 2-core EPYC at load 3-4): minimax over the
#: candidates, tried before it from 10^5 secrets, leaves twice this for it (a cell whose
#: candidates' minimax does not finish has only first's bound: it must fit under load).
FIRST_SECONDS_PER_SECRET = 2e-5
FIRST_RESERVE_FACTOR = 2.0
#: ``bounds``: seconds a tree replay takes per secret, about (0.6 s for 5,040 secrets); an exact
#: search leaves at least twice this for its check.
VERIFY_SECONDS_PER_SECRET = 1e-4
#: One exact answer for advice (strategy/exact.py); a search that does not finish falls back.
ADVICE_EXACT_SECONDS = 2.0
#: The exact search from a position takes at most this share of an answer's time left (the
#: heuristic keeps the rest, so a search that does not finish still leaves a labelled answer
#: from the same deadline; cbsolve/advisor/service.py).
ADVICE_EXACT_SHARE = 0.5
#: The symmetry classes of a position's guesses take at most this share of an answer's time
#: (Bulls & Cows 6/10 after one guess: 0.3 s; Mastermind 8x8: a minute), so the heuristic
#: still scores guesses when they do not finish.
ADVICE_SYMMETRY_SHARE = 0.3
#: The end of an answer's time kept for what follows the choice on a large space: the chosen
#: guess's partition over the candidates (1.4 M on Mastermind 8x8 after one reply: 0.07 s
#: quiet, 0.2 s at load 15) and the process's exit, so the answer ends within half a second of
#: its limit (cbsolve/advisor/service.py).
ADVICE_RESERVE = 0.3
#: Seconds per code the symmetry classes of a large space's position take (the native
#: union-find over the stabiliser's generators: Mastermind 8x8 after 12345678, 16.7 M codes,
#: 951 classes in 1.0 s of CPU, 2.9 s wall at load 20); the position service computes them
#: only when its symmetry share of the time left covers that.
ADVICE_CLASSES_SECONDS_PER_CODE = 6e-8
#: ``optimal --time-limit`` (anytime): the fast proved ends first (counting, closed
#: forms, constructions, the shipped trees) within at most this long, so the first interval is
#: printed within a second of the start on any game (the import and the interpreter take
#: 0.3-0.6 s) ...
OPTIMAL_CHEAP_SECONDS = 0.5
#: ... then the partition bounds two guesses deep within this share of the budget (Mastermind
#: 4x8's 6; seconds on the larger games, where the search could not finish anyway) ...
OPTIMAL_DEEP_SHARE = 0.25
#: ... then, while the interval is open, the objective's own heuristic (minimax for the worst
#: case, Irving's expected size for the total; never the strategies it does not need, which
#: took all 60 s of Bulls & Cows 6/10 and Mastermind 6x9 before the search could start) within
#: this share of what is left, when its estimate fits; the exact search has the rest.
OPTIMAL_HEURISTIC_SHARE = 0.5
#: ``optimal`` without a time limit, on a game no tree ships for: a heuristic evaluated exactly
#: against every secret proves an upper end (Mastermind 4x9: 7 in 1.2 s where the constructions
#: say 12) within at most this long ...
OPTIMAL_HEURISTIC_UNTIMED_SECONDS = 2.0
#: ... on games of at least this many secrets: below, the exact search proves the value about
#: as fast as the heuristic plays (Bulls & Cows 3 of 10, 720 secrets: the worst case proved in
#: 0.08 s, minimax evaluated in 0.11 s; 4 of 8, 1,680 secrets: 0.48 s against 0.09 s) ...
OPTIMAL_HEURISTIC_MIN_SECRETS = 1000
#: ... and it starts only when its share covers this many seconds per secret, about (minimax
#: over all codes: Mastermind 4x9 0.24 s of CPU for 6,561 secrets, Logik 5x8 2.6 s for 32,768,
#: 3-4x that in wall time at load 13 on the 2-core machine), so a share it cannot finish in is
#: left to the search; at the deadline it stops, unfinished, and the search has the rest.
HEURISTIC_SECONDS_PER_SECRET = 1.5e-4
#: ... or this many with its guesses drawn from the candidates (from 10^5 secrets, as ``bounds``
#: does: Bulls & Cows 6/10, worst 10 in about 15 s for 151,200 secrets).
HEURISTIC_CANDIDATES_SECONDS_PER_SECRET = 1e-4
#: The exact review's share of what is left of its deadline (a face's turn: the advice may
#: have spent some) before it falls back to the heuristic estimate, which has no stop flag
#: inside one evaluation and keeps the rest to compare guesses in (cbsolve/advisor/review.py;
#: docs/play.md, "The coach"). Was a fixed 3 s beside the turn's budget.
REVIEW_EXACT_SHARE = 0.5


def deletion_test_cap(left: float, entries: int) -> float:
    """A deletion test's cap in the first pass: the time left over twice the entries tested,
    so the whole pass fits in about half of it (later passes double the cap)."""
    return left / (2 * entries + 1)


def kernel_seconds(seconds: float | None) -> float:
    """A time budget as the native kernels take it: ``-1`` for no limit, never negative else."""
    return -1.0 if seconds is None else max(0.0, float(seconds))


#: The least time an exact search's ``set_deadline`` is given when its budget is spent: its
#: ``0`` means "no limit", and a stopped search must still report what it proved.
SEARCH_FLOOR_SECONDS = 1e-3


def search_seconds(seconds: float | None) -> float:
    """A time budget as the exact searches' ``set_deadline`` takes it: ``0`` for no limit, at
    least :data:`SEARCH_FLOOR_SECONDS` else."""
    return 0.0 if seconds is None else max(float(seconds), SEARCH_FLOOR_SECONDS)

#: ``cbsolve review``'s budget for one move of a transcript (both objectives' reviews: the
#: worst case half of it, the expected case the rest), cut from the run's --time-limit when
#: that is less: the exact solves of Bulls & Cows 4/10 positions of at most 500 candidates end
#: in it (docs/benchmarks.md, "Reviewing transcripts").
REVIEW_MOVE_SECONDS = 1.0
