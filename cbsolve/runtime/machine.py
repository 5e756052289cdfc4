"""One line naming the machine a measurement ran on, for result rows and benchmark headers."""
from __future__ import annotations

import os
import platform


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo, else what ``platform`` knows."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            return next(line.split(":", 1)[1].strip() for line in fh
                        if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or platform.machine() or "unknown CPU"


def describe() -> str:
    """'AMD EPYC 7B13, 2 cores, 24 GiB, kernels avx512 (avx2 ... avx512_vpopcntdq)': the cores
    this process may run on, its memory (physical, or a smaller cgroup limit), and the kernels'
    instruction-set path with the processor's vector flags (cbsolve.runtime.isa): the same build runs
    several times slower on a processor without AVX2."""
    from cbsolve.runtime import isa  # loads the kernels: only where a line is written

    return f"{cpu_model()}, {cores()} cores, {machine_memory() / 2**30:.0f} GiB, {isa.describe()}"


def cores() -> int:
    """The cores this process may run on (its CPU affinity: a taskset or a container's limit
    counts), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:        # not on Linux
        return max(1, os.cpu_count() or 1)


def machine_memory() -> int:
    """Bytes of memory this process may use: physical memory, or a smaller cgroup limit, or a
    smaller address-space limit (``ulimit -v``, RLIMIT_AS: a search sized to the machine's
    memory under a 4 GB cap failed with std::bad_alloc)."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
        if soft != resource.RLIM_INFINITY:
            total = min(total, soft)
    except (ImportError, OSError, ValueError):       # no resource module (Windows)
        pass
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(path, encoding="ascii") as fh:
                text = fh.read().strip()
        except OSError:
            continue
        if text.isdigit():
            total = min(total, int(text))
    return total
