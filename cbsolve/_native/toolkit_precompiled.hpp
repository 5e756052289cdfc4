// The headers every kernel includes, parsed once per build: setup.py precompiles this file
// (GCC) and every kernel's compile takes it with -include. Parsing pybind11 and the standard
// library was about a third of each kernel's compile (3-4 CPU s of 7-25, `-ftime-report`).
// Only headers whose meaning no kernel's own macros change belong here; a kernel still
// includes what it uses itself (it compiles the same without the precompiled copy: a compiler
// that cannot use it reads the headers as usual). No include guard: only -include names this
// file, once a compile (a guard would warn when the file is compiled on its own).

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>
