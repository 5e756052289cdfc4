"""The memory an exact search needs, the budget it may take, and where it reads replies from.

The plan (:func:`plan`): **the reply matrix if it fits the budget, else replies scored on the
fly.** The matrix is one byte per (guess, secret) pair (replies fit in uint8 up to code length
14): n^2 bytes, 1 GiB for Logik's 32,768 codes; the expected-case kernel adds a transposed copy
in compact reply numbers (its scans read a secret's replies to every guess sequentially), so
2 n^2. On the fly (cbsolve/_native/toolkit_replies.hpp) the kernels score packed codes and
give a node whose rows fit a per-thread share of the budget a row table (|S| x n bytes) that
every node under it reads like the matrix; what stays is linear in n (packed codes, the row
index of a table: :data:`ON_THE_FLY_BYTES_PER_CODE`) plus at least :data:`MIN_TABLE_ROWS` rows
per thread. Either way the transposition tables are bounded by their own caps
(:data:`WORST_MEMO_SHARE` of what is left; 8 M entries for the expected kernel). Class counters
are 16-bit where a class cannot exceed 65,535 secrets and 32-bit above (both kernels).

The budget: ``--memory-budget`` (the CLI), else the environment variable
:data:`ENV_VAR`, else :data:`DEFAULT_FRACTION` of the machine's memory (the smaller of the
physical memory and a cgroup limit). A quarter leaves room for the Python process, the trees
written out and other work on a shared machine; on the project machine (24 GiB) it is 6 GiB:
every worst-case game up to ~80,000 codes, every expected-case game up to ~55,000.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from ..errors import InvalidVariant, SpaceTooLarge, unknown_name
from ..runtime.machine import machine_memory

ENV_VAR = "CBSOLVE_MEMORY_BUDGET"
DEFAULT_FRACTION = 0.25
#: Where the replies come from (``--replies``; ``auto`` = the plan).
MATRIX, ON_THE_FLY = "matrix", "on-the-fly"
REPLY_SOURCES = ("auto", MATRIX, ON_THE_FLY)
#: The kernels' code indices are 32-bit ints.
MAX_KERNEL_CODES = 2**31 - 1
#: On the fly: packed codes (2 x 8 bytes at most, for the lengths the search takes), the code
#: array, a row table's index (4 bytes) and the Python side's arrays, per code.
ON_THE_FLY_BYTES_PER_CODE = 64
#: The expected-case kernel's fill-bound tables, per code (24 bytes per branching factor, up
#: to ~40 replies) and its Zobrist keys: linear in n, so only on the fly do they matter.
EXPECTED_BYTES_PER_CODE = 1024
#: On the fly, each thread may hold a row table of at least this many secrets (a two-guesses
#: test needs the rows of up to R secrets; more keeps the deep nodes at matrix speed).
MIN_TABLE_ROWS = 256
#: On the fly, the row tables (all threads together) may take this share of what is left.
TABLE_SHARE = 0.5
#: The worst-case kernel's transposition table may take this share of what the matrix leaves.
WORST_MEMO_SHARE = 0.5
#: The expected-case kernel's transposition table: entries (cbsolve.search.expected) x bytes each
#: (an unordered_map node with its key, value and bucket pointer).
EXPECTED_MEMO_ENTRY_BYTES = 64
#: Python and NumPy themselves, the code list and the trees: a fixed allowance.
BASE_BYTES = 200 * 2**20

_UNITS = {"": 1, "b": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


def parse_size(text: str, what: str = "--memory-budget") -> int:
    """'6G', '512M', '1.5GiB', '8000000000' -> bytes (binary units)."""
    m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([kmgtKMGT]?)(?:i?[bB])?\s*", str(text))
    if not m or float(m.group(1)) <= 0:
        raise InvalidVariant(f"{what} must be a positive size such as 6G or 512M, got {text!r}")
    return int(float(m.group(1)) * _UNITS[m.group(2).lower()])


def budget(option: str | int | None = None) -> int:
    """The memory budget in bytes: the option, else $CBSOLVE_MEMORY_BUDGET, else a quarter of RAM."""
    if option is not None:
        return option if isinstance(option, int) else parse_size(option)
    env = os.environ.get(ENV_VAR)
    if env:
        return parse_size(env, f"${ENV_VAR}")
    return int(machine_memory() * DEFAULT_FRACTION)


def needed(n: int, objective: str = "worst", memo_entries: int = 8_000_000) -> int:
    """Bytes a search of ``n`` codes needs with the reply matrix, before its transposition
    table grows (worst) or with its table full (expected)."""
    if objective == "expected":
        return BASE_BYTES + 2 * n * n + memo_entries * EXPECTED_MEMO_ENTRY_BYTES
    return BASE_BYTES + n * n


def needed_on_the_fly(n: int, objective: str = "worst", workers: int = 1,
                      memo_entries: int = 8_000_000) -> int:
    """Bytes a search of ``n`` codes needs at least with replies scored on the fly (the
    smallest row tables; a larger budget gives them more)."""
    tables = max(1, workers) * MIN_TABLE_ROWS * n
    if objective == "expected":
        return (BASE_BYTES + (ON_THE_FLY_BYTES_PER_CODE + EXPECTED_BYTES_PER_CODE) * n + tables
                + memo_entries * EXPECTED_MEMO_ENTRY_BYTES)
    return BASE_BYTES + ON_THE_FLY_BYTES_PER_CODE * n + 16 * 2**20 + tables


@dataclass(frozen=True)
class Plan:
    """Where a search reads replies from, and how it shares the budget."""

    source: str              # MATRIX or ON_THE_FLY
    needed: int              # bytes this plan needs at least
    memo_bytes: int          # the worst-case transposition table's cap
    table_bytes: int = 0     # on the fly: the largest row table of one thread
    asked: bool = False      # on the fly because the caller asked (the matrix would fit)
    matrix_bytes: int = 0    # what the matrix plan would have needed

    def note(self, n: int, budget_bytes: int) -> str:
        """The line the CLI prints (and ``notes`` keeps) about the reply source."""
        if self.source == MATRIX:
            return f"replies from the reply matrix ({_gib(n * n)})"
        why = ("as asked" if self.asked else
               f"the reply matrix needs {_gib(self.matrix_bytes)}, over the memory budget "
               f"{_gib(budget_bytes)}")
        return (f"replies scored on the fly ({why}); row tables up to "
                f"{_gib(self.table_bytes)} a thread")


def plan(n: int, objective: str = "worst", budget_bytes: int | None = None, workers: int = 1,
         source: str = "auto", memo_entries: int = 8_000_000) -> Plan | None:
    """The matrix if it fits ``budget_bytes``, else on the fly; None when neither fits.
    ``source`` forces one (None if it does not fit)."""
    limit = budget() if budget_bytes is None else budget_bytes
    if source not in REPLY_SOURCES:
        raise unknown_name("reply source", source, REPLY_SOURCES)
    if n > MAX_KERNEL_CODES:
        return None
    need = needed(n, objective, memo_entries)
    if source != ON_THE_FLY and need <= limit:
        return Plan(MATRIX, need, max(int((limit - need) * WORST_MEMO_SHARE), 16 * 2**20))
    need_otf = needed_on_the_fly(n, objective, workers, memo_entries)
    if source == MATRIX or need_otf > limit:
        return None
    free = limit - need_otf
    workers = max(1, workers)
    table = MIN_TABLE_ROWS * n + int(free * TABLE_SHARE) // workers
    memo = 16 * 2**20 + int(free * (1 - TABLE_SHARE) * WORST_MEMO_SHARE)
    return Plan(ON_THE_FLY, need_otf, memo, table, asked=need <= limit, matrix_bytes=need)


def fits(n: int, objective: str = "worst", budget_bytes: int | None = None) -> bool:
    """Whether the exact ``objective`` search of a game of ``n`` codes fits the budget, with
    the matrix or on the fly (``bounds`` asks this before handing a game to the search)."""
    return plan(n, objective, budget_bytes) is not None


def check(description: str, n: int, objective: str, budget_bytes: int, workers: int = 1,
          source: str = "auto", memo_entries: int = 8_000_000) -> Plan:
    """The plan for a game; refuse (SpaceTooLarge, exit 2) one the search cannot hold,
    naming what each reply source would need and the option that raises the budget."""
    found = plan(n, objective, budget_bytes, workers, source, memo_entries)
    if found is not None:
        return found
    what = "worst-case" if objective == "worst" else "expected-case"
    if n > MAX_KERNEL_CODES:
        raise SpaceTooLarge(f"{description} has {n:,} codes; the exact {what} search takes at "
                            f"most {MAX_KERNEL_CODES:,} codes")
    need = needed(n, objective, memo_entries)
    otf = needed_on_the_fly(n, objective, workers, memo_entries)
    parts = []
    if source != ON_THE_FLY:
        parts.append(f"about {_gib(need)} with the reply matrix "
                     f"({'2 n^2' if objective == 'expected' else 'n^2'} bytes of it)")
    if source != MATRIX:
        parts.append(f"about {_gib(otf)} scoring replies on the fly")
    smallest = min(x for x, ok in ((need, source != ON_THE_FLY), (otf, source != MATRIX)) if ok)
    raise SpaceTooLarge(f"{description} has {n:,} codes; the exact {what} search needs "
                        f"{' and '.join(parts)}, but the memory budget is {_gib(budget_bytes)}; "
                        f"raise it with --memory-budget or ${ENV_VAR} (e.g. {_gib_option(smallest)})")


def _gib(b: int) -> str:
    return f"{b / 2**30:.2f} GiB"


def _gib_option(b: int) -> str:
    return f"{-(-b // 2**30)}G"
