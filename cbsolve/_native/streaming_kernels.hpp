// The streaming evaluator's hot loop (streaming.cpp holds the strategy and the Python face). No
// include guard: toolkit_isa_each.hpp includes this file once per instruction-set path, each copy
// in its own namespace compiled for that path; streaming.cpp includes what it needs before.
#include "scoring_pack_many.hpp"

// out[j] = reply(guess, code j) for j < count: the guess's words (gp, gc) against a block of
// packed codes laid out as PackedCodes lays them (``layout`` gives the word counts).
inline void replies_block(const PackedCodes& layout, bool bulls_only, const u64* gp,
                          const u64* gc, const u64* bp, const u64* bc, long long count,
                          uint16_t* out) {
    cbsolve_scoring::with_kernel(layout, bulls_only, [&](const auto k) {
        replies_to_many(k, gp, gc, bp, bc, layout.pw, layout.cw, count, out);
    });
}
