// Worst-case exact search: can every secret be found within d guesses? (decision version of
// the minimax-optimal strategy problem, Knuth 1977; Koyama-Lai 1993 for the search shape).
//
// Python (cbsolve/search/worst.py) owns validation, the score matrix (scoring core), the loop
// over d and the JSON; this file only walks sets of code indices. Three products:
//   feasible(d)       decide, with a transposition table (candidate set -> proved bounds);
//   tree(d)           a strategy tree of depth <= d (after feasible(d) said yes);
//   certificate(d)    a refutation tree proving feasible(d) false, checked by cbsolve/certificates/certify.py.
//
// Sound prunings, each switchable (Options):
//   capacity  with k guesses left at most cap(k) = 1 + (R-1) cap(k-1) secrets can be told apart
//             (R-1 non-winning replies, +1 when the guess is itself a candidate; cap(0) = 0);
//   symmetry  only one guess per orbit of the stabiliser of the history (toolkit_symmetry.hpp,
//             shared with the expected-case search; cbsolve/game/symmetry.py is its reference);
//   obvious   a guess splitting the set into singletons settles the node (depth <= 2);
//   dedupe    guesses with identical replies on the set are one guess;
//   order     guesses in lower-bound order (largest class), candidates first; classes largest
//             first (the one most likely to fail);
//   memo      transposition table keyed by the (sorted) candidate set (its hashing and sharded
//             storage from toolkit_table.hpp).
// A guess that gives every candidate the same reply and is not a candidate is skipped: a
// strategy starting with it contains a shorter one for the same set.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <tuple>
#include <vector>

#include "toolkit_bind.hpp"
#include "toolkit_control.hpp"
#include "toolkit_isa.hpp"
#include "toolkit_replies.hpp"
#include "toolkit_symmetry.hpp"
#include "toolkit_table.hpp"
#include "search_worst_settle.hpp"

namespace py = pybind11;
using std::vector;

namespace {
//! Most positions whose permutations the symmetry table lists (8! = 40,320).
constexpr int kListedPositions = 8;
}  // namespace

namespace {

struct Options {
    bool symmetry = true, capacity = true, obvious = true, order = true, memo = true,
         dedupe = true, candidates_only = false;
    int threads = 1;
    int sym_min_left = 3;  // symmetry pays off only where a node has many guesses to refute
    // a node with at most this many guesses left first tries the strategies that guess only
    // its members (members_settle): a proved yes without the scan of every guess (0: never;
    // the reviews of single guesses use it, where most nodes are small and feasible)
    int members_first = 0;
    int lookahead = 0;     // tree: working guesses compared on the depth-W count (0: first one)
    // certificate: a set the search refuted by counting alone (every guess useless or with a
    // class beyond cap(d-1)) gets its empty node from the memo, not from a second scan
    bool counted_memo = true;
    // a node with at least bound_min_left guesses left takes its guesses' limit from the
    // settle table of its own classes (search_worst_settle.hpp), not from cap alone
    bool settle_bound = true;
    int bound_min_left = 4;
    // the byte-lane scan requests its rows' memory ahead of use (count_lanes)
    bool prefetch = true;
    // a node whose limit fits the byte-lane scan scans every guess and cuts only the survivors
    // to one an orbit (candidates())
    bool late_symmetry = true;
};

using Elem = CodeSymmetry::Elem;  // a stabiliser element (toolkit_symmetry.hpp)

struct TreeNode {
    int guess = -1;
    vector<std::pair<int, std::unique_ptr<TreeNode>>> children;  // (reply, node)
};

// Certificate entry kinds (see docs/optimal.md)
enum Kind { REFUTED = 0, MAPPED = 1, SAME = 2 };
struct CertNode;
struct CertEntry {
    int guess = -1, kind = REFUTED, reply = -1, other = -1;  // other: representative / twin
    vector<int> pos_perm, sym_perm;                          // MAPPED only
    std::unique_ptr<CertNode> child;                         // REFUTED only
};
struct CertNode {
    int left = 0;
    int64_t limit = -1;  // the settle table's bound on the classes (search_worst_settle.hpp), or -1
    vector<CertEntry> entries;
};

struct MemoEntry {
    vector<int> set;
    int infeasible_at = -1;   // largest d proved infeasible
    int feasible_at = 1 << 20;  // smallest d proved feasible
    int counted_at = -1;      // largest d at which counting alone refuted it (cap is monotone)
};

// The byte-lane loops (class counts of 64 guesses, the two-guesses-left test), compiled once
// per instruction set (toolkit_isa.hpp).
#define CBSOLVE_ISA_SOURCE "search_worst_lanes.hpp"
#include "toolkit_isa_each.hpp"

// The transposition table: proved depth intervals per candidate set (a proof table: see
// toolkit_table.hpp for how it differs from the expected-case table).
struct Memo {
    ShardedTable<std::unordered_map<uint64_t, vector<MemoEntry>>> maps;  // hash -> same-hash sets
    std::atomic<int64_t> size{0};
    std::atomic<int64_t> bytes{0};          // about what the stored sets take
    int64_t max_bytes = INT64_MAX;          // beyond it nothing more is stored (still sound)

    // returns +1 feasible, 0 infeasible, -1 unknown
    int lookup(const vector<int>& s, uint64_t h, int d) {
        return maps.locked(h, [&](auto& map) {
            auto it = map.find(h);
            if (it == map.end()) return -1;
            for (auto& e : it->second)
                if (e.set == s) {
                    if (d <= e.infeasible_at) return 0;
                    if (d >= e.feasible_at) return 1;
                    return -1;
                }
            return -1;
        });
    }
    // Whether counting alone refutes s with d guesses left, as a search recorded it.
    bool counted(const vector<int>& s, uint64_t h, int d) {
        return maps.locked(h, [&](auto& map) {
            auto it = map.find(h);
            if (it == map.end()) return false;
            for (auto& e : it->second)
                if (e.set == s) return d <= e.counted_at;
            return false;
        });
    }
    void store(const vector<int>& s, uint64_t h, int d, bool ok, bool by_counting = false) {
        maps.locked(h, [&](auto& map) {
            // find first, insert only after the cap check: a full memo must not keep growing
            // by empty buckets
            auto it = map.find(h);
            if (it != map.end())
                for (auto& e : it->second)
                    if (e.set == s) {
                        if (ok) e.feasible_at = std::min(e.feasible_at, d);
                        else e.infeasible_at = std::max(e.infeasible_at, d);
                        if (by_counting) e.counted_at = std::max(e.counted_at, d);
                        return;
                    }
            const int64_t cost = int64_t(sizeof(MemoEntry) + 48 + s.size() * sizeof(int));
            if (bytes.load(std::memory_order_relaxed) + cost > max_bytes) return;
            bytes += cost;
            MemoEntry e;
            e.set = s;
            if (ok) e.feasible_at = d;
            else e.infeasible_at = d;
            if (by_counting) e.counted_at = d;
            if (it == map.end()) it = map.emplace(h, vector<MemoEntry>()).first;
            it->second.push_back(std::move(e));
            size++;
        });
    }
    // map slots in use (every one holds at least one entry: at most size)
    int64_t buckets() { return maps.entries(); }
};

// Set while a thread explores one guess of a parallel "is there a working guess?" loop: once
// another thread has found one, the rest of that exploration is abandoned (and not memoised).
static thread_local const std::atomic<bool>* tl_cancel = nullptr;

struct Cand {
    int g, maxc, ncls;
    bool in_set;
    int64_t sumsq;
};

class Search {
  public:
    int n, N, D, slots, win;
    bool nlz;
    int64_t nonwin;
    const uint8_t* M;  // the reply matrix, or nullptr: replies scored on the fly (packed)
    std::unique_ptr<PackedScorer> packed;
    vector<uint8_t> codes;
    CodeSymmetry sym;  // the stabiliser of a history, written once in toolkit_symmetry.hpp
    vector<int64_t> cap;
    vector<int> replies;                  // non-winning replies that occur in the matrix
    Options opt;
    Memo memo;
    SetKeys set_keys;   // the hashing of candidate sets (toolkit_table.hpp)
    SearchControl ctl;  // stop flag (Ctrl-C, time limit), deadline, progress counters
    std::atomic<int64_t> nodes{0};
    // profile per guesses left: nodes searched, memo hits, guesses whose classes were explored
    std::atomic<int64_t> prof_nodes[64] = {}, prof_hits[64] = {}, prof_tried[64] = {};

