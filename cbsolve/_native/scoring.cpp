// Native scoring core: bulls/cows of many code pairs, partition histograms, log filtering.
//
// Packing and the pair kernel live in scoring_pack.hpp (the strategy kernel uses them too).
// Python owns validation; kernels assume valid inputs. Cross-checked against the NumPy reference.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "scoring_pack.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

using namespace cbsolve_scoring;

namespace {

template <class T>
void score_matrix_into(const PackedCodes& g, const PackedCodes& s, bool bulls_only,
                       py::array_t<T, py::array::c_style> out) {
    check_compatible(g, s);
    if (out.ndim() != 2 || out.shape(0) != g.n || out.shape(1) != s.n)
        throw std::invalid_argument("out must have shape (n_guesses, n_secrets)");
    T* o = out.mutable_data();
    const long long G = g.n, S = s.n;
    const u64 *const gp = g.pos.data(), *const gc = g.cnt.data();
    const u64 *const sp = s.pos.data(), *const sc = s.cnt.data();
    const long long pw = g.pw, cw = g.cw;
    py::gil_scoped_release nogil;
    with_kernel(g, bulls_only, [=](const auto k) {
#pragma omp parallel for schedule(static) if (G * S > 4000000)
        for (long long i = 0; i < G; ++i) {
            const auto kk = k;
            const u64 *const pa = gp + i * pw, *const ca = gc + i * cw;
            const u64 *const pb = sp, *const cb = sc;
            const long long n = S, ps = pw, cs = cw;
            T* const orow = o + i * n;
            for (long long j = 0; j < n; ++j) orow[j] = static_cast<T>(kk(pa, ca, pb + j * ps, cb + j * cs));
        }
    });
}

py::array_t<uint32_t> partition_counts(const PackedCodes& g, const PackedCodes& c,
                                       bool bulls_only, int slots) {
    check_compatible(g, c);
    py::array_t<uint32_t> out({static_cast<py::ssize_t>(g.n), static_cast<py::ssize_t>(slots)});
    uint32_t* o = out.mutable_data();
    const long long G = g.n, C = c.n;
    const u64 *const gp = g.pos.data(), *const gc = g.cnt.data();
    const u64 *const cp = c.pos.data(), *const ccw = c.cnt.data();
    const long long pw = g.pw, cw = g.cw;
    {
        py::gil_scoped_release nogil;
        with_kernel(g, bulls_only, [=](const auto k) {
#pragma omp parallel if (G * C > 4000000)
          {
            // Scores go to a small block buffer first, then into four interleaved histograms:
            // incrementing one table directly serialises on repeated bins (store-to-load).
            constexpr int BLOCK = 1024;
            std::vector<uint16_t> buf(BLOCK);
            std::vector<uint32_t> hist(4 * static_cast<size_t>(slots));
#pragma omp for schedule(static)
            for (long long i = 0; i < G; ++i) {
                const auto kk = k;
                const u64 *const pa = gp + i * pw, *const ca = gc + i * cw;
                const long long ps = pw, cs = cw;
                uint16_t* const b = buf.data();
                uint32_t* const h = hist.data();
                std::fill(hist.begin(), hist.end(), 0u);
                for (long long j0 = 0; j0 < C; j0 += BLOCK) {
                    const int len = static_cast<int>(std::min<long long>(BLOCK, C - j0));
                    const u64 *const pb = cp + j0 * ps, *const cb = ccw + j0 * cs;
                    for (int j = 0; j < len; ++j) b[j] = static_cast<uint16_t>(kk(pa, ca, pb + j * ps, cb + j * cs));
                    int j = 0;
                    for (; j + 4 <= len; j += 4) {
                        ++h[b[j]];
                        ++h[slots + b[j + 1]];
                        ++h[2 * slots + b[j + 2]];
                        ++h[3 * slots + b[j + 3]];
                    }
                    for (; j < len; ++j) ++h[b[j]];
                }
                uint32_t* const row = o + i * slots;
                for (int r = 0; r < slots; ++r) row[r] = h[r] + h[slots + r] + h[2 * slots + r] + h[3 * slots + r];
            }
          }
        });
    }
    return out;
}

// The counting rules of a lower-bound certificate (cbsolve/certify.py), per guess:
//   0  some non-winning reply class holds more than `threshold` candidates (refuted by counting),
//   1  every candidate gives the same non-winning reply (a useless guess),
//   2  neither: the certificate must dispose of the guess explicitly.
// A guess stops being scored as soon as one class passes the threshold: at most nodes of a
// refutation tree nearly every guess does so after a fraction of the candidates.
py::array_t<uint8_t> counting_verdicts(const PackedCodes& g, const PackedCodes& c, bool bulls_only,
                                       int slots, int win, long long threshold) {
    check_compatible(g, c);
    if (win < 0 || win >= slots) throw std::invalid_argument("win must be a reply slot");
    py::array_t<uint8_t> out(static_cast<py::ssize_t>(g.n));
    uint8_t* o = out.mutable_data();
    const long long G = g.n, C = c.n;
    const u64 *const gp = g.pos.data(), *const gc = g.cnt.data();
    const u64 *const cp = c.pos.data(), *const ccw = c.cnt.data();
    const long long pw = g.pw, cw = g.cw;
    // The win slot starts so low that it never passes the threshold.
    const long long win_start = -C - 1;
    {
        py::gil_scoped_release nogil;
        with_kernel(g, bulls_only, [=](const auto k) {
#pragma omp parallel if (G * C > 4000000)
          {
            constexpr int BLOCK = 16;  // small: most guesses pass the threshold within ~40 candidates
            uint16_t buf[BLOCK];
            std::vector<long long> hist(static_cast<size_t>(slots));
#pragma omp for schedule(dynamic, 64)
            for (long long i = 0; i < G; ++i) {
                const auto kk = k;
                const u64 *const pa = gp + i * pw, *const ca = gc + i * cw;
                const long long ps = pw, cs = cw;
                long long* const h = hist.data();
                std::fill(hist.begin(), hist.end(), 0LL);
                h[win] = win_start;
                uint8_t verdict = 2;
                for (long long j0 = 0; j0 < C && verdict == 2; j0 += BLOCK) {
                    const int len = static_cast<int>(std::min<long long>(BLOCK, C - j0));
                    const u64 *const pb = cp + j0 * ps, *const cb = ccw + j0 * cs;
                    for (int j = 0; j < len; ++j) buf[j] = static_cast<uint16_t>(kk(pa, ca, pb + j * ps, cb + j * cs));
                    for (int j = 0; j < len; ++j)
                        if (++h[buf[j]] > threshold) { verdict = 0; break; }
                }
                if (verdict == 2 && h[win] == win_start) {
                    int classes = 0;
                    for (int r = 0; r < slots; ++r) classes += h[r] > 0;
                    if (classes == 1) verdict = 1;
                }
                o[i] = verdict;
            }
          }
        });
    }
    return out;
}

// Histogram of responses for guess rows over candidate columns of a precomputed score matrix.
template <class T>
py::array_t<uint32_t> partition_counts_matrix(py::array_t<T, py::array::c_style> matrix,
                                              py::array_t<int64_t, py::array::c_style> rows,
                                              py::array_t<int64_t, py::array::c_style> cols,
                                              int slots) {
    if (matrix.ndim() != 2) throw std::invalid_argument("matrix must be 2-D");
    const long long R = rows.size(), C = cols.size(), S = matrix.shape(1);
    py::array_t<uint32_t> out({static_cast<py::ssize_t>(R), static_cast<py::ssize_t>(slots)});
    uint32_t* o = out.mutable_data();
    const T* m = matrix.data();
    const int64_t* r = rows.data();
    const int64_t* cc = cols.data();
    for (long long j = 0; j < C; ++j)
        if (cc[j] < 0 || cc[j] >= S) throw std::out_of_range("column index out of range");
    for (long long i = 0; i < R; ++i)
        if (r[i] < 0 || r[i] >= matrix.shape(0)) throw std::out_of_range("row index out of range");
    py::gil_scoped_release nogil;
#pragma omp parallel for schedule(static) if (R * C > 4000000)
    for (long long i = 0; i < R; ++i) {
        uint32_t* const h = o + i * slots;
        for (int k = 0; k < slots; ++k) h[k] = 0;
        const T* const mrow = m + r[i] * S;
        const int64_t* const cols_l = cc;
        const long long n = C;
        for (long long j = 0; j < n; ++j) ++h[mrow[cols_l[j]]];
    }
    return out;
}

// Mask of the codes whose response to every log guess equals the logged response.
py::array_t<bool> filter_mask(const PackedCodes& codes, const PackedCodes& guesses,
                              py::array_t<int32_t, py::array::c_style> responses, bool bulls_only) {
    check_compatible(codes, guesses);
    if (responses.size() != guesses.n) throw std::invalid_argument("one response per log guess");
    py::array_t<bool> out(codes.n);
    bool* o = out.mutable_data();
    const int32_t* resp = responses.data();
    const long long N = codes.n;
    const int E = guesses.n;
    const u64 *const cp = codes.pos.data(), *const ccw = codes.cnt.data();
    const u64 *const gp = guesses.pos.data(), *const gc = guesses.cnt.data();
    const long long pw = codes.pw, cw = codes.cw;
    py::gil_scoped_release nogil;
    with_kernel(codes, bulls_only, [=](const auto k) {
#pragma omp parallel for schedule(static) if (N * E > 4000000)
        for (long long i = 0; i < N; ++i) {
            const auto kk = k;
            const u64 *const pa = cp + i * pw, *const ca = ccw + i * cw;
            const u64 *const p0 = gp, *const c0 = gc;
            const long long ps = pw, cs = cw;
            bool ok = true;
            for (int e = 0; e < E && ok; ++e) ok = kk(p0 + e * ps, c0 + e * cs, pa, ca) == resp[e];
            o[i] = ok;
        }
    });
    return out;
}

}  // namespace

