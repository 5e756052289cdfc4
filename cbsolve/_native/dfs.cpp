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
};

// Every count vector n (sum N; n_s <= 1 for distinct codes) with sum_s min(k_gs, n_s) = m_g for
// all clues, by a depth-first search over symbols with the same bounds as the position search.
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
            for (int g = 0; g < G; ++g) if (T[g] != P.total[g]) return;
            if (++found > cap) { ok = false; return; }
            for (int t = 0; t < d; ++t) out.push_back(static_cast<uint8_t>(n[t]));
            return;
        }
        int hi = P.repeats ? left : std::min(left, 1);
        if (s == d - 1) hi = std::min(hi, left);
        int lo = (s == d - 1) ? left : 0;
        if (lo > hi) return;
        for (int c = lo; c <= hi; ++c) {
            bool good = true;
            for (int g = 0; g < G; ++g) {
                int add = std::min<int>(P.k[g * d + s], c);
                int t = T[g] + add;
                int rest = left - c;
                if (t > P.total[g] || t + std::min(rest, suffix[g * (d + 1) + s + 1]) < P.total[g]) {
                    good = false;
                    break;
                }
            }
            if (!good) continue;
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
    return VEC_FOUND;
}

enum Mode { LIST = 0, COUNT = 1, SELECT = 2 };
// Meet in the middle (listing): automatic from this code length, with a suffix table of at
// most this many rows (D^m), m <= N/2.
constexpr int MITM_MIN_N = 8;
constexpr double MITM_TABLE = 300000;
// Automatic tables are built only once the search has spent this fraction of D^m nodes below
// depth N - m (a search node costs several table rows): a first secret found in a few hundred
// nodes never pays for a table (ski rental: at most a constant factor over either choice).
constexpr double MITM_BUILD_AFTER = 0.25;

using Clock = std::chrono::steady_clock;

// Every suffix of the last m positions that keeps each clue's bulls <= b_g and each symbol's
// count <= its largest count in a count vector, keyed by (symbol counts, bulls per clue):
// built once per log and kept across calls (a Searcher owns it).
struct SuffixTable {
    int m = 0;
    bool ready = false;
    int builds = 0;               // completed builds (a log's table is built once)
    std::unordered_map<std::string, std::vector<int>> rows;
    std::vector<uint8_t> codes;   // m symbols per suffix, in lexicographic order

    void reset(int new_m) {
        m = new_m;
        ready = false;
        rows.clear();
        codes.clear();
    }

    // False (and left empty) when `seconds` from t0 ran out first (seconds < 0: no limit).
    bool build(const Problem& P, Clock::time_point t0, double seconds) {
        const int n = P.n, h = n - m;
        std::vector<int> hi_s(P.d, 0), c(P.d, 0), b(P.g, 0), x(m, 0);
        for (int i = 0; i < P.nvec; ++i)
            for (int s = 0; s < P.d; ++s) hi_s[s] = std::max<int>(hi_s[s], P.vecs[static_cast<size_t>(i) * P.d + s]);
        std::string key;
        int id = 0;
        long long visits = 0;
        bool late = false;
        std::function<void(int)> rec = [&](int q) {   // position h + q
            if (late) return;
            if ((++visits & 4095) == 0 && seconds >= 0 &&
                std::chrono::duration<double>(Clock::now() - t0).count() >= seconds) {
                late = true;
                return;
            }
            if (q == m) {
                key.clear();
                for (int s = 0; s < P.d; ++s) key.push_back(static_cast<char>(c[s]));
                for (int g = 0; g < P.g; ++g) key.push_back(static_cast<char>(b[g]));
                rows[key].push_back(id++);
                for (int t = 0; t < m; ++t) codes.push_back(static_cast<uint8_t>(x[t]));
                return;
            }
            for (int s = 0; s < P.d; ++s) {
                if (c[s] >= hi_s[s]) continue;
                bool ok = true;
                for (int g = 0; g < P.g; ++g)
                    if (P.guess[g * n + h + q] == s && b[g] >= P.bulls[g]) { ok = false; break; }
                if (!ok) continue;
                ++c[s];
                for (int g = 0; g < P.g; ++g) b[g] += P.guess[g * n + h + q] == s;
                x[q] = s;
                rec(q + 1);
                for (int g = 0; g < P.g; ++g) b[g] -= P.guess[g * n + h + q] == s;
                --c[s];
            }
        };
        rec(0);
        if (late) {
            reset(m);
            return false;
        }
        ready = true;
        ++builds;
        return true;
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
        const int left = P.n - a, b = P.bulls[g];
        if (B[g] > b || B[g] + left < b) return true;
        if (!P.totals) return false;
        const int m = P.total[g], t = T[g];
        if (t > m || t + std::min(left, P.kcap[g] - t) < m) return true;
        if (!P.repeats) {
            int free_other = (P.d - a) - (P.kcap[g] - t);
            if (t + std::max(0, left - free_other) > m) return true;
        }
        return false;
    }