    // `matrix` None: no matrix, replies scored from the packed codes (`repeats` and
    // `bulls_only` describe the variant then, and `occurring` must list the replies).
    Search(py::object matrix_obj, py::array_t<uint8_t, py::array::c_style> codes_, int n_symbols,
           bool nlz_, int slots_, int win_, int n_responses, const vector<int>& occurring = {},
           bool repeats = true, bool bulls_only = false)
        : matrix_keep(matrix_obj) {
        n = static_cast<int>(codes_.shape(0));
        N = static_cast<int>(codes_.shape(1));
        D = n_symbols;
        nlz = nlz_;
        slots = slots_;
        win = win_;
        nonwin = n_responses - 1;
        if (slots > 256) throw std::invalid_argument("replies must fit in a byte");
        if (matrix_obj.is_none()) {
            M = nullptr;
            packed = std::make_unique<PackedScorer>(codes_, n_symbols, repeats, bulls_only);
        } else {
            auto matrix = matrix_obj.cast<py::array_t<uint8_t, py::array::c_style>>();
            if (matrix.ndim() != 2 || matrix.shape(0) != n || matrix.shape(1) != n)
                throw std::invalid_argument("matrix must be n x n over all codes");
            M = matrix.data();
            matrix_keep = matrix;
        }
        codes.assign(codes_.data(), codes_.data() + static_cast<size_t>(n) * N);
        int64_t span = 1;
        for (int i = 0; i < N; ++i) span *= D;
        if (span > (int64_t(1) << 28)) throw std::invalid_argument("space too large for symmetry table");
        // the stabiliser lists every position permutation: up to 8 positions (40,320, as
        // cbsolve/game/symmetry.py lists them); past that none (11 positions were 40 M lists, a
        // std::bad_alloc under a 4 GB cap), and the search runs without the reduction (sound)
        sym.init(codes.data(), n, N, D, nlz, std::min(N, kListedPositions), double(span));
        set_keys.init(n, kSetKeySeed);
        // The replies that occur (the vector scan counts only these): the caller's list
        // (scoring.possible_responses), else read off the matrix, a scan of n^2 bytes (0.37 s
        // on Logik 5x8's 1 GiB).
        vector<char> occurs(256, 0);
        if (!occurring.empty()) {
            for (int r : occurring) {
                if (r < 0 || r >= slots) throw std::invalid_argument("reply index out of range");
                occurs[r] = 1;
            }
        } else if (M) {
            for (size_t i = 0; i < static_cast<size_t>(n) * n; ++i) occurs[M[i]] = 1;
        } else {
            throw std::invalid_argument("without a matrix the replies that occur must be given");
        }
        for (int r = 0; r < 256; ++r) if (occurs[r] && r != win) replies.push_back(r);
        cap.assign(64, 0);
        const int64_t BIG = int64_t(1) << 50;
        for (int d = 1; d < 64; ++d) cap[d] = std::min(BIG, 1 + nonwin * cap[d - 1]);
    }

    const uint8_t* code(int i) const { return &codes[static_cast<size_t>(i) * N]; }

    // ---- replies (the matrix, or toolkit_replies.hpp) ---------------------------------
    // Whether the rows of the current node's secrets can be read (always with the matrix; on
    // the fly when a RowScope covers the node's set).
    bool have_rows() const { return M != nullptr || tl_rows != nullptr; }
    // Row of secret s: every guess's reply to it (the score is symmetric). Needs have_rows().
    inline const uint8_t* srow(int s) const {
        return M ? M + static_cast<size_t>(s) * n : tl_rows->row(s);
    }
    // Guess g's replies, readable at p[s] for every s of S: the matrix row, or scored into buf.
    const uint8_t* guess_row(int g, const int* S, size_t m, vector<uint8_t>& buf) const {
        if (M) return M + static_cast<size_t>(g) * n;
        static thread_local vector<uint8_t> tmp;
        tmp.resize(m);
        packed->many(g, S, m, tmp.data());
        if (buf.size() < static_cast<size_t>(n)) buf.resize(n);
        for (size_t i = 0; i < m; ++i) buf[S[i]] = tmp[i];
        return buf.data();
    }
    // The node's scope for the on-the-fly rows (nothing with the matrix); a stop or the
    // deadline cuts its build unless `whole` (a caller that reads the rows unguarded).
    RowScope rows_for(const int* S, size_t m, bool whole = false) const {
        return RowScope(M ? nullptr : packed.get(), S, m, whole ? nullptr : &ctl);
    }

    // ---- symmetry (toolkit_symmetry.hpp) -----------------------------------------------
    vector<Elem> stabilizer(const vector<int>& hist) const {
        return sym.stabiliser(hist.data(), hist.size());
    }
    int image(const Elem& e, int g, vector<int>* full = nullptr) const { return sym.image(e, g, full); }
    int canonical(const vector<Elem>& G, int g, int* which = nullptr) const {
        return sym.canonical(G, g, which);
    }

    // ---- helpers ----------------------------------------------------------------------
    bool stopped() const { return ctl.stopped(); }
    void check_stop() {
        int64_t k = ++nodes;
        if ((k & 255) == 0) ctl.count_nodes(k, memo.size.load());
        ctl.poll(k);
    }

