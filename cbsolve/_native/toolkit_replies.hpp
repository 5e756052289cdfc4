// Where the exact searches read replies from when the n x n reply matrix does not fit the
// memory budget: packed codes scored on demand (scoring_pack.hpp), and per-node row tables.
//
// The score is symmetric (reply(g, s) = reply(s, g)), so "the replies of every guess to
// secret s" is one row, and a table of the rows of a set S is everything a search below S
// reads. A node whose rows fit `PackedScorer::table_bytes` builds that table once (|S| x n
// scorings) and every node under it reads the table as it would read the matrix; nodes above
// that size (the top levels of a large game) score their (guess, secret) pairs in blocks.
// The matrix path does not use this file.
#pragma once

#include <pybind11/numpy.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "scoring_pack.hpp"
#include "toolkit_control.hpp"
#include "toolkit_isa.hpp"

namespace {

#define CBSOLVE_ISA_SOURCE "toolkit_replies_many.hpp"
#include "toolkit_isa_each.hpp"

// Replies of code pairs from packed codes (the kernel dispatch is paid once per block).
class PackedScorer {
   public:
    PackedScorer(pybind11::array_t<uint8_t, pybind11::array::c_style | pybind11::array::forcecast> codes,
                 int n_symbols, bool repeats, bool bulls_only)
        : packed_(codes, n_symbols, repeats), bulls_only_(bulls_only) {}

    // A node whose rows take more than this scores its pairs on demand (no table).
    int64_t table_bytes = int64_t(256) << 20;
    // Row tables store row_map[reply] when set (the expected kernel's compact reply numbers).
    const uint8_t* row_map = nullptr;

    int size() const { return packed_.n; }

    // out[k] = reply(a, b[k]) for k < count (toolkit_replies_many.hpp, the path in use).
    void many(int a, const int* b, size_t count, uint8_t* out) const {
        CBSOLVE_ISA_CALL(packed_many, packed_, bulls_only_, a, b, count, out);
    }
    // out[k] = reply(a, b0 + k) for k < count (a whole row when b0 = 0, count = n).
    void range(int a, int b0, size_t count, uint8_t* out) const {
        CBSOLVE_ISA_CALL(packed_range, packed_, bulls_only_, a, b0, count, out);
    }

   private:
    cbsolve_scoring::PackedCodes packed_;
    bool bulls_only_;
};

// The rows of a set of secrets (their replies to every code), built by scoring. With `ctl`,
// a stop or the deadline cuts the build (a table of 1.4 GB took 3 s on Bulls & Cows 6/10 and
// held a 2 s time limit to 8.8 s): `complete` is then false and the table must not be read.
struct RowTable {
    int n = 0;
    // |S| x n, not zeroed: every row is written before it is read, and zeroing 1.4 GB up
    // front took its time before the build could see a stop
    std::unique_ptr<uint8_t[]> data;
    std::vector<int32_t> index;  // code -> its row in data, -1 when not in the set
    bool complete = true;

    RowTable(const PackedScorer& sc, const int* S, size_t m, const SearchControl* ctl)
        : n(sc.size()), data(new uint8_t[m * size_t(sc.size())]), index(sc.size(), -1) {
        int64_t since_clock = 0;
        for (size_t i = 0; i < m; ++i) {
            if (ctl && ctl->poll_work(since_clock, n)) {
                complete = false;
                return;
            }
            index[S[i]] = int32_t(i);
            uint8_t* row = &data[i * size_t(n)];
            sc.range(S[i], 0, n, row);
            if (sc.row_map)
                for (int g = 0; g < n; ++g) row[g] = sc.row_map[row[g]];
        }
    }
    bool covers(const int* S, size_t m) const {
        for (size_t i = 0; i < m; ++i)
            if (index[S[i]] < 0) return false;
        return true;
    }
    const uint8_t* row(int s) const { return &data[size_t(index[s]) * n]; }
};

// The table the current thread's node reads (set by the node that built it, for the nodes
// under it; an OpenMP worker is given its parent's table explicitly).
static thread_local const RowTable* tl_rows = nullptr;

// A node's scope in the on-the-fly mode: if no enclosing table covers S and its rows fit,
// build one for the nodes under it; restore the previous table on leaving. A build that `ctl`
// cut leaves no table, as a set too large for one does (the node scores on demand, and its
// loops see the stop); `ctl` null: built whole, for a reader that needs the rows.
class RowScope {
   public:
    RowScope(const PackedScorer* sc, const int* S, size_t m, const SearchControl* ctl)
        : prev_(tl_rows) {
        if (!sc || m == 0) return;
        if (tl_rows && tl_rows->covers(S, m)) return;
        if (int64_t(m) * sc->size() > sc->table_bytes) {
            tl_rows = nullptr;  // too large: the node scores on demand
            return;
        }
        own_ = std::make_unique<RowTable>(*sc, S, m, ctl);
        if (!own_->complete) {
            own_.reset();
            tl_rows = nullptr;
            return;
        }
        tl_rows = own_.get();
    }
    ~RowScope() { tl_rows = prev_; }
    RowScope(const RowScope&) = delete;
    RowScope& operator=(const RowScope&) = delete;

   private:
    const RowTable* prev_;
    std::unique_ptr<RowTable> own_;
};

}  // namespace
