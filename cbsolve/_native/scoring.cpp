// Native scoring core: bulls/cows of many code pairs, partition histograms, log filtering.
//
// Each code is packed once into 64-bit words (PackedCodes):
//   position words: one byte per position holding the symbol index; bulls = zero bytes of a^b
//                   (SWAR zero-byte count, minus the zero padding bytes);
//   count words:    each symbol's multiplicity in unary, w bits per symbol (w = 1 for distinct
//                   codes, N with repeats); bulls+cows = popcount(a & b) = sum_s min(n_s, m_s).
// Response index: bulls*(N+1) + cows, or bulls alone in bulls-only mode (see cbsolve/scoring.py).
// Python owns validation; kernels assume valid inputs. Cross-checked against the NumPy reference.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace py = pybind11;
using u64 = uint64_t;

namespace {

constexpr u64 LOW7 = 0x7F7F7F7F7F7F7F7FULL;

inline int zero_bytes(u64 x) {
    u64 t = (x & LOW7) + LOW7;
    t = ~(t | x | LOW7);
    return __builtin_popcountll(t);
}

struct PackedCodes {
    int n = 0, length = 0, n_symbols = 0, pw = 0, cw = 0, pad = 0;
    bool repeats = true;
    std::vector<u64> words;  // n rows of (pw + cw) words

    PackedCodes(py::array_t<uint8_t, py::array::c_style | py::array::forcecast> codes,
                int n_symbols_, bool repeats_) {
        if (codes.ndim() != 2) throw std::invalid_argument("codes must be a 2-D array");
        n = static_cast<int>(codes.shape(0));
        length = static_cast<int>(codes.shape(1));
        n_symbols = n_symbols_;
        repeats = repeats_;
        int w = repeats ? length : 1;
        pw = (length + 7) / 8;
        cw = (n_symbols * w + 63) / 64;
        pad = 8 * pw - length;
        words.assign(static_cast<size_t>(n) * (pw + cw), 0);
        auto c = codes.unchecked<2>();
        for (int i = 0; i < n; ++i) {
            u64* row = &words[static_cast<size_t>(i) * (pw + cw)];
            std::vector<int> count(n_symbols, 0);
            for (int p = 0; p < length; ++p) {
                int s = c(i, p);
                if (s >= n_symbols) throw std::invalid_argument("symbol index out of range");
                row[p / 8] |= static_cast<u64>(s) << (8 * (p % 8));
                int bit = s * w + count[s]++;
                row[pw + bit / 64] |= 1ULL << (bit % 64);
            }
        }
    }
    const u64* row(int i) const { return &words[static_cast<size_t>(i) * (pw + cw)]; }
};

template <int PW, int CW>
struct Kernel {
    int pw, cw, pad, stride, n1;
    bool bulls_only;
    Kernel(const PackedCodes& p, bool bo)
        : pw(PW ? PW : p.pw), cw(CW ? CW : p.cw), pad(p.pad), stride(p.pw + p.cw),
          n1(p.length + 1), bulls_only(bo) {}
    inline int operator()(const u64* a, const u64* b) const {
        int bulls = -pad, total = 0;
        const int P = PW ? PW : pw, C = CW ? CW : cw;
        for (int k = 0; k < P; ++k) bulls += zero_bytes(a[k] ^ b[k]);
        if (bulls_only) return bulls;
        for (int k = 0; k < C; ++k) total += __builtin_popcountll(a[P + k] & b[P + k]);
        return bulls * n1 + (total - bulls);
    }
};

void check_compatible(const PackedCodes& a, const PackedCodes& b) {
    if (a.length != b.length || a.n_symbols != b.n_symbols || a.repeats != b.repeats)
        throw std::invalid_argument("packed code sets come from different variants");
}

// Dispatch to a kernel specialised for the common word counts.
template <class F>
void with_kernel(const PackedCodes& p, bool bulls_only, F&& f) {
    if (p.pw == 1 && p.cw == 1) return f(Kernel<1, 1>(p, bulls_only));
    if (p.pw == 1 && p.cw == 2) return f(Kernel<1, 2>(p, bulls_only));
    if (p.pw == 2 && p.cw == 1) return f(Kernel<2, 1>(p, bulls_only));
    if (p.pw == 2 && p.cw == 2) return f(Kernel<2, 2>(p, bulls_only));
    return f(Kernel<0, 0>(p, bulls_only));
}

template <class T>
void score_matrix_into(const PackedCodes& g, const PackedCodes& s, bool bulls_only,
                       py::array_t<T, py::array::c_style> out) {
    check_compatible(g, s);
    if (out.ndim() != 2 || out.shape(0) != g.n || out.shape(1) != s.n)
        throw std::invalid_argument("out must have shape (n_guesses, n_secrets)");
    T* o = out.mutable_data();
    const long long G = g.n, S = s.n;
    py::gil_scoped_release nogil;
    with_kernel(g, bulls_only, [&](auto k) {
#pragma omp parallel for schedule(static) if (G * S > 200000)
        for (long long i = 0; i < G; ++i) {
            const u64* a = g.row(static_cast<int>(i));
            T* orow = o + i * S;
            for (long long j = 0; j < S; ++j) orow[j] = static_cast<T>(k(a, s.row(static_cast<int>(j))));
        }
    });
}

py::array_t<uint32_t> partition_counts(const PackedCodes& g, const PackedCodes& c,
                                       bool bulls_only, int slots) {
    check_compatible(g, c);
    py::array_t<uint32_t> out({static_cast<py::ssize_t>(g.n), static_cast<py::ssize_t>(slots)});
    uint32_t* o = out.mutable_data();
    const long long G = g.n, C = c.n;
    {
        py::gil_scoped_release nogil;
        with_kernel(g, bulls_only, [&](auto k) {
#pragma omp parallel for schedule(static) if (G * C > 200000)
            for (long long i = 0; i < G; ++i) {
                uint32_t* h = o + i * slots;
                for (int r = 0; r < slots; ++r) h[r] = 0;
                const u64* a = g.row(static_cast<int>(i));
                for (long long j = 0; j < C; ++j) ++h[k(a, c.row(static_cast<int>(j)))];
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
#pragma omp parallel for schedule(static) if (R * C > 200000)
    for (long long i = 0; i < R; ++i) {
        uint32_t* h = o + i * slots;
        for (int k = 0; k < slots; ++k) h[k] = 0;
        const T* mrow = m + r[i] * S;
        for (long long j = 0; j < C; ++j) ++h[mrow[cc[j]]];
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
    py::gil_scoped_release nogil;
    with_kernel(codes, bulls_only, [&](auto k) {
#pragma omp parallel for schedule(static) if (N * E > 200000)
        for (long long i = 0; i < N; ++i) {
            const u64* a = codes.row(static_cast<int>(i));
            bool ok = true;
            for (int e = 0; e < E && ok; ++e) ok = k(guesses.row(e), a) == resp[e];
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
    m.def("partition_counts_matrix", &partition_counts_matrix<uint8_t>, py::arg("matrix"),
          py::arg("rows"), py::arg("cols"), py::arg("slots"));
    m.def("partition_counts_matrix", &partition_counts_matrix<uint16_t>, py::arg("matrix"),
          py::arg("rows"), py::arg("cols"), py::arg("slots"));
    m.def("filter_mask", &filter_mask, py::arg("codes"), py::arg("guesses"), py::arg("responses"),
          py::arg("bulls_only"));
}