    // Guesses worth trying at a node, with their class statistics (useless and
    // capacity-refuted ones dropped). Returns true in *settled when an obvious guess exists.
    // mode SEARCH: obvious shortcut, capacity (if enabled), order, dedupe.
    // mode CERT: every surviving representative, capacity always on, no shortcut/order/dedupe
    //            (the certificate's implicit rules are exactly "useless" and "counting").
    // mode GREEDY: no depth limit; only the best guess in lower-bound order matters.
    enum Mode { SEARCH, CERT, GREEDY };
    vector<Cand> candidates(const vector<int>& S, int d, const vector<int>& hist,
                            bool* settled, vector<char>& in_set, Mode mode = SEARCH,
                            vector<Elem>* group = nullptr, int64_t* limit = nullptr) const {
        *settled = false;
        vector<int> pool;
        if (opt.candidates_only) pool = S;
        else { pool.resize(n); for (int i = 0; i < n; ++i) pool[i] = i; }
        bool use_sym = opt.symmetry && d >= opt.sym_min_left;
        vector<Elem> G;
        if (use_sym) G = stabilizer(hist);
        if (group) *group = G;
        // A scan in byte lanes reads 64 contiguous guesses with two loads a secret, but a pool
        // cut to one guess an orbit gathers them byte by byte, at twice the cost, after |pool|
        // x |G| image tests: with a small limit (few guesses survive it) the whole pool is
        // scanned and only the survivors are cut to their orbits' representatives. A guess's
        // orbit has its class sizes, so the same representatives survive, in the same order.
        const bool capacity = mode == CERT || (mode == SEARCH && opt.capacity);
        // Only where most guesses are their orbit's representative (an evenly spaced sample
        // of 256 tells): where the orbits are few (symbols the history leaves unused are
        // interchangeable, as in Bulls & Cows positions), gathering them is the cheaper scan.
        const bool late_sym = use_sym && opt.late_symmetry && capacity && have_rows() &&
                              cap[d - 1] <= SMALL_LIM && slots <= 64 &&
                              mostly_representatives(G, pool);
        if (use_sym && !late_sym) {
            // |pool| x |G| image tests: 8 of 8 distinct's whole group (8! elements) at the top
            // took 28 s, so this loop reads the clock too (stopped: the callers discard it)
            size_t w = 0;
            int64_t since_clock = 0;
            for (int g : pool) {
                if (ctl.poll_work(since_clock, int64_t(G.size()))) break;
                if (canonical(G, g) == g) pool[w++] = g;
            }
            pool.resize(w);
        }
        // Reply histograms of every pool guess, streaming one row per secret (the score is
        // symmetric, so row s holds the replies of all guesses to secret s, and it stays in L1
        // while the pool is walked). Every CHUNK secrets, guesses that already have a class
        // beyond cap(d-1) are dropped (capacity pruning), so refuted guesses cost little.
        int64_t lim = capacity ? std::min<int64_t>(cap[d - 1], 60000) : INT64_MAX;
        vector<Cand> out;
        const size_t m = S.size();
        static thread_local vector<const uint8_t*> rows;
        rows.resize(m);
        if (have_rows()) {
            for (size_t i = 0; i < m; ++i) rows[i] = srow(S[i]);
            // not at a game's root (no history): a sharded proof composes that node from its
            // orbits (cbsolve merge), and it must be the one-process certificate's node
            if (capacity && opt.settle_bound && d >= opt.bound_min_left && !hist.empty()) {
                const int64_t b = settle_limit(rows, pool, in_set, d);
                if (b < lim) {
                    lim = b;
                    if (limit) *limit = b;
                }
            }
            if (scan_pool(rows, pool, nullptr, lim, mode, settled, in_set, out)) return out;
            if (late_sym) {
                size_t w = 0;
                for (const Cand& c : out)
                    if (canonical(G, c.g) == c.g) out[w++] = c;
                out.resize(w);
            }
        } else {
            // On the fly, too large for a row table: the pairs of a block of guesses are
            // scored into a node table (secret-major), which the same scan reads.
            static thread_local vector<uint8_t> table;
            const size_t P = pool.size();
            size_t B = std::max<size_t>(64, (size_t(16) << 20) / std::max<size_t>(m, 1) / 64 * 64);
            vector<int> cols;
            static thread_local int64_t since_clock = 0;
            for (size_t b0 = 0; b0 < P; b0 += B) {
                const size_t len = std::min(B, P - b0);
                if (ctl.poll_work(since_clock, int64_t(m) * int64_t(len))) break;
                table.resize(m * len);
                for (size_t i = 0; i < m; ++i) {
                    packed->many(S[i], &pool[b0], len, &table[i * len]);
                    rows[i] = &table[i * len];
                }
                cols.resize(len);
                for (size_t k = 0; k < len; ++k) cols[k] = static_cast<int>(k);
                if (scan_pool(rows, cols, &pool[b0], lim, mode, settled, in_set, out)) return out;
            }
        }
        if (mode == CERT) return out;
        if (opt.order || mode == GREEDY)
            std::stable_sort(out.begin(), out.end(), [](const Cand& a, const Cand& b) {
                if (a.maxc != b.maxc) return a.maxc < b.maxc;
                if (a.in_set != b.in_set) return a.in_set;
                return a.sumsq < b.sumsq;
            });
        if (opt.dedupe && mode == SEARCH) out = dedupe(out, S);
        return out;
    }

    // Whether at least half of an evenly spaced sample of 256 guesses of `pool` are their
    // orbit's representative under G.
    bool mostly_representatives(const vector<Elem>& G, const vector<int>& pool) const {
        const size_t step = std::max<size_t>(1, pool.size() / 256);
        size_t seen = 0, reps = 0;
        for (size_t k = 0; k < pool.size(); k += step, ++seen) reps += canonical(G, pool[k]) == pool[k];
        return 2 * reps >= seen;
    }

    // b[d-1] of the settle table of S over the guesses `pool` (search_worst_settle.hpp): the
    // largest class a guess may have and still start a strategy of d guesses; cap[d-1] when
    // the scan was stopped (a partial scan would understate the table).
    int64_t settle_limit(const vector<const uint8_t*>& rows, const vector<int>& pool,
                         const vector<char>& in_set, int d) const {
        vector<int> cols(pool);
        vector<uint8_t> dead(cols.size(), 0);
        vector<char> member(cols.size());
        for (size_t k = 0; k < cols.size(); ++k) member[k] = in_set[cols[k]];
        vector<int64_t> b;
        if (rows.size() <= 65535) {
            vector<uint16_t> cnt(cols.size() * slots);
            scan_scalar(rows, cols, INT64_MAX, cnt, dead);
            b = settle_table(cnt, cols.size(), slots, win, member, cap, d - 1);
        } else {
            vector<uint32_t> cnt(cols.size() * slots);
            scan_scalar(rows, cols, INT64_MAX, cnt, dead);
            b = settle_table(cnt, cols.size(), slots, win, member, cap, d - 1);
        }
        return stopped() ? cap[d - 1] : b[d - 1];
    }

    // The histograms of the guesses `cols` (columns of the rows `rows`, one per secret of the
    // node; guess = colmap[col], or col itself without colmap) appended to `out` as in
    // candidates(). Returns true when an obvious guess settled the node (out = that guess).
    bool scan_pool(const vector<const uint8_t*>& rows, vector<int>& cols, const int* colmap,
                   int64_t lim, Mode mode, bool* settled, const vector<char>& in_set,
                   vector<Cand>& out) const {
        const size_t P = cols.size();
        const bool vec = lim <= SMALL_LIM && slots <= 64 && P > 0;
        vector<uint8_t> dead(P, 0);
        if (vec || rows.size() <= 65535) {
            // per-thread buffers: a fresh 2 MB table per node cost page faults (and the
            // kernel's zeroing); the byte-lane scan writes every count it leaves
            static thread_local vector<uint16_t> cnt;
            if (cnt.size() < P * slots) cnt.resize(P * slots);
            size_t live = P;
            if (vec) scan_small(rows, cols, static_cast<int>(lim), cnt, dead);
            else live = scan_scalar(rows, cols, lim, cnt, dead);
            return collect(cnt, cols, live, colmap, vec, lim, mode, settled, in_set, dead, out);
        }
        // more than 65,535 secrets: a class can outgrow 16-bit counters
        static thread_local vector<uint32_t> cnt32;
        if (cnt32.size() < P * slots) cnt32.resize(P * slots);
        const size_t live = scan_scalar(rows, cols, lim, cnt32, dead);
        return collect(cnt32, cols, live, colmap, false, lim, mode, settled, in_set, dead, out);
    }

