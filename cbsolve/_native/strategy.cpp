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
// The loops are in strategy_kernels.hpp, compiled once per instruction set (toolkit_isa.hpp);
// this file checks the arguments and calls the path in use.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cmath>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <new>
#include <string>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "scoring_pack.hpp"
#include "toolkit_isa.hpp"

namespace py = pybind11;
using i128 = __int128;
using cbsolve_scoring::PackedCodes;
using cbsolve_scoring::u64;
using cbsolve_scoring::Kernel;
using cbsolve_scoring::with_kernel;

namespace {

enum Heuristic { MINIMAX = 0, EXPECTED = 1, ENTROPY = 2, PARTS = 3 };

#define CBSOLVE_ISA_SOURCE "strategy_kernels.hpp"
#include "toolkit_isa_each.hpp"

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
    return CBSOLVE_ISA_CALL(best_matrix<T>, m, S, NR, rr, R, cc, C, slots, win, max_classes,
                            heur, candidates_only, lf, dlog.data());
}

// The whole code space packed once, with its feedback mode (the Python Chooser keeps one).
struct PackedSpace {
    PackedCodes codes;
    bool bulls_only;
    PackedSpace(py::array_t<uint8_t, py::array::c_style | py::array::forcecast> c, int n_symbols,
                bool repeats, bool bulls_only_)
        : codes(c, n_symbols, repeats), bulls_only(bulls_only_) {}
};

// The best of guess codes ``rr[0..R)`` (null: every code) of the packed space for the
// candidates ``cc`` (increasing code indices, more than two), on the fly: the candidates' words
// are gathered once so that every guess streams through them. Called without the GIL.
int64_t best_over_space(const PackedCodes& sp, bool bulls_only, const int64_t* rr, long long R,
                        const int64_t* cc, long long C, int slots, int win, int max_classes,
                        int heur, bool candidates_only, const int64_t* lf) {
    const long long pw = sp.pw, cw = sp.cw;
    std::vector<u64> cpos(C * pw), ccnt(C * cw);
    for (long long j = 0; j < C; ++j) {
        std::copy_n(sp.pos.data() + cc[j] * pw, pw, cpos.data() + j * pw);
        std::copy_n(sp.cnt.data() + cc[j] * cw, cw, ccnt.data() + j * cw);
    }
    const std::vector<int64_t> dlog = entropy_steps(heur, C, lf);
    return CBSOLVE_ISA_CALL(best_packed, sp, bulls_only, rr, R, cc, C, cpos.data(), ccnt.data(),
                            slots, win, max_classes, heur, candidates_only, lf, dlog.data());
}

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
    return best_over_space(sp, space.bulls_only, rr, R, cc, C, slots, win, max_classes, heur,
                           candidates_only, lf);
}

// Fixed-point log2 table L(n), n = 0..nmax, scaled by 2^52, built additively over the smallest
// prime factor so that L(a*b) == L(a) + L(b) exactly. L(0) = L(1) = 0.
std::vector<int64_t> fixed_log2(long long nmax) {
    if (nmax < 1) nmax = 1;
    std::vector<int64_t> L(nmax + 1, 0), spf(nmax + 1, 0);
    const long double scale = 4503599627370496.0L;  // 2^52: L(n) < 2^58 for n < 2^64
    for (long long n = 2; n <= nmax; ++n) {
        if (spf[n] == 0) {  // n is prime
            for (long long k = n; k <= nmax; k += n)
                if (spf[k] == 0) spf[k] = n;
            L[n] = static_cast<int64_t>(std::llroundl(std::log2l(static_cast<long double>(n)) * scale));
        } else {
            L[n] = L[spf[n]] + L[n / spf[n]];
        }
    }
    return L;
}

py::array_t<int64_t> log2_fixed_table(long long nmax) {
    const std::vector<int64_t> L = fixed_log2(nmax);
    py::array_t<int64_t> out(static_cast<py::ssize_t>(L.size()));
    std::copy(L.begin(), L.end(), out.mutable_data());
    return out;
}

// The list-based entry (no NumPy on the caller's side: a small game's ``cbsolve next``): the
// same choice as ``best_guess_packed`` over every code, with ``codes`` the whole space and
// ``candidates`` the secrets left, both as rows of symbol indices (``length`` bytes a code) in
// the space's order. Returns the chosen code's index in ``codes``.
int64_t best_guess_listed(int length, int n_symbols, bool repeats, bool bulls_only,
                          py::bytes codes, py::bytes candidates, int slots, int win,
                          int max_classes, int heur, bool candidates_only) {
    check_heuristic(heur);
    const std::string all = codes, left = candidates;
    if (length <= 0 || all.size() % length || left.size() % length)
        throw std::invalid_argument("codes and candidates must be whole rows");
    if (slots < 1 || slots > 65535) throw std::invalid_argument("slots must be 1..65535");
    const long long NR = static_cast<long long>(all.size() / length);
    const long long C = static_cast<long long>(left.size() / length);
    // The candidates' indices: both lists are in the space's order, so one merge finds them.
    std::vector<int64_t> cc;
    cc.reserve(C);
    for (long long i = 0, j = 0; j < C; ++i) {
        if (i == NR) throw std::invalid_argument("candidates must be codes of the space, in order");
        if (all.compare(i * length, length, left, j * length, length) == 0) {
            cc.push_back(i);
            ++j;
        }
    }
    const std::vector<int64_t> lf = fixed_log2(C);
    check_node(nullptr, NR, cc.data(), C, NR, NR, max_classes, heur,
               static_cast<long long>(lf.size()));
    py::gil_scoped_release nogil;
    if (C <= 2) return cc[0];  // as best_guess_packed
    const PackedCodes sp(reinterpret_cast<const uint8_t*>(all.data()), static_cast<int>(NR),
                         length, n_symbols, repeats);
    return best_over_space(sp, bulls_only, nullptr, NR, cc.data(), C, slots, win, max_classes,
                           heur, candidates_only, lf.data());
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
    m.def("best_guess_listed", &best_guess_listed, py::arg("length"), py::arg("n_symbols"),
          py::arg("repeats"), py::arg("bulls_only"), py::arg("codes"), py::arg("candidates"),
          py::arg("slots"), py::arg("win"), py::arg("max_classes"), py::arg("heuristic"),
          py::arg("candidates_only"));
    CBSOLVE_ISA_BIND(m);
}
