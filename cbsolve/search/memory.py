"""The memory an exact search needs, and the budget it may take (instead of a fixed size cap).

Both searches hold the full reply matrix, one byte per (guess, secret) pair (replies fit in
uint8 up to code length 14; the native kernels take no wider type): n^2 bytes, 1 GiB for Logik's
32,768 codes. The expected-case kernel adds a transposed copy in compact reply numbers (its scans
read a secret's replies to every guess sequentially), so 2 n^2. Beyond that, what scales with n
is small: the worst-case kernel's class counters are 2 * slots bytes per guess and level,
the transposition tables are bounded by their own caps (:data:`WORST_MEMO_SHARE` of the budget;
8 M entries for the expected kernel). The 16-bit class counters of both kernels limit them to
:data:`MAX_KERNEL_CODES` codes, a limit of the counter type that no budget below 8 GiB (worst)
reaches.

The budget: ``--memory-budget`` (the CLI), else the environment variable
:data:`ENV_VAR`, else :data:`DEFAULT_FRACTION` of the machine's memory (the smaller of the
physical memory and a cgroup limit). A quarter leaves room for the Python process, the trees
written out and other work on a shared machine; on the project machine (24 GiB) it is 6 GiB:
every worst-case game up to ~80,000 codes, every expected-case game up to ~55,000.
"""
from __future__ import annotations

import os
import re

from ..errors import InvalidVariant, SpaceTooLarge

ENV_VAR = "CBSOLVE_MEMORY_BUDGET"
DEFAULT_FRACTION = 0.25
#: The kernels count class sizes in 16 bits (a larger counter costs speed on every game).
MAX_KERNEL_CODES = 65_535
#: The worst-case kernel's transposition table may take this share of what the matrix leaves.
WORST_MEMO_SHARE = 0.5
#: The expected-case kernel's transposition table: entries (cbsolve.search.expected) x bytes each
#: (an unordered_map node with its key, value and bucket pointer).
EXPECTED_MEMO_ENTRY_BYTES = 64
#: Python and NumPy themselves, the code list and the trees: a fixed allowance.
BASE_BYTES = 200 * 2**20

_UNITS = {"": 1, "b": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


def machine_memory() -> int:
    """Bytes of memory this process may use: physical memory, or a smaller cgroup limit."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(path, encoding="ascii") as fh:
                text = fh.read().strip()
        except OSError:
            continue
        if text.isdigit():
            total = min(total, int(text))
    return total


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
    """Bytes a search of ``n`` codes needs before its transposition table grows (worst) or with
    its table full (expected)."""
    if objective == "expected":
        return BASE_BYTES + 2 * n * n + memo_entries * EXPECTED_MEMO_ENTRY_BYTES
    return BASE_BYTES + n * n


def fits(n: int, objective: str = "worst", budget_bytes: int | None = None) -> bool:
    """Whether the exact ``objective`` search of a game of ``n`` codes fits the budget
    (``bounds`` asks this before handing a game to the search)."""
    limit = budget() if budget_bytes is None else budget_bytes
    return n <= MAX_KERNEL_CODES and needed(n, objective) <= limit


def worst_memo_bytes(n: int, budget_bytes: int) -> int:
    """The worst-case transposition table's cap: a share of what the matrix leaves."""
    return max(int((budget_bytes - needed(n, "worst")) * WORST_MEMO_SHARE), 16 * 2**20)


def check(description: str, n: int, objective: str, budget_bytes: int) -> None:
    """Refuse (SpaceTooLarge, exit 2) a game the search cannot hold, naming what it needs."""
    what = "worst-case" if objective == "worst" else "expected-case"
    if n > MAX_KERNEL_CODES:
        raise SpaceTooLarge(f"{description} has {n:,} codes; the exact {what} search counts "
                            f"class sizes in 16 bits, so at most {MAX_KERNEL_CODES:,} codes")
    need = needed(n, objective)
    if need > budget_bytes:
        raise SpaceTooLarge(f"{description} has {n:,} codes; the exact {what} search needs about "
                            f"{_gib(need)} (reply matrix {'2 n^2' if objective == 'expected' else 'n^2'} "
                            f"bytes) and the memory budget is {_gib(budget_bytes)}; raise it with "
                            f"--memory-budget or ${ENV_VAR} (e.g. {_gib_option(need)})")


def _gib(b: int) -> str:
    return f"{b / 2**30:.2f} GiB"


def _gib_option(b: int) -> str:
    return f"{-(-b // 2**30)}G"