    // Class counts one secret row at a time, every guess of cols; every CHUNK secrets the
    // guesses with a class beyond lim are dropped and the survivors compacted to the front of
    // cols (and of cnt). Returns how many guesses the arrays hold.
    template <class T>
    size_t scan_scalar(const vector<const uint8_t*>& rows, vector<int>& cols, int64_t lim,
                       vector<T>& cnt, vector<uint8_t>& dead) const {
        size_t P = cols.size();
        std::fill(cnt.begin(), cnt.begin() + P * slots, 0);
        const int lim_i = static_cast<int>(std::min<int64_t>(lim, INT32_MAX));
        const size_t CHUNK = 24;
        const size_t m = rows.size();
        static thread_local int64_t since_clock = 0;
        for (size_t start = 0; start < m; start += CHUNK) {
            // a large node's scan takes long: a stop or the deadline leaves it (the callers
            // then discard it)
            if (start % (CHUNK * 64) == 0 && ctl.poll_work(since_clock, int64_t(CHUNK * 64) * int64_t(P)))
                break;
            size_t stop_at = std::min(m, start + CHUNK);
            for (size_t i = start; i < stop_at; ++i) {
                const uint8_t* row = rows[i];
                T* c = cnt.data();
                for (size_t k = 0; k < P; ++k) {
                    int r = row[cols[k]];
                    dead[k] |= (++c[k * slots + r] > lim_i) & (r != win);
                }
            }
            if (stop_at < m) {  // compact the surviving guesses
                size_t w = 0;
                for (size_t k = 0; k < P; ++k) {
                    if (dead[k]) continue;
                    if (w != k) {
                        cols[w] = cols[k];
                        std::copy(&cnt[k * slots], &cnt[k * slots] + slots, &cnt[w * slots]);
                        dead[w] = 0;
                    }
                    ++w;
                }
                P = w;
            }
        }
        return P;
    }

    // The scanned guesses' class statistics into out (useless and over-full ones dropped).
    template <class T>
    bool collect(const vector<T>& cnt, const vector<int>& cols, size_t P, const int* colmap,
                 bool vec, int64_t lim, Mode mode, bool* settled, const vector<char>& in_set,
                 const vector<uint8_t>& dead, vector<Cand>& out) const {
        const bool capacity = mode == CERT || (mode == SEARCH && opt.capacity);
        for (size_t k = 0; k < P; ++k) {
            if (dead[k]) continue;
            int g = colmap ? colmap[cols[k]] : cols[k];
            const T* counts = &cnt[k * slots];
            int64_t maxc = 0, sq = 0;
            int ncls = 0;
            for (int r = 0; r < slots; ++r) {
                if (!counts[r]) continue;
                ++ncls;
                if (r != win) { maxc = std::max<int64_t>(maxc, counts[r]); sq += int64_t(counts[r]) * counts[r]; }
            }
            bool ins = in_set[g];
            if (vec && ins) ++ncls;  // the vector scan leaves the winning class out
            if (ncls == 1 && !ins) continue;  // useless guess
            if (mode == SEARCH && opt.obvious && maxc <= 1) {
                *settled = true;
                out.assign(1, Cand{g, static_cast<int>(maxc), ncls, ins, sq});
                return true;
            }
            if (capacity && maxc > lim) continue;
            out.push_back(Cand{g, static_cast<int>(maxc), ncls, ins, sq});
        }
        return false;
    }

    // Class counts in byte lanes (search_worst_lanes.hpp, the path in use).
    static constexpr int SMALL_LIM = 200;  // counts may pass lim by 8 before a check: < 256
    void scan_small(const vector<const uint8_t*>& rows, const vector<int>& pool, int lim,
                    vector<uint16_t>& cnt, vector<uint8_t>& dead) const {
        CBSOLVE_ISA_CALL(count_lanes, rows, pool, lim, replies, win, slots, opt.prefetch, ctl, cnt,
                         dead);
    }

    // A hash of each guess's replies to S, row by row (the score is symmetric: row s holds
    // every guess's reply to s; hashing guess by guess cost a cache miss per secret and was
    // most of the time of a node with many guesses).
    vector<uint64_t> reply_hashes(const vector<int>& gs, const vector<int>& S) const {
        vector<uint64_t> h(gs.size(), 1469598103934665603ULL);
        if (!have_rows()) {  // on the fly, a large node: each guess's replies scored in turn
            vector<uint8_t> rep(S.size());
            int64_t since_clock = 0;
            for (size_t k = 0; k < gs.size(); ++k) {
                // stopped: the hashes are incomplete, which only hides duplicates
                if (ctl.poll_work(since_clock, int64_t(S.size()))) break;
                packed->many(gs[k], S.data(), S.size(), rep.data());
                for (uint8_t r : rep) h[k] = (h[k] ^ r) * 1099511628211ULL;
            }
            return h;
        }
        int64_t since_clock = 0;
        for (int s : S) {
            if (ctl.poll_work(since_clock, int64_t(gs.size()))) break;
            const uint8_t* row = srow(s);
            for (size_t k = 0; k < gs.size(); ++k) h[k] = (h[k] ^ row[gs[k]]) * 1099511628211ULL;
        }
        return h;
    }

    vector<Cand> dedupe(const vector<Cand>& cs, const vector<int>& S) const {
        std::unordered_map<uint64_t, vector<int>> seen;  // hash -> indices into out
        vector<Cand> out;
        vector<int> gs;
        for (auto& c : cs) gs.push_back(c.g);
        const vector<uint64_t> hs = reply_hashes(gs, S);
        for (size_t k = 0; k < cs.size(); ++k) {
            const Cand& c = cs[k];
            auto& bucket = seen[hs[k]];
            bool dup = false;
            for (int k : bucket) if (same_replies(out[k].g, c.g, S)) { dup = true; break; }
            if (dup) continue;
            bucket.push_back(static_cast<int>(out.size()));
            out.push_back(c);
        }
        return out;
    }
    bool same_replies(int a, int b, const vector<int>& S) const {
        if (!have_rows()) {
            vector<uint8_t> ra(S.size()), rb(S.size());
            packed->many(a, S.data(), S.size(), ra.data());
            packed->many(b, S.data(), S.size(), rb.data());
            return ra == rb;
        }
        // row s (hot after reply_hashes) rather than rows a and b: the score is symmetric
        for (int s : S) {
            const uint8_t* row = srow(s);
            if (row[a] != row[b]) return false;
        }
        return true;
    }

    // classes of S under guess g (winning reply excluded), largest first
    vector<std::pair<int, vector<int>>> classes(int g, const vector<int>& S) const {
        vector<vector<int>> by(slots);
        static thread_local vector<uint8_t> buf;
        const uint8_t* row = guess_row(g, S.data(), S.size(), buf);
        for (int s : S) { int r = row[s]; if (r != win) by[r].push_back(s); }
        vector<std::pair<int, vector<int>>> out;
        for (int r = 0; r < slots; ++r) if (!by[r].empty()) out.emplace_back(r, std::move(by[r]));
        std::stable_sort(out.begin(), out.end(),
                         [](auto& a, auto& b) { return a.second.size() > b.second.size(); });
        return out;
    }

