// The heuristic kernels' hot loops (strategy.cpp holds the checks and the Python face). No
// include guard: toolkit_isa_each.hpp includes this file once per instruction-set path, each copy
// in its own namespace (isa_avx512, isa_avx2, isa_scalar) compiled for that path; every header it
// needs is included by strategy.cpp before.
#include "scoring_pack_many.hpp"

// Selection key: lexicographically smallest wins.
struct Key {
    i128 score;
    int not_candidate;
    int64_t index;
    bool operator<(const Key& o) const {
        if (score != o.score) return score < o.score;
        if (not_candidate != o.not_candidate) return not_candidate < o.not_candidate;
        return index < o.index;
    }
};

const Key WORST{(static_cast<i128>(1) << 126), 1, INT64_MAX};

// Score one guess row incrementally over the candidate columns, abandoning it as soon as it can
// no longer be *strictly* better than ``bound`` (partial scores only grow as candidates are
// added: minimax the largest count so far; expected sum (2c+1) = sum n^2; entropy the
// telescoping sum of T(c+1) - T(c), T(n) = n L(n), exact in integers; parts is abandoned when
// even all remaining candidates opening new classes could not beat it).
// Returns false when abandoned. ``h`` must be zero on entry and is zero again on return.
// ``reply(j)`` gives the reply to candidate j, j = 0, 1, ... in order (read from a matrix row or
// computed on the fly).
template <int H, class Reply, class T>
bool score_row(Reply&& reply, long long C, uint32_t* h, T* rp, int slots, int win,
               int max_classes, const int64_t* dlog, i128 bound, i128& score, bool& cand) {
    const bool store = C <= slots;  // few candidates: reset through the touched slots
    constexpr long long CHECK = 32;  // test the bound every few steps (int64 partial sums)
    long long j = 0;
    bool done = true;
    if (H == MINIMAX) {
        uint32_t mx = 0;
        for (; j < C; ++j) {
            const T r = reply(j);
            if (store) rp[j] = r;
            uint32_t c = ++h[r];
            mx = c > mx ? c : mx;
            if (c >= bound) { ++j; done = false; break; }
        }
        score = mx;
    } else if (H == EXPECTED || H == ENTROPY) {
        int64_t acc = 0;  // each step < 2^58 (see log2_fixed_table): CHECK steps fit in int64
        i128 wide = 0;
        for (; j < C; ++j) {
            const T r = reply(j);
            if (store) rp[j] = r;
            uint32_t c = h[r]++;
            acc += (H == EXPECTED) ? static_cast<int64_t>(2) * c + 1 : dlog[c];
            if ((j & (CHECK - 1)) == CHECK - 1) {
                wide += acc;
                acc = 0;
                if (wide >= bound) { ++j; done = false; break; }
            }
        }
        score = wide + acc;
        if (done && score >= bound) done = false;
    } else {
        int parts = 0;
        for (; j < C; ++j) {
            const T r = reply(j);
            if (store) rp[j] = r;
            parts += h[r]++ == 0;
            if ((j & (CHECK - 1)) == CHECK - 1) {
                long long reach = parts + (C - 1 - j);
                if (reach > max_classes + 1) reach = max_classes + 1;  // + the all-bulls class
                if (-reach >= bound) { ++j; done = false; break; }
            }
        }
        score = -parts;
        if (done && score >= bound) done = false;
    }
    cand = done && h[win] != 0;
    if (store)
        for (long long k = 0; k < j; ++k) h[rp[k]] = 0;
    else
        std::fill(h, h + slots, 0u);
    return done;
}

