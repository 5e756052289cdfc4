"""Build the native kernels: every cbsolve/_native/*.cpp becomes its own extension module
``cbsolve._native.<stem>`` (one kernel family a file, so adding a kernel touches no build code).

setuptools + pybind11 was chosen over scikit-build-core + nanobind: the kernels are a handful of
flat-array loops with no CMake dependencies, pybind11's NumPy bridge covers them, and an editable
``pip install -e .`` rebuilds in place with nothing beyond a C++ compiler.
"""
import glob
import os
import sys
import threading
import time

from pybind11.setup_helpers import Pybind11Extension, build_ext
from setuptools import setup

# Portable code only (no -march): the hot loops are compiled once per instruction set inside each
# kernel (AVX-512, AVX2, baseline; cbsolve/_native/toolkit_isa.hpp) and the path is chosen when
# the module loads, so one build (a wheel) runs at full speed on any x86-64 and builds on ARM.
compile_args = ["-O3", "-fopenmp"]

# CBSOLVE_NATIVE_ONLY=stem1,stem2 builds only those kernels (development: a half-edited kernel
# of one module does not block rebuilding another).
only = {s for s in os.environ.get("CBSOLVE_NATIVE_ONLY", "").split(",") if s}
sources = [src for src in sorted(glob.glob("cbsolve/_native/*.cpp"))
           if not only or os.path.splitext(os.path.basename(src))[0] in only]

# A kernel may keep parts in headers beside it (dfs_*.hpp for dfs.cpp, search_expected_*.hpp for
# search_expected.cpp), and the search kernels share toolkit_*.hpp: listed as depends, a changed
# header rebuilds the kernels, and the sdist ships it.
headers = sorted(glob.glob("cbsolve/_native/*.hpp"))

extensions = [
    Pybind11Extension(
        f"cbsolve._native.{os.path.splitext(os.path.basename(src))[0]}",
        [src],
        depends=headers,
        cxx_std=17,
        extra_compile_args=compile_args,
        extra_link_args=["-fopenmp"],
    )
    for src in sources
]


def _progress_stream():
    """Where build progress goes: the user's terminal when there is one (pip captures the
    backend's output and shows it only with -v), else stderr (CI logs, ``pip install -v``).
    CBSOLVE_BUILD_PROGRESS=0 silences it."""
    if os.environ.get("CBSOLVE_BUILD_PROGRESS") == "0":
        return None
    if not sys.stderr.isatty():
        try:
            return open("/dev/tty", "w")     # kept open for the build
        except OSError:
            pass
    return sys.stderr


class ParallelBuildExt(build_ext):
    """Compiles the kernels in parallel (one compiler a core; CBSOLVE_BUILD_JOBS=N overrides),
    the largest first so the longest compile starts at once, and prints a line as each kernel
    starts and finishes: a fresh install takes about a minute instead of several silent ones."""

    def finalize_options(self):
        super().finalize_options()
        if os.environ.get("CBSOLVE_PORTABLE") == "1":
            # a wheel: recompile every kernel (an object left by an older checkout's build,
            # which compiled with -march=native, must not end up in it)
            self.force = True
        if not self.parallel:
            jobs = os.environ.get("CBSOLVE_BUILD_JOBS")
            self.parallel = int(jobs) if jobs else max(1, len(os.sched_getaffinity(0))
                                                       if hasattr(os, "sched_getaffinity")
                                                       else os.cpu_count() or 1)

    def build_extensions(self):
        # Longest first: a kernel's compile time follows its source and headers' size.
        self.extensions.sort(key=lambda e: -sum(os.path.getsize(f) for f in e.sources))
        self._out = _progress_stream()
        self._lock = threading.Lock()
        self._done = 0
        self._t0, cpu0 = time.monotonic(), os.times()
        self._say(f"cbsolve: compiling {len(self.extensions)} C++ kernels, "
                  f"{self.parallel if self.parallel is not True else 'all'} at a time "
                  "(about a minute on 2 free cores)")
        super().build_extensions()
        cpu1 = os.times()     # the compilers' CPU time: the load-independent figure
        cpu = cpu1.children_user + cpu1.children_system - cpu0.children_user - cpu0.children_system
        self._say(f"cbsolve: kernels built in {time.monotonic() - self._t0:.0f} s "
                  f"(compilers' CPU {cpu:.0f} s)")

    def build_extension(self, ext):
        stem = ext.name.rsplit(".", 1)[-1]
        self._say(f"cbsolve:   {stem} ...")
        t = time.monotonic()
        super().build_extension(ext)
        with self._lock:
            self._done += 1
            done = self._done
        self._say(f"cbsolve:   {stem} done in {time.monotonic() - t:.0f} s "
                  f"[{done}/{len(self.extensions)}]")

    def _say(self, line):
        if self._out is not None:
            with self._lock:
                print(line, file=self._out, flush=True)


setup(ext_modules=extensions, cmdclass={"build_ext": ParallelBuildExt})