    // ---- decision ---------------------------------------------------------------------
    // d = 2: some guess (a candidate preferred) leaves only singleton classes.
    int solve2(const vector<int>& S) const { return solve2(S.data(), static_cast<int>(S.size())); }
    int solve2(const int* S, int m) const {
        if (m > nonwin + 1) return -1;
        // on the fly: the rows of a small set (or its parent's), read below unguarded: whole
        auto scope = rows_for(S, m, true);
        const uint8_t* rows[256];  // m <= R <= 256
        for (int i = 0; i < m; ++i) rows[i] = srow(S[i]);
        auto splits = [&](int g) {
            uint64_t seen[4] = {0, 0, 0, 0};
            for (int i = 0; i < m; ++i) {
                int r = M ? M[static_cast<size_t>(g) * n + S[i]] : rows[i][g];
                if (r == win) continue;
                uint64_t bit = 1ULL << (r & 63);
                if (seen[r >> 6] & bit) return false;
                seen[r >> 6] |= bit;
            }
            return true;
        };
        for (int i = 0; i < m; ++i) if (splits(S[i])) return S[i];
        if (m > nonwin || opt.candidates_only) return -1;
        if (m > 64 || slots > 128) {  // the vector test marks the win with 0x80 + i
            for (int g = 0; g < n; ++g) if (splits(g)) return g;
            return -1;
        }
        // Every guess, 32 at a time, in byte lanes (search_worst_lanes.hpp): reading each
        // guess's replies cost a cache miss per secret (this test dominated).
        int g0 = 0;
        const int found = CBSOLVE_ISA_CALL(first_splitter, rows, m, n, win, &g0);
        if (found >= 0) return found;
        for (int g = g0; g < n; ++g) if (splits(g)) return g;
        return -1;
    }

    bool trivial(const vector<int>& S, int d, int* answer) const {
        size_t m = S.size();
        if (m == 0) { *answer = 1; return true; }
        if (d <= 0) { *answer = 0; return true; }
        if (m == 1) { *answer = 1; return true; }
        if (opt.capacity && static_cast<int64_t>(m) > cap[d]) { *answer = 0; return true; }
        if (d == 1) { *answer = 0; return true; }
        if (m == 2) { *answer = 1; return true; }
        if (d == 2) { *answer = solve2(S) >= 0; return true; }
        return false;
    }

    bool guess_works(int g, const vector<int>& S, int d, vector<int>& hist) {
        prof_tried[d]++;
        auto cls = classes(g, S);
        hist.push_back(g);
        bool ok = true;
        for (auto& c : cls)
            if (!feasible(c.second, d - 1, hist)) { ok = false; break; }
        hist.pop_back();
        return ok;
    }

