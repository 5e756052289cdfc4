// Propagating depth-first search over positions: the codes consistent with a feedback log,
// listed, counted or picked by rank, without enumerating the code space.
//
// Place in the data flow: cbsolve/consistency/dfs.py (validation, I/O, re-checking) -> this
// kernel. Positions are assigned in order 0..N-1 and symbols in ascending order, so codes come
// out in lexicographic order (the order of CodeSpace.codes). Per clue g the search keeps the
// bulls so far B_g and the total matches so far T_g = sum_s min(k_gs, n_s) (k_gs: the guess's
// count of symbol s, n_s: the partial secret's); T_g is monotone in the counts and grows by at
// most one per position. With L positions left it prunes when
//   B_g > b_g  or  B_g + L < b_g,
//   T_g > m_g  or  T_g + min(L, K_g - T_g) < m_g   (K_g = sum_s min(k_gs, cap), cap = N or 1),
//   distinct codes only: T_g + max(0, L - F_g) > m_g (F_g = unused symbols outside the guess:
//   the rest of a distinct code must gain one match per position beyond them),
// and it filters the next position's domain: B_g = b_g excludes the guess's symbol there,
// B_g + L = b_g forces it; T_g = m_g allows only symbols that gain nothing (n_s >= k_gs),
// T_g + L = m_g only symbols that gain. At the last position every symbol that survives the
// filter is a consistent code, so counting there is one popcount.
// When at most a few hundred count vectors n (symbol multiplicities) meet every clue's total,
// the search keeps those still >= the prefix's counts (the domain: symbols some vector needs)
// and bounds bulls per clue by a transportation argument. Counting and rank selection memoise
// subtree sizes by state (depth, bulls per clue, symbol counts): equal states count once.
// Listing with count vectors completes the last m positions by meet in the middle: a table of
// every suffix, found by a linear hash of its (symbol counts, bulls per clue) key.
// With `lies` = L > 0 a code may contradict up to L clues: a clue whose bounds fail is
// "broken" and the search prunes beyond L broken clues; domains are filtered once L are.
//
// Resumable: a call starts at the lexicographically smallest code >= ``start`` and, when it
// stops (limit, node budget, time), returns the ``start`` of the next call (None: finished).
// A Searcher object holds one log and keeps what is costly to recompute across its calls:
// the count vectors and the meet-in-the-middle table of the last positions (listing), which is
// built only once the search below that depth has done a fair share of the table's work.
// Python owns validation; kernels assume valid inputs. Cross-checked against the native filter.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace py = pybind11;
using u64 = uint64_t;