// Best key over guess rows ``rows[0..R)`` (or every row 0..R when ``rows`` is null), starting
// from ``init``: a row replaces the best only when strictly better in score, or equal in score
// but a candidate where the best is not. Rows are visited in increasing order within a thread,
// so an equal-score row of the same kind loses to the earlier one, as the tie-break demands.
//
// Memory: gathering a few columns from each 5-30 KB matrix row costs a cache miss per entry.
// When the candidates are few, the (symmetric) matrix is read the other way instead: the
// candidates' rows are copied, streaming, into a guess-major buffer buf[i*C + j] =
// M[cols[j]][g_i] = M[g_i][cols[j]] that fits in cache, and each guess reads C contiguous bytes.
template <int H, class T>
Key scan(const T* m, long long S, bool square, const int64_t* rows, long long R,
         const int64_t* cols, long long C, int slots, int win, int max_classes,
         const int64_t* dlog, Key init) {
    Key best = init;
    // Worth it when the gathered entries of a row lie in different cache lines (C << S).
    const bool transpose = square && R >= 64 && C * 32 <= S;
    const bool identity = C == S;  // every code is a candidate: read rows directly
    std::vector<T> buf;
    if (transpose) {
        buf.resize(static_cast<size_t>(R) * C);
        T* b = buf.data();
        constexpr long long BLOCK = 512;  // rows per block: the block's writes stay in cache
        for (long long i0 = 0; i0 < R; i0 += BLOCK) {
            const long long i1 = i0 + BLOCK < R ? i0 + BLOCK : R;
            for (long long j = 0; j < C; ++j) {
                const T* crow = m + cols[j] * S;
                if (rows)
                    for (long long i = i0; i < i1; ++i) b[i * C + j] = crow[rows[i]];
                else
                    for (long long i = i0; i < i1; ++i) b[i * C + j] = crow[i];
            }
        }
    }
    const T* b = buf.data();
#pragma omp parallel if (R * C > 400000)
    {
        // Each thread abandons rows against its own best so far (no shared mutable bound).
        Key local = init;
        std::vector<uint32_t> hist(slots, 0);
        std::vector<T> resp(C <= slots ? C : 0);
#pragma omp for schedule(dynamic, 16) nowait
        for (long long i = 0; i < R; ++i) {
            const int64_t g = rows ? rows[i] : i;
            i128 s;
            bool cand;
            const T* mrow = transpose ? b + i * C : m + g * S;
            const bool ok = transpose || identity
                ? score_row<H>([mrow](long long j) { return mrow[j]; }, C, hist.data(),
                               resp.data(), slots, win, max_classes, dlog, local.score, s, cand)
                : score_row<H>([mrow, cols](long long j) { return mrow[cols[j]]; }, C,
                               hist.data(), resp.data(), slots, win, max_classes, dlog,
                               local.score, s, cand);
            if (!ok) continue;
            Key k{s, cand ? 0 : 1, g};
            if (k < local) local = k;
        }
#pragma omp critical
        if (local < best) best = local;
    }
    return best;
}

// Smallest score any guess that is not a candidate can reach: the candidates split as evenly
// as possible over the ``max_classes`` non-winning replies.
i128 lower_bound_non_candidate(int heur, long long C, int max_classes, const int64_t* lfix) {
    const long long k = max_classes, q = C / k, r = C % k;
    switch (heur) {
        case MINIMAX: return q + (r ? 1 : 0);
        case EXPECTED: return static_cast<i128>(r) * (q + 1) * (q + 1) + static_cast<i128>(k - r) * q * q;
        case ENTROPY:
            return (r ? static_cast<i128>(r) * (q + 1) * lfix[q + 1] : 0) +
                   static_cast<i128>(k - r) * q * lfix[q];
        default: return -(C < k ? C : k);
    }
}

// The two passes over the guesses. ``scan(rows, R, init)`` returns the best key over guess
// codes ``rows[0..R)`` (null: every code 0..R) starting from ``init``. ``all_candidates``: every
// code is a candidate (pass 2 would see the same guesses again).
template <int H, class Scan>
int64_t best_two_pass(Scan&& scan, const int64_t* rows, long long R, const int64_t* cols,
                      long long C, bool all_candidates, int max_classes, const int64_t* lfix,
                      bool candidates_only) {
    // Pass 1: the candidates as guesses (those among ``rows`` when it is given: the rows hold
    // one guess of every class). Candidates are usually near the best, and a non-candidate
    // must then be strictly better, which lets pass 2 abandon rows early.
    std::vector<int64_t> both;
    if (rows && !candidates_only) {  // both lists are sorted ascending
        std::set_intersection(rows, rows + R, cols, cols + C, std::back_inserter(both));
        if (both.empty()) both.push_back(rows[0]);  // pass 1 only needs some guess
    }
    Key best = both.empty() ? scan(candidates_only && rows ? rows : cols,
                                   candidates_only && rows ? R : C, WORST)
                            : scan(both.data(), static_cast<long long>(both.size()), WORST);
    if (candidates_only || all_candidates ||
        best.score <= lower_bound_non_candidate(H, C, max_classes, lfix))
        return best.index;
    // Pass 2: every guess (candidates again cannot beat ``best``).
    return scan(rows, R, best).index;
}


// Calls ``f(std::integral_constant<int, H>{})`` for the run-time heuristic id.
template <class F>
int64_t with_heuristic(int heur, F&& f) {
    switch (heur) {
        case MINIMAX: return f(std::integral_constant<int, MINIMAX>{});
        case EXPECTED: return f(std::integral_constant<int, EXPECTED>{});
        case ENTROPY: return f(std::integral_constant<int, ENTROPY>{});
        default: return f(std::integral_constant<int, PARTS>{});
    }
}


