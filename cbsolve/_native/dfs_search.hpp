// One depth-first search's state over positions (dfs.cpp): bulls and totals per clue so far,
// the bounds that prune and the filtered domain of the next position, with or without lies.
#pragma once

#include "dfs_problem.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

template <int W>
struct Search {
    const Problem& P;
    std::vector<int> B, T, cnt;
    std::vector<Mask<W>> nogain, dom;
    std::vector<int> sym;
    Mask<W> all, used;
    std::vector<std::vector<int>> compat;   // per depth: count vectors still >= the counts
    std::vector<int> pc;                    // g x d: unassigned positions where guess g has s
    std::vector<int> hi, lo;                // per symbol: bounds on how many more it can take
    bool transport;                         // bulls bounds from hi/lo are informative
    std::vector<u64> bulls_wrong;           // lies with vectors: clues whose bulls must fail
    int bulls_wrong_depth = -1;             // ... marked at this depth
    mutable std::vector<u64> any_wrong;     // scratch: clues some vector gets the total wrong

    explicit Search(const Problem& p) : P(p) {
        B.assign(P.g, 0);
        T.assign(P.g, 0);
        cnt.assign(P.d, 0);
        nogain.resize(P.g);
        dom.resize(P.n);
        sym.assign(P.n, 0);
        all.clear();
        used.clear();
        for (int s = 0; s < P.d; ++s) all.set(s);
        if (P.vec_on) {
            compat.resize(P.n + 1);
            compat[0].resize(P.nvec);
            for (int i = 0; i < P.nvec; ++i) compat[0][i] = i;
        }
        bulls_wrong.assign(P.wg, 0);
        any_wrong.assign(P.wg, 0);
        pc.assign(static_cast<size_t>(P.g) * P.d, 0);
        for (int g = 0; g < P.g; ++g)
            for (int q = 0; q < P.n; ++q) ++pc[g * P.d + P.guess[g * P.n + q]];
        hi.assign(P.d, 0);
        lo.assign(P.d, 0);
        transport = P.vec_on;
        for (int g = 0; g < P.g; ++g) {
            nogain[g].clear();
            for (int s = 0; s < P.d; ++s)
                if (P.k[g * P.d + s] == 0) nogain[g].set(s);
        }
    }

    // With `a` positions assigned, no completion can meet clue g (its bounds exclude the reply).
    // Monotone: a broken clue stays broken deeper down.
    bool broken(int g, int a) const {
        const int left = P.n - a;
        if (bulls_broken(g, left)) return true;
        if (!P.totals) return false;
        const int m = P.total[g], t = T[g];
        if (t > m || t + std::min(left, P.kcap[g] - t) < m) return true;
        if (!P.repeats) {
            int free_other = (P.d - a) - (P.kcap[g] - t);
            if (t + std::max(0, left - free_other) > m) return true;
        }
        return false;
    }

    // Clue g's bulls can no longer come out right with `left` positions open.
    bool bulls_broken(int g, int left) const {
        return B[g] > P.bulls[g] || B[g] + left < P.bulls[g];
    }

    // Clues the code contradicts when symbol s completes it at the last position p; the totals
    // it gets wrong are `wrong_totals` (a count vector's bits) when given, else computed.
    int lies_if_last(int p, int s, const u64* wrong_totals = nullptr) const {
        int wrong = 0;
        for (int g = 0; g < P.g; ++g) {
            bool bad = B[g] + (P.guess[g * P.n + p] == s) != P.bulls[g];
            if (wrong_totals) bad = bad || ((wrong_totals[g / 64] >> (g % 64)) & 1);
            else if (P.totals) bad = bad || T[g] + (cnt[s] < P.k[g * P.d + s]) != P.total[g];
            wrong += bad;
        }
        return wrong;
    }

