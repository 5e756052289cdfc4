// Values and lower bounds of the expected-case search (search_expected.cpp): the value type
// (total, worst case) with its order, and the fill-bound tables by branching factor and depth
// left, with the per-depth cost of a secret (weights). Built once per Solver, read-only after.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

using i64 = int64_t;

namespace {

struct Val {
    i64 t;
    int w;
};
inline bool lt(Val a, Val b) { return a.t < b.t || (a.t == b.t && a.w < b.w); }
inline Val vmin(Val a, Val b) { return lt(a, b) ? a : b; }
inline Val vmax(Val a, Val b) { return lt(a, b) ? b : a; }
constexpr i64 INF_T = i64(1) << 60;
constexpr int INF_W = 1 << 20;
constexpr Val INF{INF_T, INF_W};
constexpr int UNCAPPED = 1 << 20;  // "depth left" when there is no cap (never decremented)

// The fill-bound tables of a Solver (see fill_row and lbrow) and the cost of a secret by depth.
class Bounds {
   public:
    // The depth cap (0: none), the per-depth weights (empty: a guess costs 1) and the tables
    // for every branching factor b = 1..branching, over sets of up to n_codes secrets.
    void init(int n_codes, int branching, int max_depth, const std::vector<i64>& weights) {
        nc_ = n_codes;
        capped_ = max_depth > 0;
        max_depth_ = capped_ ? max_depth : UNCAPPED;
        // Per-depth weights (see inc()): weights[k-1] is the cost of a secret found with guess
        // k; nondecreasing, so every bound below stays a lower bound (see fill_row).
        inc_.assign(size_t(capped_ ? max_depth + 1 : 1), 1);
        if (!weights.empty()) {
            if (!capped_ || int(weights.size()) != max_depth)
                throw std::invalid_argument("weights need a depth cap and one weight per depth");
            i64 prev = 0;
            for (int k = 1; k <= max_depth; ++k) {
                if (weights[k - 1] < prev || weights[k - 1] > (i64(1) << 40))
                    throw std::invalid_argument("weights must be nondecreasing, >= 0, < 2^40");
                inc_[max_depth - k + 1] = weights[k - 1] - prev;  // depth left d = W - k + 1
                prev = weights[k - 1];
            }
            weighted_ = true;
        }
        int rows = capped_ ? max_depth + 1 : 1;
        // Bound tables for every branching factor b = 1..R-1 (see lbrow).
        tabs_.resize(branching + 1);
        for (int br = 1; br <= branching; ++br) {
            Tables& t = tabs_[br];
            t.lbt.assign(size_t(rows) * (nc_ + 1), INF_T);
            for (int r = 0; r < rows; ++r) fill_row(capped_ ? r : nc_ + 1, br, &t.lbt[size_t(r) * (nc_ + 1)]);
            t.lbnc.assign(size_t(rows) * (nc_ + 1), INF_T);
            for (int r = 0; r < rows; ++r) forest_row(capped_ ? r : nc_ + 1, br, &t.lbnc[size_t(r) * (nc_ + 1)]);
            t.lbnc_w.assign(nc_ + 1, 0);
            t.lbw.assign(nc_ + 1, 0);
            // fewest levels holding m secrets, level sizes first, first*br, ...: k grows with m,
            // so one pass (a loop per m was quadratic for br = 1: seconds at 30,000 codes)
            for (int first : {br, 1}) {  // forest (no secret finished) / tree
                i64 capsum = 0, level = first;
                int k = 0;
                for (int m = 1; m <= nc_; ++m) {
                    while (capsum < m) {
                        capsum += level;
                        level = std::min<i64>(level * br, i64(nc_) + 1);
                        ++k;
                    }
                    if (first == br && br != 1) t.lbnc_w[m] = 1 + k;
                    if (first == 1) t.lbw[m] = k;
                }
            }
            if (br == 1)
                for (int m = 1; m <= nc_; ++m) t.lbnc_w[m] = 1 + m;
        }
    }