// --- scoring on the fly --------------------------------------------------------------------
// Without a score matrix, replies are computed from packed codes (scoring_pack.hpp) in blocks
// of BLOCK candidates: the block loop vectorises (AVX-512 VPOPCNTQ where the CPU has it), and a
// row abandoned early leaves the rest of its blocks uncomputed.


constexpr long long BLOCK = 64;

// Replies of one code to many: out[t] = reply((pa, ca), (pb + t * ps, cb + t * cs)), t < count.
// The scans below take the kernel in one of two forms. Direct<K> inlines it: the scans are
// compiled for that shape. Replies holds any shape behind a function pointer: the scans are
// compiled once for all of them. Ten shapes times four heuristics times three instruction sets
// made this file a third of the build's compile time; the shapes of Mastermind, Logik and
// Bulls & Cows (one position word, one count word) stay direct, since a call scores only 64
// codes and, on those, the indirect call cost 1-9% of a Logik evaluation (measured A/B); the
// others (longer codes, more symbols) go through the pointer.
template <class K>
struct Direct {
    K k;
    template <class T>
    void operator()(const u64* pa, const u64* ca, const u64* pb, const u64* cb, long long ps,
                    long long cs, long long count, T* out) const {
        replies_to_many(k, pa, ca, pb, cb, ps, cs, count, out);
    }
};

class Replies {
  public:
    template <class K>
    static Replies of(const K& k) {
        static_assert(sizeof(K) <= sizeof(kernel_) && std::is_trivially_copyable<K>::value,
                      "a kernel is a few ints");
        Replies r;
        new (r.kernel_) K(k);
        r.to16_ = &call<K, uint16_t>;
        r.to8_ = &call<K, uint8_t>;
        return r;
    }
    void operator()(const u64* pa, const u64* ca, const u64* pb, const u64* cb, long long ps,
                    long long cs, long long count, uint16_t* out) const {
        to16_(kernel_, pa, ca, pb, cb, ps, cs, count, out);
    }
    void operator()(const u64* pa, const u64* ca, const u64* pb, const u64* cb, long long ps,
                    long long cs, long long count, uint8_t* out) const {
        to8_(kernel_, pa, ca, pb, cb, ps, cs, count, out);
    }

  private:
    template <class T>
    using Fn = void (*)(const void*, const u64*, const u64*, const u64*, const u64*, long long,
                        long long, long long, T*);
    template <class K, class T>
    static void call(const void* k, const u64* pa, const u64* ca, const u64* pb, const u64* cb,
                     long long ps, long long cs, long long count, T* out) {
        replies_to_many(*static_cast<const K*>(k), pa, ca, pb, cb, ps, cs, count, out);
    }
    alignas(16) unsigned char kernel_[32];
    Fn<uint16_t> to16_ = nullptr;
    Fn<uint8_t> to8_ = nullptr;
};

// Replies of one guess to the gathered candidates, produced in order, one block at a time.
template <class Rep>
struct PackedReplies {
    const Rep& k;
    const u64 *gp, *gc, *cp, *cc;
    long long C, pw, cw;
    uint16_t* buf;
    long long base = 0, end = 0;
    inline uint16_t operator()(long long j) {
        if (j >= end) fill(j);
        return buf[j - base];
    }
    void fill(long long j) {
        const long long e = std::min(C, j + BLOCK);
        k(gp, gc, cp + j * pw, cc + j * cw, pw, cw, e - j, buf);
        base = j;
        end = e;
    }
};

// Best key over guess codes ``rows[0..R)`` (null: codes 0..R) against the gathered candidate
// words ``cp``/``cc`` (C of them), starting from ``init``; same rules as ``scan``.
template <int H, class Rep>
Key scan_packed(const Rep& k, const PackedCodes& space, const int64_t* rows, long long R,
                const u64* cp, const u64* cc, long long C, int slots, int win, int max_classes,
                const int64_t* dlog, Key init) {
    Key best = init;
    const long long pw = space.pw, cw = space.cw;
    const u64 *const sp = space.pos.data(), *const sc = space.cnt.data();
#pragma omp parallel if (R * C > 200000)
    {
        Key local = init;
        std::vector<uint32_t> hist(slots, 0);
        std::vector<uint16_t> resp(C <= slots ? C : 0);
        std::vector<uint16_t> buf(BLOCK);
#pragma omp for schedule(dynamic, 64) nowait
        for (long long i = 0; i < R; ++i) {
            const int64_t g = rows ? rows[i] : i;
            PackedReplies<Rep> reply{k, sp + g * pw, sc + g * cw, cp, cc, C, pw, cw, buf.data()};
            i128 s;
            bool cand;
            if (!score_row<H>(reply, C, hist.data(), resp.data(), slots, win, max_classes, dlog,
                              local.score, s, cand))
                continue;
            Key key{s, cand ? 0 : 1, g};
            if (key < local) local = key;
        }
#pragma omp critical
        if (local < best) best = local;
    }
    return best;
}

