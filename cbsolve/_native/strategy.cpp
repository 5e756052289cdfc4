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
// (rows = guesses, columns = secrets) or over histograms computed elsewhere.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cmath>
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace py = pybind11;
using i128 = __int128;

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

// Score a histogram over the slots (used when there are more candidates than slots).
inline i128 score_slots(const uint32_t* h, int slots, int heur, const int64_t* lfix) {
    i128 s = 0;
    switch (heur) {
        case MINIMAX: {
            uint32_t m = 0;
            for (int r = 0; r < slots; ++r) m = h[r] > m ? h[r] : m;
            return m;
        }
        case EXPECTED:
            for (int r = 0; r < slots; ++r) s += static_cast<i128>(h[r]) * h[r];
            return s;
        case ENTROPY:
            for (int r = 0; r < slots; ++r) s += static_cast<i128>(h[r]) * lfix[h[r]];
            return s;
        default: {
            int parts = 0;
            for (int r = 0; r < slots; ++r) parts += h[r] != 0;
            return -parts;
        }
    }
}

// Score one guess row incrementally over the candidate columns, abandoning it as soon as it can
// no longer be *strictly* better than ``bound`` (partial scores only grow as candidates are
// added: minimax the largest count so far; expected sum (2c+1) = sum n^2; entropy the
// telescoping sum of T(c+1) - T(c), T(n) = n L(n), exact in integers; parts is abandoned when
// even all remaining candidates opening new classes could not beat it).
// Returns false when abandoned. ``h`` must be zero on entry and is zero again on return.
template <int H, bool DIRECT, class T>
bool score_row(const T* mrow, const int64_t* cols, long long C, uint32_t* h, T* rp, int slots,
               int win, int max_classes, const int64_t* dlog, i128 bound, i128& score,
               bool& cand) {
    const bool store = C <= slots;  // few candidates: reset through the touched slots
    constexpr long long CHECK = 32;  // test the bound every few steps (int64 partial sums)
    long long j = 0;
    bool done = true;
    if (H == MINIMAX) {
        uint32_t mx = 0;
        for (; j < C; ++j) {
            T r = DIRECT ? mrow[j] : mrow[cols[j]];
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
            T r = DIRECT ? mrow[j] : mrow[cols[j]];
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
            T r = DIRECT ? mrow[j] : mrow[cols[j]];
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
            const bool ok = transpose || identity
                ? score_row<H, true>(transpose ? b + i * C : m + g * S, cols, C, hist.data(),
                                     resp.data(), slots, win, max_classes, dlog, local.score, s,
                                     cand)
                : score_row<H, false>(m + g * S, cols, C, hist.data(), resp.data(), slots, win,
                                      max_classes, dlog, local.score, s, cand);
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

template <int H, class T>
int64_t best_two_pass(const T* m, long long S, bool square, const int64_t* rows, long long R,
                      const int64_t* cols, long long C, int slots, int win, int max_classes,
                      const int64_t* dlog, const int64_t* lfix, bool candidates_only) {
    // Pass 1: the candidates as guesses. Candidates are usually near the best, and a
    // non-candidate must then be strictly better, which lets pass 2 abandon rows early.
    Key best = scan<H>(m, S, square, cols, C, cols, C, slots, win, max_classes, dlog, WORST);
    if (candidates_only || (!rows && C == R) ||
        best.score <= lower_bound_non_candidate(H, C, max_classes, lfix))
        return best.index;
    // Pass 2: every guess (candidates again cannot beat ``best``).
    return scan<H>(m, S, square, rows, R, cols, C, slots, win, max_classes, dlog, best).index;
}

void check_heuristic(int heur) {
    if (heur < 0 || heur > 3) throw std::invalid_argument("heuristic must be 0..3");
}

// Best guess over a score matrix (rows = guesses, columns = secrets, symmetric code space).
// ``cols``: candidate code indices, sorted ascending. ``rows``: the guess code indices to try
// besides the candidates (empty = every row); it must contain, for every guess, one that is
// equivalent to it (all codes, or orbit representatives). ``candidates_only``: guesses are the
// candidates alone. ``max_classes``: number of non-winning replies the variant can give.
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
    if (C == 0) throw std::invalid_argument("no candidates");
    if (max_classes < 1) throw std::invalid_argument("max_classes must be >= 1");
    const int64_t* cc = cols.data();
    const int64_t* rr = all_rows ? nullptr : rows.data();
    for (long long j = 0; j < C; ++j)
        if (cc[j] < 0 || cc[j] >= S || cc[j] >= NR || (j && cc[j] <= cc[j - 1]))
            throw std::out_of_range("columns must be increasing valid indices");
    for (long long i = 0; i < (all_rows ? 0 : R); ++i)
        if (rr[i] < 0 || rr[i] >= NR) throw std::out_of_range("row index out of range");
    if (heur == ENTROPY && lfix.size() <= C) throw std::invalid_argument("log table too short");
    const T* m = matrix.data();
    const int64_t* lf = lfix.data();
    py::gil_scoped_release nogil;
    if (C <= 2) return cc[0];  // the lowest candidate splits them: optimal and tie-break winner
    std::vector<int64_t> dlog;
    if (heur == ENTROPY) {  // T(c+1) - T(c) with T(n) = n L(n): < 2^58, exact in integers
        dlog.resize(C + 1);
        for (long long c = 0; c < C; ++c)
            dlog[c] = static_cast<int64_t>(static_cast<i128>(c + 1) * lf[c + 1] -
                                           static_cast<i128>(c) * lf[c]);
    }
    const int64_t* d = dlog.data();
    const bool co = candidates_only;
    const bool sq = S == NR;  // the full symmetric matrix: all codes against all codes
    switch (heur) {
        case MINIMAX: return best_two_pass<MINIMAX>(m, S, sq, rr, R, cc, C, slots, win, max_classes, d, lf, co);
        case EXPECTED: return best_two_pass<EXPECTED>(m, S, sq, rr, R, cc, C, slots, win, max_classes, d, lf, co);
        case ENTROPY: return best_two_pass<ENTROPY>(m, S, sq, rr, R, cc, C, slots, win, max_classes, d, lf, co);
        default: return best_two_pass<PARTS>(m, S, sq, rr, R, cc, C, slots, win, max_classes, d, lf, co);
    }
}

// Best guess from precomputed histograms (one row per guess; ``index`` gives each row's code
// index for the tie-break). Used where the matrix is too large to keep (scoring on the fly).
int64_t best_guess_counts(py::array_t<uint32_t, py::array::c_style> counts,
                          py::array_t<int64_t, py::array::c_style> index, int win, int heur,
                          py::array_t<int64_t, py::array::c_style> lfix) {
    check_heuristic(heur);
    if (counts.ndim() != 2 || index.size() != counts.shape(0) || counts.shape(0) == 0)
        throw std::invalid_argument("counts must be (G, slots) with one index per row, G >= 1");
    const long long G = counts.shape(0);
    const int slots = static_cast<int>(counts.shape(1));
    const uint32_t* h = counts.data();
    const int64_t* idx = index.data();
    const int64_t* lf = lfix.data();
    const long long lsize = lfix.size();
    if (heur == ENTROPY)
        for (long long i = 0; i < G * slots; ++i)
            if (h[i] >= lsize) throw std::invalid_argument("log table too short");
    py::gil_scoped_release nogil;
    Key best = WORST;
    for (long long i = 0; i < G; ++i) {
        const uint32_t* row = h + i * slots;
        Key k{score_slots(row, slots, heur, lf), row[win] ? 0 : 1, idx[i]};
        if (k < best) best = k;
    }
    return best.index;
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
    m.def("best_guess_matrix", &best_guess_matrix<uint8_t>, py::arg("matrix"), py::arg("rows"),
          py::arg("cols"), py::arg("slots"), py::arg("win"), py::arg("max_classes"),
          py::arg("heuristic"), py::arg("candidates_only"), py::arg("lfix"));
    m.def("best_guess_matrix", &best_guess_matrix<uint16_t>, py::arg("matrix"), py::arg("rows"),
          py::arg("cols"), py::arg("slots"), py::arg("win"), py::arg("max_classes"),
          py::arg("heuristic"), py::arg("candidates_only"), py::arg("lfix"));
    m.def("best_guess_counts", &best_guess_counts, py::arg("counts"), py::arg("index"),
          py::arg("win"), py::arg("heuristic"), py::arg("lfix"));
    m.def("log2_fixed_table", &log2_fixed_table, py::arg("nmax"));
}
