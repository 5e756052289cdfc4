// Native core of the expected-case exact search (cbsolve/search/expected/ drives it): the Solver.
//
// Depth-first branch and bound over candidate sets S (sorted code indices) with the full score
// matrix M[guess * n_codes + secret] precomputed by the scoring core.
//
// Value of a set: the pair (t, w), ordered lexicographically: t = total guesses over the secrets
// of S (the winning guess included), w = the largest number of guesses any secret needs. With a
// guess g of partition {C_r}: value(g) = (|S| + sum_r t(C_r), 1 + max_r w(C_r)), the win class
// (if g is in S) being solved by g itself. Minimising (t, w) gives the smallest total with the
// smallest worst case among total-optimal strategies (the objective of Koyama–Lai 1993).
//
// solve(S, d, B) returns the exact value when it is < B, otherwise a lower bound >= B (a
// "fail-high"). Pruning, each switchable for tests:
//   * fill bound: a node solves at most one secret and has at most b children, so n secrets
//     need at least 1*1 + 2*b + 3*b^2 + ... guesses (the ideal even split that counts the
//     immediate win); b starts as R-1 (R responses) and becomes, below a node whose guesses were
//     all scanned, the most non-winning classes any guess makes there (no guess splits a subset
//     into more classes: "branching"); per guess: LB(g) = |S| + sum_r LB(|C_r|); guesses are
//     tried in LB order and the loop stops when LB(g) >= the best value so far;
//   * budgets: class C_j of guess g gets the budget best - |S| - (values of solved classes) -
//     (lower bounds of the others), so one class that exceeds its share refutes g;
//   * closed forms: |S| <= 2; the obvious guess (a candidate splitting S into singletons is
//     optimal: 2|S|-1 guesses, worst 2); failing it, a code that tells S apart (2|S|, worst
//     2), else a candidate that leaves one pair (2|S|, worst 3);
//   * a scan counts the histograms of only the guesses whose bound can matter: each guess's
//     reply set (its classes, one vectorised OR a secret) gives a lower bound of its bound;
//     solve's scans skip guesses above an upper bound of the node, and count the other codes'
//     guesses a tier of bounds at a time as the search reaches them (the same guesses pop in
//     the same order: values, optimal guesses and node counts are those of the full scan);
//   * equivalent guesses (the same partition of S, compared exactly) are tried once;
//   * symbols never played are interchangeable: only guesses whose unplayed symbols appear as
//     the lowest unplayed ones in order of first appearance are tried (exact symmetry: S is fixed
//     by any permutation of unplayed symbols);
//   * the stabiliser of the history (position permutations with the induced map of played
//     symbols, Knuth 1977 / Koyama–Lai 1993, here at every level): one guess per orbit;
//   * a transposition table keyed by two independent 64-bit Zobrist hashes of S (and the depth
//     left when depth-capped) holds exact values with their best guess, and fail-high bounds.
// Partition histograms (most of the time) are counted candidate-major from a transposed matrix
// of compact reply numbers, a chunk of guesses at a time.
// The search is single-threaded per call; several Python threads share one Solver (the table is
// sharded with mutexes) and release the GIL.
//
// Parts: search_expected_bounds.hpp (the value (t, w), the fill-bound tables, the cost by
// depth), search_expected_table.hpp (the transposition table), search_expected_symmetry.hpp
// (unplayed symbols, the stabiliser of the history, the per-thread history),
// search_expected_partition.hpp (the score matrix and its compact transpose, partition
// histograms, reply sets, a guess's classes, equal partitions), search_expected_sets.hpp (the
// reply-set loop, once per instruction set), and the toolkit shared with the other
// searches (toolkit_control.hpp, toolkit_symmetry.hpp, toolkit_table.hpp); this file holds the
// Solver (options, stop and deadline, the node scan, the branch-and-bound search, greedy), plain
// C++ with no Python type; search_expected.cpp binds it (the Python module).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "search_expected_bounds.hpp"
#include "search_expected_partition.hpp"
#include "search_expected_symmetry.hpp"
#include "search_expected_table.hpp"

using i64 = int64_t;
using u64 = uint64_t;

namespace {

struct Stopped {};

// 24 bytes: a scan keeps one per guess below the budget (pushing them was a tenth of its time).
struct GuessInfo {
    i64 lt;
    int lw;
    uint32_t ss;  // sum of squared class sizes (Irving's expected size), to order ties; < 2^32
    int g;
    uint8_t cand;  // 1 if the guess is a candidate
    uint8_t refined = 0;  // 1 once the class bounds were sharpened (lookahead), 2 deduplicated
};

class Solver {
   public:
    // `matrix` null: no matrix, replies scored by `scorer` from the packed codes
    // (toolkit_replies.hpp; `responses`, the replies that occur, describe the variant). `codes`:
    // `n_codes` rows of `length` symbols. The caller keeps the matrix alive (the bindings do).
    Solver(const uint8_t* matrix, std::unique_ptr<PackedScorer> scorer, const uint8_t* codes,
           int n_codes, int length, int n_symbols, u64 base_played, int slots, int win,
           int branching, bool cand_only, int max_depth, i64 memo_entries,
           std::vector<i64> weights = {}, std::vector<int> responses = {})
        : nc_(n_codes), branching_(branching), cand_only_(cand_only), base_played_(base_played) {
        if (slots > 256) throw std::invalid_argument("at most 256 response slots (N <= 14)");
        if (matrix == nullptr)
            replies_.init_on_the_fly(std::move(scorer), nc_, slots, win, responses);
        else
            replies_.init(matrix, nc_, slots, win, responses);  // prepare() transposes
        sym_.init(codes, nc_, length, n_symbols, base_played);
        SetKeys keys;  // the toolkit's hashing of code sets (toolkit_table.hpp)
        keys.init(nc_, kSetKeySeed);
        z1_ = std::move(keys.k1);
        z2_ = std::move(keys.k2);
        capped_ = max_depth > 0;
        max_depth_ = capped_ ? max_depth : UNCAPPED;
        bounds_.init(nc_, branching_, max_depth, weights);
        memo_.init(capped_, memo_entries);
    }

    // --- options (all on by default; tests switch them off to compare) -----------------------
    bool opt_stabiliser = true, opt_branching = true;
    bool opt_memo = true, opt_obvious = true, opt_dedup = true, opt_unplayed = true, opt_candfirst = true,
         opt_lookahead = true, opt_refine = true, opt_prefilter = true;
    int lookahead_min = 16, refine_min = 8;
    int memo_min = 3;
    int tier_slack_pct = 10;  // GuessQueue's tier: the smallest bound + 1 + this % of |S| (< 0: none)

    int n_codes() const { return nc_; }
    bool on_the_fly() const { return replies_.on_the_fly(); }
    int max_depth() const { return capped_ ? max_depth_ : 0; }
    i64 nodes() const { return nodes_.load(); }
    // Seconds from now (<= 0: none); also clears a previous stop.
    void set_deadline(double seconds) { ctl_.set_deadline(seconds); }
    void request_stop(const std::string& why) { ctl_.request_stop(stop_reason_named(why)); }
    bool stopped() const { return ctl_.stopped(); }
    std::string stop_reason() const { return stop_word(ctl_.reason()); }
    void clear_memo() { memo_.clear(); }
    i64 memo_size() { return memo_.size(); }

