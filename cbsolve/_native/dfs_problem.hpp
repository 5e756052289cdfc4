// A feedback log as the depth-first search sees it (dfs.cpp): symbol sets as bit masks, the
// problem's flat arrays, and the count vectors the clues' totals allow.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

using u64 = uint64_t;

namespace {

using Clock = std::chrono::steady_clock;

// A call's budget is spent: `seconds` since t0 (< 0: no limit), or another thread set `stop`.
inline bool over_budget(Clock::time_point t0, double seconds, const volatile int32_t* stop) {
    if (stop && *stop) return true;
    return seconds >= 0 && std::chrono::duration<double>(Clock::now() - t0).count() >= seconds;
}

template <int W>
struct Mask {
    u64 w[W];
    void clear() { for (int i = 0; i < W; ++i) w[i] = 0; }
    bool empty() const {
        u64 o = 0;
        for (int i = 0; i < W; ++i) o |= w[i];
        return o == 0;
    }
    void set(int s) { w[s >> 6] |= u64(1) << (s & 63); }
    void reset(int s) { w[s >> 6] &= ~(u64(1) << (s & 63)); }
    bool test(int s) const { return (w[s >> 6] >> (s & 63)) & 1; }
    void keep_only(int s) {
        bool b = test(s);
        clear();
        if (b) set(s);
    }
    void and_with(const Mask& o) { for (int i = 0; i < W; ++i) w[i] &= o.w[i]; }
    void and_not(const Mask& o) { for (int i = 0; i < W; ++i) w[i] &= ~o.w[i]; }
    int low() const {
        for (int i = 0; i < W; ++i)
            if (w[i]) return 64 * i + __builtin_ctzll(w[i]);
        return -1;
    }
    int count() const {
        int c = 0;
        for (int i = 0; i < W; ++i) c += __builtin_popcountll(w[i]);
        return c;
    }
    void keep_from(int s) {  // drop symbols < s
        for (int i = 0; i < W; ++i) {
            int lo = 64 * i;
            if (s >= lo + 64) w[i] = 0;
            else if (s > lo) w[i] &= ~u64(0) << (s - lo);
        }
    }
};

struct Problem {
    int n, d, g;
    bool repeats, nlz, totals;
    int lies = 0;                 // clues a code may contradict (Ulam's game; 0: all must hold)
    std::vector<uint8_t> guess;   // g x n
    std::vector<int> bulls, total, kcap;  // per clue: b_g, m_g (unused without totals), K_g
    std::vector<uint8_t> k;       // g x d: k_gs
    // Count vectors (n_s per symbol) that satisfy every clue's total exactly; empty = not used.
    bool vec_on = false;
    int nvec = 0;
    std::vector<uint8_t> vecs;    // nvec x d
    // With lies: per vector, the clues whose total it gets wrong (wg words of bits each).
    int wg = 0;
    std::vector<u64> wrong;       // nvec x wg
};

// Every count vector n (sum N; n_s <= 1 for distinct codes) with sum_s min(k_gs, n_s) = m_g for
// all clues (all but at most P.lies, each vector with the set it gets wrong), by a depth-first
// search over symbols with the same bounds as the position search.
// Gives up beyond `cap` vectors or `budget` nodes (VEC_GAVE_UP: for good) or `seconds` or a
// set `stop` flag (VEC_TIME: a later call may try again); the position search then works with
// the per-clue bounds alone.
enum VecOutcome { VEC_FOUND, VEC_GAVE_UP, VEC_TIME };
VecOutcome count_vectors(Problem& P, int cap, long long budget, double seconds,
                         const volatile int32_t* stop = nullptr) {
    auto t0 = Clock::now();
    const int d = P.d, G = P.g;
    std::vector<int> suffix(static_cast<size_t>(G) * (d + 1), 0);   // sum_{s' >= s} cap(k_gs')
    for (int g = 0; g < G; ++g)
        for (int s = d - 1; s >= 0; --s) {
            int kk = P.k[g * d + s];
            suffix[g * (d + 1) + s] = suffix[g * (d + 1) + s + 1] + (P.repeats ? kk : std::min(kk, 1));
        }
    std::vector<int> T(G, 0), n(d, 0);
    long long nodes = 0;
    bool ok = true, timed_out = false;
    std::vector<uint8_t> out;
    const int wg = (G + 63) / 64;
    std::vector<u64> wrong;
    int found = 0;
    // Recursive over symbols; depth <= 256.
    std::function<void(int, int)> rec = [&](int s, int left) {
        if (!ok) return;
        if (++nodes > budget) { ok = false; return; }
        if ((nodes & 4095) == 0 && over_budget(t0, seconds, stop)) {
            ok = false;   // the query's time belongs to the search proper
            timed_out = true;
            return;
        }
        if (s == d) {
            if (left != 0) return;
            int bad = 0;
            for (int g = 0; g < G; ++g) bad += T[g] != P.total[g];
            if (bad > P.lies) return;
            if (++found > cap) { ok = false; return; }
            for (int t = 0; t < d; ++t) out.push_back(static_cast<uint8_t>(n[t]));
            for (int w = 0; w < wg; ++w) wrong.push_back(0);
            for (int g = 0; g < G; ++g)
                if (T[g] != P.total[g]) wrong[wrong.size() - wg + g / 64] |= u64(1) << (g % 64);
            return;
        }
        int hi = P.repeats ? left : std::min(left, 1);
        if (s == d - 1) hi = std::min(hi, left);
        int lo = (s == d - 1) ? left : 0;
        if (lo > hi) return;
        for (int c = lo; c <= hi; ++c) {
            int bad = 0;   // clues whose total can no longer come out right
            for (int g = 0; g < G && bad <= P.lies; ++g) {
                int add = std::min<int>(P.k[g * d + s], c);
                int t = T[g] + add;
                int rest = left - c;
                bad += t > P.total[g] || t + std::min(rest, suffix[g * (d + 1) + s + 1]) < P.total[g];
            }
            if (bad > P.lies) continue;
            for (int g = 0; g < G; ++g) T[g] += std::min<int>(P.k[g * d + s], c);
            n[s] = c;
            rec(s + 1, left - c);
            n[s] = 0;
            for (int g = 0; g < G; ++g) T[g] -= std::min<int>(P.k[g * d + s], c);
            if (!ok) return;
        }
    };
    rec(0, P.n);
    if (!ok) return timed_out ? VEC_TIME : VEC_GAVE_UP;
    P.vec_on = true;
    P.nvec = found;
    P.vecs = std::move(out);
    P.wg = wg;
    P.wrong = std::move(wrong);
    return VEC_FOUND;
}

}  // namespace
