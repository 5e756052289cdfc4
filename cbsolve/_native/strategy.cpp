// Native heuristic kernels: score every guess by the partition it induces on the candidates and
// return the best one, with the project's tie-break (best score, then a guess that is still a
// candidate, then the lowest code index).
//
// Heuristics (every score is an exact integer, lower is better):
//   0 minimax   largest class                         (Knuth 1977)
//   1 expected  sum of squared class sizes            (Irving 1979; proportional to E|class|)
//   2 entropy   sum of n*log2(n) over classes         (Neuwirth 1982; minimising it maximises
//               the entropy log2|C| - sum n log2 n / |C|). log2 is a fixed-point table built
//               additively over prime factors (L(ab) = L(a) + L(b)), so equal multisets of class
//               sizes -- and more generally equal prod n^n -- give bit-identical integer sums in
//               any summation order; only values closer than ~1e-9 bits could be misordered.
//   3 parts     number of classes, negated            (Kooi 2005)
// The all-bulls class of a candidate guess (size 1) is a class like any other.
//
// A guess is a candidate iff its histogram has an all-bulls entry (the guess set and the
// candidate set are subsets of one code space, and only equal codes score all bulls).
// Python owns validation and I/O; these are flat loops over a precomputed score matrix
// (rows = guesses, columns = secrets) or over replies computed on the fly from packed codes.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cmath>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "scoring_pack.hpp"

namespace py = pybind11;
using i128 = __int128;
using cbsolve_scoring::PackedCodes;
using cbsolve_scoring::u64;
using cbsolve_scoring::with_kernel;

