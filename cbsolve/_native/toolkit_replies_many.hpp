// PackedScorer's loops (toolkit_replies.hpp), compiled once per instruction set: no include
// guard, toolkit_isa_each.hpp includes this file inside each path's namespace. Without them the
// exact searches' on-the-fly replies would run the portable build's library popcount on every
// processor.
using cbsolve_scoring::u64;
#include "scoring_pack_many.hpp"

// out[j] = reply(a, b[j]) for j < count.
inline void packed_many(const cbsolve_scoring::PackedCodes& p, bool bulls_only, int a,
                        const int* b, size_t count, uint8_t* out) {
    cbsolve_scoring::with_kernel(p, bulls_only, [&](const auto k) {
        const auto kk = k;
        const u64 *pa = &p.pos[size_t(a) * p.pw], *ca = &p.cnt[size_t(a) * p.cw];
        for (size_t j = 0; j < count; ++j)
            out[j] = uint8_t(kk(pa, ca, &p.pos[size_t(b[j]) * p.pw], &p.cnt[size_t(b[j]) * p.cw]));
    });
}

// out[j] = reply(a, b0 + j) for j < count.
inline void packed_range(const cbsolve_scoring::PackedCodes& p, bool bulls_only, int a, int b0,
                         size_t count, uint8_t* out) {
    cbsolve_scoring::with_kernel(p, bulls_only, [&](const auto k) {
        replies_to_many(k, &p.pos[size_t(a) * p.pw], &p.cnt[size_t(a) * p.cw],
                        &p.pos[size_t(b0) * p.pw], &p.cnt[size_t(b0) * p.cw], p.pw, p.cw,
                        static_cast<long long>(count), out);
    });
}
