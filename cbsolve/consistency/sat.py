"""The PySAT engine: a CNF encoding of a feedback log, solved incrementally.

Place in the data flow: FeedbackLog -> clues.Clue -> (this CNF) -> answer.py. The secret is
one-hot ``x[pos][sym]`` (names from an :class:`~pysat.formula.IDPool`, never counted by hand).
Cardinalities use a sequential counter (Sinz 2005) written with *both* directions of every
definition, so each auxiliary variable is a function of ``x``: the CNF has exactly one model per
secret. That makes the formula directly usable by exact model counters (Ganak), approximate
counters (ApproxMC) and near-uniform samplers (CMSGen) without projection mistakes.

Every entry gets a selector ``sel_i <=> (entry i holds)``, so one solver answers "is the log
consistent" (assume all selectors), finds minimal conflicts (failed assumptions), and counts
lies (a counter over the negated selectors). Enumeration blocks each solution (or each solution
prefix, see :func:`blocks.enumerate_blocks`) under a fresh activation literal, so the same
solver stays usable for the next question (the diagnosis asks one session many).

Building the CNF is Python (0.3-0.6 s on N=40 of 10 digits with 25 entries, seconds under load)
and no solver runs meanwhile, so a session given a ``deadline`` looks at it once a counter row:
a stop request or the time limit ends the build within milliseconds (:class:`BuildStopped`).
"""
from __future__ import annotations

from ..extras import require
from ..runtime.deadline import Deadline
from ..errors import Expired, unknown_name
from ..game.feedback import FeedbackLog
from .sat_call import StoppableSolve
from ..runtime.status import Status
from .blocks import Oracle
from .clues import Clue, clues
from .engine_options import SAT_DEFAULTS, SOLVER, SatOptions  # noqa: F401 - the engine's options

#: Pairwise at-most-one up to this many literals; a counter beyond.
PAIRWISE_MAX = 40
#: Repeats: the sum is built over full unary counts of every symbol (D * N^2 auxiliaries in
#: the per-symbol counters), so only up to this size (N=40 of 10 digits: 16,000). It costs
#: 15-20 % of PySAT's find-one time there and on N=20 of 26 letters (docs/benchmarks.md, "PySAT encoding
#: options").
COUNT_SUM_MAX = 50_000
#: Cardinality encodings for ``SatSession(card=...)``: "counter" (default, the two-way
#: sequential counter: one model per secret, which counters and samplers rely on), "totalizer"
#: (a two-way totalizer, Bailleux & Boufkhad 2003, for the per-symbol counts and the clues), and
#: PySAT's one-way ``CardEnc`` encodings for the clues' equalities (per-symbol counts by the
#: two-way totalizer, whose outputs the totals need both ways): "cardnet" (cardinality networks,
#: Asin et al. 2011), "sortnet", "seqcounter", "mtotalizer", "kmtotalizer". The one-way ones
#: only force ``sel -> clue``: right for find-one and ``determined`` (every selector assumed),
#: not for model counting. Measured on the hard band (docs/journal.md, "2026-11-22 12:06 · Hard band:
#: every backend side by side").
CARD_ENCODINGS = ("counter", "totalizer", "cardnet", "sortnet", "seqcounter", "mtotalizer",
                  "kmtotalizer")
_PYSAT_ENC = {"cardnet": "cardnetwrk", "sortnet": "sortnetwrk", "seqcounter": "seqcounter",
              "mtotalizer": "mtotalizer", "kmtotalizer": "kmtotalizer"}



TRUE, FALSE = "T", "F"  # literal constants, simplified away before reaching the solver


class BuildStopped(Expired):
    """The deadline expired (a time limit, or Ctrl-C's stop request) while the CNF was being
    built: the formula is incomplete, its solver is freed, nothing was proved."""


def _neg(lit):
    if lit is TRUE:
        return FALSE
    if lit is FALSE:
        return TRUE
    return -lit