PYBIND11_MODULE(scoring, m) {
    m.doc() = "Native scoring kernels (see cbsolve.scoring for the Python face).";
    py::class_<PackedCodes>(m, "PackedCodes")
        .def(py::init<py::array_t<uint8_t, py::array::c_style | py::array::forcecast>, int, bool>(),
             py::arg("codes"), py::arg("n_symbols"), py::arg("repeats"))
        .def_readonly("n", &PackedCodes::n)
        .def_readonly("length", &PackedCodes::length);
    m.def("score_matrix_into", &score_matrix_into<uint8_t>, py::arg("guesses"), py::arg("secrets"),
          py::arg("bulls_only"), py::arg("out"));
    m.def("score_matrix_into", &score_matrix_into<uint16_t>, py::arg("guesses"), py::arg("secrets"),
          py::arg("bulls_only"), py::arg("out"));
    m.def("partition_counts", &partition_counts, py::arg("guesses"), py::arg("candidates"),
          py::arg("bulls_only"), py::arg("slots"));
    m.def("counting_verdicts", &counting_verdicts, py::arg("guesses"), py::arg("candidates"),
          py::arg("bulls_only"), py::arg("slots"), py::arg("win"), py::arg("threshold"));
    m.def("partition_counts_matrix", &partition_counts_matrix<uint8_t>, py::arg("matrix"),
          py::arg("rows"), py::arg("cols"), py::arg("slots"));
    m.def("partition_counts_matrix", &partition_counts_matrix<uint16_t>, py::arg("matrix"),
          py::arg("rows"), py::arg("cols"), py::arg("slots"));
    m.def("filter_mask", &filter_mask, py::arg("codes"), py::arg("guesses"), py::arg("responses"),
          py::arg("bulls_only"));
}