    // The set-up after the constructor: the transposed copy of the reply matrix (n^2 bytes,
    // seconds at 32,768 codes): its pages touched in 16 MiB steps, then built in blocks of 64
    // guess rows, each step polling the stop flag and the deadline, so a time limit or Ctrl-C
    // ends it. Returns whether it is complete; a call after a stop resumes where it stopped.
    // Nothing to build on the fly.
    bool prepare() {
        int64_t since = 0;
        const int64_t block = int64_t(Replies::kTile) * nc_;
        if (!replies_.ready())  // the pages first, in 16 MiB steps
            for (size_t all = size_t(nc_) * nc_, step = size_t(16) << 20; replies_.touched() < all;) {
                if (ctl_.poll_work(since, int64_t(step))) return false;
                replies_.touch(replies_.touched() + step);
            }
        while (!replies_.ready()) {
            if (ctl_.poll_work(since, block)) return false;
            replies_.transpose_rows(replies_.transposed() + Replies::kTile);
        }
        return true;
    }
    int prepared_rows() const { return replies_.transposed(); }

    i64 lb_total(int d, int m) const { return bounds_.lbrow(d, branching_)[m]; }
    int lb_worst(int m) const { return bounds_.lbw(branching_)[m]; }

    // Entry points (search_expected.cpp binds them: it converts and checks the arguments and
    // releases the GIL around each call) ----------------------------------------------------
    // The value of the set S below the budget B, or nullopt when stopped (time limit or
    // request_stop). `guesses`: the guesses allowed at the root (null: all); `history`: the
    // guesses played, for the stabiliser (`known` false: not given).
    std::optional<Val> solve_set(const std::vector<int>& S, int depth, Val B, u64 played,
                                 const std::vector<int>* guesses, const std::vector<int>& history,
                                 bool known) {
        check_set(S);
        int d = capped_ ? depth : UNCAPPED;
        try {
            HistoryScope scope(history, known);
            u64 h1, h2;
            hash_set(S, h1, h2);
            Val v = solve(S.data(), int(S.size()), h1, h2, d, B, played | base_played_, guesses,
                          branching_);
            flush_nodes();
            return v;
        } catch (const Stopped&) {
            flush_nodes();
            return std::nullopt;
        }
    }

    // The value of playing `guess` at the set, then optimal play in each of its reply classes
    // (the win class found by the guess itself): (|S| inc(d) + sum t(C), 1 + max w(C)), each
    // class solved exactly through the table as solve() does. One call a guess (the regret of
    // a guess: the partition and the class look-ups without a Python round trip each).
    // nullopt when stopped.
    std::optional<Val> guess_value_at(const std::vector<int>& S, int guess, int depth, u64 played,
                                      const std::vector<int>& history, bool known) {
        check_set(S);
        if (guess < 0 || guess >= nc_) throw std::invalid_argument("guess index out of range");
        const int d = capped_ ? depth : UNCAPPED;
        try {
            HistoryScope scope(history, known);
            Val v = guess_value(S.data(), int(S.size()), d, played | base_played_, guess);
            flush_nodes();
            return v;
        } catch (const Stopped&) {
            flush_nodes();
            return std::nullopt;
        }
    }

    // A lower bound of a set for a driver that expands it itself: the table's entry (exact or
    // not), the fill bound and the one-level bound of a scan (stored); `exact` says whether it
    // is the set's value.
    Val lower_bound(const std::vector<int>& S, int depth, u64 played,
                    const std::vector<int>& history, bool known, bool& exact) {
        check_set(S);
        const int n = int(S.size());
        int d = capped_ ? depth : UNCAPPED;
        u64 h1, h2;
        hash_set(S, h1, h2);
        exact = n <= 1;
        if (exact) return Val{i64(n) * bounds_.inc(d), n};
        Val v{bounds_.lbrow(d, branching_)[n], bounds_.lbw(branching_)[n]};
        HistoryScope scope(history, known);
        Entry e;
        if (memo_.lookup(h1, h2, d, e)) {
            v = vmax(v, Val{e.t, e.w});
            exact = e.exact;
        }
        if (exact) return v;
        try {
            std::vector<GuessInfo> none;
            Val one = scan(S.data(), n, d, played | base_played_, nullptr, ALL, none, Val{0, 0});
            if (one.t >= INF_T) one = INF;
            v = vmax(v, one);
            if (opt_memo) memo_.store(h1, h2, d, v, -1, false);
        } catch (const Stopped&) {
            // stopped: the fill bound and the table's entry are still a lower bound
        }
        return v;
    }

    // Record an exact value found by the driver (so that best_guess finds the set).
    void store_exact(const std::vector<int>& S, int depth, i64 t, int w, int guess) {
        check_set(S);
        u64 h1, h2;
        hash_set(S, h1, h2);
        memo_.store(h1, h2, capped_ ? depth : UNCAPPED, Val{t, w}, guess, true);
    }

    // Best guess stored for an exactly solved set, or -1.
    int best_guess(const std::vector<int>& S, int depth) {
        u64 h1, h2;
        hash_set(S, h1, h2);
        int d = capped_ ? depth : UNCAPPED;
        if (S.size() == 1) return S[0];
        Entry e;
        if (memo_.lookup(h1, h2, d, e) && e.exact) return e.guess;
        return -1;
    }

    // Lower-bound-ordered guesses of a node: (guess, lb_t, lb_w, candidate) for the allowed
    // guesses (all, or `guesses`), useless and depth-infeasible ones dropped; empty when
    // stopped (the caller sees stopped()).
    std::vector<GuessInfo> scan_set(const std::vector<int>& S, int depth, u64 played,
                                    const std::vector<int>* guesses,
                                    const std::vector<int>& history, bool known) {
        check_set(S);
        int d = capped_ ? depth : UNCAPPED;
        std::vector<GuessInfo> gl;
        try {
            HistoryScope scope(history, known);
            scan(S.data(), int(S.size()), d, played | base_played_, guesses, ALL, gl);
        } catch (const Stopped&) {
            gl.clear();
        }
        return gl;
    }

    // Irving's greedy (smallest sum of squared class sizes; ties: a candidate, then the lowest
    // index): its guess for a set (-1 when stopped), and the value of the whole greedy
    // strategy (nullopt if it breaks the depth cap or was stopped: the caller sees stopped()).
    int greedy_guess(const std::vector<int>& S, u64 played, int depth) {
        check_set(S);
        HistoryScope scope({}, false);
        try {
            return pick_greedy(S.data(), int(S.size()), played | base_played_, capped_ ? depth : UNCAPPED);
        } catch (const Stopped&) {
            return -1;
        }
    }
    std::optional<Val> greedy_value(const std::vector<int>& S, int depth, u64 played) {
        check_set(S);
        Val v;
        try {
            HistoryScope scope({}, false);
            v = greedy(S.data(), int(S.size()), capped_ ? depth : UNCAPPED, played | base_played_);
        } catch (const Stopped&) {
            return std::nullopt;
        }
        if (v.t >= INF_T) return std::nullopt;
        return v;
    }