// Few candidates (C <= SMALL_C, replies < 256): a guess costs little more than its C replies, so
// per-guess overheads (histogram reset, early-abandon checks) would dominate. Instead a block of
// SMALL_B guesses is scored at once, lane by lane, from pairwise comparisons of the replies: the
// class of candidate j has size cnt_j = #{k : r_k = r_j}, hence
//   largest class = max_j cnt_j,  sum n^2 = sum_j cnt_j,  sum n L(n) = sum_j L(cnt_j),
//   classes = #{j : r_k != r_j for all k < j}.
// Every loop over the block's lanes vectorises. The result is the exact minimum key, as ``scan``.
constexpr long long SMALL_C = 96;
static_assert(SMALL_C < 255, "class sizes are counted in uint8 lanes");
constexpr long long SMALL_B = 64;
// The block's lanes in vectors of the path's width (CBSOLVE_VECTOR_BYTES: 64 on AVX-512, 32 on
// AVX2, 16 otherwise), NV of them. One 64-byte vector type on every path was the AVX2
// slowdown: GCC 12 splits a 64-byte add into two AVX2 halves but lowers a 64-byte compare lane
// by lane (cmp/sete per byte), which made AVX2 10x slower than AVX-512 here.
constexpr int LV = CBSOLVE_VECTOR_BYTES;
constexpr int NV = int(SMALL_B) / LV;
typedef uint8_t Lanes __attribute__((vector_size(LV)));

inline Lanes load_lanes(const uint8_t* p) {
    Lanes v;
    std::memcpy(&v, p, LV);
    return v;
}

// Scores of the SMALL_B guesses of a block from their replies resp[j * SMALL_B + b] to the C
// candidates (lane b: guess b): score[b] and hit[b] (the guess is a candidate).
template <int H>
void block_scores(const uint8_t* resp, long long C, int win, const int64_t* lfix, i128* score,
                  uint8_t* hit) {
    const Lanes w = Lanes{} + static_cast<uint8_t>(win);
    Lanes mxv[NV] = {}, partsv[NV] = {}, hitv[NV] = {};
    alignas(64) uint8_t cnt[SMALL_B];
    alignas(64) uint32_t total[SMALL_B] = {};
    int64_t ent[SMALL_B] = {};  // L(n) < 2^55 for n <= SMALL_C, so SMALL_C terms fit in int64
    for (long long j = 0; j < C; ++j) {
        Lanes rj[NV], cntv[NV] = {}, dupv[NV] = {};
        for (int v = 0; v < NV; ++v) rj[v] = load_lanes(resp + j * SMALL_B + v * LV);
        for (long long q = 0; q < C; ++q)
            for (int v = 0; v < NV; ++v) {
                const Lanes eq = reinterpret_cast<Lanes>(load_lanes(resp + q * SMALL_B + v * LV) == rj[v]);
                cntv[v] -= eq;  // eq lanes are 0xFF (-1) where equal
                if (H == PARTS && q < j) dupv[v] |= eq;
            }
        for (int v = 0; v < NV; ++v) {
            hitv[v] |= reinterpret_cast<Lanes>(rj[v] == w);
            if (H == MINIMAX) mxv[v] = mxv[v] > cntv[v] ? mxv[v] : cntv[v];
            if (H == PARTS) partsv[v] -= reinterpret_cast<Lanes>(dupv[v] == 0);
        }
        if (H == EXPECTED || H == ENTROPY) {
            std::memcpy(cnt, cntv, SMALL_B);
            if (H == EXPECTED)
                for (long long b = 0; b < SMALL_B; ++b) total[b] += cnt[b];
            else
                for (long long b = 0; b < SMALL_B; ++b) ent[b] += lfix[cnt[b]];
        }
    }
    alignas(64) uint8_t mx[SMALL_B], parts[SMALL_B];
    std::memcpy(mx, mxv, SMALL_B);
    std::memcpy(parts, partsv, SMALL_B);
    std::memcpy(hit, hitv, SMALL_B);
    for (long long b = 0; b < SMALL_B; ++b)
        score[b] = H == MINIMAX ? i128(mx[b]) : H == EXPECTED ? i128(total[b])
                 : H == ENTROPY ? i128(ent[b]) : -i128(parts[b]);
}