    // Three guesses left: does one of the guesses cs (in order) leave only classes that one
    // more guess splits into singletons? The classes are built in a flat buffer (no set per
    // class), largest first, and a class that failed is remembered: a later guess that keeps
    // all of it in one class fails too (its class contains a set no single guess splits).
    bool some_guess_works3(const vector<Cand>& cs, const vector<int>& S) {
        const int m = static_cast<int>(S.size());
        vector<int> flat(m), start(slots + 1), fill(slots);
        vector<uint8_t> rep(m);
        vector<vector<int>> failed;  // classes that no single guess splits
        vector<uint8_t> buf;
        for (const Cand& c : cs) {
            if (cancelled()) return false;
            prof_tried[3]++;
            const uint8_t* row = guess_row(c.g, S.data(), S.size(), buf);
            bool refuted = false;
            for (auto& f : failed) {
                const uint8_t r0 = row[f[0]];
                size_t i = 1;
                while (i < f.size() && row[f[i]] == r0) ++i;
                if (i == f.size()) { refuted = true; break; }
            }
            if (refuted) continue;
            std::fill(start.begin(), start.end(), 0);
            for (int i = 0; i < m; ++i) { rep[i] = row[S[i]]; ++start[rep[i] + 1]; }
            for (int r = 0; r < slots; ++r) start[r + 1] += start[r];
            std::copy(start.begin(), start.end() - 1, fill.begin());
            for (int i = 0; i < m; ++i) flat[fill[rep[i]]++] = S[i];
            vector<int> order;  // replies of the classes of 3 or more, largest first
            for (int r = 0; r < slots; ++r)
                if (r != win && start[r + 1] - start[r] >= 3) order.push_back(r);
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
                return start[a + 1] - start[a] > start[b + 1] - start[b];
            });
            bool ok = true;
            for (int r : order) {
                const int* cls = &flat[start[r]];
                const int size = start[r + 1] - start[r];
                if (solve2(cls, size) < 0) {
                    if (failed.size() < 16) failed.emplace_back(cls, cls + size);
                    ok = false;
                    break;
                }
            }
            if (ok) return true;
        }
        return false;
    }

    bool cancelled() const {
        return stopped() || (tl_cancel != nullptr && tl_cancel->load(std::memory_order_relaxed));
    }

    bool feasible(const vector<int>& S, int d, vector<int>& hist) {
        if (cancelled()) return false;
        int ans;
        if (trivial(S, d, &ans)) return ans;
        check_stop();
        uint64_t h = 0;
        if (opt.memo) {
            h = set_keys.hash(S);
            int r = memo.lookup(S, h, d);
            if (r >= 0) { prof_hits[d]++; return r; }
        }
        prof_nodes[d]++;
        auto scope = rows_for(S.data(), S.size());
        if (d <= opt.members_first && members_settle(S.data(), static_cast<int>(S.size()), d)) {
            if (opt.memo) memo.store(S, h, d, true, false);
            return true;
        }
        vector<char> in_set(n, 0);
        for (int s : S) in_set[s] = 1;
        bool settled;
        auto cs = candidates(S, d, hist, &settled, in_set);
        bool ok = settled;
        // no guess survived the scan: every one is useless or over cap(d-1) (symmetry keeps
        // both per orbit), which the certificate's counting rule shows without a sub-proof
        const bool by_counting = !settled && cs.empty() && opt.capacity;
        if (!ok) {
            bool top = opt.threads > 1 && !omp_in_parallel() && cs.size() > 1 && d >= 4;
            if (top) {
                std::atomic<bool> found{false};
                ctl.top_node(0, static_cast<int64_t>(cs.size()));
                std::atomic<int64_t> done{0};
                const RowTable* rows_here = tl_rows;  // the workers read this node's rows
#pragma omp parallel for schedule(dynamic, 1) num_threads(opt.threads)
                for (int k = 0; k < static_cast<int>(cs.size()); ++k) {
                    if (found || stopped()) continue;
                    vector<int> hist_k = hist;
                    tl_cancel = &found;
                    const RowTable* own = tl_rows;
                    tl_rows = rows_here;
                    bool works = guess_works(cs[k].g, S, d, hist_k);
                    tl_rows = own;
                    tl_cancel = nullptr;
                    if (works && !stopped()) found = true;
                    int64_t dn = ++done;
                    ctl.top_node(dn, -1);
                }
                ok = found;
            } else {
                if (d == 3) ok = some_guess_works3(cs, S);
                else
                    for (auto& c : cs)
                        if (guess_works(c.g, S, d, hist)) { ok = true; break; }
            }
        }
        if (cancelled()) return false;  // an abandoned exploration proves nothing
        if (opt.memo) memo.store(S, h, d, ok, by_counting);
        return ok;
    }

    // Whether S can surely be finished within d guesses by guessing only its members: at most
    // d secrets (each in turn), or a member each of whose classes (the win left out) can be,
    // with d - 1 guesses. True is proved (that strategy exists); false only means: search.
    // Needs the rows of S (have_rows(); false without them).
    bool members_settle(const int* S, int m, int d) const {
        if (m <= d) return true;
        if (d < 2 || (opt.capacity && static_cast<int64_t>(m) > cap[d]) || !have_rows()) return false;
        vector<int> flat(m), start(slots + 1), fill(slots);
        vector<uint8_t> rep(m);
        for (int a = 0; a < m; ++a) {
            const int g = S[a];
            std::fill(start.begin(), start.end(), 0);
            for (int i = 0; i < m; ++i) { rep[i] = srow(S[i])[g]; ++start[rep[i] + 1]; }
            bool small = true;  // every class within d - 1 secrets: each in turn
            for (int r = 0; r < slots; ++r)
                if (r != win && start[r + 1] > d - 1) { small = false; break; }
            if (small) return true;
            if (d < 3) continue;
            for (int r = 0; r < slots; ++r) start[r + 1] += start[r];
            std::copy(start.begin(), start.end() - 1, fill.begin());
            for (int i = 0; i < m; ++i) flat[fill[rep[i]]++] = S[i];
            bool ok = true;
            for (int r = 0; r < slots && ok; ++r)
                if (r != win) ok = members_settle(&flat[start[r]], start[r + 1] - start[r], d - 1);
            if (ok) return true;
        }
        return false;
    }

    // The worst case of guess g from S after hist: 1 + the largest minimax optimum of its
    // classes (the win left out), largest class first. Each class is decided only if it could
    // exceed the largest so far (from `floor`, which the caller knows some class reaches):
    // by members_settle, else by feasible() upward. -1 when stopped.
    int guess_cost(const vector<int>& S, int g, int floor, vector<int>& hist) {
        auto cls = classes(g, S);
        auto scope = rows_for(S.data(), S.size(), true);
        hist.push_back(g);
        int worst = std::max(floor, 0);
        for (auto& c : cls) {
            const vector<int>& C = c.second;
            if (members_settle(C.data(), static_cast<int>(C.size()), worst)) continue;
            int d = worst;
            while (!feasible(C, d, hist)) {
                if (cancelled()) { hist.pop_back(); return -1; }
                ++d;
            }
            if (cancelled()) { hist.pop_back(); return -1; }
            worst = d;
        }
        hist.pop_back();
        return 1 + worst;
    }

    // ---- strategy tree ----------------------------------------------------------------
    std::unique_ptr<TreeNode> tree(const vector<int>& S, int d, vector<int>& hist) {
        auto node = std::make_unique<TreeNode>();
        int m = static_cast<int>(S.size());
        if (m == 0) throw std::logic_error("tree of an empty set");
        if (m == 1) { node->guess = S[0]; return node; }
        // Tie-break (fewest secrets needing all d guesses): a set that fits in d-1 guesses
        // gets a tree of d-1, so none of its secrets reaches the last level.
        if (opt.lookahead > 0 && d >= 3 && m >= 3 && feasible(S, d - 1, hist))
            return tree(S, d - 1, hist);
        const int g = root_guess(S, d, hist);
        if (g < 0) {
            if (stopped()) return node;   // the deadline cut guess_works short: Runner::tree says None
            throw std::logic_error("tree: no guess works (set not feasible at this depth)");
        }
        node->guess = g;
        hist.push_back(g);
        auto cls = classes(g, S);
        std::sort(cls.begin(), cls.end(), [](auto& a, auto& b) { return a.first < b.first; });
        for (auto& c : cls) node->children.emplace_back(c.first, tree(c.second, d - 1, hist));
        hist.pop_back();
        return node;
    }

    // The first guess of tree(S, d) (S of two or more secrets, feasible within d; -1: none
    // works, or stopped), without the subtrees below it.
    int root_guess(const vector<int>& S, int d, vector<int>& hist) {
        const int m = static_cast<int>(S.size());
        auto scope = rows_for(S.data(), S.size());
        if (m == 2) return S[0];
        if (d == 2) return solve2(S);
        vector<char> in_set(n, 0);
        for (int s : S) in_set[s] = 1;
        bool settled;
        auto cs = candidates(S, d, hist, &settled, in_set);
        if (settled) {
            // an obvious guess: prefer a candidate that splits into singletons
            const int g = solve2(S);
            return g >= 0 ? g : cs[0].g;
        }
        int g = -1;
        int64_t best = -1;
        int tried = 0;
        for (auto& c : cs) {
            if (!guess_works(c.g, S, d, hist)) continue;
            if (opt.lookahead <= 0) return c.g;
            int64_t score = last_level_bound(c.g, S, d, hist);
            if (best < 0 || score < best) { best = score; g = c.g; }
            if (best <= 1 || ++tried >= opt.lookahead) break;
        }
        return g;
    }

    // Lower bound on the secrets of S that guess g leaves for the last of d guesses: a class
    // that k = d-1 guesses cannot settle within k-1 puts at least max(1, |C| - cap(k-1)) there.
    int64_t last_level_bound(int g, const vector<int>& S, int d, vector<int>& hist) {
        auto cls = classes(g, S);
        hist.push_back(g);
        int64_t sum = 0;
        for (auto& c : cls) {
            int64_t size = static_cast<int64_t>(c.second.size());
            if (d - 1 == 1) { sum += size; continue; }
            if (!feasible(c.second, d - 2, hist)) sum += std::max<int64_t>(1, size - cap[d - 2]);
        }
        hist.pop_back();
        return sum;
    }

    // Greedy minimax tree (Knuth 1977's rule with this file's tie-breaks: smallest largest
    // class, a candidate, smallest sum of squared class sizes): the seed upper bound.
    std::unique_ptr<TreeNode> greedy(const vector<int>& S, vector<int>& hist) {
        auto node = std::make_unique<TreeNode>();
        int m = static_cast<int>(S.size());
        if (stopped()) return node;
        check_stop();
        if (m == 1) { node->guess = S[0]; return node; }
        auto scope = rows_for(S.data(), S.size());
        int g = (m == 2) ? S[0] : solve2(S);
        if (g < 0) {
            vector<char> in_set(n, 0);
            for (int x : S) in_set[x] = 1;
            bool settled;
            auto cs = candidates(S, 60, hist, &settled, in_set, GREEDY);
            if (cs.empty()) {
                if (stopped()) return node;
                throw std::logic_error("greedy: no informative guess");
            }
            g = cs[0].g;
        }
        node->guess = g;
        hist.push_back(g);
        auto cls = classes(g, S);
        std::sort(cls.begin(), cls.end(), [](auto& a, auto& b) { return a.first < b.first; });
        for (auto& c : cls) node->children.emplace_back(c.first, greedy(c.second, hist));
        hist.pop_back();
        return node;
    }

    // ---- lower-bound certificate ------------------------------------------------------
    std::unique_ptr<CertNode> certificate(const vector<int>& S, int d, vector<int>& hist) {
        auto node = std::make_unique<CertNode>();
        node->left = d;
        int m = static_cast<int>(S.size());
        if (d <= 0 || m > cap[d]) return node;  // counting: verifier checks |S| > cap(d)
        // every guess settled by counting or uselessness, as the search found: the verifier
        // finds them itself (the node a scan here would write has no entries either)
        // (not where the settle table applies: such a node names its limit, from a scan)
        const bool limited = opt.settle_bound && d >= opt.bound_min_left;
        if (opt.counted_memo && opt.memo && !limited && memo.counted(S, set_keys.hash(S), d))
            return node;
        auto scope = rows_for(S.data(), S.size());
        vector<char> in_set(n, 0);
        for (int s : S) in_set[s] = 1;
        vector<int> pool;
        if (opt.candidates_only) pool = S;
        else { pool.resize(n); for (int i = 0; i < n; ++i) pool[i] = i; }
        bool use_sym = opt.symmetry && d >= opt.sym_min_left;
        vector<Elem> G;
        bool settled;
        // Surviving representatives (neither useless nor refuted by counting). A guess of the
        // same orbit has the image partition, so it survives exactly when its representative does.
        auto alive = candidates(S, d, hist, &settled, in_set, CERT, &G, &node->limit);
        vector<char> survives(n, 0);
        for (auto& c : alive) survives[c.g] = 1;
        vector<uint64_t> hash_of;  // reply hash of each survivor (dedupe)
        if (opt.dedupe) {
            vector<int> gs;
            for (auto& c : alive) gs.push_back(c.g);
            const vector<uint64_t> hs = reply_hashes(gs, S);
            hash_of.assign(n, 0);
            for (size_t k = 0; k < gs.size(); ++k) hash_of[gs[k]] = hs[k];
        }
        vector<int> explicit_refuted;  // guesses needing a refuting class, in order
        std::unordered_map<uint64_t, vector<int>> seen;
        int64_t since_clock = 0;
        for (int g : pool) {
            if (use_sym && ctl.poll_work(since_clock, int64_t(G.size()))) return node;  // as above
            int which = -1;
            int rep = use_sym ? canonical(G, g, &which) : g;
            if (!survives[rep]) continue;  // useless or counting: implicit
            if (rep != g) {
                CertEntry e;
                e.guess = g; e.kind = MAPPED; e.other = rep;
                e.pos_perm = sym.positions(G[which]);
                image(G[which], g, &e.sym_perm);
                node->entries.push_back(std::move(e));
                continue;
            }
            if (opt.dedupe) {
                auto& bucket = seen[hash_of[g]];
                int twin = -1;
                for (int o : bucket) if (same_replies(o, g, S)) { twin = o; break; }
                if (twin >= 0) {
                    CertEntry e;
                    e.guess = g; e.kind = SAME; e.other = twin;
                    node->entries.push_back(std::move(e));
                    continue;
                }
                bucket.push_back(g);
            }
            explicit_refuted.push_back(g);
        }
        size_t base = node->entries.size();
        node->entries.resize(base + explicit_refuted.size());
        bool par = opt.threads > 1 && !omp_in_parallel() && explicit_refuted.size() > 1 && d >= 4;
        std::atomic<bool> failed{false};
        const RowTable* rows_here = tl_rows;  // the workers read this node's rows
#pragma omp parallel for schedule(dynamic, 1) num_threads(opt.threads) if (par)
        for (int k = 0; k < static_cast<int>(explicit_refuted.size()); ++k) {
            if (failed || stopped()) continue;
            struct Restore {
                const RowTable* own = tl_rows;
                ~Restore() { tl_rows = own; }
            } restore;
            tl_rows = rows_here;
            int g = explicit_refuted[k];
            vector<int> hist_k = hist;
            auto cls = classes(g, S);
            hist_k.push_back(g);
            CertEntry& e = node->entries[base + k];
            e.guess = g; e.kind = REFUTED;
            try {
                for (auto& c : cls) {
                    if (!feasible(c.second, d - 1, hist_k)) {
                        e.reply = c.first;
                        e.child = certificate(c.second, d - 1, hist_k);
                        break;
                    }
                }
            } catch (...) {
                failed = true;  // exceptions must not cross the OpenMP region
            }
            if (e.reply < 0) failed = true;
        }
        if (stopped()) return node;
        if (failed) throw std::logic_error("certificate: a guess could not be refuted (node is feasible)");
        return node;
    }

    py::object keep() const { return matrix_keep; }

  private:
    py::object matrix_keep;
};