    // Clues the code contradicts when symbol s completes it at the last position p.
    int lies_if_last(int p, int s) const {
        int wrong = 0;
        for (int g = 0; g < P.g; ++g) {
            bool bad = B[g] + (P.guess[g * P.n + p] == s) != P.bulls[g];
            if (P.totals) bad = bad || T[g] + (cnt[s] < P.k[g * P.d + s]) != P.total[g];
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
        int lost = 0;
        for (int g = 0; g < P.g; ++g)
            if (broken(g, a) && ++lost > P.lies) return false;
        return !transport || bulls_transport(left);
    }

    // Bulls as a transportation bound: symbol s can fill at most hi_s / must fill at least lo_s
    // of the `left` open positions (from the compatible count vectors, or 0/1 for distinct
    // codes); pc_gs open positions show s in guess g. More bulls are possible only where both
    // meet: B_g + sum_s min(pc_gs, hi_s) >= b_g; and a symbol with more copies to place than
    // open non-s positions must land on s positions: B_g + sum_s max(0, lo_s - (left - pc_gs)) <= b_g.
    bool bulls_transport(int left) {
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
            if (B[g] + most < P.bulls[g] || B[g] + least > P.bulls[g]) return false;
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
};

template <int W>
py::dict run_search(Persistent& K, int mode, long long limit, std::vector<int> start,
                    std::vector<u64> ranks, long long max_nodes, double seconds,
                    long long memo_cap, int suffix) {
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
        if (mode == LIST && P.vec_on && n >= 2) {
            if (suffix > 0) m = std::min(suffix, n - 1);
            else if (suffix < 0 && n >= MITM_MIN_N) {
                while (m + 1 <= n / 2 && table_rows * P.d <= MITM_TABLE) {
                    table_rows *= P.d;
                    ++m;
                }
            }
        }
        const int h = n - m;
        SuffixTable& table = K.table;
        if (m > 0 && table.m != m) table.reset(m);
        bool build_failed = false;
        // An explicit suffix builds at once; the automatic one once the deep search has cost
        // about as much as the table would (see MITM_BUILD_AFTER).
        auto want_table = [&]() {
            if (m == 0 || table.ready || build_failed) return table.ready;
            if (suffix < 0 && K.deep_nodes < MITM_BUILD_AFTER * table_rows) return false;
            build_failed = !table.build(P, t0, seconds);
            return table.ready;
        };
        if (suffix > 0) want_table();
        const std::unordered_map<std::string, std::vector<int>>& rows = table.rows;
        const std::vector<uint8_t>& suffixes = table.codes;
        std::optional<std::vector<int>> mid_cursor;   // stopped inside a suffix list
        std::vector<int> ids;
        std::string tkey;
        // Emit every consistent completion of the current prefix (depth h) that is >= `low`
        // (the start's suffix, or null); true when the limit stopped it.
        auto complete_prefix = [&](const int* low) {
            ids.clear();
            for (int i : S.compat[h]) {
                tkey.clear();
                const uint8_t* v = &P.vecs[static_cast<size_t>(i) * P.d];
                for (int s2 = 0; s2 < P.d; ++s2) tkey.push_back(static_cast<char>(v[s2] - S.cnt[s2]));
                for (int g = 0; g < P.g; ++g) tkey.push_back(static_cast<char>(P.bulls[g] - S.B[g]));
                auto it = rows.find(tkey);
                if (it != rows.end()) ids.insert(ids.end(), it->second.begin(), it->second.end());
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
        K.vec_cap = lies ? 0 : vec_cap;   // count vectors assume every total holds
        K.vec_budget = vec_budget;
    }

    py::dict run(int mode, long long limit, std::vector<int> start, std::vector<u64> ranks,
                 long long max_nodes, double seconds, long long memo_cap, int suffix) {
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
        if (K.P.d <= 64) return run_search<1>(K, mode, limit, start, ranks, max_nodes, seconds, memo_cap, suffix);
        return run_search<4>(K, mode, limit, start, ranks, max_nodes, seconds, memo_cap, suffix);
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
             "mode 0 list (up to limit codes), 1 count, 2 the codes at sorted ranks; returns "
             "{codes, count, status: complete|limit|nodes|time, nodes, cursor (next start or None)}")
        .def_property_readonly("vectors", &Searcher::vectors)
        .def_property_readonly("table_rows", &Searcher::table_rows)
        .def_property_readonly("table_builds", &Searcher::table_builds);
}
