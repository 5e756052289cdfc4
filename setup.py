"""Build the native kernels: every cbsolve/_native/*.cpp becomes its own extension module
``cbsolve._native.<stem>`` (one kernel family a file, so adding a kernel touches no build code).

setuptools + pybind11 was chosen over scikit-build-core + nanobind: the kernels are a handful of
flat-array loops with no CMake dependencies, pybind11's NumPy bridge covers them, and an editable
``pip install -e .`` rebuilds in place with nothing beyond a C++ compiler.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import threading
import time

from pybind11.setup_helpers import Pybind11Extension, build_ext
from setuptools import find_packages, setup
from setuptools.errors import CompileError

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


def _compile_weight(source):
    """A kernel's compile work, estimated from the size of its source and the local headers it
    includes (followed), a header it compiles once per instruction-set path (and what that
    header includes) counted three times: strategy.cpp is small, its kernel header large and
    compiled thrice."""
    folder, seen, weight = os.path.dirname(source), set(), 0
    todo = [(os.path.basename(source), 1)]
    while todo:
        name, copies = todo.pop()
        path = os.path.join(folder, name)
        if name in seen or not os.path.exists(path):
            continue
        seen.add(name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        weight += copies * len(text)
        todo += [(m, copies) for m in re.findall(r'#include "([^"]+)"', text)]
        todo += [(m, 3) for m in re.findall(r'#define CBSOLVE_ISA_SOURCE "([^"]+)"', text)]
    return weight


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


# The headers every kernel parses (pybind11, the standard library), precompiled once a build.
PRECOMPILED = "cbsolve/_native/toolkit_precompiled.hpp"


def _is_gcc(command):
    """Whether the compiler command is GCC's (its precompiled headers are what -include finds;
    clang's differ, and a clang that meets a stale one stops rather than reading the header)."""
    try:
        out = subprocess.run([command[0], "--version"], capture_output=True, text=True,
                             timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "Free Software Foundation" in out and "clang" not in out


class ParallelBuildExt(build_ext):
    """Compiles the kernels in parallel (one compiler a core; CBSOLVE_BUILD_JOBS=N overrides),
    the largest first so the longest compile starts at once, and prints a line as each kernel
    starts and finishes: a fresh install takes about a minute instead of several silent ones.

    With GCC and three kernels or more to compile, the headers they all include are precompiled
    first (toolkit_precompiled.hpp, about 5 CPU s once instead of 3-4 in each kernel) while the
    largest kernel, which then starts at once without them, keeps the other core busy; every
    other kernel waits for the precompiled header. If it cannot be built (or GCC rejects it:
    -Winvalid-pch says so) the kernels read the headers as usual: only slower.
    CBSOLVE_BUILD_PCH=0 compiles without it (to measure it).
    """

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
        self.extensions.sort(key=lambda e: -sum(_compile_weight(f) for f in e.sources))
        self._out = _progress_stream()
        self._lock = threading.Lock()
        self._done = 0
        self._t0, cpu0 = time.monotonic(), os.times()
        self._say(f"cbsolve: compiling {len(self.extensions)} C++ kernels, "
                  f"{self.parallel if self.parallel is not True else 'all'} at a time "
                  "(about a minute on 2 free cores)")
        self._pch_ready = threading.Event()
        self._pch_flags = []
        stale = [e for e in self.extensions if self._stale(e)]
        if (len(stale) >= 3 and os.environ.get("CBSOLVE_BUILD_PCH") != "0"
                and _is_gcc(self._cxx_command())):
            self._pch_first = stale[0] if self.parallel not in (None, False, 0, 1) else None
            threading.Thread(target=self._precompile, args=(stale[-1],), daemon=True).start()
        else:
            self._pch_first = None
            self._pch_ready.set()
        super().build_extensions()
        cpu1 = os.times()     # the compilers' CPU time: the load-independent figure
        cpu = cpu1.children_user + cpu1.children_system - cpu0.children_user - cpu0.children_system
        self._say(f"cbsolve: kernels built in {time.monotonic() - self._t0:.0f} s "
                  f"(compilers' CPU {cpu:.0f} s)")

    def _cxx_command(self):
        return getattr(self.compiler, "compiler_so_cxx", None) or getattr(self.compiler,
                                                                           "compiler_so", [""])

    def _stale(self, ext):
        """Whether build_ext will compile this kernel (its own test: forced, or a source or
        header newer than the module)."""
        target = self.get_ext_fullpath(ext.name)
        if self.force or not os.path.exists(target):
            return True
        built = os.path.getmtime(target)
        return any(os.path.getmtime(f) > built for f in [*ext.sources, *ext.depends])

    def _precompile(self, like):
        """Builds toolkit_precompiled.hpp.gch with the compiler and flags of a kernel's compile
        (`like`): GCC uses a precompiled header only when they match. The header is compiled
        under a .cpp name so the build's C++ command line compiles it, then moved beside a copy
        of the header, the path every kernel's -include names."""
        t = time.monotonic()
        try:
            pch_dir = os.path.abspath(os.path.join(self.build_temp, "precompiled"))
            os.makedirs(pch_dir, exist_ok=True)
            header = os.path.join(pch_dir, os.path.basename(PRECOMPILED))
            source = os.path.join(pch_dir, "toolkit_precompiled.cpp")
            shutil.copyfile(PRECOMPILED, header)
            shutil.copyfile(PRECOMPILED, source)
            objects = self.compiler.compile(
                [source], output_dir=pch_dir, include_dirs=like.include_dirs,
                macros=list(like.define_macros), debug=self.debug,
                extra_preargs=["-x", "c++-header"],
                extra_postargs=list(like.extra_compile_args))
            os.replace(objects[0], header + ".gch")
            self._pch_flags = ["-include", header, "-Winvalid-pch"]
            self._say(f"cbsolve:   shared headers precompiled in {time.monotonic() - t:.0f} s")
        except (CompileError, OSError) as e:     # the compiler's own message is above
            why = "the compiler failed" if isinstance(e, CompileError) else e
            self._say(f"cbsolve:   shared headers not precompiled ({why}); compiling without")
        finally:
            self._pch_ready.set()

    def build_extension(self, ext):
        if ext is not self._pch_first:
            self._pch_ready.wait()
            if self._pch_flags and self._pch_flags[1] not in ext.extra_compile_args:
                ext.extra_compile_args = list(ext.extra_compile_args) + self._pch_flags
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


# The packages: cbsolve's, and cbsolve.models, which pyproject.toml maps onto the top-level
# models/ folder (the proved artifacts, one copy; cbsolve/data.py).
packages = [*find_packages(include=["cbsolve*"]), "cbsolve.models"]

setup(ext_modules=extensions, cmdclass={"build_ext": ParallelBuildExt}, packages=packages)