// ---- conversion to Python ----------------------------------------------------------
py::dict tree_to_py(const TreeNode& t) {
    py::dict d;
    d["guess"] = t.guess;
    py::list ch;
    for (auto& c : t.children) ch.append(py::make_tuple(c.first, tree_to_py(*c.second)));
    d["children"] = ch;
    return d;
}

py::dict cert_to_py(const CertNode& c) {
    py::dict d;
    d["left"] = c.left;
    if (c.limit >= 0) d["limit"] = c.limit;
    py::list es;
    for (auto& e : c.entries) {
        py::dict x;
        x["guess"] = e.guess;
        x["kind"] = e.kind;
        if (e.kind == REFUTED) {
            x["reply"] = e.reply;
            x["child"] = e.child ? py::object(cert_to_py(*e.child)) : py::object(py::none());
        } else {
            x["other"] = e.other;
        }
        if (e.kind == MAPPED) { x["pos_perm"] = e.pos_perm; x["sym_perm"] = e.sym_perm; }
        es.append(x);
    }
    d["entries"] = es;
    return d;
}

vector<int> to_vec(py::array_t<int64_t, py::array::c_style | py::array::forcecast> a) {
    return vector<int>(a.data(), a.data() + a.size());
}

struct Runner {
    std::unique_ptr<Search> s;
    Runner(py::object matrix, py::array_t<uint8_t, py::array::c_style> codes, int n_symbols, bool nlz,
           int slots, int win, int n_responses, vector<int> replies, bool repeats, bool bulls_only)
        : s(std::make_unique<Search>(matrix, codes, n_symbols, nlz, slots, win, n_responses, replies,
                                     repeats, bulls_only)) {}

