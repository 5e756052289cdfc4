"""Build the native kernels: every cbsolve/_native/*.cpp becomes its own extension module
``cbsolve._native.<stem>`` (one kernel family a file, so adding a kernel touches no build code).

setuptools + pybind11 was chosen over scikit-build-core + nanobind: the kernels are a handful of
flat-array loops with no CMake dependencies, pybind11's NumPy bridge covers them, and an editable
``pip install -e .`` rebuilds in place with nothing beyond a C++ compiler.
"""
import glob
import os

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

setup(ext_modules=extensions, cmdclass={"build_ext": build_ext})
