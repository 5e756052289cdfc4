// The expected-case search's reply-set loop, compiled once per instruction set: no include
// guard, toolkit_isa_each.hpp includes this file inside each path's namespace
// (search_expected.cpp includes every header it needs before).

// The replies each code g0..g0+m-1 gives the secrets whose transposed rows are rows[0..n), as
// bit sets (bit r: compact reply r < 32, bit 0 the win), then each as one byte into out[0..m):
// its non-winning replies (classes) in bits 0-5, bit 7 set when it wins (a candidate). One
// shift and OR per code and secret over contiguous rows: AVX2 shifts 8 lanes at once.
inline int set_popcount(uint32_t x) {
#if CBSOLVE_ISA_LEVEL >= 1
    return __builtin_popcount(x);  // POPCNT on these paths
#else
    x = x - ((x >> 1) & 0x55555555u);  // the baseline has no POPCNT: a library call otherwise
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return int((((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
#endif
}

inline void reply_set_bytes(const uint8_t* const* rows, int n, int g0, int m, uint32_t* masks,
                            uint8_t* out) {
    for (int j = 0; j < m; ++j) masks[j] = 0;
    for (int i = 0; i < n; ++i) {
        const uint8_t* r = rows[i] + g0;
        for (int j = 0; j < m; ++j) masks[j] |= 1u << r[j];
    }
    for (int j = 0; j < m; ++j)
        out[j] = uint8_t(set_popcount(masks[j] & ~1u) | (masks[j] & 1u) << 7);
}