   private:
    int nc_ = 0, branching_;
    bool cand_only_;
    u64 base_played_;
    bool capped_ = false;
    int max_depth_ = UNCAPPED;
    Replies replies_;  // the score matrix and its compact transpose
    std::vector<u64> z1_, z2_;
    Symmetry sym_;  // unplayed symbols, the stabiliser of the history
    Bounds bounds_;  // fill-bound tables and the cost by depth
    TranspositionTable memo_;
    std::atomic<i64> nodes_{0};
    // Tells this Solver's per-thread caches from another's (a later Solver may reuse the address).
    const u64 id_ = next_solver_id_.fetch_add(1) + 1;
    static std::atomic<u64> next_solver_id_;
    SearchControl ctl_;  // stop flag (Ctrl-C, time limit) and deadline

    static thread_local i64 local_nodes_;
   public:
    std::atomic<i64> st_[8][8] = {};  // debug statistics [kind][size bucket]
    void stat(int kind, int n) {
#ifndef CBSOLVE_STATS
        return;
#endif
        int b = n < 4 ? 0 : n < 8 ? 1 : n < 16 ? 2 : n < 32 ? 3 : n < 64 ? 4 : n < 128 ? 5 : n < 256 ? 6 : 7; st_[kind][b].fetch_add(1, std::memory_order_relaxed); }
   private:

    void flush_nodes() {
        nodes_.fetch_add(local_nodes_);
        local_nodes_ = 0;
    }

    // The two Zobrist hashes of a set (the transposition table's key).
    void hash_set(const std::vector<int>& S, u64& h1, u64& h2) const {
        hash_set_with(z1_, z2_, S.data(), S.size(), h1, h2);
    }

    void check_set(const std::vector<int>& S) const {
        if (!replies_.ready()) throw std::logic_error("the reply matrix is not prepared (call prepare())");
        for (size_t i = 0; i < S.size(); ++i) {
            if (S[i] < 0 || S[i] >= nc_) throw std::invalid_argument("code index out of range");
            if (i && S[i] <= S[i - 1]) throw std::invalid_argument("set must be sorted and distinct");
        }
    }

    // Every node polls the stop flag (see toolkit_control.hpp): a node of a large game can
    // take milliseconds, so polling every 1024 nodes left Ctrl-C unanswered for 40 s and more.
    inline void tick() {
        if (ctl_.poll(++local_nodes_)) throw Stopped();
    }

    // Every code up to the relabelling of never-played symbols, ascending: it depends on the
    // played symbols alone (a few masks per game), so a small per-thread cache keeps it.
    const std::vector<int>& canonical_codes(u64 played) {
        struct Entry {
            u64 owner = 0, played = 0;
            bool unplayed = false;
            std::vector<int> list;
        };
        constexpr size_t kEntries = 8;
        static thread_local Entry cache[kEntries];
        static thread_local size_t next = 0;
        for (Entry& e : cache)
            if (e.owner == id_ && e.played == played && e.unplayed == opt_unplayed) return e.list;
        Entry& e = cache[next];
        next = (next + 1) % kEntries;
        e.list.clear();
        for (int g = 0; g < nc_; ++g)
            if (!opt_unplayed || sym_.canonical(g, played)) e.list.push_back(g);
        e.owner = id_;
        e.played = played;
        e.unplayed = opt_unplayed;
        return e.list;
    }

    // The guesses a node may try: every code up to the relabelling of never-played symbols
    // and the stabiliser of the history, ascending, with a membership table. It depends only on
    // (played, history), which all the classes of one guess share, so it is kept per depth
    // (per thread, a few keys per depth: the lookahead of a node's guesses scans the classes
    // of several guesses in turn) and rebuilt when the node's key is not among them.
    struct NodeGuesses {
        u64 owner = 0, played = 0;
        int flags = -1;
        std::vector<int> hist, list;
        std::vector<uint8_t> member;
    };
    const NodeGuesses& node_guesses(u64 played) {
        constexpr size_t kWays = 4;
        static thread_local std::vector<NodeGuesses> cache;
        static thread_local std::vector<uint8_t> next_way;
        const size_t depth = node_hist.size();
        if (next_way.size() <= depth) {
            cache.resize((depth + 1) * kWays);
            next_way.resize(depth + 1, 0);
        }
        const int flags = int(opt_unplayed) | int(opt_stabiliser) << 1 | int(node_hist_known) << 2;
        for (size_t w = 0; w < kWays; ++w) {
            const NodeGuesses& c = cache[depth * kWays + w];
            if (c.owner == id_ && c.played == played && c.flags == flags && c.hist == node_hist) return c;
        }
        NodeGuesses& c = cache[depth * kWays + next_way[depth]];
        next_way[depth] = uint8_t((next_way[depth] + 1) % kWays);
        c.list = canonical_codes(played);
        if (opt_stabiliser && opt_unplayed) sym_.stabiliser_filter(played, c.list);
        c.member.assign(nc_, 0);
        for (int g : c.list) c.member[g] = 1;
        c.owner = id_;
        c.played = played;
        c.flags = flags;
        c.hist = node_hist;
        return c;
    }

    // Heap order: a guess comes after another when its bound is larger (then: not a candidate,
    // larger expected class size, higher index).
    // (A function object, not a function pointer: the heap routines inline it.)
    struct After {
        bool operator()(const GuessInfo& a, const GuessInfo& b) const {
            if (a.lt != b.lt) return a.lt > b.lt;
            if (a.lw != b.lw) return a.lw > b.lw;
            if (a.cand != b.cand) return a.cand < b.cand;
            if (a.ss != b.ss) return a.ss > b.ss;
            return a.g > b.g;
        }
    };
    static constexpr After after{};
    static GuessInfo pop_best(std::vector<GuessInfo>& heap) {
        std::pop_heap(heap.begin(), heap.end(), after);
        GuessInfo k = heap.back();
        heap.pop_back();
        return k;
    }

    // The guesses a node has still to try, popped in `after` order (the order of one heap of
    // them all): those whose bound is below `tier` in a heap, the others set aside unsorted
    // and heaped only when the heap runs out. A node's guesses seldom go far past its smallest
    // bound, and an unbounded call (an exact class value) keeps every guess: heaping thousands
    // of guesses to pop a few was a quarter of a regret call. `tier` is the smallest bound
    // plus `slack`; any tier pops the same guesses in the same order.
    struct GuessQueue {
        std::vector<GuessInfo> heap, rest;
        i64 tier = INF_T;
        bool empty() const { return heap.empty() && rest.empty(); }
        const GuessInfo& top() {
            if (heap.empty()) {  // every guess left is at or above the tier
                heap.swap(rest);
                std::make_heap(heap.begin(), heap.end(), after);
                tier = INF_T;
            }
            return heap.front();
        }
        GuessInfo pop() { top(); return pop_best(heap); }
        void add(const GuessInfo& k) {
            if (k.lt < tier) {
                heap.push_back(k);
                std::push_heap(heap.begin(), heap.end(), after);
            } else {
                rest.push_back(k);
            }
        }
        // Adds a scan's guesses (unsorted) and sets the tier anew from the smallest bound.
        void add_all(const std::vector<GuessInfo>& items, i64 slack) {
            i64 lo = INF_T;
            for (const auto& k : heap) lo = std::min(lo, k.lt);
            for (const auto& k : rest) lo = std::min(lo, k.lt);
            for (const auto& k : items) lo = std::min(lo, k.lt);
            const i64 old = tier;
            tier = (slack < 0 || lo >= INF_T - slack) ? INF_T : lo + slack;
            if (tier < old) {  // heap items now at or above the tier are set aside
                for (size_t i = 0; i < heap.size();) {
                    if (heap[i].lt >= tier) {
                        rest.push_back(heap[i]);
                        heap[i] = heap.back();
                        heap.pop_back();
                    } else {
                        ++i;
                    }
                }
            } else if (tier > old) {  // set-aside items now below it join the heap
                for (size_t i = 0; i < rest.size();) {
                    if (rest[i].lt < tier) {
                        heap.push_back(rest[i]);
                        rest[i] = rest.back();
                        rest.pop_back();
                    } else {
                        ++i;
                    }
                }
            }
            for (const auto& k : items) (k.lt < tier ? heap : rest).push_back(k);
            std::make_heap(heap.begin(), heap.end(), after);
        }
    };
    // The other codes' guesses of a node that its scan set aside uncounted (bounds from their
    // reply sets, at least `next`), counted a tier of `step` at a time when the search reaches
    // their bounds (see solve).
    struct OthersLeft {
        std::vector<int> g;
        std::vector<Val> lb;
        Val next = INF;
        i64 step = 1;  // (a tenth of the node's secrets counted more guesses: measured)
        bool pending() const { return !g.empty(); }
    };
    i64 tier_slack(int n) const { return tier_slack_pct < 0 ? -1 : i64(n) * tier_slack_pct / 100 + 1; }