class SatSession:
    """CNF of one variant plus any number of entries, with a live PySAT solver.

    Use inside ``with`` so the solver's memory is freed. ``clauses`` keeps the whole formula
    for export to counters and samplers. ``redundant``: add the implied "symbols add up to N"
    sums, which let CDCL prove logs whose totals ask for too many or too few symbols (off
    for the counters' CNF, :attr:`SatOptions.symbol_sum`); ``chain``: :attr:`SatOptions.chain`.
    ``deadline``: building (here and in :meth:`add_clue`) raises :class:`BuildStopped` once it
    expires (None: the build always finishes).
    """

    def __init__(self, variant, solver: str = SOLVER, keep_clauses: bool = True,
                 card: str = "counter", redundant: bool = True, chain: bool = True,
                 deadline: Deadline | None = None):
        IDPool = require("pysat.formula", "the SAT backend").IDPool
        Solver = require("pysat.solvers", "the SAT backend").Solver

        if card not in CARD_ENCODINGS:
            raise unknown_name("cardinality encoding", card, CARD_ENCODINGS)
        self.card = card
        self.chain = chain
        self.variant = variant
        self.deadline = deadline
        self.pool = IDPool()
        self.solver = Solver(name=solver)
        self._solve = StoppableSolve(self.solver)
        self.keep = keep_clauses
        self.clauses: list[list[int]] = []
        n, d = variant.length, variant.n_symbols
        self.x = [[self.pool.id(("x", p, s)) for s in range(d)] for p in range(n)]
        self.selectors: list[int] = []
        self._unary: dict[int, list] = {}       # symbol -> outputs [n_sym >= 1, >= 2, ...]
        self._present: dict[int, int] = {}      # symbol -> (n_sym >= 1), distinct variants
        self._fresh = 0
        try:
            self._build_variant(redundant)
        except BuildStopped:
            self.close()
            raise

    def _build_variant(self, redundant: bool) -> None:
        """The clauses every code meets: one symbol a position, the variant's rules, and the
        redundant sums."""
        self.poll()
        variant = self.variant
        n, d = variant.length, variant.n_symbols
        for p in range(n):
            self.clause(list(self.x[p]))
            self.at_most_one(self.x[p], ("row", p))
        if not variant.repeats:
            for s in range(d):
                self.at_most_one([self.x[p][s] for p in range(n)], ("col", s))
        sums = redundant
        if not variant.repeats and sums:
            # Redundant: exactly n symbols are present. The totals count present symbols, and
            # without this sum CDCL must rediscover a pigeonhole argument over the positions:
            # `ABCDEFGHIJ:0,10 KLMNOPQRST:0,1` (10 of 26 letters) stayed unknown after 5 s.
            for cond in self.exactly([self.present(s) for s in range(d)], n, "symbols"):
                self.clause([cond])
        if variant.repeats and not variant.bulls_only and sums \
                and variant.n_symbols * n * n <= COUNT_SUM_MAX:
            # The same with repeats: the symbols' counts add up to n, summed over the unary
            # count indicators [n_s >= t] that the totals use. Totals of single-symbol (or
            # few-symbol) guesses asking for n + 1 or n - 1 symbols in all stayed unknown after
            # 10 s without it (N=20 of 26 letters, N=40 of 10 digits; audit_inconsistent.py).
            for s in range(d):
                self.at_least_sym(s, n)         # each counter once, at its full size
            lits = [self.at_least_sym(s, t) for s in range(d) for t in range(1, n + 1)]
            for cond in self.exactly(lits, n, "counts"):
                self.clause([cond])
        if variant.no_leading_zero:
            self.clause([-self.x[0][0]])

    # --- plumbing -------------------------------------------------------------------------
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:
        if self.solver is not None:
            self._solve.free()
            self.solver = None

    def poll(self) -> None:
        """Raise :class:`BuildStopped` when the build's deadline has expired."""
        if self.deadline is not None and self.deadline.expired():
            raise BuildStopped("the CNF was not complete", self.deadline.reason())

    def clause(self, lits) -> None:
        """Add a clause, dropping FALSE literals and skipping clauses with a TRUE one."""
        out = []
        for lit in lits:
            if lit is TRUE:
                return
            if lit is not FALSE:
                out.append(lit)
        self._solve.add_clause(out)       # none to an abandoned solver (its search still runs)
        if self.keep:
            self.clauses.append(out)

    def new_var(self, tag) -> int:
        self._fresh += 1
        return self.pool.id((tag, self._fresh))

    @property
    def x_vars(self) -> list[int]:
        return [v for row in self.x for v in row]

    def decode(self, model) -> tuple[int, ...]:
        """The secret of a model (PySAT models list variable i at index i-1)."""
        return tuple(next(s for s, v in enumerate(row) if model[v - 1] > 0) for row in self.x)

    # --- cardinality building blocks ------------------------------------------------------
    def at_most_one(self, lits, key) -> None:
        if len(lits) <= PAIRWISE_MAX:
            for i in range(len(lits)):
                for j in range(i + 1, len(lits)):
                    self.clause([-lits[i], -lits[j]])
        else:
            outs = self.counter(lits, 2, key)
            self.clause([_neg(outs[1])])

    def counter(self, lits, top: int, key, low: int = 1) -> list:
        """Sequential counter: ``out[t-1] <=> (at least t of lits)`` for t in low..top (entries
        below ``low`` are None: not built). Both directions are encoded."""
        n = len(lits)
        top = min(top, n)
        prev = [TRUE] + [FALSE] * top          # s[0][t]
        tag = ("cnt", key)
        for i, lit in enumerate(lits, 1):
            self.poll()                        # a row: at most 4 * top clauses
            cur = [TRUE]
            lo = max(1, low - (n - i))         # lower counts cannot reach `low` any more
            for t in range(1, top + 1):
                if t > i:
                    cur.append(FALSE)
                    continue
                if t < lo:
                    cur.append(None)
                    continue
                a, b = prev[t], prev[t - 1]
                if a is FALSE and b is TRUE:
                    cur.append(lit)            # exactly "lit" (first layer)
                    continue
                v = self.pool.id((tag, i, t))
                # v <=> a or (b and lit)
                self.clause([_neg(a), v])
                self.clause([_neg(b), _neg(lit), v])
                self.clause([-v, a, lit])
                self.clause([-v, a, b])
                cur.append(v)
            prev = cur
        return prev[1:]

    def totalizer(self, lits, top: int, key) -> list:
        """Two-way totalizer (Bailleux & Boufkhad 2003): ``out[t-1] <=> (at least t of lits)``
        for t in 1..top, merged pairwise up a balanced tree (outputs capped at ``top``)."""
        top = min(top, len(lits))
        if top == 0:
            return []
        if len(lits) == 1:
            return [lits[0]]
        self.poll()                            # a merge: at most (top + 1)^2 clauses
        half = len(lits) // 2
        a = self.totalizer(lits[:half], top, (key, 0))
        b = self.totalizer(lits[half:], top, (key, 1))
        size = min(top, len(a) + len(b))
        out = [self.pool.id(("tot", key, t)) for t in range(1, size + 1)]
        ua = [TRUE, *a, FALSE]                 # ua[i] <=> (a's sum >= i); beyond its cap unknown
        ub = [TRUE, *b, FALSE]
        for i in range(len(a) + 1):
            for j in range(len(b) + 1):
                if 1 <= i + j <= size:          # a >= i and b >= j -> sum >= i + j
                    self.clause([_neg(ua[i]), _neg(ub[j]), out[i + j - 1]])
                if i + j + 1 <= size and (i < len(a) or len(a) < top) \
                        and (j < len(b) or len(b) < top):
                    # a <= i and b <= j -> sum <= i + j (only where both children are exact)
                    self.clause([ua[i + 1], ub[j + 1], -out[i + j]])
        return out

    def exactly(self, lits, k: int, key) -> list:
        """Literals whose conjunction says ``sum(lits) == k``."""
        if self.card in _PYSAT_ENC:
            return self._cardenc_equals(lits, k, key)
        n = len(lits)
        if k < 0 or k > n:
            return [FALSE]
        if k > n - k:                          # count the false ones: fewer outputs
            lits, k = [_neg(v) for v in lits], n - k
        if n == 0:
            return []
        if self.card == "totalizer":
            outs = self.totalizer(lits, k + 1, key)
        else:
            outs = self.counter(lits, k + 1, key, low=max(1, k))
        conds = []
        if k >= 1:
            conds.append(outs[k - 1])
        if k + 1 <= n:
            conds.append(_neg(outs[k]))
        return conds

    def _cardenc_equals(self, lits, k: int, key) -> list:
        """``sum(lits) == k`` by a PySAT ``CardEnc`` encoding, forced only under a fresh literal
        ``c`` (returned as the one condition): ``c -> constraint``, one way."""
        card = require("pysat.card", "the SAT backend")
        CardEnc, EncType = card.CardEnc, card.EncType

        k -= sum(1 for v in lits if v is TRUE)
        lits = [v for v in lits if v is not TRUE and v is not FALSE]
        if k < 0 or k > len(lits):
            return [FALSE]
        if not lits:
            return []
        c = self.pool.id(("card", key))
        enc = CardEnc.equals(lits=lits, bound=k, vpool=self.pool,
                             encoding=getattr(EncType, _PYSAT_ENC[self.card]))
        for cl in enc.clauses:
            self.clause([-c, *cl])
        return [c]

    def at_least_sym(self, sym: int, t: int):
        """Literal for ``n_sym >= t`` (unary count of the symbol, grown on demand)."""
        outs = self._unary.get(sym)
        if outs is None or len(outs) < t:
            col = [self.x[p][sym] for p in range(self.variant.length)]
            if self.card == "counter":
                outs = self.counter(col, t, ("n", sym, t))
            else:
                outs = self.totalizer(col, t, ("n", sym, t))
            if self.chain:
                for t_ in range(1, len(outs)):      # redundant: n >= t+1 -> n >= t
                    self.clause([_neg(outs[t_]), outs[t_ - 1]])
            self._unary[sym] = outs
        return outs[t - 1] if t <= len(outs) else FALSE

    def present(self, sym: int):
        """Literal for ``n_sym >= 1`` as one OR (distinct variants)."""
        if sym not in self._present:
            y = self.pool.id(("present", sym))
            col = [self.x[p][sym] for p in range(self.variant.length)]
            self.clause([-y, *col])
            for v in col:
                self.clause([-v, y])
            self._present[sym] = y
        return self._present[sym]

    # --- entries --------------------------------------------------------------------------
    def add_clue(self, clue: Clue) -> int:
        """Encode one entry; returns its selector ``sel <=> entry holds``."""
        self.poll()
        i = len(self.selectors)
        conds = self.exactly([self.x[p][s] for p, s in enumerate(clue.guess)], clue.bulls, ("b", i))
        if clue.total is not None:
            if self.variant.repeats:
                for s, k in clue.counts.items():
                    self.at_least_sym(s, k)     # build each counter once, at its full size
                lits = [self.at_least_sym(s, t) for s, k in sorted(clue.counts.items())
                        for t in range(1, k + 1)]
            else:
                lits = [self.present(s) for s in sorted(clue.counts)]
            conds += self.exactly(lits, clue.total, ("t", i))
        sel = self.pool.id(("sel", i))
        for c in conds:
            self.clause([-sel, c])
        self.clause([sel, *[_neg(c) for c in conds]])
        self.selectors.append(sel)
        return sel

    def lies_at_most(self, lies: int, act: int) -> None:
        """Under ``act``: at most ``lies`` selectors false."""
        outs = self.counter([-s for s in self.selectors], lies + 1, ("lies", act), low=lies + 1)
        if lies + 1 <= len(self.selectors):
            self.clause([-act, _neg(outs[lies])])

    # --- solving --------------------------------------------------------------------------
    def solve(self, assumptions, deadline: Deadline | None = None) -> bool | None:
        """True / False, or None when the deadline or Ctrl-C stopped the search
        (:class:`~cbsolve.consistency.sat_call.StoppableSolve`: its watchdog, its grace, abandonment)."""
        return self._solve(assumptions, deadline)

    def oracle(self, assumptions=None, lies: int = 0) -> SatOracle:
        return SatOracle(self, self.selectors if assumptions is None else assumptions, lies)


