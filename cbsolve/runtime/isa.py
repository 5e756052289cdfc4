"""The instruction-set path the native kernels run: AVX-512, AVX2 or the portable baseline.

One build carries every path: the kernels' hot loops are compiled once per instruction set and
each kernel module picks the best one its processor has when it loads
(``cbsolve/_native/toolkit_isa.hpp``; docs/architecture.md, "Instruction sets"). Every path
gives the same results (``tests/native/test_isa.py``); only the speed differs. To force one for a
benchmark or a test, set ``CBSOLVE_ISA=scalar|avx2|avx512`` before the kernels load (a path the
processor lacks falls back to its best), or, in process::

    with isa.use("avx2"):
        ...

Each kernel module is its own shared object with its own choice; this module sets them together.
"""
from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager

# The kernel modules with per-path loops (the others are compiled for the baseline only;
# search_expected's are the on-the-fly replies).
KERNELS = ("scoring", "strategy", "search_worst", "search_expected")
PATHS = ("scalar", "avx2", "avx512")
# The processor flags that decide a path, as /proc/cpuinfo spells them.
VECTOR_FLAGS = ("avx2", "fma", "bmi2", "popcnt", "avx512f", "avx512bw", "avx512vl", "avx512dq",
                "avx512cd", "avx512_vpopcntdq", "asimd")


def _modules():
    return [importlib.import_module(f"cbsolve._native.{name}") for name in KERNELS]


def available() -> list[str]:
    """The paths this processor runs, slowest first (``scalar`` always)."""
    return list(_modules()[0].isa_paths())


def current() -> str:
    """The path the kernels run now (``mixed`` if modules were set apart by hand)."""
    paths = {m.isa() for m in _modules()}
    return paths.pop() if len(paths) == 1 else "mixed"


def select(name: str) -> None:
    """Run every kernel module on path ``name``; ValueError if unknown or not available here."""
    if name not in PATHS:
        raise ValueError(f"unknown instruction-set path {name!r}: choose one of {', '.join(PATHS)}")
    if name not in available():
        raise ValueError(f"this processor cannot run the {name} path (it has: "
                         f"{', '.join(available())})")
    for m in _modules():
        m.set_isa(name)


@contextmanager
def use(name: str) -> Iterator[None]:
    """Run the kernels on path ``name`` inside the block, then restore each module's path."""
    before = [(m, m.isa()) for m in _modules()]
    select(name)
    try:
        yield
    finally:
        for m, path in before:
            m.set_isa(path)


def vector_flags() -> list[str]:
    """The processor's vector flags among ``VECTOR_FLAGS`` (Linux /proc/cpuinfo; else [])."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            flags = next((line.split(":", 1)[1].split() for line in fh
                          if line.startswith(("flags", "Features"))), [])
    except OSError:
        return []
    return [f for f in VECTOR_FLAGS if f in flags]


def describe() -> str:
    """'kernels avx2 (avx2 fma bmi2 popcnt)': the path in use and the flags it was chosen from,
    for the machine line beside every measured figure."""
    flags = " ".join(vector_flags()) or "flags unknown"
    return f"kernels {current()} ({flags})"