template <int H, class Rep>
Key scan_small(const Rep& k, const PackedCodes& space, const int64_t* rows, long long R,
               const u64* cp, const u64* cc, long long C, int win, const int64_t* lfix,
               Key init) {
    Key best = init;
    const long long pw = space.pw, cw = space.cw;
    const u64 *const sp = space.pos.data(), *const sc = space.cnt.data();
    const long long blocks = (R + SMALL_B - 1) / SMALL_B;
#pragma omp parallel if (R * C > 200000)
    {
        Key local = init;
        std::vector<u64> gpos(SMALL_B * pw), gcnt(SMALL_B * cw);
        std::vector<uint8_t> resp(C * SMALL_B);
        i128 score[SMALL_B];
        alignas(64) uint8_t hit[SMALL_B];
#pragma omp for schedule(dynamic, 4) nowait
        for (long long blk = 0; blk < blocks; ++blk) {
            const long long i0 = blk * SMALL_B, nb = std::min(SMALL_B, R - i0);
            for (long long b = 0; b < SMALL_B; ++b) {  // gather (pad the tail with the first)
                const int64_t g = rows ? rows[i0 + (b < nb ? b : 0)] : i0 + (b < nb ? b : 0);
                std::copy_n(sp + g * pw, pw, gpos.data() + b * pw);
                std::copy_n(sc + g * cw, cw, gcnt.data() + b * cw);
            }
            for (long long j = 0; j < C; ++j)  // the score is symmetric: candidate j against all
                k(cp + j * pw, cc + j * cw, gpos.data(), gcnt.data(), pw, cw, SMALL_B,
                  resp.data() + j * SMALL_B);
            block_scores<H>(resp.data(), C, win, lfix, score, hit);
            for (long long b = 0; b < nb; ++b) {
                const Key key{score[b], hit[b] ? 0 : 1, rows ? rows[i0 + b] : i0 + b};
                if (key < local) local = key;
            }
        }
#pragma omp critical
        if (local < best) best = local;
    }
    return best;
}

// --- entry points: strategy.cpp checks the arguments, then calls the path in use -----------

// Best guess over a score matrix (arguments as ``best_guess_matrix``, as raw arrays).
template <class T>
int64_t best_matrix(const T* m, long long S, long long NR, const int64_t* rr, long long R,
                    const int64_t* cc, long long C, int slots, int win, int max_classes, int heur,
                    bool candidates_only, const int64_t* lf, const int64_t* d) {
    const bool sq = S == NR;  // the full symmetric matrix: all codes against all codes
    return with_heuristic(heur, [&](auto h) {
        constexpr int H = decltype(h)::value;
        auto sc = [&](const int64_t* g, long long n, Key init) {
            return scan<H>(m, S, sq, g, n, cc, C, slots, win, max_classes, d, init);
        };
        return best_two_pass<H>(sc, rr, R, cc, C, !rr && C == R, max_classes, lf,
                                candidates_only);
    });
}

// Best guess scored on the fly (arguments as ``best_guess_packed``; ``cpos``/``ccnt`` the
// candidates' words, gathered).
int64_t best_packed(const PackedCodes& sp, bool bulls_only, const int64_t* rr, long long R,
                    const int64_t* cc, long long C, const u64* cpos, const u64* ccnt, int slots,
                    int win, int max_classes, int heur, bool candidates_only, const int64_t* lf,
                    const int64_t* d) {
    auto run = [&](const auto& k) {
        return with_heuristic(heur, [&](auto h) {
            constexpr int H = decltype(h)::value;
            const bool small = C <= SMALL_C && slots <= 256;
            auto sc = [&](const int64_t* g, long long n, Key init) {
                if (small) return scan_small<H>(k, sp, g, n, cpos, ccnt, C, win, lf, init);
                return scan_packed<H>(k, sp, g, n, cpos, ccnt, C, slots, win, max_classes, d,
                                      init);
            };
            return best_two_pass<H>(sc, rr, R, cc, C, !rr && C == R, max_classes, lf,
                                    candidates_only);
        });
    };
    if (sp.pw == 1 && sp.cw == 1)   // Mastermind, Logik, Bulls & Cows: the kernel inlined
        return bulls_only ? run(Direct<Kernel<1, 1, true>>{Kernel<1, 1, true>(sp)})
                          : run(Direct<Kernel<1, 1, false>>{Kernel<1, 1, false>(sp)});
    Replies k;
    with_kernel(sp, bulls_only, [&](const auto kernel) { k = Replies::of(kernel); });
    return run(k);
}