namespace {

enum Heuristic { MINIMAX = 0, EXPECTED = 1, ENTROPY = 2, PARTS = 3 };

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

// Entropy steps T(c+1) - T(c) with T(n) = n L(n), c = 0..C-1: each < 2^58, exact in integers.
std::vector<int64_t> entropy_steps(int heur, long long C, const int64_t* lf) {
    std::vector<int64_t> dlog;
    if (heur == ENTROPY) {
        dlog.resize(C + 1);
        for (long long c = 0; c < C; ++c)
            dlog[c] = static_cast<int64_t>(static_cast<i128>(c + 1) * lf[c + 1] -
                                           static_cast<i128>(c) * lf[c]);
    }
    return dlog;
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

void check_heuristic(int heur) {
    if (heur < 0 || heur > 3) throw std::invalid_argument("heuristic must be 0..3");
}

// The arguments of one node: candidate columns increasing and below ``ncols``, guess rows (null:
// all) increasing and below ``nrows``, a log table long enough for entropy.
void check_node(const int64_t* rows, long long R, const int64_t* cols, long long C,
                long long ncols, long long nrows, int max_classes, int heur, long long lsize) {
    if (C == 0) throw std::invalid_argument("no candidates");
    if (max_classes < 1) throw std::invalid_argument("max_classes must be >= 1");
    for (long long j = 0; j < C; ++j)
        if (cols[j] < 0 || cols[j] >= ncols || (j && cols[j] <= cols[j - 1]))
            throw std::out_of_range("columns must be increasing valid indices");
    for (long long i = 0; rows && i < R; ++i)
        if (rows[i] < 0 || rows[i] >= nrows || (i && rows[i] <= rows[i - 1]))
            throw std::out_of_range("rows must be increasing valid indices");
    if (heur == ENTROPY && lsize <= C) throw std::invalid_argument("log table too short");
}

// Best guess over a score matrix (rows = guesses, columns = secrets, symmetric code space).
// ``cols``: candidate code indices, sorted ascending. ``rows``: the guess code indices to try,
// sorted ascending (empty = every row); it must contain, for every guess, the lowest code
// equivalent to it (all codes, or orbit representatives). ``candidates_only``: guesses are the
// candidates alone (``rows``, when given, then holds only candidates). ``max_classes``: number of non-winning replies the variant can give.
// ``lfix``: fixed-point log2 table covering 0..C (entropy only).
template <class T>
int64_t best_guess_matrix(py::array_t<T, py::array::c_style> matrix,
                          py::array_t<int64_t, py::array::c_style> rows,
                          py::array_t<int64_t, py::array::c_style> cols, int slots, int win,
                          int max_classes, int heur, bool candidates_only,
                          py::array_t<int64_t, py::array::c_style> lfix) {
    check_heuristic(heur);
    if (matrix.ndim() != 2) throw std::invalid_argument("matrix must be 2-D");
    const long long S = matrix.shape(1), NR = matrix.shape(0);
    const long long C = cols.size();
    const bool all_rows = rows.size() == 0;
    const long long R = all_rows ? NR : rows.size();
    const int64_t* cc = cols.data();
    const int64_t* rr = all_rows ? nullptr : rows.data();
    check_node(rr, R, cc, C, std::min(S, NR), NR, max_classes, heur, lfix.size());
    const T* m = matrix.data();
    const int64_t* lf = lfix.data();
    py::gil_scoped_release nogil;
    if (C <= 2) return cc[0];  // the lowest candidate splits them: optimal and tie-break winner
    const std::vector<int64_t> dlog = entropy_steps(heur, C, lf);
    const int64_t* d = dlog.data();
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

// --- scoring on the fly --------------------------------------------------------------------
// Without a score matrix, replies are computed from packed codes (scoring_pack.hpp) in blocks
// of BLOCK candidates: the block loop vectorises (AVX-512 VPOPCNTQ where the CPU has it), and a
// row abandoned early leaves the rest of its blocks uncomputed.

// The whole code space packed once, with its feedback mode (the Python Chooser keeps one).
struct PackedSpace {
    PackedCodes codes;
    bool bulls_only;
    PackedSpace(py::array_t<uint8_t, py::array::c_style | py::array::forcecast> c, int n_symbols,
                bool repeats, bool bulls_only_)
        : codes(c, n_symbols, repeats), bulls_only(bulls_only_) {}
};

constexpr long long BLOCK = 64;

// Replies of one guess to the gathered candidates, produced in order, one block at a time.
template <class K>
struct PackedReplies {
    K k;
    const u64 *gp, *gc, *cp, *cc;
    long long C, pw, cw;
    uint16_t* buf;
    long long base = 0, end = 0;
    inline uint16_t operator()(long long j) {
        if (j >= end) fill(j);
        return buf[j - base];
    }
    void fill(long long j) {
        const K kk = k;
        const long long e = std::min(C, j + BLOCK), ps = pw, cs = cw;
        const u64 *const pa = gp, *const ca = gc, *const pb = cp, *const cb = cc;
        uint16_t* const out = buf - j;
        for (long long t = j; t < e; ++t) out[t] = static_cast<uint16_t>(kk(pa, ca, pb + t * ps, cb + t * cs));
        base = j;
        end = e;
    }
};

// Best key over guess codes ``rows[0..R)`` (null: codes 0..R) against the gathered candidate
// words ``cp``/``cc`` (C of them), starting from ``init``; same rules as ``scan``.
template <int H, class K>
Key scan_packed(const K& k, const PackedCodes& space, const int64_t* rows, long long R,
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
            PackedReplies<K> reply{k, sp + g * pw, sc + g * cw, cp, cc, C, pw, cw, buf.data()};
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
typedef uint8_t Lanes __attribute__((vector_size(SMALL_B)));

inline Lanes load_lanes(const uint8_t* p) {
    Lanes v;
    std::memcpy(&v, p, SMALL_B);
    return v;
}

template <int H, class K>
Key scan_small(const K& k, const PackedCodes& space, const int64_t* rows, long long R,
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
        alignas(64) uint8_t cnt[SMALL_B], mx[SMALL_B], parts[SMALL_B], hit[SMALL_B];
        alignas(64) uint32_t total[SMALL_B];
#pragma omp for schedule(dynamic, 4) nowait
        for (long long blk = 0; blk < blocks; ++blk) {
            const long long i0 = blk * SMALL_B, nb = std::min(SMALL_B, R - i0);
            for (long long b = 0; b < SMALL_B; ++b) {  // gather (pad the tail with the first)
                const int64_t g = rows ? rows[i0 + (b < nb ? b : 0)] : i0 + (b < nb ? b : 0);
                std::copy_n(sp + g * pw, pw, gpos.data() + b * pw);
                std::copy_n(sc + g * cw, cw, gcnt.data() + b * cw);
            }
            const K kk = k;
            for (long long j = 0; j < C; ++j) {
                uint8_t* const r = resp.data() + j * SMALL_B;
                const u64 *const pb = cp + j * pw, *const cb = cc + j * cw;
                const u64 *const pa = gpos.data(), *const ca = gcnt.data();
                const long long ps = pw, cs = cw;
                for (long long b = 0; b < SMALL_B; ++b)
                    r[b] = static_cast<uint8_t>(kk(pa + b * ps, ca + b * cs, pb, cb));
            }
            // Lane-parallel counts (GCC vector types: one AVX-512 register, or two/four halves).
            const Lanes w = Lanes{} + static_cast<uint8_t>(win);
            Lanes mxv{}, partsv{}, hitv{};
            if (H == EXPECTED)
                for (long long b = 0; b < SMALL_B; ++b) total[b] = 0;
            // L(n) < 2^55 for n <= SMALL_C, so SMALL_C terms fit in int64
            int64_t ent[SMALL_B];
            if (H == ENTROPY)
                for (long long b = 0; b < SMALL_B; ++b) ent[b] = 0;
            for (long long j = 0; j < C; ++j) {
                const Lanes rj = load_lanes(resp.data() + j * SMALL_B);
                Lanes cntv{}, dupv{};
                for (long long q = 0; q < C; ++q) {
                    const Lanes eq = reinterpret_cast<Lanes>(load_lanes(resp.data() + q * SMALL_B) == rj);
                    cntv -= eq;  // eq lanes are 0xFF (-1) where equal
                    if (H == PARTS && q < j) dupv |= eq;
                }
                hitv |= reinterpret_cast<Lanes>(rj == w);
                if (H == MINIMAX) mxv = mxv > cntv ? mxv : cntv;
                if (H == PARTS) partsv -= reinterpret_cast<Lanes>(dupv == 0);
                if (H == EXPECTED || H == ENTROPY) {
                    std::memcpy(cnt, &cntv, SMALL_B);
                    const int64_t* const lf = lfix;
                    if (H == EXPECTED)
                        for (long long b = 0; b < SMALL_B; ++b) total[b] += cnt[b];
                    else
                        for (long long b = 0; b < SMALL_B; ++b) ent[b] += lf[cnt[b]];
                }
            }
            std::memcpy(mx, &mxv, SMALL_B);
            std::memcpy(parts, &partsv, SMALL_B);
            std::memcpy(hit, &hitv, SMALL_B);
            for (long long b = 0; b < nb; ++b) {
                const i128 s = H == MINIMAX ? i128(mx[b]) : H == EXPECTED ? i128(total[b])
                             : H == ENTROPY ? i128(ent[b]) : -i128(parts[b]);
                const Key key{s, hit[b] ? 0 : 1, rows ? rows[i0 + b] : i0 + b};
                if (key < local) local = key;
            }
        }
#pragma omp critical
        if (local < best) best = local;
    }
    return best;
}

// Best guess for the candidates ``cols`` (sorted code indices) of a packed code space, scoring
// on the fly: the same choice as ``best_guess_matrix`` over the space's score matrix, in
// O(n) memory instead of O(n^2). Arguments as there.
int64_t best_guess_packed(const PackedSpace& space, py::array_t<int64_t, py::array::c_style> rows,
                          py::array_t<int64_t, py::array::c_style> cols, int slots, int win,
                          int max_classes, int heur, bool candidates_only,
                          py::array_t<int64_t, py::array::c_style> lfix) {
    check_heuristic(heur);
    const PackedCodes& sp = space.codes;
    const long long NR = sp.n, C = cols.size();
    const bool all_rows = rows.size() == 0;
    const long long R = all_rows ? NR : rows.size();
    if (slots < 1 || slots > 65535) throw std::invalid_argument("slots must be 1..65535");
    const int64_t* cc = cols.data();
    const int64_t* rr = all_rows ? nullptr : rows.data();
    check_node(rr, R, cc, C, NR, NR, max_classes, heur, lfix.size());
    const int64_t* lf = lfix.data();
    py::gil_scoped_release nogil;
    if (C <= 2) return cc[0];  // the lowest candidate splits them: optimal and tie-break winner
    // The candidates' words, gathered once so that every guess streams through them.
    const long long pw = sp.pw, cw = sp.cw;
    std::vector<u64> cpos(C * pw), ccnt(C * cw);
    for (long long j = 0; j < C; ++j) {
        std::copy_n(sp.pos.data() + cc[j] * pw, pw, cpos.data() + j * pw);
        std::copy_n(sp.cnt.data() + cc[j] * cw, cw, ccnt.data() + j * cw);
    }
    const std::vector<int64_t> dlog = entropy_steps(heur, C, lf);
    const int64_t* d = dlog.data();
    int64_t out = 0;
    with_kernel(sp, space.bulls_only, [&](const auto k) {
        out = with_heuristic(heur, [&](auto h) {
            constexpr int H = decltype(h)::value;
            const bool small = C <= SMALL_C && slots <= 256;
            auto sc = [&](const int64_t* g, long long n, Key init) {
                if (small)
                    return scan_small<H>(k, sp, g, n, cpos.data(), ccnt.data(), C, win, lf, init);
                return scan_packed<H>(k, sp, g, n, cpos.data(), ccnt.data(), C, slots, win,
                                      max_classes, d, init);
            };
            return best_two_pass<H>(sc, rr, R, cc, C, !rr && C == R, max_classes, lf,
                                    candidates_only);
        });
    });
    return out;
}

// Fixed-point log2 table L(n), n = 0..nmax, scaled by 2^52, built additively over the smallest
// prime factor so that L(a*b) == L(a) + L(b) exactly. L(0) = L(1) = 0.
py::array_t<int64_t> log2_fixed_table(long long nmax) {
    if (nmax < 1) nmax = 1;
    py::array_t<int64_t> out(nmax + 1);
    int64_t* L = out.mutable_data();
    std::vector<int64_t> spf(nmax + 1, 0);
    const long double scale = 4503599627370496.0L;  // 2^52: L(n) < 2^58 for n < 2^64
    for (long long n = 0; n <= nmax; ++n) L[n] = 0;
    for (long long n = 2; n <= nmax; ++n) {
        if (spf[n] == 0) {  // n is prime
            for (long long k = n; k <= nmax; k += n)
                if (spf[k] == 0) spf[k] = n;
            L[n] = static_cast<int64_t>(std::llroundl(std::log2l(static_cast<long double>(n)) * scale));
        } else {
            L[n] = L[spf[n]] + L[n / spf[n]];
        }
    }
    return out;
}

}  // namespace

PYBIND11_MODULE(strategy, m) {
    m.doc() = "Native heuristic kernels (see cbsolve.strategy.heuristics for the Python face).";
    py::class_<PackedSpace>(m, "PackedSpace")
        .def(py::init<py::array_t<uint8_t, py::array::c_style | py::array::forcecast>, int, bool,
                      bool>(),
             py::arg("codes"), py::arg("n_symbols"), py::arg("repeats"), py::arg("bulls_only"));
    m.def("best_guess_packed", &best_guess_packed, py::arg("space"), py::arg("rows"),
          py::arg("cols"), py::arg("slots"), py::arg("win"), py::arg("max_classes"),
          py::arg("heuristic"), py::arg("candidates_only"), py::arg("lfix"));
    m.def("best_guess_matrix", &best_guess_matrix<uint8_t>, py::arg("matrix"), py::arg("rows"),
          py::arg("cols"), py::arg("slots"), py::arg("win"), py::arg("max_classes"),
          py::arg("heuristic"), py::arg("candidates_only"), py::arg("lfix"));
    m.def("best_guess_matrix", &best_guess_matrix<uint16_t>, py::arg("matrix"), py::arg("rows"),
          py::arg("cols"), py::arg("slots"), py::arg("win"), py::arg("max_classes"),
          py::arg("heuristic"), py::arg("candidates_only"), py::arg("lfix"));
    m.def("log2_fixed_table", &log2_fixed_table, py::arg("nmax"));
}
