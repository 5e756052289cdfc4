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

#include <algorithm>
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
    // Structure of arrays: position words (n x pw) and count words (n x cw) apart, so the
    // inner loops read consecutive words and vectorise (AVX-512 VPOPCNTQ where available).
    std::vector<u64> pos, cnt;

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
        pos.assign(static_cast<size_t>(n) * pw, 0);
        cnt.assign(static_cast<size_t>(n) * cw, 0);
        auto c = codes.unchecked<2>();
        std::vector<int> count(n_symbols);
        for (int i = 0; i < n; ++i) {
            u64* prow = &pos[static_cast<size_t>(i) * pw];
            u64* crow = &cnt[static_cast<size_t>(i) * cw];
            std::fill(count.begin(), count.end(), 0);
            for (int p = 0; p < length; ++p) {
                int s = c(i, p);
                if (s >= n_symbols) throw std::invalid_argument("symbol index out of range");
                prow[p / 8] |= static_cast<u64>(s) << (8 * (p % 8));
                int bit = s * w + count[s]++;
                crow[bit / 64] |= 1ULL << (bit % 64);
            }
        }
    }
};

// Score of one packed pair. PW/CW fix the word counts at compile time (0: read at run time).
// Loops copy the kernel into a local first: stores through uint8_t* may alias anything, so
// members reached through a pointer would be reloaded for every pair.
template <int PW, int CW, bool BULLS_ONLY>
struct Kernel {
    int pw, cw, pad, n;
    explicit Kernel(const PackedCodes& p)
        : pw(PW ? PW : p.pw), cw(CW ? CW : p.cw), pad(p.pad), n(p.length) {}
    // (pa, ca): position and count words of one code; (pb, cb) of the other.
    inline int operator()(const u64* pa, const u64* ca, const u64* pb, const u64* cb) const {
        int bulls = -pad, total = 0;
        const int P = PW ? PW : pw, C = CW ? CW : cw;
        for (int k = 0; k < P; ++k) bulls += zero_bytes(pa[k] ^ pb[k]);
        if (BULLS_ONLY) return bulls;
        for (int k = 0; k < C; ++k) total += __builtin_popcountll(ca[k] & cb[k]);
        return bulls * n + total;  // = bulls*(N+1) + cows
    }
};

void check_compatible(const PackedCodes& a, const PackedCodes& b) {
    if (a.length != b.length || a.n_symbols != b.n_symbols || a.repeats != b.repeats)
        throw std::invalid_argument("packed code sets come from different variants");
}

// Dispatch to a kernel specialised for the feedback mode and the common word counts.
template <bool BO, class F>
void with_kernel_mode(const PackedCodes& p, F&& f) {
    if (p.pw == 1 && p.cw == 1) return f(Kernel<1, 1, BO>(p));
    if (p.pw == 1 && p.cw == 2) return f(Kernel<1, 2, BO>(p));
    if (p.pw == 2 && p.cw == 1) return f(Kernel<2, 1, BO>(p));
    if (p.pw == 2 && p.cw == 2) return f(Kernel<2, 2, BO>(p));
    return f(Kernel<0, 0, BO>(p));
}

template <class F>
void with_kernel(const PackedCodes& p, bool bulls_only, F&& f) {
    if (bulls_only) return with_kernel_mode<true>(p, f);
    return with_kernel_mode<false>(p, f);
}

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
    m.def("partition_counts_matrix", &partition_counts_matrix<uint8_t>, py::arg("matrix"),
          py::arg("rows"), py::arg("cols"), py::arg("slots"));
    m.def("partition_counts_matrix", &partition_counts_matrix<uint16_t>, py::arg("matrix"),
          py::arg("rows"), py::arg("cols"), py::arg("slots"));
    m.def("filter_mask", &filter_mask, py::arg("codes"), py::arg("guesses"), py::arg("responses"),
          py::arg("bulls_only"));
}
