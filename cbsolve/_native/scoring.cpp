// Native scoring core: bulls/cows of many code pairs, partition histograms, log filtering.
//
// Packing and the pair kernel live in scoring_pack.hpp (the strategy kernel uses them too); the
// loops over pairs in scoring_kernels.hpp, compiled once per instruction set (toolkit_isa.hpp).
// Python owns validation; kernels assume valid inputs. Cross-checked against the NumPy reference.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "scoring_pack.hpp"
#include "toolkit_isa.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

using namespace cbsolve_scoring;

namespace {

#define CBSOLVE_ISA_SOURCE "scoring_kernels.hpp"
#include "toolkit_isa_each.hpp"

template <class T>
void score_matrix_into(const PackedCodes& g, const PackedCodes& s, bool bulls_only,
                       py::array_t<T, py::array::c_style> out) {
    check_compatible(g, s);
    if (out.ndim() != 2 || out.shape(0) != g.n || out.shape(1) != s.n)
        throw std::invalid_argument("out must have shape (n_guesses, n_secrets)");
    T* o = out.mutable_data();
    py::gil_scoped_release nogil;
    CBSOLVE_ISA_CALL(matrix_rows<T>, g, s, bulls_only, o);
}

py::array_t<uint32_t> partition_counts(const PackedCodes& g, const PackedCodes& c,
                                       bool bulls_only, int slots) {
    check_compatible(g, c);
    py::array_t<uint32_t> out({static_cast<py::ssize_t>(g.n), static_cast<py::ssize_t>(slots)});
    uint32_t* o = out.mutable_data();
    {
        py::gil_scoped_release nogil;
        CBSOLVE_ISA_CALL(partition_rows, g, c, bulls_only, slots, o);
    }
    return out;
}

// The counting rules of a lower-bound certificate (cbsolve/certificates/certify.py), per guess:
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
    {
        py::gil_scoped_release nogil;
        CBSOLVE_ISA_CALL(verdict_rows, g, c, bulls_only, slots, win, threshold, o);
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
    py::gil_scoped_release nogil;
    CBSOLVE_ISA_CALL(filter_rows, codes, guesses, resp, bulls_only, o);
    return out;
}

// --- The list-based entries: plain Python values in and out --------------------------------
// pybind11 imports NumPy only when an array crosses, so the small-space filter and partition
// below let `consistent` and `partition` start without it (the same kernels as filter_mask and
// partition_counts). Codes travel as bytes of symbol indices, `length` bytes a code.

struct Listed {
    int length, n_symbols;
    bool repeats, no_leading_zero;
};

// Calls flush(rows, k) for successive chunks of every code, in lexicographic order.
constexpr int CHUNK = 1 << 16;

void each_chunk(const Listed& v, const std::function<void(const uint8_t*, int)>& flush) {
    const int L = v.length, D = v.n_symbols;
    std::vector<uint8_t> buf;
    buf.reserve(static_cast<size_t>(CHUNK) * L);
    std::vector<uint8_t> code(L);
    std::vector<int> used(D, 0);
    std::function<void(int)> fill = [&](int pos) {
        if (pos == L) {
            buf.insert(buf.end(), code.begin(), code.end());
            if (buf.size() == static_cast<size_t>(CHUNK) * L) {
                flush(buf.data(), CHUNK);
                buf.clear();
            }
            return;
        }
        for (int s = (pos == 0 && v.no_leading_zero) ? 1 : 0; s < D; ++s) {
            if (!v.repeats && used[s]) continue;
            code[pos] = static_cast<uint8_t>(s);
            ++used[s];
            fill(pos + 1);
            --used[s];
        }
    };
    if (L > 0) fill(0);
    if (!buf.empty()) flush(buf.data(), static_cast<int>(buf.size() / L));
}

void check_rows(const std::string& rows, int length, int n_symbols, const char* what) {
    if (length <= 0 || rows.size() % length != 0)
        throw std::invalid_argument(std::string(what) + ": not whole codes");
    for (unsigned char c : rows)
        if (c >= n_symbols) throw std::invalid_argument(std::string(what) + ": symbol out of range");
}

// (count, rows): how many codes give every log guess its logged response, and the first
// `limit` of them (all when limit < 0) in lexicographic order.
py::tuple consistent_listed(int length, int n_symbols, bool repeats, bool no_leading_zero,
                            bool bulls_only, py::bytes guesses, std::vector<int32_t> responses,
                            long long limit) {
    const std::string g = guesses;
    check_rows(g, length, n_symbols, "guesses");
    if (g.size() / length != responses.size())
        throw std::invalid_argument("one response per log guess");
    const Listed v{length, n_symbols, repeats, no_leading_zero};
    long long count = 0;
    std::string kept;
    {
        py::gil_scoped_release nogil;
        const PackedCodes pg(reinterpret_cast<const uint8_t*>(g.data()),
                             static_cast<int>(responses.size()), length, n_symbols, repeats);
        std::unique_ptr<bool[]> ok(new bool[CHUNK]);
        each_chunk(v, [&](const uint8_t* rows, int k) {
            const PackedCodes pc(rows, k, length, n_symbols, repeats);
            CBSOLVE_ISA_CALL(filter_rows, pc, pg, responses.data(), bulls_only, ok.get());
            for (int i = 0; i < k; ++i) {
                if (!ok[i]) continue;
                if (limit < 0 || count < limit)
                    kept.append(reinterpret_cast<const char*>(rows) + static_cast<size_t>(i) * length,
                                length);
                ++count;
            }
        });
    }
    return py::make_tuple(count, py::bytes(kept));
}

// For each guess (rows of `guesses`), its histogram of replies over `candidates`, `slots` wide.
std::vector<std::vector<uint32_t>> partition_listed(int length, int n_symbols, bool repeats,
                                                    bool bulls_only, py::bytes guesses,
                                                    py::bytes candidates, int slots) {
    const std::string g = guesses, c = candidates;
    check_rows(g, length, n_symbols, "guesses");
    check_rows(c, length, n_symbols, "candidates");
    const int G = static_cast<int>(g.size() / length), C = static_cast<int>(c.size() / length);
    std::vector<uint32_t> flat(static_cast<size_t>(G) * slots);
    {
        py::gil_scoped_release nogil;
        const PackedCodes pg(reinterpret_cast<const uint8_t*>(g.data()), G, length, n_symbols, repeats);
        const PackedCodes pc(reinterpret_cast<const uint8_t*>(c.data()), C, length, n_symbols, repeats);
        CBSOLVE_ISA_CALL(partition_rows, pg, pc, bulls_only, slots, flat.data());
    }
    std::vector<std::vector<uint32_t>> out(G);
    for (int i = 0; i < G; ++i)
        out[i].assign(flat.begin() + static_cast<size_t>(i) * slots,
                      flat.begin() + static_cast<size_t>(i + 1) * slots);
    return out;
}

// For each guess, the sums its class sizes over `candidates` give the partition's scores from
// (cbsolve/strategy/partition.py): largest class, sum of squares, sum of c*log2(c), classes.
std::vector<std::tuple<uint32_t, uint64_t, double, uint32_t>> partition_sums_listed(
    int length, int n_symbols, bool repeats, bool bulls_only, py::bytes guesses,
    py::bytes candidates, int slots) {
    const std::string g = guesses, c = candidates;
    check_rows(g, length, n_symbols, "guesses");
    check_rows(c, length, n_symbols, "candidates");
    const int G = static_cast<int>(g.size() / length), C = static_cast<int>(c.size() / length);
    std::vector<std::tuple<uint32_t, uint64_t, double, uint32_t>> out(G);
    {
        py::gil_scoped_release nogil;
        const PackedCodes pc(reinterpret_cast<const uint8_t*>(c.data()), C, length, n_symbols, repeats);
        std::vector<uint32_t> flat;
        for (int start = 0; start < G; start += CHUNK) {      // a block of guesses at a time
            const int k = std::min(CHUNK, G - start);
            const PackedCodes pg(reinterpret_cast<const uint8_t*>(g.data()) + static_cast<size_t>(start) * length,
                                 k, length, n_symbols, repeats);
            flat.assign(static_cast<size_t>(k) * slots, 0);
            CBSOLVE_ISA_CALL(partition_rows, pg, pc, bulls_only, slots, flat.data());
            for (int i = 0; i < k; ++i) {
                uint32_t largest = 0, parts = 0;
                uint64_t squares = 0;
                double plogp = 0.0;
                for (int r = 0; r < slots; ++r) {
                    const uint32_t n = flat[static_cast<size_t>(i) * slots + r];
                    if (!n) continue;
                    largest = std::max(largest, n);
                    squares += static_cast<uint64_t>(n) * n;
                    plogp += n * std::log2(static_cast<double>(n));
                    ++parts;
                }
                out[start + i] = {largest, squares, plogp, parts};
            }
        }
    }
    return out;
}

}  // namespace

PYBIND11_MODULE(scoring, m) {
    m.doc() = "Native scoring kernels (see cbsolve.game.scoring for the Python face).";
    CBSOLVE_ISA_BIND(m);
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
    m.def("consistent_listed", &consistent_listed, py::arg("length"), py::arg("n_symbols"),
          py::arg("repeats"), py::arg("no_leading_zero"), py::arg("bulls_only"),
          py::arg("guesses"), py::arg("responses"), py::arg("limit"));
    m.def("partition_listed", &partition_listed, py::arg("length"), py::arg("n_symbols"),
          py::arg("repeats"), py::arg("bulls_only"), py::arg("guesses"), py::arg("candidates"),
          py::arg("slots"));
    m.def("partition_sums_listed", &partition_sums_listed, py::arg("length"), py::arg("n_symbols"),
          py::arg("repeats"), py::arg("bulls_only"), py::arg("guesses"), py::arg("candidates"),
          py::arg("slots"));
}