    // Cost increment of every secret of a node with `d` guesses left: a secret found with guess
    // k costs weight(k) = the sum of the increments of the nodes on its path (1 each without
    // weights: the number of guesses). inc >= 0 (nondecreasing weights).
    bool weighted() const { return weighted_; }
    inline i64 inc(int d) const { return capped_ ? inc_[std::max(0, std::min(d, max_depth_))] : 1; }
    // Cost of a secret found k levels below a node with `d` guesses left (k = 1: the node's guess).
    i64 cum(int d, int k) const {
        i64 c = 0;
        for (int j = 0; j < k; ++j) c += inc(d - j);
        return c;
    }
    // Fill bound: the cheapest depths n secrets can have when a node finishes at most one secret
    // and has at most `branching` children, with at most `depth` levels (INF_T if they do not fit).
    // Sound for any nondecreasing per-depth weight, not only weight(k) = k: in any strategy at most
    // 1 + b + ... + b^(k-1) secrets are found within k levels, so the i-th cheapest secret of the
    // strategy is at least as deep as the i-th slot of the level-by-level fill; a nondecreasing
    // cost of depth then makes the fill's sum a lower bound (term by term).
    void fill_row(int depth, int br, i64* row) const {
        fill_slots(depth, br, 1, depth, 0, row);
    }
    // row[m] = m * per_secret + the sum of the m cheapest slots of a level-by-level fill: level
    // k (1..levels) has first * br^(k-1) slots, each costing cum(depth, k) (k uncapped);
    // INF_T once the levels are full. One pass over m: the m-th slot extends the (m-1)-th fill.
    void fill_slots(int depth, int br, i64 first, int levels, i64 per_secret, i64* row) const {
        row[0] = 0;
        i64 total = 0, level = first, left = first, cost = 0;
        int k = 1;
        if (levels >= 1) cost = capped_ ? cum(depth, 1) : 1;
        for (int m = 1; m <= nc_; ++m) {
            while (left == 0 && k <= levels) {
                ++k;
                level = std::min<i64>(level * br, i64(nc_) + 1);
                left = level;
                if (k <= levels) cost = capped_ ? cost + inc(depth - k + 1) : k;
            }
            if (k > levels || left == 0) {
                for (int r = m; r <= nc_; ++r) row[r] = INF_T;
                return;
            }
            total += cost;
            --left;
            row[m] = total + i64(m) * per_secret;
        }
    }
    // A non-candidate guess finishes nobody: its n secrets pay inc(depth) each, then fill R-1
    // subtrees (R-1 roots one level down, (R-1)^2 two levels down, ...) within depth-1 levels
    // (the same term-by-term argument as fill_row, the first level holding no secret).
    void forest_row(int depth, int br, i64* row) const {
        fill_slots(depth - 1, br, br, depth - 1, inc(depth), row);
    }
    // Fill bounds with branching factor b: valid for a set S when no guess splits S (hence
    // any subset of S) into more than b non-winning classes. b is computed by the full scan of
    // a node (the most classes any guess makes) and passed down to its descendants.
    const i64* lbnc_row(int d, int b) const {
        const Tables& t = tabs_[b];
        if (!capped_) return t.lbnc.data();
        d = std::max(0, std::min(d, max_depth_));
        return &t.lbnc[size_t(d) * (nc_ + 1)];
    }
    const i64* lbrow(int d, int b) const {
        const Tables& t = tabs_[b];
        if (!capped_) return t.lbt.data();
        d = std::max(0, std::min(d, max_depth_));
        return &t.lbt[size_t(d) * (nc_ + 1)];
    }
    // Fewest levels of a tree of m secrets (lbw(b)[m]), and of a non-candidate guess's forest
    // (lbnc_w(b)[m]), with branching factor b.
    const int* lbw(int b) const { return tabs_[b].lbw.data(); }
    const int* lbnc_w(int b) const { return tabs_[b].lbnc_w.data(); }

   private:
    int nc_ = 0;
    bool capped_ = false, weighted_ = false;
    std::vector<i64> inc_;  // cost increment by depth left (see inc())
    int max_depth_ = UNCAPPED;
    struct Tables {
        std::vector<i64> lbt;   // fill bound of the total, rows by depth left when capped
        std::vector<int> lbw;   // fewest levels
        std::vector<i64> lbnc;  // n + forest fill bound: the value of any non-candidate guess
        std::vector<int> lbnc_w;
    };
    std::vector<Tables> tabs_;  // by branching factor
};

}  // namespace
