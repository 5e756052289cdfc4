// The worst-case search's byte-lane loops, compiled once per instruction set: no include guard,
// toolkit_isa_each.hpp includes this file inside each path's namespace (search_worst.cpp
// includes every header it needs before). Vectors are the path's width (CBSOLVE_VECTOR_BYTES):
// a block of 64 (or 32) guesses is NV such vectors. A single 64-byte vector type on every path
// made GCC 12 compare byte by byte without AVX-512.

constexpr int LV = CBSOLVE_VECTOR_BYTES;
typedef uint8_t Vec __attribute__((vector_size(LV)));

inline Vec splat(uint8_t x) { return Vec{} + x; }
inline Vec load_vec(const uint8_t* p) {
    Vec v;
    std::memcpy(&v, p, LV);
    return v;
}
inline bool any(const Vec& v) {
    uint64_t w[LV / 8];
    std::memcpy(w, &v, LV);
    uint64_t o = 0;
    for (int q = 0; q < LV / 8; ++q) o |= w[q];
    return o != 0;
}

// Class counts of 64 guesses at a time in byte lanes, for limits that fit a byte (the nodes
// with few guesses left, which are most of the search): one compare-and-add per reply and
// secret serves 64 guesses, and a block ends once each of its guesses has a class beyond
// lim. Fills cnt (the survivors' counts, `slots` per guess) and dead like the scalar scan.
// `replies`: the non-winning replies that occur (at most 64); lim <= 200, so counts that pass
// lim by at most 8 before a check stay below 256.
// The rows are a node's secrets, scattered over a reply matrix far larger than the caches,
// and a block reads one cache line of each: with `prefetch` the line PREFETCH rows ahead is
// requested early (the scan waited on memory for most of its time without it).
constexpr size_t PREFETCH = 16;
inline void count_lanes(const std::vector<const uint8_t*>& rows, const std::vector<int>& pool,
                        int lim, const std::vector<int>& replies, int win, int slots, bool prefetch,
                        const SearchControl& ctl, std::vector<uint16_t>& cnt,
                        std::vector<uint8_t>& dead) {
    constexpr int NV = 64 / LV;
    const size_t P = pool.size();
    const int R = static_cast<int>(replies.size());
    const Vec limv = splat(static_cast<uint8_t>(lim));
    Vec rv[64];
    for (int j = 0; j < R; ++j) rv[j] = splat(static_cast<uint8_t>(replies[j]));
    Vec c[64][NV];
    static thread_local int64_t since_clock = 0;
    for (size_t b0 = 0; b0 < P; b0 += 64) {
        // the callers discard a stopped scan
        if ((b0 & 4095) == 0 &&
            ctl.poll_work(since_clock, int64_t(std::min<size_t>(4096, P - b0)) * int64_t(rows.size())))
            break;
        const size_t len = std::min<size_t>(64, P - b0);
        // contiguous guesses are read straight from the row; others gathered
        const bool direct = len == 64 && pool[b0 + 63] - pool[b0] == 63;
        for (int j = 0; j < R; ++j)
            for (int h = 0; h < NV; ++h) c[j][h] = Vec{};
        Vec over[NV] = {};
        alignas(64) uint8_t gathered[64];
        const size_t m = rows.size();
        const bool ahead = prefetch && direct;
        if (ahead)
            for (size_t i = 0; i < std::min(m, PREFETCH); ++i) __builtin_prefetch(rows[i] + pool[b0]);
        for (size_t i = 0; i < m; ++i) {
            if (ahead && i + PREFETCH < m) __builtin_prefetch(rows[i + PREFETCH] + pool[b0]);
            const uint8_t* row = rows[i];
            const uint8_t* src = row + (direct ? pool[b0] : 0);
            if (!direct) {
                for (size_t k = 0; k < 64; ++k) gathered[k] = k < len ? row[pool[b0 + k]] : uint8_t(win);
                src = gathered;
            }
            for (int h = 0; h < NV; ++h) {
                const Vec v = load_vec(src + h * LV);
                for (int j = 0; j < R; ++j) c[j][h] -= (Vec)(v == rv[j]);  // true is 0xFF = -1
            }
            if ((i & 7) == 7 || i + 1 == m) {
                bool all = true;
                for (int h = 0; h < NV; ++h) {
                    for (int j = 0; j < R; ++j) over[h] |= (Vec)(c[j][h] > limv);
                    all = all && !any(~over[h]);
                }
                if (all) break;
            }
        }
        alignas(64) uint8_t over_b[64], cnt_b[64];
        std::memcpy(over_b, over, 64);
        for (size_t k = 0; k < len; ++k) dead[b0 + k] = over_b[k] != 0;
        for (size_t k = 0; k < len; ++k)
            if (!dead[b0 + k]) std::fill_n(&cnt[(b0 + k) * slots], slots, uint16_t(0));
        for (int j = 0; j < R; ++j) {
            std::memcpy(cnt_b, c[j], 64);
            for (size_t k = 0; k < len; ++k)
                if (!dead[b0 + k]) cnt[(b0 + k) * slots + replies[j]] = cnt_b[k];
        }
    }
}

// The first of the guesses 0..n-1 (taken 32 at a time) that splits the m secrets whose rows
// are `rows` into singletons (the winning reply apart), or -1; *tail: where the blocks ended
// (the caller tests the last n % 32 guesses one by one). m <= 64. The m rows are read at the
// same 32 columns (the score is symmetric: row s holds every guess's reply to s), so the reads
// are sequential, and a block stops as soon as each of its guesses has two secrets with one
// reply.
inline int first_splitter(const uint8_t* const* rows, int m, int n, int win, int* tail) {
    constexpr int NV = LV >= 32 ? 1 : 32 / LV;
    constexpr int W = LV >= 32 ? 32 : LV;  // bytes of a vector used
    typedef uint8_t V __attribute__((vector_size(W)));
    auto splat_w = [](uint8_t x) { return V{} + x; };
    V seen[64][NV];
    const V winv = splat_w(static_cast<uint8_t>(win));
    int g0 = 0;
    for (; g0 + 32 <= n; g0 += 32) {
        V alive[NV];
        for (int h = 0; h < NV; ++h) alive[h] = splat_w(0xFF);
        bool dead_block = false;
        for (int i = 0; i < m && !dead_block; ++i) {
            bool some = false;
            for (int h = 0; h < NV; ++h) {
                V v;
                std::memcpy(&v, rows[i] + g0 + h * W, W);
                // the winning reply (guess = secret) collides with nothing: a value of its own
                const V isw = (V)(v == winv);
                v = (v & ~isw) | (splat_w(static_cast<uint8_t>(0x80 + i)) & isw);
                for (int j = 0; j < i; ++j) alive[h] &= ~(V)(v == seen[j][h]);
                seen[i][h] = v;
                uint64_t w[W / 8];
                std::memcpy(w, &alive[h], W);
                for (int q = 0; q < W / 8; ++q) some = some || w[q] != 0;
            }
            dead_block = !some;
        }
        if (dead_block) continue;
        alignas(32) uint8_t a[32];
        std::memcpy(a, alive, 32);
        for (int k = 0; k < 32; ++k)
            if (a[k]) return g0 + k;
    }
    *tail = g0;
    return -1;
}
