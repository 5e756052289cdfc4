"""The consistency engines' options (CP-SAT, PySAT, the local-search race): plain values,
apart from the engines so that choosing a backend imports no solver and no NumPy.

Place in the data flow: (this module) -> cpsat.py, sat.py, portfolio.py, backends.Engines.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..runtime import time_policy

#: CP-SAT search workers (the machine has 2 cores; more workers = a wider portfolio).
WORKERS = 1
#: Race the native local search (portfolio.py) against CP-SAT for find-one / determined.
LOCAL_SEARCH = True


@dataclass(frozen=True)
class CpSatOptions:
    """How the CP-SAT engine searches; benchmarks pass other values, the defaults are the
    product's."""

    #: Fix each symbol's count when the clues' totals allow one count vector (count_vectors.py):
    #: redundant, and on the hard band (N=40, 50 clues, 22 seeds, 10 s) 11 secrets found vs 6.
    pin_counts: bool = True
    #: When the counts are pinned to one vector, branch on the position/symbol literals in the
    #: order of their belief-propagation marginals (marginals.py), likeliest first (CP-SAT fixed
    #: search). Hard band, find one, 5 s (docs/benchmarks.md, "Hard band"): 45 clues 1 of 7
    #: found vs 0, 50 clues 3 of 7 vs 2, 60 clues 8 of 8 vs 7.
    guide: bool = True
    #: Sum-product sweeps for that order: 20 found the same as 60, at a third of the cost.
    guide_sweeps: int = 20
    #: Extra CP-SAT parameters for every solve, as (name, value) pairs (benchmarks: e.g.
    #: (("linearization_level", 0),)).
    params: tuple[tuple[str, object], ...] = ()


#: PySAT solver used by default: Glucose 4 supports assumptions, cores and interruption.
SOLVER = "glucose4"


@dataclass(frozen=True)
class SatOptions:
    """How the PySAT engine builds and solves its CNF; benchmarks pass other values, the
    defaults are the product's."""

    #: The solver (PySAT's name for it).
    solver: str = SOLVER
    #: Cardinality encoding, one of :data:`CARD_ENCODINGS`.
    card: str = "counter"
    #: The redundant "symbols add up to N" sums of a solving session (see SatSession); off only
    #: for the benchmark baseline (docs/benchmarks.md, "PySAT encoding options"). The CNF handed
    #: to model counters and samplers (counting.cnf_of) never has them: Ganak counted slower with
    #: them (dense N=9 of 10 digits: 2-12 s without, over 20 s with), and it only counts logs the
    #: session found consistent.
    symbol_sum: bool = True
    #: Redundant binary clauses n_s >= t+1 -> n_s >= t on the unary counts: with them unit
    #: propagation reads a single-symbol total as a count, which the repeats sum needs (N=40,
    #: counts adding to 39: 0.2 s with both, 4.1 s with the sum alone, unknown with neither).
    chain: bool = True
    #: A count's share of its time for enumeration before the model counter gets the rest
    #: (None: ``time_policy.ENUMERATE_SHARE``).
    enumerate_share: float | None = None


@dataclass(frozen=True)
class PortfolioShape:
    """How the portfolio runs its two engines; each field measured side by side against the
    others (docs/benchmarks.md, "Local-search portfolio"); benchmarks pass other shapes."""

    #: Local-search flips tried alone before CP-SAT starts.
    burst: int = 5_000
    #: Then race the local search against CP-SAT (True), or let CP-SAT run alone (False).
    race: bool = True
    #: Hint CP-SAT with the burst's lowest-cost code.
    hint_best: bool = False
    #: After a first secret the race lasts at most this long (None: to the end); its reason is
    #: in time_policy.
    race_after_first: float | None = time_policy.RACE_AFTER_FIRST
    #: The burst before a second (third, ...) secret: shorter, as it starts from the last secret.
    burst_after_first: int = 1_000


#: The product's options, one value each: the engines' argument defaults.
CPSAT_DEFAULTS = CpSatOptions()
SAT_DEFAULTS = SatOptions()
PORTFOLIO_DEFAULTS = PortfolioShape()
