"""Sweep cells: one (variant, strategy) pair each, computed by a pure, picklable function.

A cell is a plain dict (so it travels to a process pool or a Dask worker unchanged) and its
result is one row of ``results.csv``. The strategy cells play the strategy against every secret
(:func:`cbsolve.strategy.evaluate`: Knuth 1977 minimax, Irving 1979 expected size, Neuwirth
1982 entropy, Kooi 2005 most parts, first/random consistent); the ``bounds`` cell records the
proved lower bounds of :func:`cbsolve.bounds.compute_bounds` and, on small spaces, the exact
optimum found by the search. Everything is deterministic (``random`` is seeded per cell), so a
sweep gives the same rows whichever machine or scheduler computes them.
"""
from __future__ import annotations

import json
import time

from ..bounds.compute import compute_bounds
from ..game.codes import CodeSpace
from ..runtime.deadline import Deadline
from ..game.variant import DIGITS, LETTERS, Variant

BOUNDS = "bounds"
#: Exact optimum searched (worst and expected) up to this many secrets: each took < 1 s when
#: measured, and no time limit is used so results never depend on machine load.
SEARCH_LIMIT = 800
#: Scored heuristics are evaluated up to this many secrets (full score matrix per cell).
STRATEGY_LIMIT = 20_000

COLUMNS = ["key", "family", "length", "alphabet", "repeats", "no_leading_zero", "feedback",
           "strategy", "status", "secrets", "worst", "total", "average", "histogram",
           "worst_lower", "worst_exact", "total_lower", "total_exact", "note"]

#: The default sweep: Bulls & Cows rules (distinct digits) and Mastermind rules (repeats).
DEFAULT_FAMILIES = ("bulls-cows", "mastermind")
DEFAULT_LENGTHS = (2, 3, 4)
DEFAULT_ALPHABETS = tuple(range(2, 11))
DEFAULT_STRATEGIES = ("minimax", "expected", "entropy", "parts", "first", "random")


def family_variant(base: Variant, length: int, alphabet: int) -> Variant | None:
    """``base``'s rules with N = ``length`` and D = ``alphabet`` (None if that is impossible)."""
    syms = base.symbols
    if syms == DIGITS[:len(syms)] and alphabet <= 10:
        symbols = DIGITS[:alphabet]
    elif syms == DIGITS[1:1 + len(syms)] and alphabet <= 9:
        symbols = DIGITS[1:1 + alphabet]          # Mastermind's 1..D
    elif syms == DIGITS[1:1 + len(syms)] and alphabet == 10:
        symbols = DIGITS
    elif alphabet <= 26 and (syms == LETTERS[:len(syms)] or alphabet > len(syms)):
        symbols = LETTERS[:alphabet]
    elif alphabet <= len(syms):
        symbols = syms[:alphabet]
    else:
        return None
    if not base.repeats and length > alphabet:
        return None
    if base.no_leading_zero and alphabet < 2:
        return None
    return Variant(length, symbols, base.repeats, base.no_leading_zero, base.feedback)


def cell_key(variant: Variant, strategy: str) -> str:
    v = variant
    return (f"N={v.length} D={v.n_symbols} {'repeats' if v.repeats else 'distinct'}"
            f"{' no-leading-zero' if v.no_leading_zero else ''}"
            f"{' bulls-only' if v.bulls_only else ''} symbols={v.symbols} {strategy}")


def make_cells(families=DEFAULT_FAMILIES, lengths=DEFAULT_LENGTHS, alphabets=DEFAULT_ALPHABETS,
               strategies=DEFAULT_STRATEGIES, bounds: bool = True, seed: int = 0) -> list[dict]:
    """The sweep's cells in table order (family, N, D, strategy); impossible variants skipped.

    ``families`` are preset names or :class:`Variant` objects whose rules are kept while N
    and D vary.
    """
    cells = []
    names = list(strategies) + ([BOUNDS] if bounds else [])
    for fam in families:
        base = Variant.preset(fam) if isinstance(fam, str) else fam
        label = fam if isinstance(fam, str) else (fam.name or fam.describe())
        for n in lengths:
            for d in alphabets:
                v = family_variant(base, n, d)
                if v is None:
                    continue
                size = CodeSpace(v).size
                for s in names:
                    cells.append({"key": cell_key(v, s), "family": label,
                                  "variant": v.to_dict(), "strategy": s, "seed": seed,
                                  "secrets": size})
    return cells