    // Bounds with `a` positions assigned; false = no completion contradicts at most P.lies clues.
    bool feasible(int a) {
        int left = P.n - a;
        if (P.vec_on) {
            if (a == 0) {
                if (compat[0].empty()) return false;
            } else {
                // Only symbol sym[a-1]'s count changed: keep the vectors that still cover it.
                int s = sym[a - 1], c = cnt[s];
                auto& dst = compat[a];
                dst.clear();
                for (int i : compat[a - 1])
                    if (P.vecs[static_cast<size_t>(i) * P.d + s] >= c) dst.push_back(i);
                if (dst.empty()) return false;
            }
        }
        if (P.lies > 0 && P.vec_on) return feasible_with_wrong_totals(a);
        int lost = 0;
        for (int g = 0; g < P.g; ++g)
            if (broken(g, a) && ++lost > P.lies) return false;
        return !transport || bulls_transport(left);
    }

    // Lies with count vectors: a completion's counts are one of the vectors, which decides the
    // clues whose totals come out wrong; the bulls bounds (and the transportation bound) mark
    // the clues whose bulls must. A vector stays while those sets together hold at most P.lies
    // clues (both only grow deeper down, so dropped vectors stay dropped).
    bool feasible_with_wrong_totals(int a) {
        const int left = P.n - a;
        std::fill(bulls_wrong.begin(), bulls_wrong.end(), 0);
        for (int g = 0; g < P.g; ++g)
            if (bulls_broken(g, left)) bulls_wrong[g / 64] |= u64(1) << (g % 64);
        bulls_transport(left, bulls_wrong.data());
        bulls_wrong_depth = a;
        auto& keep = compat[a];   // at a = 0: every vector
        size_t j = 0;
        for (int i : keep)
            if (lies_with(i) <= P.lies) keep[j++] = i;
        keep.resize(j);
        return !keep.empty();
    }

    // Clues a completion with count vector i gets wrong, at least (the bulls marks so far).
    int lies_with(int i) const {
        const u64* w = &P.wrong[static_cast<size_t>(i) * P.wg];
        int c = 0;
        for (int k = 0; k < P.wg; ++k) c += __builtin_popcountll(w[k] | bulls_wrong[k]);
        return c;
    }

    // Bulls as a transportation bound: symbol s can fill at most hi_s / must fill at least lo_s
    // of the `left` open positions (from the compatible count vectors, or 0/1 for distinct
    // codes); pc_gs open positions show s in guess g. More bulls are possible only where both
    // meet: B_g + sum_s min(pc_gs, hi_s) >= b_g; and a symbol with more copies to place than
    // open non-s positions must land on s positions: B_g + sum_s max(0, lo_s - (left - pc_gs)) <= b_g.
    // With `marks`, the clues it rules out are marked there instead (lies) and it returns true.
    bool bulls_transport(int left, u64* marks = nullptr) {
        const int d = P.d;
        if (P.vec_on) {
            std::fill(hi.begin(), hi.end(), 0);
            std::fill(lo.begin(), lo.end(), 1 << 20);
            for (int i : compat[P.n - left]) {
                const uint8_t* v = &P.vecs[static_cast<size_t>(i) * d];
                for (int s = 0; s < d; ++s) {
                    int r = v[s] - cnt[s];
                    hi[s] = std::max(hi[s], r);
                    lo[s] = std::min(lo[s], r);
                }
            }
        } else {
            for (int s = 0; s < d; ++s) {
                hi[s] = cnt[s] ? 0 : 1;
                lo[s] = 0;
            }
        }
        for (int g = 0; g < P.g; ++g) {
            const int* row = &pc[static_cast<size_t>(g) * d];
            int most = 0, least = 0;
            for (int s = 0; s < d; ++s) {
                most += std::min(row[s], hi[s]);
                least += std::max(0, lo[s] - (left - row[s]));
            }
            if (B[g] + most < P.bulls[g] || B[g] + least > P.bulls[g]) {
                if (!marks) return false;
                marks[g / 64] |= u64(1) << (g % 64);
            }
        }
        return true;
    }

    void assign(int p, int s) {
        int c0 = cnt[s]++;
        used.set(s);
        sym[p] = s;
        for (int g = 0; g < P.g; ++g) {
            --pc[g * P.d + P.guess[g * P.n + p]];
            if (P.guess[g * P.n + p] == s) ++B[g];
            if (P.totals) {
                int kk = P.k[g * P.d + s];
                if (c0 < kk) {
                    ++T[g];
                    if (c0 + 1 == kk) nogain[g].set(s);
                }
            }
        }
    }

