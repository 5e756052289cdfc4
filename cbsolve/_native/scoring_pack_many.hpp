// Replies of one packed code to many, for the per-instruction-set copies (toolkit_isa_each.hpp):
// no include guard, the kernels' hot-loop files include it inside each copy's namespace.
//
// The pair kernel (scoring_pack.hpp) is two popcounts. AVX-512 VPOPCNTQ vectorises them as
// written; AVX2 has no vector popcount, so GCC leaves the loop scalar (half of Logik 5x8's
// AVX2 time once the lane counts were fixed). For one word of each kind (every game up to 8
// positions and 64 symbol bits: Mastermind, Bulls & Cows, Logik) the AVX2 copy scores four codes
// at once: bulls from the zero-byte flags summed by VPSADBW, bulls + cows by a nibble table
// (VPSHUFB) summed the same way. The same integers as the pair kernel, by construction, and
// tests/native/test_isa.py checks every path against the others.

// out[t] = reply(a, b_t) for t < count, b_t = (pb + t * ps, cb + t * cs).
template <class K, class T>
inline void replies_to_many(const K& k, const u64* pa, const u64* ca, const u64* pb,
                            const u64* cb, long long ps, long long cs, long long count, T* out) {
    long long t = 0;
#if CBSOLVE_ISA_LEVEL == 1  // the AVX2 copy
    if constexpr (K::kPW == 1 && K::kCW == 1) {
        const __m256i low7 = _mm256_set1_epi64x(static_cast<long long>(cbsolve_scoring::LOW7));
        const __m256i zero = _mm256_setzero_si256(), ones = _mm256_set1_epi64x(-1);
        const __m256i nib = _mm256_set1_epi8(0x0f);
        const __m256i lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                             0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
        const __m256i va = _mm256_set1_epi64x(static_cast<long long>(pa[0]));
        const __m256i vc = _mm256_set1_epi64x(static_cast<long long>(ca[0]));
        const __m256i pad = _mm256_set1_epi64x(k.pad), n = _mm256_set1_epi64x(k.n);
        if (ps == 1 && cs == 1) {
            for (; t + 4 <= count; t += 4) {
                const __m256i x = _mm256_xor_si256(_mm256_loadu_si256((const __m256i*)(pb + t)), va);
                __m256i z = _mm256_add_epi64(_mm256_and_si256(x, low7), low7);
                z = _mm256_andnot_si256(_mm256_or_si256(_mm256_or_si256(z, x), low7), ones);
                __m256i r = _mm256_sub_epi64(_mm256_sad_epu8(_mm256_srli_epi64(z, 7), zero), pad);
                if (!K::kBullsOnly) {
                    const __m256i y = _mm256_and_si256(_mm256_loadu_si256((const __m256i*)(cb + t)), vc);
                    const __m256i c = _mm256_add_epi8(
                        _mm256_shuffle_epi8(lut, _mm256_and_si256(y, nib)),
                        _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(y, 4), nib)));
                    r = _mm256_add_epi64(_mm256_mul_epu32(r, n), _mm256_sad_epu8(c, zero));
                }
                alignas(32) long long w[4];
                _mm256_store_si256(reinterpret_cast<__m256i*>(w), r);
                for (int i = 0; i < 4; ++i) out[t + i] = static_cast<T>(w[i]);
            }
        }
    }
#endif
    const K kk = k;
    for (; t < count; ++t) out[t] = static_cast<T>(kk(pa, ca, pb + t * ps, cb + t * cs));
}
