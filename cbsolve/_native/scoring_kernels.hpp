// The scoring core's loops over code pairs (scoring.cpp holds the checks and the Python face).
// No include guard: toolkit_isa_each.hpp includes this file once per instruction-set path, each
// copy in its own namespace compiled for that path; scoring.cpp includes what it needs before.
#include "scoring_pack_many.hpp"

// out[i * S + j] = reply(guess i, secret j).
template <class T>
void matrix_rows(const PackedCodes& g, const PackedCodes& s, bool bulls_only, T* o) {
    const long long G = g.n, S = s.n;
    const u64 *const gp = g.pos.data(), *const gc = g.cnt.data();
    const u64 *const sp = s.pos.data(), *const sc = s.cnt.data();
    const long long pw = g.pw, cw = g.cw;
    with_kernel(g, bulls_only, [=](const auto k) {
#pragma omp parallel for schedule(static) if (G * S > 4000000)
        for (long long i = 0; i < G; ++i)
            replies_to_many(k, gp + i * pw, gc + i * cw, sp, sc, pw, cw, S, o + i * S);
    });
}

// out[i * slots + r] = how many candidates give reply r to guess i.
void partition_rows(const PackedCodes& g, const PackedCodes& c, bool bulls_only, int slots,
                    uint32_t* o) {
    const long long G = g.n, C = c.n;
    const u64 *const gp = g.pos.data(), *const gc = g.cnt.data();
    const u64 *const cp = c.pos.data(), *const ccw = c.cnt.data();
    const long long pw = g.pw, cw = g.cw;
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
            uint16_t* const b = buf.data();
            uint32_t* const h = hist.data();
            std::fill(hist.begin(), hist.end(), 0u);
            for (long long j0 = 0; j0 < C; j0 += BLOCK) {
                const int len = static_cast<int>(std::min<long long>(BLOCK, C - j0));
                replies_to_many(k, gp + i * pw, gc + i * cw, cp + j0 * pw, ccw + j0 * cw, pw, cw,
                                len, b);
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

// The certificate's counting verdict of every guess (see counting_verdicts in scoring.cpp).
void verdict_rows(const PackedCodes& g, const PackedCodes& c, bool bulls_only, int slots, int win,
                  long long threshold, uint8_t* o) {
    const long long G = g.n, C = c.n;
    const u64 *const gp = g.pos.data(), *const gc = g.cnt.data();
    const u64 *const cp = c.pos.data(), *const ccw = c.cnt.data();
    const long long pw = g.pw, cw = g.cw;
    // The win slot starts so low that it never passes the threshold.
    const long long win_start = -C - 1;
    with_kernel(g, bulls_only, [=](const auto k) {
#pragma omp parallel if (G * C > 4000000)
      {
        constexpr int BLOCK = 16;  // small: most guesses pass the threshold within ~40 candidates
        uint16_t buf[BLOCK];
        std::vector<long long> hist(static_cast<size_t>(slots));
#pragma omp for schedule(dynamic, 64)
        for (long long i = 0; i < G; ++i) {
            long long* const h = hist.data();
            std::fill(hist.begin(), hist.end(), 0LL);
            h[win] = win_start;
            uint8_t verdict = 2;
            for (long long j0 = 0; j0 < C && verdict == 2; j0 += BLOCK) {
                const int len = static_cast<int>(std::min<long long>(BLOCK, C - j0));
                replies_to_many(k, gp + i * pw, gc + i * cw, cp + j0 * pw, ccw + j0 * cw, pw, cw,
                                len, buf);
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

// o[i]: code i gives every log guess its logged response.
void filter_rows(const PackedCodes& codes, const PackedCodes& guesses, const int32_t* resp,
                 bool bulls_only, bool* o) {
    const long long N = codes.n;
    const int E = guesses.n;
    const u64 *const cp = codes.pos.data(), *const ccw = codes.cnt.data();
    const u64 *const gp = guesses.pos.data(), *const gc = guesses.cnt.data();
    const long long pw = codes.pw, cw = codes.cw;
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
}
