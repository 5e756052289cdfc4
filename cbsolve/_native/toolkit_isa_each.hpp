// Includes the file named by CBSOLVE_ISA_SOURCE once per instruction-set path, each copy in its
// own namespace and compiled for that path (toolkit_isa.hpp says why). CBSOLVE_VECTOR_BYTES
// is the path's vector width for the copies that size their GCC vector types by it,
// CBSOLVE_ISA_LEVEL the path (cbsolve_isa::Isa) for code written for one path: GCC's pragma
// does not define __AVX2__ and the like in C++. No include guard: a
// kernel includes this once per hot-loop file, after every header that file needs (the copies
// must not include system headers inside their namespaces).
//
// The targets name instruction sets only, never an architecture or a tuning: GCC inlines an
// ordinary function (the pair kernel, std::min, a lambda) into a target function only when the
// two agree on architecture and tuning, and the hot loops are made of such calls.
#ifndef CBSOLVE_ISA_SOURCE
#error "define CBSOLVE_ISA_SOURCE before including toolkit_isa_each.hpp"
#endif
#include "toolkit_isa.hpp"

// The copies pass vectors among their own inline functions only, never across a module's edge:
// GCC's warning that a 64-byte vector argument's ABI differs without AVX-512 does not apply.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

#ifdef CBSOLVE_ISA_X86
#pragma GCC push_options
#pragma GCC target("avx2,fma,bmi,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512dq,avx512cd,avx512vpopcntdq")
#define CBSOLVE_VECTOR_BYTES 64
#define CBSOLVE_ISA_LEVEL 2
namespace isa_avx512 {
#include CBSOLVE_ISA_SOURCE
}  // namespace isa_avx512
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx2,fma,bmi,bmi2,popcnt")
#undef CBSOLVE_VECTOR_BYTES
#undef CBSOLVE_ISA_LEVEL
#define CBSOLVE_VECTOR_BYTES 32
#define CBSOLVE_ISA_LEVEL 1
namespace isa_avx2 {
#include CBSOLVE_ISA_SOURCE
}  // namespace isa_avx2
#pragma GCC pop_options
#undef CBSOLVE_VECTOR_BYTES
#undef CBSOLVE_ISA_LEVEL
#endif

#define CBSOLVE_VECTOR_BYTES 16  // SSE2 (every x86-64), NEON
#define CBSOLVE_ISA_LEVEL 0
namespace isa_scalar {
#include CBSOLVE_ISA_SOURCE
}  // namespace isa_scalar
#undef CBSOLVE_VECTOR_BYTES
#undef CBSOLVE_ISA_LEVEL

#undef CBSOLVE_ISA_SOURCE
#pragma GCC diagnostic pop