    // Which guesses a scan looks at.
    enum Pool { ALL = 0, CANDIDATES = 1, OTHERS = 2 };

    // The guesses of the pool, as a compact index list (ascending unless overridden): the
    // override, the node's guesses (symmetry) or a per-thread list of some of them.
    const std::vector<int>* guesses_of(const int* S, int n, u64 played,
                                       const std::vector<int>* override, Pool pool) {
        static thread_local std::vector<int> G;
        if (override) return override;
        if (cand_only_) {
            G.clear();
            for (int i = 0; i < n; ++i)
                if (!opt_unplayed || sym_.canonical(S[i], played)) G.push_back(S[i]);
            if (opt_stabiliser && opt_unplayed) sym_.stabiliser_filter(played, G);
            return &G;
        }
        const NodeGuesses& all = node_guesses(played);
        if (pool == ALL) return &all.list;
        G.clear();
        if (pool == CANDIDATES) {
            for (int i = 0; i < n; ++i)
                if (all.member[S[i]]) G.push_back(S[i]);
        } else {  // OTHERS: S is sorted, walk it alongside
            int i = 0;
            for (int g : all.list) {
                while (i < n && S[i] < g) ++i;
                if (i < n && S[i] == g) continue;
                G.push_back(g);
            }
        }
        return &G;
    }

    // The fill bound is linear in the class size up to some size `max` (c <= b + 1 at least:
    // the first two levels), row_lb[c] = alpha * c + beta for 1 <= c <= max; when no class
    // is larger, the sum over the classes is alpha * (n - cand) + beta * classes.
    struct LinearFill {
        i64 alpha = 0, beta = 0;
        unsigned max = 0;
    };
    LinearFill linear_fill(const i64* row_lb) const {
        LinearFill f;
        if (nc_ >= 2 && row_lb[1] < INF_T && row_lb[2] < INF_T) {
            f.alpha = row_lb[2] - row_lb[1];
            f.beta = row_lb[1] - f.alpha;
            f.max = 2;
            while (int(f.max) < nc_ && row_lb[f.max + 1] == f.alpha * (f.max + 1) + f.beta) ++f.max;
        }
        return f;
    }

