// The instruction set a kernel runs with, chosen at run time (one portable build, fast
// on AVX-512 and on AVX2, correct on any x86-64 and on ARM).
//
// How: a kernel's hot loops live in a header of their own (strategy_kernels.hpp, ...) that
// toolkit_isa_each.hpp includes once per path, each copy in its own namespace and compiled for
// its instruction set by `#pragma GCC target` (isa_avx512, isa_avx2, isa_scalar); CBSOLVE_ISA_CALL
// calls the copy of the path in use. Chosen over the alternatives (measured or tried, see
// docs/architecture.md, "Instruction sets"): GCC `target_clones` clones one function, not the
// templates, lambdas and OpenMP regions the loops are made of; one extension module per path
// would compile the pybind11 bindings three times (the slow part of the build); a portable SIMD
// library (Highway, xsimd) would mean rewriting the loops that GCC's vector types and its
// vectoriser already write well for each target. Only the hot loops are compiled three times.
//
// The path: the best the processor has (AVX-512 needs F, BW, VL, DQ, CD and VPOPCNTDQ; AVX2
// needs AVX2, FMA, BMI1/2 and POPCNT), or CBSOLVE_ISA=scalar|avx2|avx512 in the environment when
// the processor has it (benchmarks, tests; a path it lacks falls back to the best it has), or
// set_isa() from Python (cbsolve/runtime/isa.py, which sets every kernel module at once). Each extension
// module keeps its own choice: they are separate shared objects.
#pragma once

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// CBSOLVE_ISA_BASELINE_ONLY builds the baseline path alone, as on ARM (a compile check on x86).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(CBSOLVE_ISA_BASELINE_ONLY)
#define CBSOLVE_ISA_X86 1
#include <immintrin.h>  // the copies' intrinsics (each under its target's macro, e.g. __AVX2__)
#endif

namespace cbsolve_isa {

enum Isa : int { SCALAR = 0, AVX2 = 1, AVX512 = 2 };

inline const char* name(Isa isa) { return isa == AVX512 ? "avx512" : isa == AVX2 ? "avx2" : "scalar"; }

// Whether this processor (and its operating system: libgcc checks the saved register state)
// runs the path.
inline bool supported(Isa isa) {
#ifdef CBSOLVE_ISA_X86
    __builtin_cpu_init();
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                      __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
                      __builtin_cpu_supports("popcnt");
    if (isa == AVX2) return avx2;
    if (isa == AVX512)
        return avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512vpopcntdq");
    return true;
#else
    return isa == SCALAR;
#endif
}

inline Isa best() { return supported(AVX512) ? AVX512 : supported(AVX2) ? AVX2 : SCALAR; }

// -1 for a name that is not a path.
inline int parse(const char* s) {
    if (!s) return -1;
    for (int i = SCALAR; i <= AVX512; ++i)
        if (std::strcmp(s, name(Isa(i))) == 0) return i;
    return -1;
}

// The environment's request when the processor has it, else the best path.
inline Isa initial() {
    const int asked = parse(std::getenv("CBSOLVE_ISA"));
    return asked >= 0 && supported(Isa(asked)) ? Isa(asked) : best();
}

// This module's path (one per shared object: the header's inline variable lives in each).
inline Isa& current() {
    static Isa isa = initial();
    return isa;
}

// Sets this module's path; false (unchanged) when the name is unknown or the processor lacks it.
inline bool set(const std::string& s) {
    const int isa = parse(s.c_str());
    if (isa < 0 || !supported(Isa(isa))) return false;
    current() = Isa(isa);
    return true;
}

inline std::vector<std::string> available() {
    std::vector<std::string> out;
    for (int i = SCALAR; i <= AVX512; ++i)
        if (supported(Isa(i))) out.push_back(name(Isa(i)));
    return out;
}

}  // namespace cbsolve_isa

// fn(args...) of the path in use: isa_avx512::fn, isa_avx2::fn or isa_scalar::fn (the copies
// toolkit_isa_each.hpp made).
#ifdef CBSOLVE_ISA_X86
#define CBSOLVE_ISA_CALL(fn, ...)                                              \
    (cbsolve_isa::current() == cbsolve_isa::AVX512 ? isa_avx512::fn(__VA_ARGS__) \
     : cbsolve_isa::current() == cbsolve_isa::AVX2 ? isa_avx2::fn(__VA_ARGS__)   \
                                                   : isa_scalar::fn(__VA_ARGS__))
#else
#define CBSOLVE_ISA_CALL(fn, ...) isa_scalar::fn(__VA_ARGS__)
#endif

// The Python face of a module's path: isa(), set_isa(name) -> bool, isa_paths().
#define CBSOLVE_ISA_BIND(m)                                                                   \
    m.def("isa", [] { return std::string(cbsolve_isa::name(cbsolve_isa::current())); },    \
          "The instruction-set path this module's kernels run (avx512, avx2 or scalar).");  \
    m.def("set_isa", &cbsolve_isa::set, pybind11::arg("name"),                                \
          "Run this module's kernels on the path named; False if the processor lacks it.");  \
    m.def("isa_paths", [] {                                                                  \
        pybind11::list out;                                                                   \
        for (const std::string& s : cbsolve_isa::available()) out.append(s);                  \
        return out;                                                                           \
    }, "The paths this processor can run.")