    void configure(py::dict o) {
        auto get = [&](const char* k, bool dflt) { return o.contains(k) ? o[k].cast<bool>() : dflt; };
        Options& op = s->opt;
        op.symmetry = get("symmetry", true);
        op.capacity = get("capacity", true);
        op.obvious = get("obvious", true);
        op.order = get("order", true);
        op.memo = get("memo", true);
        op.dedupe = get("dedupe", true);
        op.candidates_only = get("candidates_only", false);
        op.threads = o.contains("threads") ? o["threads"].cast<int>() : 1;
        op.sym_min_left = o.contains("sym_min_left") ? o["sym_min_left"].cast<int>() : 3;
        op.lookahead = o.contains("lookahead") ? o["lookahead"].cast<int>() : 0;
        op.members_first = o.contains("members_first") ? o["members_first"].cast<int>() : 0;
        op.counted_memo = get("counted_memo", true);
        op.settle_bound = get("settle_bound", true);
        op.bound_min_left = o.contains("bound_min_left") ? o["bound_min_left"].cast<int>() : 4;
        op.prefetch = get("prefetch", true);
        op.late_symmetry = get("late_symmetry", true);
        if (o.contains("memo_bytes")) s->memo.max_bytes = o["memo_bytes"].cast<int64_t>();
        if (o.contains("table_bytes") && s->packed) s->packed->table_bytes = o["table_bytes"].cast<int64_t>();
    }
    Progress progress() const { return s->ctl.progress(); }
    void set_deadline(double seconds) { s->ctl.set_deadline(seconds); }
    void request_stop(const std::string& why) { s->ctl.request_stop(stop_reason_named(why)); }
    std::string stop_reason() const { return stop_word(s->ctl.reason()); }
    // +1 feasible, 0 infeasible, -1 stopped
    int feasible(py::array_t<int64_t, py::array::c_style | py::array::forcecast> S, int d,
                 py::array_t<int64_t, py::array::c_style | py::array::forcecast> hist) {
        vector<int> v = to_vec(S), h = to_vec(hist);
        bool ok;
        {
            py::gil_scoped_release nogil;
            ok = s->feasible(v, d, h);
        }
        if (s->stopped()) return -1;
        return ok ? 1 : 0;
    }
    // guess's worst case from S after hist (Search::guess_cost); -1 stopped
    int guess_cost(py::array_t<int64_t, py::array::c_style | py::array::forcecast> S, int guess,
                   int floor, py::array_t<int64_t, py::array::c_style | py::array::forcecast> hist) {
        vector<int> v = to_vec(S), h = to_vec(hist);
        if (guess < 0 || guess >= s->n) throw std::invalid_argument("guess out of range");
        int out;
        {
            py::gil_scoped_release nogil;
            out = s->guess_cost(v, guess, floor, h);
        }
        return s->stopped() ? -1 : out;
    }
    // the first guess of tree(S, d) (S feasible within d); -1 when stopped
    int root_guess(py::array_t<int64_t, py::array::c_style | py::array::forcecast> S, int d,
                   py::array_t<int64_t, py::array::c_style | py::array::forcecast> hist) {
        vector<int> v = to_vec(S), h = to_vec(hist);
        if (v.empty()) throw std::invalid_argument("root_guess of an empty set");
        if (v.size() == 1) return v[0];
        int g;
        {
            py::gil_scoped_release nogil;
            g = s->root_guess(v, d, h);
        }
        if (s->stopped()) return -1;
        if (g < 0) throw std::logic_error("root_guess: no guess works (set not feasible at this depth)");
        return g;
    }
    py::object tree(py::array_t<int64_t, py::array::c_style | py::array::forcecast> S, int d,
                    py::array_t<int64_t, py::array::c_style | py::array::forcecast> hist) {
        vector<int> v = to_vec(S), h = to_vec(hist);
        std::unique_ptr<TreeNode> t;
        {
            py::gil_scoped_release nogil;
            t = s->tree(v, d, h);
        }
        if (s->stopped()) return py::none();
        return tree_to_py(*t);
    }
    py::object greedy(py::array_t<int64_t, py::array::c_style | py::array::forcecast> S, int d,
                      py::array_t<int64_t, py::array::c_style | py::array::forcecast> hist) {
        (void)d;
        vector<int> v = to_vec(S), h = to_vec(hist);
        std::unique_ptr<TreeNode> t;
        {
            py::gil_scoped_release nogil;
            t = s->greedy(v, h);
        }
        if (s->stopped()) return py::none();
        return tree_to_py(*t);
    }
    py::object certificate(py::array_t<int64_t, py::array::c_style | py::array::forcecast> S, int d,
                           py::array_t<int64_t, py::array::c_style | py::array::forcecast> hist) {
        vector<int> v = to_vec(S), h = to_vec(hist);
        std::unique_ptr<CertNode> c;
        {
            py::gil_scoped_release nogil;
            c = s->certificate(v, d, h);
        }
        if (s->stopped()) return py::none();
        return cert_to_py(*c);
    }
    // The guesses the greedy tree would choose from at set S, in its order: (guess, largest
    // non-winning class, classes, guess in S, sum of squared class sizes) (tests, profiling).
    vector<std::tuple<int, int, int, bool, int64_t>> scan(
        py::array_t<int64_t, py::array::c_style | py::array::forcecast> S,
        py::array_t<int64_t, py::array::c_style | py::array::forcecast> hist) {
        vector<int> v = to_vec(S), h = to_vec(hist);
        vector<std::tuple<int, int, int, bool, int64_t>> out;
        {
            py::gil_scoped_release nogil;
            auto scope = s->rows_for(v.data(), v.size());
            vector<char> in_set(s->n, 0);
            for (int x : v) in_set[x] = 1;
            bool settled;
            for (auto& c : s->candidates(v, 60, h, &settled, in_set, Search::GREEDY))
                out.emplace_back(c.g, c.maxc, c.ncls, c.in_set, c.sumsq);
        }
        return out;
    }
    vector<int> representatives(py::array_t<int64_t, py::array::c_style | py::array::forcecast> hist) {
        vector<int> h = to_vec(hist);
        auto G = s->stabilizer(h);
        vector<int> out;
        for (int g = 0; g < s->n; ++g) if (s->canonical(G, g) == g) out.push_back(g);
        return out;
    }
    int64_t capacity(int d) const { return (d >= 0 && d < 64) ? s->cap[d] : -1; }
    int64_t nodes() const { return s->nodes.load(); }
    int64_t memo_size() const { return s->memo.size.load(); }
    int64_t memo_bytes() const { return s->memo.bytes.load(); }
    // per guesses left d: [nodes searched, memo hits, guesses explored]
    vector<vector<int64_t>> profile() const {
        vector<vector<int64_t>> out;
        for (int d = 0; d < 64; ++d)
            out.push_back({s->prof_nodes[d].load(), s->prof_hits[d].load(), s->prof_tried[d].load()});
        return out;
    }
    int64_t memo_buckets() { return s->memo.buckets(); }
    void reset_stop() { s->ctl.clear_stop(); }
};

}  // namespace

PYBIND11_MODULE(search_worst, m) {
    CBSOLVE_ISA_BIND(m);
    m.doc() = "Worst-case exact search (decision, tree, lower-bound certificate); see cbsolve/search/worst.py";
    bind_toolkit(m);
    py::class_<Runner>(m, "WorstSearch")
        .def(py::init<py::object, py::array_t<uint8_t, py::array::c_style>, int, bool, int, int, int,
                      vector<int>, bool, bool>(),
             py::arg("matrix"), py::arg("codes"), py::arg("n_symbols"), py::arg("no_leading_zero"),
             py::arg("slots"), py::arg("win"), py::arg("n_responses"),
             py::arg("replies") = vector<int>{}, py::arg("repeats") = true,
             py::arg("bulls_only") = false,
             "matrix: the n x n reply matrix, or None to score replies on the fly from the packed "
             "codes (repeats, bulls_only); replies: the reply indices that occur "
             "(scoring.possible_responses); empty: read them off the matrix")
        .def_property_readonly("on_the_fly", [](const Runner& r) { return r.s->M == nullptr; })
        .def("configure", &Runner::configure)
        .def("progress", &Runner::progress)
        .def("set_deadline", &Runner::set_deadline)
        .def("request_stop", &Runner::request_stop, py::arg("why") = "stopped",
             "stop the running call; why: a stop reason word (time, interrupted, stopped)")
        .def("stop_reason", &Runner::stop_reason, "why the search was stopped (complete: it was not)")
        .def("feasible", &Runner::feasible)
        .def("guess_cost", &Runner::guess_cost, py::arg("S"), py::arg("guess"), py::arg("floor"),
             py::arg("hist"),
             "the guess's worst case from S (1 + its classes' largest minimax optimum), each class "
             "decided only above floor (a class known to reach it); -1 when stopped")
        .def("tree", &Runner::tree)
        .def("root_guess", &Runner::root_guess, py::arg("S"), py::arg("d"), py::arg("hist"),
             "the first guess of tree(S, d) without its subtrees (S feasible within d); -1 when "
             "stopped")
        .def("certificate", &Runner::certificate)
        .def("greedy", &Runner::greedy)
        .def("representatives", &Runner::representatives)
        .def("scan", &Runner::scan)
        .def("capacity", &Runner::capacity)
        .def("nodes", &Runner::nodes)
        .def("memo_size", &Runner::memo_size)
        .def("memo_bytes", &Runner::memo_bytes)
        .def("profile", &Runner::profile)
        .def("memo_buckets", &Runner::memo_buckets)
        .def("reset_stop", &Runner::reset_stop);
}