namespace {

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
// Gives up beyond `cap` vectors or `budget` nodes (VEC_GAVE_UP: for good) or `seconds`
// (VEC_TIME: a later call may try again); the position search then works with the per-clue
// bounds alone.
enum VecOutcome { VEC_FOUND, VEC_GAVE_UP, VEC_TIME };
VecOutcome count_vectors(Problem& P, int cap, long long budget, double seconds) {
    auto t0 = std::chrono::steady_clock::now();
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
        if ((nodes & 4095) == 0 && seconds >= 0 &&
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() >= seconds) {
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

enum Mode { LIST = 0, COUNT = 1, SELECT = 2 };
// Meet in the middle (listing): automatic from this code length, for the largest m <= N/2
// with D^m <= MITM_SPACE, shrunk while the pruned table would exceed MITM_ROWS rows (~40 bytes
// each; a Searcher keeps its table).
constexpr int MITM_MIN_N = 8;
constexpr double MITM_SPACE = 2e6;
constexpr size_t MITM_ROWS = 600000;
// Automatic tables are built only once the search below depth N - m has visited this fraction
// of the table's rows (at most MITM_ROWS; a search node costs several table rows): a first
// secret found in a few hundred nodes never pays for a table (ski rental: within a constant
// factor of either choice). Mastermind 16x6: 0.01-0.03 alike, 0.1 slower (docs/benchmarks.md).
constexpr double MITM_BUILD_AFTER = 0.02;

using Clock = std::chrono::steady_clock;

u64 splitmix(u64& state) {
    u64 z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// Every suffix of the last m positions that keeps each clue's bulls <= b_g and each symbol's
// count <= its largest count in a count vector, found by its key (symbol counts, bulls per
// clue). The key's hash is linear, sum_s c_s R_s + sum_g b_g Q_g with random R, Q, so a symbol
// at a position adds a fixed weight (`weight`), prefixes and suffixes hash in O(1) a position,
// and the suffix a prefix needs hashes as hash(vector) + hash(bulls) - hash(prefix). Hash
// matches are confirmed on the key bytes, so a collision can never list a wrong code. Built
// once per log and kept across calls (a Searcher owns it).
struct SuffixTable {
    int m = 0;
    bool ready = false;
    int builds = 0;               // completed builds (a log's table is built once)
    std::vector<u64> weight;      // n x d: R_s + sum of Q_g over clues with symbol s there
    std::vector<u64> sym_weight, clue_weight;   // R_s, Q_g
    std::vector<uint8_t> codes;   // m symbols per row, rows in lexicographic order
    std::vector<uint8_t> keys;    // (d + g) bytes per row: its symbol counts, bulls per clue
    std::vector<int> next;        // per row: the next row with the same hash, or -1
    std::vector<u64> slot_hash;   // open addressing (a power of two slots): hash, first row
    std::vector<int> slot_row;

    void reset(int new_m) {
        m = new_m;
        ready = false;
        for (auto* v : {&codes, &keys}) std::vector<uint8_t>().swap(*v);
        std::vector<int>().swap(next);
        std::vector<int>().swap(slot_row);
        std::vector<u64>().swap(slot_hash);
    }

    static u64 mix(u64 x) { return splitmix(x); }

    void weigh(const Problem& P) {
        if (!weight.empty()) return;
        u64 state = 0x5EEDC0DEULL;
        sym_weight.resize(P.d);
        clue_weight.resize(P.g);
        for (auto& r : sym_weight) r = splitmix(state);
        for (auto& q : clue_weight) q = splitmix(state);
        weight.assign(static_cast<size_t>(P.n) * P.d, 0);
        for (int p = 0; p < P.n; ++p)
            for (int s = 0; s < P.d; ++s) weight[p * P.d + s] = sym_weight[s];
        for (int g = 0; g < P.g; ++g)
            for (int p = 0; p < P.n; ++p) weight[p * P.d + P.guess[g * P.n + p]] += clue_weight[g];
    }

    // First row whose key hashes to hv, or -1.
    int find(u64 hv) const {
        const size_t mask = slot_row.size() - 1;
        for (size_t i = mix(hv) & mask; slot_row[i] >= 0; i = (i + 1) & mask)
            if (slot_hash[i] == hv) return slot_row[i];
        return -1;
    }

    enum Outcome { BUILT, LATE, TOO_BIG };
    // LATE (left empty) when `seconds` from t0 ran out first (seconds < 0: no limit); TOO_BIG
    // (left empty) beyond `max_rows` rows.
    Outcome build(const Problem& P, Clock::time_point t0, double seconds, size_t max_rows) {
        weigh(P);
        const int n = P.n, h = n - m, d = P.d;
        std::vector<int> hi_s(d, 0), c(d, 0), b(P.g, 0), x(m, 0);
        for (int i = 0; i < P.nvec; ++i)
            for (int s = 0; s < d; ++s) hi_s[s] = std::max<int>(hi_s[s], P.vecs[static_cast<size_t>(i) * d + s]);
        std::vector<std::vector<int>> hits(static_cast<size_t>(m) * d);   // clues showing s there
        for (int g = 0; g < P.g; ++g)
            for (int q = 0; q < m; ++q) hits[q * d + P.guess[g * n + h + q]].push_back(g);
        std::vector<u64> hashes;
        long long visits = 0;
        Outcome out = BUILT;
        std::function<void(int, u64)> rec = [&](int q, u64 hv) {   // position h + q
            if (out != BUILT) return;
            if ((++visits & 4095) == 0 && seconds >= 0 &&
                std::chrono::duration<double>(Clock::now() - t0).count() >= seconds) {
                out = LATE;
                return;
            }
            if (q == m) {
                if (hashes.size() >= max_rows) { out = TOO_BIG; return; }
                hashes.push_back(hv);
                for (int s = 0; s < d; ++s) keys.push_back(static_cast<uint8_t>(c[s]));
                for (int g = 0; g < P.g; ++g) keys.push_back(static_cast<uint8_t>(b[g]));
                for (int t = 0; t < m; ++t) codes.push_back(static_cast<uint8_t>(x[t]));
                return;
            }
            for (int s = 0; s < d; ++s) {
                if (c[s] >= hi_s[s]) continue;
                const auto& hit = hits[q * d + s];
                bool ok = true;
                for (int g : hit)
                    if (b[g] >= P.bulls[g]) { ok = false; break; }
                if (!ok) continue;
                ++c[s];
                for (int g : hit) ++b[g];
                x[q] = s;
                rec(q + 1, hv + weight[(h + q) * d + s]);
                for (int g : hit) --b[g];
                --c[s];
            }
        };
        rec(0, 0);
        if (out != BUILT) {
            reset(m);
            return out;
        }
        const int rows = static_cast<int>(hashes.size());
        size_t cap = 1;
        while (cap < 2 * static_cast<size_t>(rows) + 1) cap <<= 1;
        slot_hash.assign(cap, 0);
        slot_row.assign(cap, -1);
        next.assign(rows, -1);
        for (int r = rows - 1; r >= 0; --r) {   // chains in increasing (lexicographic) order
            size_t i = mix(hashes[r]) & (cap - 1);
            while (slot_row[i] >= 0 && slot_hash[i] != hashes[r]) i = (i + 1) & (cap - 1);
            next[r] = slot_row[i];
            slot_row[i] = r;
            slot_hash[i] = hashes[r];
        }
        ready = true;
        ++builds;
        return BUILT;
    }
};

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

// What a Searcher keeps across calls on one log: the count vectors (once settled) and the
// meet-in-the-middle table with the work that decides when to build it.
struct Persistent {
    Problem P;
    int vec_cap = 0;
    long long vec_budget = 0;
    bool vec_settled = false;   // count vectors found, or given up for good (not by time)
    SuffixTable table;
    double deep_nodes = 0;      // search nodes below depth N - m, over every call
    int mitm_max_m = 1 << 20;   // automatic tables: at most this many positions (too big above)
};

template <int W>
py::dict run_search(Persistent& K, int mode, long long limit, std::vector<int> start,
                    std::vector<u64> ranks, long long max_nodes, double seconds,
                    long long memo_cap, int suffix, size_t table_cap) {
    std::vector<uint8_t> out;
    u64 count = 0, nodes = 0;
    size_t next_rank = 0;
    std::string status = "complete";
    std::optional<std::vector<int>> cursor;
    const Problem& P = K.P;
    {
        py::gil_scoped_release release;
        auto t0 = Clock::now();
        if (!K.vec_settled) {
            VecOutcome r = VEC_GAVE_UP;
            if (K.P.totals && K.vec_cap > 0)
                r = count_vectors(K.P, K.vec_cap, K.vec_budget, seconds < 0 ? -1.0 : 0.25 * seconds);
            K.vec_settled = r != VEC_TIME;
        }
        Search<W> S(P);
        const int n = P.n;
        auto emit = [&](int last) {
            for (int q = 0; q < n - 1; ++q) out.push_back(static_cast<uint8_t>(S.sym[q]));
            out.push_back(static_cast<uint8_t>(last));
        };
        bool done = false;   // stopped early (limit/budget); else search exhausted
        // Meet in the middle (listing with count vectors): the last m positions come from a
        // table of every suffix, keyed by (its symbol counts, its bulls per clue). A prefix of
        // h = N - m positions is completed exactly by the suffixes whose counts make a count
        // vector (every clue's total then holds) and whose bulls make up each clue's bulls:
        // one lookup per vector still compatible, instead of the deepest levels of the search.
        int m = 0;
        double table_rows = 1;
        if (mode == LIST && P.vec_on && P.lies == 0 && n >= 2) {   // the table needs exact clues
            if (suffix > 0) m = std::min(suffix, n - 1);
            else if (suffix < 0 && n >= MITM_MIN_N) {
                while (m + 1 <= std::min(n / 2, K.mitm_max_m) && table_rows * P.d <= MITM_SPACE) {
                    table_rows *= P.d;
                    ++m;
                }
            }
        }
        int h = n - m;
        SuffixTable& table = K.table;
        if (m > 0 && table.m != m) table.reset(m);
        bool build_failed = false;
        // Can the table complete prefixes of depth h? An explicit suffix builds at once; the
        // automatic one once the deep search has cost about as much as the table would (see
        // MITM_BUILD_AFTER), and a table over MITM_ROWS rows gives way to one position fewer
        // (h grows: the search goes one level deeper before completing).
        auto want_table = [&]() {
            if (m == 0 || table.ready || build_failed) return table.ready;
            if (suffix < 0 && K.deep_nodes < MITM_BUILD_AFTER * std::min<double>(table_rows, table_cap))
                return false;
            auto got = table.build(P, t0, seconds, suffix > 0 ? SIZE_MAX : table_cap);
            if (got == SuffixTable::LATE) build_failed = true;
            if (got != SuffixTable::TOO_BIG) return table.ready;
            K.mitm_max_m = m - 1;   // for later calls too
            table_rows /= P.d;
            table.reset(--m);
            ++h;
            return false;
        };
        if (suffix > 0) want_table();
        std::vector<u64> vec_hash(P.vec_on ? P.nvec : 0, 0);   // hash(vector) + hash(bulls)
        if (m > 0) {
            table.weigh(P);
            u64 hb = 0;
            for (int g = 0; g < P.g; ++g) hb += static_cast<u64>(P.bulls[g]) * table.clue_weight[g];
            for (int i = 0; i < P.nvec; ++i) {
                u64 hv = hb;
                for (int s = 0; s < P.d; ++s) hv += P.vecs[static_cast<size_t>(i) * P.d + s] * table.sym_weight[s];
                vec_hash[i] = hv;
            }
        }
        const std::vector<uint8_t>& suffixes = table.codes;
        std::optional<std::vector<int>> mid_cursor;   // stopped inside a suffix list
        std::vector<int> ids;
        std::vector<uint8_t> want_key(P.d + P.g);
        auto complete_prefix = [&](const int* low) {
            ids.clear();
            u64 hp = 0;   // the prefix's hash
            for (int q = 0; q < h; ++q) hp += table.weight[q * P.d + S.sym[q]];
            const size_t width = P.d + P.g;
            for (int i : S.compat[h]) {
                int r = table.find(vec_hash[i] - hp);
                if (r < 0) continue;
                const uint8_t* v = &P.vecs[static_cast<size_t>(i) * P.d];
                for (int s2 = 0; s2 < P.d; ++s2) want_key[s2] = static_cast<uint8_t>(v[s2] - S.cnt[s2]);
                for (int g = 0; g < P.g; ++g) want_key[P.d + g] = static_cast<uint8_t>(P.bulls[g] - S.B[g]);
                for (; r >= 0; r = table.next[r])   // same hash: confirm on the key itself
                    if (std::equal(want_key.begin(), want_key.end(), &table.keys[r * width])) ids.push_back(r);
            }
            std::sort(ids.begin(), ids.end());
            for (size_t t = 0; t < ids.size(); ++t) {
                const uint8_t* x = &suffixes[static_cast<size_t>(ids[t]) * m];
                if (low && std::lexicographical_compare(x, x + m, low, low + m)) continue;
                if (limit >= 0 && count >= static_cast<u64>(limit)) {
                    std::vector<int> c(n);
                    for (int q = 0; q < h; ++q) c[q] = S.sym[q];
                    for (int q = 0; q < m; ++q) c[h + q] = x[q];
                    mid_cursor = c;
                    return true;
                }
                for (int q = 0; q < h; ++q) out.push_back(static_cast<uint8_t>(S.sym[q]));
                out.insert(out.end(), x, x + m);
                ++count;
            }
            return limit >= 0 && count >= static_cast<u64>(limit);
        };
        int p = 0;
        if (!S.feasible(0)) {
            S.dom[0].clear();
        } else {
            // Descend along `start`: level q keeps symbols >= start[q] while on its path.
            for (p = 0;; ++p) {
                if (m > 0 && p == h && table.ready) {
                    S.dom[p].clear();
                    if (complete_prefix(&start[h])) { status = "limit"; done = true; }
                    break;
                }
                S.dom[p] = S.domain(p);
                S.dom[p].keep_from(start[p]);
                if (p == n - 1 || !S.dom[p].test(start[p])) break;
                S.dom[p].reset(start[p]);
                S.assign(p, start[p]);
                ++nodes;
                if (!S.feasible(p + 1)) {
                    S.undo(p);
                    break;
                }
            }
        }
        if (mode == SELECT && ranks.empty()) { done = true; status = "limit"; }
        // Counting and rank selection memoise subtree sizes: the completions of a prefix depend
        // only on (depth, bulls so far per clue, symbol counts), so equal states count once.
        const bool memo_on = mode != LIST && memo_cap > 0 && n >= 3;
        std::unordered_map<std::string, u64> memo;
        std::vector<std::string> key(n);
        std::vector<u64> entry(n, 0);
        std::vector<char> storable(n, 0);
        std::string k;
        auto state_key = [&](int depth) {
            k.assign(1, static_cast<char>(depth));
            for (int g = 0; g < P.g; ++g) k.push_back(static_cast<char>(S.B[g]));
            if (P.repeats) {
                for (int s2 = 0; s2 < P.d; ++s2) k.push_back(static_cast<char>(S.cnt[s2]));
            } else {   // distinct: the set of used symbols, as mask bytes (short keys)
                for (int w = 0; w < W; ++w)
                    for (int byte = 0; byte < 8; ++byte)
                        if (64 * w + 8 * byte < P.d) k.push_back(static_cast<char>((S.used.w[w] >> (8 * byte)) & 0xFF));
            }
        };
        u64 iter = 0;
        while (!done) {
            if ((++iter & 255) == 0) {
                if (max_nodes >= 0 && nodes >= static_cast<u64>(max_nodes)) {
                    status = "nodes"; done = true; break;
                }
                if (seconds >= 0) {
                    double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                    // Freeing a full memo takes time too (up to ~0.5 us an entry under load): in budget.
                    if (el + 6e-7 * static_cast<double>(memo.size()) >= seconds) {
                        status = "time"; done = true; break;
                    }
                }
            }
            Mask<W>& dm = S.dom[p];
            if (dm.empty()) {
                if (storable[p]) {
                    storable[p] = 0;
                    if (memo.size() < static_cast<size_t>(memo_cap)) memo.emplace(key[p], count - entry[p]);
                }
                if (p == 0) break;
                --p;
                S.undo(p);
                continue;
            }
            if (p == n - 1) {   // every surviving symbol completes a consistent code
                int c = dm.count();
                if (m > 0) K.deep_nodes += c;
                if (mode == COUNT) {
                    count += c;
                    dm.clear();
                    if (limit >= 0 && count >= static_cast<u64>(limit)) {   // a cap: "at least"
                        status = "limit"; done = true;
                    }
                } else if (mode == SELECT) {
                    if (count + c <= ranks[next_rank]) {
                        count += c;
                        dm.clear();
                        continue;
                    }
                    while (!dm.empty()) {
                        int s = dm.low();
                        dm.reset(s);
                        if (count == ranks[next_rank]) {
                            emit(s);
                            if (++next_rank == ranks.size()) { ++count; status = "limit"; done = true; break; }
                        }
                        ++count;
                    }
                } else {
                    while (!dm.empty()) {
                        int s = dm.low();
                        dm.reset(s);
                        emit(s);
                        ++count;
                        if (limit >= 0 && count >= static_cast<u64>(limit)) {
                            status = "limit"; done = true; break;
                        }
                    }
                }
                continue;
            }
            int s = dm.low();
            dm.reset(s);
            S.assign(p, s);
            ++nodes;
            if (m > 0 && p >= h) K.deep_nodes += 1;
            if (!S.feasible(p + 1)) {
                S.undo(p);
                continue;
            }
            ++p;
            if (m > 0 && p == h && want_table()) {
                S.dom[p].clear();
                if (complete_prefix(nullptr)) { status = "limit"; done = true; }
                continue;
            }
            S.dom[p] = S.domain(p);
            if (memo_on && p < n - 1) {
                state_key(p);
                auto it = memo.find(k);
                if (it != memo.end()) {
                    u64 v = it->second;
                    if (mode == COUNT || count + v <= ranks[next_rank]) {
                        count += v;            // the whole subtree, counted before
                        S.dom[p].clear();
                        if (mode == COUNT && limit >= 0 && count >= static_cast<u64>(limit)) {
                            status = "limit"; done = true;
                        }
                        continue;
                    }
                } else {
                    storable[p] = 1;
                    entry[p] = count;
                    key[p] = k;
                }
            }
        }
        if (mid_cursor) {
            cursor = mid_cursor;
        } else if (done) {
            // Where the next call starts: the first untried branch, or nothing left at all.
            while (S.dom[p].empty() && p > 0) {
                --p;
                S.undo(p);
            }
            if (!S.dom[p].empty()) {
                std::vector<int> c(n, 0);
                for (int q = 0; q < p; ++q) c[q] = S.sym[q];
                c[p] = S.dom[p].low();
                cursor = c;
            } else {
                status = "complete";   // nothing left: the search is exhausted after all
            }
        }
    }
    size_t rows = out.size() / P.n;
    py::array_t<uint8_t> codes({static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(P.n)});
    std::copy(out.begin(), out.end(), codes.mutable_data());
    py::dict r;
    r["codes"] = codes;
    r["count"] = py::int_(count);
    r["status"] = status;
    r["nodes"] = py::int_(nodes);
    r["vectors"] = P.vec_on ? P.nvec : -1;
    if (cursor) r["cursor"] = *cursor;
    else r["cursor"] = py::none();
    return r;
}

// One log's search, kept across calls: the count vectors and the meet-in-the-middle table
// are computed once (a listing in chunks, a probe and then the answer share them). Calls on
// one Searcher are serialised by its mutex, taken with the GIL released.
class Searcher {
  public:
    Searcher(int n, int d, bool repeats, bool nlz, bool totals,
             py::array_t<uint8_t, py::array::c_style | py::array::forcecast> guesses,
             std::vector<int> bulls, std::vector<int> total, int vec_cap, long long vec_budget,
             int lies) {
        if (guesses.ndim() != 2 || guesses.shape(1) != n) throw std::invalid_argument("guesses must be (G, N)");
        if (d < 1 || d > 256 || n < 1) throw std::invalid_argument("bad N or D");
        Problem& P = K.P;
        P.n = n; P.d = d; P.g = static_cast<int>(guesses.shape(0));
        P.repeats = repeats; P.nlz = nlz; P.totals = totals;
        if (static_cast<int>(bulls.size()) != P.g || (totals && static_cast<int>(total.size()) != P.g))
            throw std::invalid_argument("one bulls (and total) value per guess");
        P.guess.assign(guesses.data(), guesses.data() + static_cast<size_t>(P.g) * n);
        P.bulls = bulls;
        P.total = totals ? total : std::vector<int>(P.g, 0);
        P.k.assign(static_cast<size_t>(P.g) * d, 0);
        P.kcap.assign(P.g, 0);
        for (int g = 0; g < P.g; ++g) {
            for (int p = 0; p < n; ++p) {
                int s = P.guess[g * n + p];
                if (s >= d) throw std::invalid_argument("guess symbol out of range");
                ++P.k[g * d + s];
            }
            for (int s = 0; s < d; ++s) P.kcap[g] += repeats ? P.k[g * d + s] : std::min<int>(P.k[g * d + s], 1);
        }
        if (lies < 0) throw std::invalid_argument("lies must be >= 0");
        P.lies = lies;
        K.vec_cap = vec_cap;
        K.vec_budget = vec_budget;
    }

    py::dict run(int mode, long long limit, std::vector<int> start, std::vector<u64> ranks,
                 long long max_nodes, double seconds, long long memo_cap, int suffix,
                 size_t table_cap) {
        const int n = K.P.n;
        if (start.empty()) start.assign(n, 0);
        if (static_cast<int>(start.size()) != n) throw std::invalid_argument("start must have N symbols");
        for (int q = 0; q < n; ++q)
            if (start[q] < 0 || start[q] >= K.P.d) throw std::invalid_argument("start symbol out of range");
        std::unique_lock<std::mutex> lock(mu_, std::defer_lock);
        {
            py::gil_scoped_release release;   // wait for another thread's call without the GIL
            lock.lock();
        }
        if (K.P.d <= 64) return run_search<1>(K, mode, limit, start, ranks, max_nodes, seconds, memo_cap, suffix, table_cap);
        return run_search<4>(K, mode, limit, start, ranks, max_nodes, seconds, memo_cap, suffix, table_cap);
    }

    // Count vectors in use (-1: none, or not settled yet); meet-in-the-middle table rows (0: none).
    int vectors() const { return K.P.vec_on ? K.P.nvec : -1; }
    size_t table_rows() const { return K.table.ready ? K.table.codes.size() / std::max(1, K.table.m) : 0; }
    int table_builds() const { return K.table.builds; }

  private:
    Persistent K;
    std::mutex mu_;
};

}  // namespace

PYBIND11_MODULE(dfs, m) {
    m.doc() = "Propagating depth-first search of the codes consistent with a feedback log.";
    py::class_<Searcher>(m, "Searcher")
        .def(py::init<int, int, bool, bool, bool,
                      py::array_t<uint8_t, py::array::c_style | py::array::forcecast>,
                      std::vector<int>, std::vector<int>, int, long long, int>(),
             py::arg("n"), py::arg("d"), py::arg("repeats"), py::arg("no_leading_zero"),
             py::arg("totals"), py::arg("guesses"), py::arg("bulls"), py::arg("total"),
             py::arg("vec_cap") = 256, py::arg("vec_budget") = 2000000, py::arg("lies") = 0)
        .def("run", &Searcher::run, py::arg("mode"), py::arg("limit"), py::arg("start"),
             py::arg("ranks"), py::arg("max_nodes"), py::arg("seconds"),
             py::arg("memo_cap") = 1000000, py::arg("suffix") = -1,
             py::arg("table_cap") = MITM_ROWS,
             "mode 0 list (up to limit codes), 1 count, 2 the codes at sorted ranks; returns "
             "{codes, count, status: complete|limit|nodes|time, nodes, cursor (next start or None)}")
        .def_property_readonly("vectors", &Searcher::vectors)
        .def_property_readonly("table_rows", &Searcher::table_rows)
        .def_property_readonly("table_builds", &Searcher::table_builds);
}