    void undo(int p) {
        int s = sym[p];
        int c = --cnt[s];
        if (c == 0) used.reset(s);
        for (int g = 0; g < P.g; ++g) {
            ++pc[g * P.d + P.guess[g * P.n + p]];
            if (P.guess[g * P.n + p] == s) --B[g];
            if (P.totals) {
                int kk = P.k[g * P.d + s];
                if (c < kk) {
                    --T[g];
                    if (c + 1 == kk) nogain[g].reset(s);
                }
            }
        }
    }

    // Filtered domain of position p (positions < p assigned).
    Mask<W> domain(int p) const {
        Mask<W> m = all;
        if (!P.repeats) m.and_not(used);
        if (p == 0 && P.nlz) m.reset(0);
        int left = P.n - p;
        if (P.vec_on) {
            Mask<W> need;
            need.clear();
            for (int i : compat[p]) {
                const uint8_t* v = &P.vecs[static_cast<size_t>(i) * P.d];
                for (int s = 0; s < P.d; ++s)
                    if (v[s] > cnt[s]) need.set(s);
            }
            m.and_with(need);
            if (P.lies > 0) return domain_with_wrong_totals(p, m);
        }
        if (P.lies > 0) {
            int lost = 0;
            for (int g = 0; g < P.g; ++g) lost += broken(g, p);
            if (lost < P.lies) {
                // A symbol that breaks a clue may be one of the lies left: no clue filters here,
                // feasible() counts them; the last position is checked against the whole log.
                if (p == P.n - 1)
                    for (int s = 0; s < P.d; ++s)
                        if (m.test(s) && lies_if_last(p, s) > P.lies) m.reset(s);
                return m;
            }
        }
        // Every clue not already broken must hold: filter by each of them.
        for (int g = 0; g < P.g && !m.empty(); ++g) {
            if (P.lies > 0 && broken(g, p)) continue;
            int gs = P.guess[g * P.n + p];
            if (B[g] == P.bulls[g]) m.reset(gs);
            else if (B[g] + left == P.bulls[g]) m.keep_only(gs);
            if (P.totals) {
                if (T[g] == P.total[g]) m.and_with(nogain[g]);
                else if (T[g] + left == P.total[g]) m.and_not(nogain[g]);
            }
        }
        return m;
    }

    // Lies with count vectors (`m`: the symbols some vector still needs). The last position is
    // checked exactly: the code's counts are the vector cnt + e_s, whose wrong totals join the
    // clues whose bulls come out wrong. Before it, a clue's bulls filter the domain only when no
    // lie is left for any vector and no vector gets that clue's total wrong.
    Mask<W> domain_with_wrong_totals(int p, Mask<W> m) const {
        const int d = P.d, left = P.n - p;
        if (p == P.n - 1) {
            for (int s = 0; s < d; ++s) {
                if (!m.test(s)) continue;
                int i = -1;   // exists: `m` holds only symbols some vector still needs
                for (int j : compat[p])
                    if (P.vecs[static_cast<size_t>(j) * d + s] > cnt[s]) { i = j; break; }
                if (lies_if_last(p, s, &P.wrong[static_cast<size_t>(i) * P.wg]) > P.lies) m.reset(s);
            }
            return m;
        }
        if (bulls_wrong_depth != p) return m;   // marks of another depth: no filtering (sound)
        std::fill(any_wrong.begin(), any_wrong.end(), 0);
        for (int i : compat[p]) {
            if (lies_with(i) < P.lies) return m;   // a lie left: any clue may still break
            for (int k = 0; k < P.wg; ++k) any_wrong[k] |= P.wrong[static_cast<size_t>(i) * P.wg + k];
        }
        for (int g = 0; g < P.g && !m.empty(); ++g) {
            if (((bulls_wrong[g / 64] | any_wrong[g / 64]) >> (g % 64)) & 1) continue;
            int gs = P.guess[g * P.n + p];
            if (B[g] == P.bulls[g]) m.reset(gs);
            else if (B[g] + left == P.bulls[g]) m.keep_only(gs);
        }
        return m;
    }
};

}  // namespace