def cost(cell: dict) -> float:
    """Rough relative cost, to start the longest cells first (keeps workers busy to the end)."""
    n = cell["secrets"]
    if cell["strategy"] in ("first", "random"):
        return n * 50.0
    if cell["strategy"] == BOUNDS:
        return n * 200.0 if n <= SEARCH_LIMIT else n * 20.0
    return float(n) * n


#: The status of a cell that its deadline (``analyze --time-limit``, or Ctrl-C) cut short: never
#: kept, so a rerun computes it.
STOPPED = "stopped"


def run_cell(cell: dict, deadline: Deadline | None = None) -> dict:
    """Compute one cell; returns ``{"row", "seconds", "cpu_seconds"}`` (wall and CPU time).

    Errors become a row with status ``error`` (the message in ``note``), never an exception,
    so one bad cell cannot sink a long sweep. ``deadline`` (a cell run in the sweep's own
    process): a cell it cut short has status :data:`STOPPED`.
    """
    from ..strategy import Unfinished

    start, cpu = time.perf_counter(), time.process_time()
    variant = Variant.from_dict(cell["variant"])
    row = {c: "" for c in COLUMNS}
    row.update(key=cell["key"], family=cell["family"], length=variant.length,
               alphabet=variant.n_symbols, repeats=int(variant.repeats),
               no_leading_zero=int(variant.no_leading_zero), feedback=variant.feedback,
               strategy=cell["strategy"], secrets=cell["secrets"])
    try:
        if cell["strategy"] == BOUNDS:
            _bounds_row(variant, row, deadline)
        elif cell["secrets"] > STRATEGY_LIMIT:
            row.update(status="skipped", note=f"more than {STRATEGY_LIMIT} secrets")
        else:
            _strategy_row(variant, cell, row, deadline)
    except Unfinished as exc:
        row.update(status=STOPPED, note=str(exc))
    except KeyboardInterrupt:   # Ctrl-C, a search's SearchInterrupted too: the sweep stops
        raise
    except Exception as exc:  # report, do not crash the sweep
        row.update(status="error", note=f"{type(exc).__name__}: {' '.join(str(exc).split())}")
    return {"row": row, "seconds": time.perf_counter() - start,
            "cpu_seconds": time.process_time() - cpu}


def _strategy_row(variant: Variant, cell: dict, row: dict, deadline: Deadline | None) -> None:
    from ..strategy import evaluate

    ev = evaluate(variant, cell["strategy"], seed=cell["seed"] if cell["strategy"] == "random"
                  else None, deadline=deadline)
    hist = {str(k): int(v) for k, v in sorted(ev.histogram.items())}
    row.update(status="ok", secrets=ev.secrets, worst=ev.worst, total=ev.total,
               average=f"{ev.total / ev.secrets:.6f}", histogram=json.dumps(hist))


def _bounds_row(variant: Variant, row: dict, deadline: Deadline | None) -> None:
    size = row["secrets"]
    b = compute_bounds(variant, search=size <= SEARCH_LIMIT, strategies=False,
                       search_limit=SEARCH_LIMIT, workers=1, deadline=deadline)
    row.update(status="ok", worst_lower=b.worst.lower, total_lower=b.expected.lower,
               worst_exact="" if b.worst.exact is None else b.worst.exact,
               total_exact="" if b.expected.exact is None else b.expected.exact)
    if b.worst.exact is not None:
        row["worst"] = b.worst.exact
    if b.expected.exact is not None:
        row.update(total=b.expected.exact, average=f"{b.expected.exact / size:.6f}")
    row["note"] = "optimum proved by search" if b.worst.exact is not None else \
        f"lower bounds: {b.worst.lower_method}"
    if deadline is not None and deadline.expired():     # the bounds stand, but may not be all
        row.update(status=STOPPED, note="cut short before the searches finished")