    // Of a histogram padded to 16 counters (index 0 = the win, not a class): the largest class,
    // the classes and the sum of squared sizes.
    template <class T>
    static void stats16(const T* hist, unsigned& maxc, int& classes, u64& ss) {
        maxc = 0;
        classes = 0;
        ss = 0;
#ifdef __SSE2__
        if constexpr (sizeof(T) == 1) {
            // 16 byte counters in one register (the compiler moved them one by one)
            __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(hist));
            v = _mm_and_si128(v, _mm_set_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                              -1, -1, -1, 0));  // the win is not a class
            // empty counters summed by PSADBW: the portable build has no POPCNT instruction
            // (__builtin_popcount is a library call there: a Bulls & Cows search took 7% more CPU)
            const __m128i empty = _mm_and_si128(_mm_cmpeq_epi8(v, _mm_setzero_si128()), _mm_set1_epi8(1));
            const __m128i ne = _mm_sad_epu8(empty, _mm_setzero_si128());
            classes = 16 - (_mm_cvtsi128_si32(ne) + _mm_extract_epi16(ne, 4));
            __m128i m = _mm_max_epu8(v, _mm_srli_si128(v, 8));
            m = _mm_max_epu8(m, _mm_srli_si128(m, 4));
            m = _mm_max_epu8(m, _mm_srli_si128(m, 2));
            m = _mm_max_epu8(m, _mm_srli_si128(m, 1));
            maxc = unsigned(_mm_cvtsi128_si32(m) & 0xff);
            const __m128i lo = _mm_unpacklo_epi8(v, _mm_setzero_si128());
            const __m128i hi = _mm_unpackhi_epi8(v, _mm_setzero_si128());
            __m128i sq = _mm_add_epi32(_mm_madd_epi16(lo, lo), _mm_madd_epi16(hi, hi));
            sq = _mm_add_epi32(sq, _mm_srli_si128(sq, 8));
            sq = _mm_add_epi32(sq, _mm_srli_si128(sq, 4));
            ss = u64(unsigned(_mm_cvtsi128_si32(sq)));
            return;
        }
#endif
        for (int r = 1; r < 16; ++r) {
            const unsigned c = hist[r];
            classes += c != 0;
            maxc = std::max(maxc, c);
            ss += u64(c) * c;
        }
    }

    // Histograms of the guesses GG on S, each handed to consider16 (at most 16 replies) or
    // consider_any.
    template <class F16, class FAny>
    void count_guesses(const int* S, int n, const std::vector<int>& GG, F16& consider16,
                       FAny& consider_any) {
        if (replies_.stride() == 16) count_by_width(S, n, GG, consider16);
        else count_by_width(S, n, GG, consider_any);
    }
    // uint8 counters when no class can reach 256 (most nodes), uint16 below 65,536 secrets,
    // uint32 above (only the top of a game of more codes).
    template <class F>
    void count_by_width(const int* S, int n, const std::vector<int>& GG, F& consider) {
        if (n < 256) replies_.count_chunks<uint8_t>(S, n, GG, consider, ctl_);
        else if (n < 65536) replies_.count_chunks<uint16_t>(S, n, GG, consider, ctl_);
        else replies_.count_chunks<uint32_t>(S, n, GG, consider, ctl_);
    }

    // Partition histograms of the guesses of `pool` (or `override`) and their lower bounds.
    // Returns the smallest bound (a one-level lower bound of the node over that pool); keeps,
    // sorted, only the guesses whose bound is below `keep_below`, and lowers `rejected_min` to
    // the smallest bound of the others (they cannot beat the budget).
    // `b` bounds the classes of any guess on S (fill bounds of the classes); `most_classes`
    // (if given) receives the most non-winning classes a scanned guess makes.
    Val scan(const int* S, int n, int d, u64 played, const std::vector<int>* override, Pool pool,
             std::vector<GuessInfo>& gl, Val keep_below = INF, Val* rejected_min = nullptr,
             int b = 0, int* most_classes = nullptr, bool heapify = true, bool below_upper = false,
             OthersLeft* left = nullptr) {
        gl.clear();
        if (b <= 0) b = branching_;
        const i64* row_lb = bounds_.lbrow(d - 1, b);
        const int* row_lbw = bounds_.lbw(b);
        const i64 inc_d = bounds_.inc(d);
        int mostc = 0;
        const std::vector<int>* pool_guesses = guesses_of(S, n, played, override, pool);
        gl.reserve(pool_guesses->size());
        Val node_min = INF;
        Val rejected = INF;  // the smallest bound of a guess not kept
        // The bound of one guess from its histogram (counts per compact reply, index 0 = the
        // win); row_lb[0] = lbw_[0] = 0, so empty classes need no branch.
        // An upper bound of the node: a guess, then each class's candidates in turn (a class
        // of c secrets totals c (c + 1) / 2 guesses, worst c), unweighted and within the depth.
        Val upper = INF;
        const bool track_upper = below_upper && !bounds_.weighted();
        auto keep = [&](int g, int cand, int classes, i64 lbt, int wmax, i64 ss, int maxc) {
            mostc = std::max(mostc, classes);
            if (track_upper && (cand || classes > 1) && (!capped_ || 1 + maxc <= d))
                upper = vmin(upper, Val{i64(n) + (ss + n - cand) / 2, 1 + maxc});
            if (!cand && classes == 1) return;  // learns nothing
            if (lbt >= INF_T || lbt < 0) return;  // some class cannot fit in the depth left
            Val v{lbt, 1 + wmax};
            if (lt(v, node_min)) node_min = v;
            if (lt(v, keep_below))
                gl.push_back(GuessInfo{lbt, 1 + wmax, uint32_t(std::min<i64>(ss, UINT32_MAX)), g,
                                       uint8_t(cand)});
            else if (lt(v, rejected))
                rejected = v;
        };
        // At most 16 replies (4 pegs, 14): the histograms are padded to 16 counters (zeros
        // beyond nr), so the loops have a fixed trip count and vectorise; row_lbw is
        // nondecreasing, so the largest class gives the worst-case bound. The sum is taken
        // unsigned: 15 classes of INF_T (2^60) cannot wrap.
        // row_lb[c] is linear up to lin.max (linear_fill): no class larger, no table lookups.
        const LinearFill lin = linear_fill(row_lb);
        auto consider16 = [&](int g, const auto* hist) {
            unsigned maxc;
            int classes;
            u64 ss;
            stats16(hist, maxc, classes, ss);
            const int cand = hist[0] != 0;
            i64 lbt;
            if (maxc <= lin.max) {
                lbt = i64(n) * inc_d + lin.alpha * (n - cand) + lin.beta * classes;
            } else {
                u64 sum = u64(n) * u64(inc_d);
                for (int r = 1; r < 16; ++r) sum += u64(row_lb[hist[r]]);
                lbt = sum >= u64(INF_T) ? INF_T : i64(sum);
            }
            keep(g, cand, classes, lbt, row_lbw[maxc], i64(ss), int(maxc));
        };
        // More replies: a sum of INF_T entries could wrap, so it saturates.
        auto consider_any = [&](int g, const auto* hist) {
            int classes = 0, wmax = 0, maxc = 0;
            i64 lbt = i64(n) * inc_d, ss = 0;
            for (int r = 1; r < replies_.nr(); ++r) {
                const int c = hist[r];
                classes += c != 0;
                lbt = std::min(lbt + row_lb[c], INF_T);
                wmax = std::max(wmax, row_lbw[c]);
                maxc = std::max(maxc, c);
                ss += i64(c) * c;
            }
            keep(g, hist[0] != 0, classes, lbt, wmax, ss, maxc);
        };
        if (!opt_prefilter || !count_pruned(S, n, *pool_guesses, keep_below, inc_d, lin, row_lb, row_lbw,
                                            mostc, rejected, track_upper ? &upper : nullptr, left,
                                            consider16, consider_any))
            count_guesses(S, n, *pool_guesses, consider16, consider_any);
        if (ctl_.stopped()) throw Stopped();  // the histograms are incomplete
        if (rejected_min && lt(rejected, *rejected_min)) *rejected_min = rejected;
        if (heapify) std::make_heap(gl.begin(), gl.end(), after);  // explored lazily, best bound first
        if (most_classes) *most_classes = mostc;
        return node_min;
    }

    // The scan's histograms, of only the guesses whose bound could matter. A guess's reply set
    // (one OR a secret, vectorised: reply_sets) gives its k classes, and the fill bound is
    // convex (its linear part the smallest), so the guess is worth at least n inc + alpha
    // (n - cand) + beta k, with a largest class of 2 or more when k < n - cand: one bound a
    // reply-set byte (cand, k). The histograms are counted for the guesses whose bound is
    // below `keep_below` (every guess the scan keeps), then, of the others, for those of the
    // smallest bound, then for those below the smallest exact bound found (`rejected`, which
    // keep lowers): so the kept guesses, the smallest bound and the rejected bound are the
    // full scan's, and `mostc` too (k is exact). With `upper` (solve's scans, see
    // count_below_upper) only the kept guesses of bound at most the upper bound found are.
    // False (nothing counted) when this does not apply.
    template <class F16, class FAny>
    bool count_pruned(const int* S, int n, const std::vector<int>& G, Val keep_below, i64 inc_d,
                      const LinearFill& lin, const i64* row_lb, const int* row_lbw, int& mostc,
                      const Val& rejected, const Val* upper, OthersLeft* left, F16& consider16,
                      FAny& consider_any) {
        if (n >= 64 || G.size() < 64 || (keep_below.t >= INF_T && !upper) || !replies_.sets_ready() ||
            lin.max < 2 || lin.beta > 0)
            return false;
        for (int c = 1; c <= n; ++c)
            if (row_lb[c] < lin.alpha * c + lin.beta || row_lbw[c] < row_lbw[c - 1]) return false;
        static thread_local std::vector<uint8_t> tl_sets;
        std::vector<uint8_t>& sets = tl_sets;
        sets.resize(G.size());
        replies_.reply_sets(S, n, G.data(), int(G.size()), sets.data());
        bool present[256] = {};
        for (uint8_t b : sets) present[b] = true;
        // The bound of each byte (bit 7 a candidate, bits 0-5 the classes) present.
        Val lb_of[256];
        Val low_now = INF, low = INF;  // the smallest bound below keep_below, and of the others
        for (int b = 0; b < 256; ++b) {
            if (!present[b]) continue;
            const int cand = b >> 7, k = b & 63, in = n - cand;
            mostc = std::max(mostc, k);
            if (!cand && k == 1) {  // learns nothing: keep drops it
                present[b] = false;
                continue;
            }
            lb_of[b] = Val{i64(n) * inc_d + lin.alpha * in + lin.beta * k, 1 + row_lbw[k < in ? 2 : in > 0 ? 1 : 0]};
            if (lt(lb_of[b], keep_below)) low_now = vmin(low_now, lb_of[b]);
            else low = vmin(low, lb_of[b]);
        }
        // Counts the guesses whose byte `pick` accepts (and marks them counted).
        auto count_where = [&](auto pick) {
            bool sel[256];
            bool any = false;
            for (int b = 0; b < 256; ++b) {
                sel[b] = present[b] && pick(lb_of[b]);
                any |= sel[b];
            }
            if (!any) return;
            for (int b = 0; b < 256; ++b)
                if (sel[b]) present[b] = false;
            static thread_local std::vector<int> tl_list;
            std::vector<int>& list = tl_list;
            list.clear();
            for (size_t j = 0; j < G.size(); ++j)
                if (sel[sets[j]]) list.push_back(G[j]);
            count_guesses(S, n, list, consider16, consider_any);
        };
        if (upper) {
            count_where([&](const Val& lb) { return lt(lb, keep_below) && !lt(low_now, lb); });  // smallest first
            const Val u = *upper;
            auto wanted = [&](const Val& lb) { return lt(lb, keep_below) && !lt(u, lb); };
            if (left && low_now.t < INF_T) {  // the first tier now, the others set aside
                const Val lim{low_now.t + left->step, 0};
                count_where([&](const Val& lb) { return wanted(lb) && lt(lb, lim); });
                set_aside(G, sets, present, lb_of, wanted, *left);
            } else {
                count_where(wanted);
            }
        } else {
            count_where([&](const Val& lb) { return lt(lb, keep_below); });
        }
        // of the guesses beyond keep_below, those that could lower the rejected bound
        if (lt(low, rejected) && !ctl_.stopped()) {
            count_where([&](const Val& lb) { return !lt(low, lb) && !lt(lb, keep_below); });
            count_where([&](const Val& lb) { return lt(lb, rejected) && !lt(lb, keep_below); });
        }
        return true;
    }

    // Moves the guesses of G whose reply-set byte is present and `pick`ed into `left`.
    template <class Pick>
    static void set_aside(const std::vector<int>& G, const std::vector<uint8_t>& sets, bool* present,
                          const Val* lb_of, Pick pick, OthersLeft& left) {
        bool sel[256];
        for (int b = 0; b < 256; ++b) {
            sel[b] = present[b] && pick(lb_of[b]);
            if (sel[b]) present[b] = false;
        }
        for (size_t j = 0; j < G.size(); ++j)
            if (sel[sets[j]]) {
                left.g.push_back(G[j]);
                left.lb.push_back(lb_of[sets[j]]);
                left.next = vmin(left.next, left.lb.back());
            }
    }

    // Counts the next tier of `left` (all of it with `all`) into the queue (see solve).
    void next_tier(const int* S, int n, int d, u64 played, OthersLeft& left, Val best, Val& rejected, int b,
                   GuessQueue& queue, bool all = false) {
        const Val lim{left.next.t + left.step, 0};
        std::vector<int> list;
        size_t w = 0;
        Val next = INF;
        for (size_t i = 0; i < left.g.size(); ++i)
            if (all || lt(left.lb[i], lim)) {
                list.push_back(left.g[i]);
            } else {
                left.g[w] = left.g[i];
                left.lb[w++] = left.lb[i];
                next = vmin(next, left.lb[i]);
            }
        left.g.resize(w);
        left.lb.resize(w);
        left.next = next;
        std::vector<GuessInfo> more;
        scan(S, n, d, played, &list, ALL, more, best, &rejected, b, nullptr, false);
        queue.add_all(more, tier_slack(n));
    }

    // The values known without a scan, stored in the table as solve would: the obvious guess
    // (a candidate that splits S into singletons meets the fill bound 2n-1, one secret at
    // depth 1 and the rest at depth 2, and the smallest worst case, 2), and three secrets no
    // candidate tells apart. True with the value in *out.
    bool closed_form(const int* S, int n, u64 h1, u64 h2, int d, u64 played, bool use_memo,
                     const std::vector<int>* override, Val& out) {
        if (opt_obvious && n <= branching_ + 1) {
            bool seen[256];
            static thread_local Scratch buf;
            for (int i = 0; i < n; ++i) {
                const uint8_t* row = replies_.replies_of(S[i], S, n, buf);
                std::memset(seen, 0, sizeof(bool) * std::min(replies_.slots(), 256));
                bool ok = true;
                for (int j = 0; j < n && ok; ++j) {
                    uint8_t r = row[j];
                    if (seen[r]) ok = false;
                    seen[r] = true;
                }
                if (ok) {
                    // any strategy finds at most one secret with its first guess: optimal for
                    // every nondecreasing weight too
                    out = Val{i64(n) * bounds_.inc(d) + i64(n - 1) * bounds_.inc(d - 1), 2};
                    if (use_memo) memo_.store(h1, h2, d, out, S[i], true);
                    stat(1, n);
                    return true;
                }
            }
        }
        // Three secrets no candidate tells apart (the obvious guess failed): a candidate finds
        // one and leaves the other two together, 3 + 3 = 6 guesses, worst 3; a non-candidate
        // that tells all three apart also totals 6, worst 2; every other guess totals 7 or
        // more. So the value is known without a scan (unweighted: weights change the costs).
        if (opt_obvious && n == 3 && !override && !bounds_.weighted() && d >= 2 &&
            replies_.has_rows()) {  // (none: a stop cut the table, the scan below stops)
            const int g = cand_only_ ? -1 : replies_.separates_three(S);
            if (g >= 0 || d >= 3) {
                out = g >= 0 ? Val{6, 2} : Val{6, 3};
                if (use_memo) memo_.store(h1, h2, d, out, g >= 0 ? g : S[0], true);
                stat(1, n);
                return true;
            }
        }
        Known k;
        if (opt_obvious && n >= 4 && !override && !bounds_.weighted() && !cand_only_ && d >= 2 &&
            split_closed_form(S, n, d, played, k)) {
            out = k.v;
            if (use_memo) memo_.store(h1, h2, d, out, k.g, true);
            stat(1, n);
            return true;
        }
        return false;
    }

    // The obvious guess failed (no candidate splits S into singletons), so every candidate
    // totals at least 2n with a worst case of 3 (n, then one for each other secret, and one
    // more for a class of two or more), and every other code at least 2n, exactly when it
    // splits S into singletons (worst 2), else 2n + 1. So S is worth (2n, 2) when some code
    // tells its secrets apart (the first of the node's guesses, in order, as the scan would
    // pick), else (2n, 3) when a candidate leaves one pair and singletons (within 3 guesses),
    // found without the scan of ~5,000 guesses; else the search decides. Unweighted only.
    struct Known {
        Val v;
        int g;
    };
    bool split_closed_form(const int* S, int n, int d, u64 played, Known& out) {
        const NodeGuesses& all = node_guesses(played);
        if (n < replies_.nr()) {  // a non-candidate has at most nr - 1 classes
            const int g = replies_.separator(S, n, all.list);
            if (g == -2) return false;  // unknown: the rule below assumes there is none
            if (g >= 0) {
                out = Known{Val{2 * i64(n), 2}, g};
                return true;
            }
        }
        if (d < 3 || n > replies_.nr() + 1) return false;
        static thread_local Scratch buf;
        uint64_t seen[4];
        for (int i = 0; i < n; ++i) {
            if (!all.member[S[i]]) continue;  // one guess per orbit, as the scan
            const uint8_t* row = replies_.replies_of(S[i], S, n, buf);
            std::memset(seen, 0, sizeof seen);
            int distinct = 0;
            for (int j = 0; j < n; ++j) {
                const uint8_t r = row[j];
                if (!(seen[r >> 6] >> (r & 63) & 1)) ++distinct;
                seen[r >> 6] |= uint64_t(1) << (r & 63);
            }
            if (distinct == n - 1) {  // n secrets in n - 1 replies: one pair, the rest alone
                out = Known{Val{2 * i64(n), 3}, S[i]};
                return true;
            }
        }
        return false;
    }

    Val solve(const int* S, int n, u64 h1, u64 h2, int d, Val B, u64 played,
              const std::vector<int>* override, int b) {
        if (n == 0) return Val{0, 0};
        if (d <= 0) return INF;
        if (n == 1) return Val{bounds_.inc(d), 1};
        if (d == 1) return INF;
        if (n == 2) return Val{2 * bounds_.inc(d) + bounds_.inc(d - 1), 2};  // one of the two, then the other
        tick();
        const bool use_memo = opt_memo && n >= memo_min;
        Val lower{0, 0};
        if (use_memo) {
            Entry e;
            if (memo_.lookup(h1, h2, d, e)) {
                Val v{e.t, e.w};
                if (e.exact || !lt(v, B)) { stat(0, n); return v; }
                lower = v;
            }
        }
        // On the fly: the rows of S in a table when they fit (the nodes below read it); a stop
        // or the deadline cuts its build (then no table: the scans score on demand and stop).
        RowScope scope(replies_.on_the_fly() ? replies_.scorer() : nullptr, S, size_t(n), &ctl_);
        Val known;
        if (closed_form(S, n, h1, h2, d, played, use_memo, override, known)) return known;
        // Candidates first: a non-candidate solves nobody now, so its value is at least
        // n + (forest fill bound of n secrets); the other codes are scanned only if that bound is
        // below the best value found among the candidates.
        const bool split = opt_candfirst && !override && !cand_only_;
        std::vector<GuessInfo> gl;
        Val rejected = INF;  // smallest lower bound of a guess not kept by a scan
        int mc_first = 0;
        Val node_lb = scan(S, n, d, played, override, split ? CANDIDATES : ALL, gl, B, &rejected, b,
                           &mc_first, false, true);
        // Branching bound of S's subsets: known once every guess (up to symmetry) was scanned.
        int bS = b;
        if (!split && opt_branching && mc_first > 0) bS = std::min(b, mc_first);
        Val others_lb = INF;
        if (split) {
            others_lb = Val{bounds_.lbnc_row(d, b)[n], bounds_.lbnc_w(b)[n]};
            node_lb = vmin(node_lb, others_lb);
        }
        lower = vmax(lower, node_lb);
        if (!lt(lower, B)) {
            stat(2, n);
            if (use_memo) memo_.store(h1, h2, d, lower, -1, false);
            return lower;
        }
        Val best = B;
        int bestg = -1;
        Val fail = INF;  // smallest lower bound of a guess refuted while exploring
        Scratch sc;
        GuessQueue queue;
        queue.add_all(gl, tier_slack(n));
        // Best-first over the guesses: the guess of smallest bound is popped; the first time its
        // class bounds are sharpened (table + lookahead) and it goes back into the heap; the
        // second time it is expanded (its classes solved within the budget).
        bool others_done = !split;
        // The other codes' guesses are counted a tier at a time: every guess of bound below the
        // front's is in the queue before it is popped, so the same guesses pop in the same order.
        OthersLeft left;
        while (true) {
            if (left.pending() && lt(left.next, best) &&
                (queue.empty() || !lt(Val{queue.top().lt, queue.top().lw}, left.next))) {
                next_tier(S, n, d, played, left, best, rejected, b, queue);
                continue;
            }
            if (queue.empty()) {
                if (others_done) break;
            } else {
                const GuessInfo& front = queue.top();
                Val lbg{front.lt, front.lw};
                if (!lt(lbg, best)) {
                    // No candidate left can beat the best; the other codes still can while
                    // their bound is below it (a candidate's value found above that bound).
                    if (others_done || !lt(others_lb, best)) {
                        fail = vmin(fail, lbg);
                        break;
                    }
                } else if (others_done || lt(lbg, others_lb)) {
                    GuessInfo k = queue.pop();
                    if (!k.refined && opt_refine && n >= refine_min) {
                        if (refine(S, n, d, played, k, best, fail, sc, bS))  // sets k.refined
                            queue.add(k);
                    } else {
                        expand(S, n, d, played, k, best, bestg, fail, sc, bS);
                    }
                    continue;
                }
            }
            // The other codes may now compete: scan them with the running best.
            others_done = true;
            if (!lt(others_lb, best)) {
                rejected = vmin(rejected, others_lb);
                continue;
            }
            std::vector<GuessInfo> more;
            int mc_others = 0;
            scan(S, n, d, played, nullptr, OTHERS, more, best, &rejected, b, &mc_others, false, true, &left);
            if (opt_branching && mc_first > 0 && mc_others > 0)
                bS = std::min(b, std::max(mc_first, mc_others));
            queue.add_all(more, tier_slack(n));
        }
        // refuted: the guesses never counted (bounds at least the budget) join the rejected bound
        if (bestg < 0 && left.pending()) next_tier(S, n, d, played, left, best, rejected, b, queue, true);
        stat(bestg >= 0 ? 3 : 4, n);
        if (bestg >= 0) {
            if (use_memo) memo_.store(h1, h2, d, best, bestg, true);
            return best;
        }
        Val res = vmax(lower, vmin(fail, rejected));
        if (use_memo) memo_.store(h1, h2, d, res, -1, false);
        return res;
    }

    // See py_guess_value (INF: a class does not fit the depth left).
    Val guess_value(const int* S, int n, int d, u64 played, int g) {
        if (d <= 0) return INF;
        Scratch sc;
        replies_.partition(S, n, g, z1_, z2_, sc);
        const int child_d = capped_ ? d - 1 : d;
        const u64 child_played = played | sym_.symmask(g);
        Val v{i64(n) * bounds_.inc(d), 1};
        Push into(g);
        for (int r : sc.order) {
            const Val c = solve(&sc.part[sc.off[r]], sc.cnt[r], sc.c1[r], sc.c2[r], child_d, INF,
                                child_played, nullptr, branching_);
            if (c.t >= INF_T) return INF;
            v.t += c.t;
            v.w = std::max(v.w, 1 + c.w);
        }
        return v;
    }

    // A partition of S seen before at this node (see Replies::duplicate); never with opt_dedup off.
    bool duplicate(const int* S, int n, int g, Scratch& sc) {
        if (!opt_dedup) return false;
        if (!replies_.duplicate(S, n, g, sc)) return false;
        stat(6, n);
        return true;
    }

    // Sharpen a guess's bound before any deep recursion: bounds and exact values the table
    // already holds, then (lookahead) the one-level bound of each larger class, computed by a
    // scan and stored. Returns false if the guess is a duplicate or refuted (fail updated);
    // otherwise updates k's bound.
    bool refine(const int* S, int n, int d, u64 played, GuessInfo& k, Val best, Val& fail, Scratch& sc,
                int bS) {
        stat(7, n);
        if (duplicate(S, n, k.g, sc)) return false;
        k.refined = 2;  // dedup done
        replies_.partition(S, n, k.g, z1_, z2_, sc);
        const i64* row_lb = bounds_.lbrow(d - 1, bS);
        const int* row_lbw = bounds_.lbw(bS);
        const int child_d = capped_ ? d - 1 : d;
        const u64 child_played = played | sym_.symmask(k.g);
        i64 sum = i64(n) * bounds_.inc(d);
        int wlb = 1;
        std::vector<Val> lbs(sc.order.size());
        for (size_t i = 0; i < sc.order.size(); ++i) {
            int r = sc.order[i], m = sc.cnt[r];
            lbs[i] = Val{row_lb[m], row_lbw[m]};
            if (opt_memo && m >= memo_min) {
                Entry e;
                if (memo_.lookup(sc.c1[r], sc.c2[r], child_d, e)) lbs[i] = vmax(lbs[i], Val{e.t, e.w});
            }
            sum = std::min(sum + lbs[i].t, INF_T);  // saturate: INF_T entries must not overflow
            wlb = std::max(wlb, 1 + lbs[i].w);
        }
        if (sum >= INF_T || !lt(Val{sum, wlb}, best)) {
            fail = vmin(fail, Val{sum, wlb});
            return false;
        }
        if (opt_lookahead) {
            std::vector<GuessInfo> none;
            for (int i = int(sc.order.size()) - 1; i >= 0; --i) {  // largest first
                int r = sc.order[i], m = sc.cnt[r];
                if (m < lookahead_min) break;
                Entry e;
                if (opt_memo && memo_.lookup(sc.c1[r], sc.c2[r], child_d, e)) continue;  // bounded already
                Val one;
                {
                    Push into(k.g);
                    one = scan(&sc.part[sc.off[r]], m, child_d, child_played, nullptr, ALL, none, Val{0, 0},
                               nullptr, bS);
                }
                if (one.t >= INF_T) one = INF;
                if (opt_memo) memo_.store(sc.c1[r], sc.c2[r], child_d, one, -1, false);
                if (lt(lbs[i], one)) {
                    sum = one.t >= INF_T ? INF_T : sum + one.t - lbs[i].t;
                    lbs[i] = one;
                    wlb = std::max(wlb, 1 + one.w);
                }
                if (!lt(Val{sum, wlb}, best)) {
                    fail = vmin(fail, Val{sum, wlb});
                    return false;
                }
            }
        }
        k.lt = sum;
        k.lw = wlb;
        return true;
    }

    // Evaluate one guess of a node against the running best (branch and bound over its classes).
    void expand(const int* S, int n, int d, u64 played, const GuessInfo& k, Val& best, int& bestg,
                Val& fail, Scratch& sc, int bS) {
        stat(5, n);
        if (k.refined != 2 && duplicate(S, n, k.g, sc)) return;
        replies_.partition(S, n, k.g, z1_, z2_, sc);
        // Own copies: the recursion below must not see sc change (it has its own scratch).
        std::vector<int> part(sc.part), order(sc.order), cnt(sc.cnt), off(sc.off);
        std::vector<u64> c1(sc.c1), c2(sc.c2);
        const i64* row_lb = bounds_.lbrow(d - 1, bS);
        const int* row_lbw = bounds_.lbw(bS);
        const int child_d = capped_ ? d - 1 : d;
        const u64 child_played = played | sym_.symmask(k.g);
        std::vector<Val> lbs(order.size());
        i64 rest = 0;
        for (size_t i = 0; i < order.size(); ++i) {
            int m = cnt[order[i]];
            lbs[i] = Val{row_lb[m], row_lbw[m]};
            if (opt_memo && m >= memo_min) {
                Entry e;
                if (memo_.lookup(c1[order[i]], c2[order[i]], child_d, e)) lbs[i] = vmax(lbs[i], Val{e.t, e.w});
            }
            if (lbs[i].t >= INF_T) {  // a class that cannot be solved within the depth left
                fail = vmin(fail, INF);
                return;
            }
            rest += lbs[i].t;
        }
        i64 done = i64(n) * bounds_.inc(d);
        int wmax = 1;
        for (size_t i = 0; i < order.size(); ++i) {
            int r = order[i], m = cnt[r];
            rest -= lbs[i].t;
            Val cb{best.t - done - rest, best.w - 1};
            Val v = lbs[i];
            if (lt(lbs[i], cb)) {
                Push into(k.g);
                v = solve(&part[off[r]], m, c1[r], c2[r], child_d, cb, child_played, nullptr, bS);
            }
            if (!lt(v, cb)) {
                fail = vmin(fail, Val{done + v.t + rest, std::max(wmax, 1 + v.w)});
                return;
            }
            done += v.t;
            wmax = std::max(wmax, 1 + v.w);
        }
        Val vg{done, wmax};
        if (lt(vg, best)) {
            best = vg;
            bestg = k.g;
        }
    }

    int pick_greedy(const int* S, int n, u64 played, int d) {
        if (n == 1) return S[0];
        std::vector<GuessInfo> gl;
        scan(S, n, d, played, nullptr, ALL, gl);
        if (gl.empty()) return -1;
        auto best = std::min_element(gl.begin(), gl.end(), [](const GuessInfo& a, const GuessInfo& b) {
            if (a.ss != b.ss) return a.ss < b.ss;
            if (a.cand != b.cand) return a.cand > b.cand;
            return a.g < b.g;
        });
        return best->g;
    }

    Val greedy(const int* S, int n, int d, u64 played) {
        if (n == 0) return Val{0, 0};
        if (d <= 0) return INF;
        if (n == 1) return Val{bounds_.inc(d), 1};
        // cut by a stop: no table, the scans score on demand and see the stop (a 1.3 GB table
        // took 1.1 s on Bulls & Cows 6/10 with the deadline already spent)
        RowScope scope(replies_.on_the_fly() ? replies_.scorer() : nullptr, S, size_t(n), &ctl_);
        int g = pick_greedy(S, n, played, d);
        if (g < 0) return INF;
        static thread_local std::vector<uint8_t> buf;
        const uint8_t* row = replies_.guess_row(g, S, n, buf);
        std::vector<std::vector<int>> classes(replies_.slots());
        for (int i = 0; i < n; ++i) classes[row[S[i]]].push_back(S[i]);
        i64 t = i64(n) * bounds_.inc(d);
        int w = 1;
        int child_d = capped_ ? d - 1 : d;
        for (int r = 0; r < replies_.slots(); ++r) {
            if (r == replies_.win() || classes[r].empty()) continue;
            Push into(g);  // (no stabiliser here: the path keys the cache of node guesses)
            Val v = greedy(classes[r].data(), int(classes[r].size()), child_d, played | sym_.symmask(g));
            if (v.t >= INF_T) return INF;
            t += v.t;
            w = std::max(w, 1 + v.w);
        }
        return Val{t, w};
    }
};

thread_local i64 Solver::local_nodes_ = 0;
std::atomic<u64> Solver::next_solver_id_{0};

}  // namespace

