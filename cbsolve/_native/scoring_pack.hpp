// Packed codes and the pair kernel shared by the scoring and strategy modules.
//
// Each code is packed once into 64-bit words (PackedCodes):
//   position words: one byte per position holding the symbol index; bulls = zero bytes of a^b
//                   (SWAR zero-byte count, minus the zero padding bytes);
//   count words:    each symbol's multiplicity in unary, w bits per symbol (w = 1 for distinct
//                   codes, N with repeats); bulls+cows = popcount(a & b) = sum_s min(n_s, m_s).
// Response index: bulls*(N+1) + cows, or bulls alone in bulls-only mode (see cbsolve/game/scoring.py).
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace cbsolve_scoring {

namespace py = pybind11;
using u64 = uint64_t;


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
        pack(codes.data(), static_cast<int>(codes.shape(0)), static_cast<int>(codes.shape(1)),
             n_symbols_, repeats_);
    }
    // Rows of symbol indices from plain memory (the list-based entries: no NumPy array).
    PackedCodes(const uint8_t* rows, int n_, int length_, int n_symbols_, bool repeats_) {
        pack(rows, n_, length_, n_symbols_, repeats_);
    }

  private:
    void pack(const uint8_t* rows, int n_, int length_, int n_symbols_, bool repeats_) {
        n = n_;
        length = length_;
        n_symbols = n_symbols_;
        repeats = repeats_;
        int w = repeats ? length : 1;
        pw = (length + 7) / 8;
        cw = (n_symbols * w + 63) / 64;
        pad = 8 * pw - length;
        pos.assign(static_cast<size_t>(n) * pw, 0);
        cnt.assign(static_cast<size_t>(n) * cw, 0);
        std::vector<int> count(n_symbols);
        for (int i = 0; i < n; ++i) {
            u64* prow = &pos[static_cast<size_t>(i) * pw];
            u64* crow = &cnt[static_cast<size_t>(i) * cw];
            std::fill(count.begin(), count.end(), 0);
            const uint8_t* row = rows + static_cast<size_t>(i) * length;
            for (int p = 0; p < length; ++p) {
                int s = row[p];
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
    static constexpr int kPW = PW, kCW = CW;
    static constexpr bool kBullsOnly = BULLS_ONLY;
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

inline void check_compatible(const PackedCodes& a, const PackedCodes& b) {
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

}  // namespace cbsolve_scoring