class SatOracle(Oracle):
    """Find/block interface for :func:`blocks.enumerate_blocks`; blocking clauses live under
    a fresh activation literal and are retired by :meth:`close` (the session stays reusable)."""

    def __init__(self, session: SatSession, assumptions, lies: int = 0):
        self.s = session
        self.act = session.new_var("act")
        if lies:
            session.lies_at_most(lies, self.act)
            self.assumptions = [self.act]
        else:
            self.assumptions = [*assumptions, self.act]

    def find(self, deadline: Deadline):
        answer = self.s.solve(self.assumptions, deadline)
        if answer is None:
            return Status.UNKNOWN, None
        if not answer:
            return Status.INFEASIBLE, None
        return Status.FEASIBLE, self.s.decode(self.s.solver.get_model())

    def block(self, assignment) -> None:
        self.s.clause([-self.act, *[-self.s.x[p][v] for p, v in assignment]])

    def close(self) -> None:
        self.s.clause([-self.act])


def session_for(log: FeedbackLog, options: SatOptions = SAT_DEFAULTS,
                deadline: Deadline | None = None) -> SatSession:
    """A session with every entry of ``log`` encoded; :class:`BuildStopped` (the solver freed)
    when ``deadline`` expires first."""
    session = SatSession(log.variant, options.solver, card=options.card,
                         redundant=options.symbol_sum, chain=options.chain, deadline=deadline)
    try:
        for clue in clues(log):
            session.add_clue(clue)
    except BuildStopped:
        session.close()
        raise
    return session
