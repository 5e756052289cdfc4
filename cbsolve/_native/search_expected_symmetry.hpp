// Symmetries of the expected-case search (search_expected.cpp): symbols never played are
// interchangeable (one canonical relabelling), and the stabiliser of the history (position
// permutations with a map of the played symbols) keeps one guess per orbit; both written once
// in toolkit_symmetry.hpp. The history of the node being searched is per thread, set by the
// Python entry points and pushed by the search.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "toolkit_symmetry.hpp"

using u64 = uint64_t;

namespace {

// History of the node being searched (guesses from the root), per thread; known = false
// (greedy, or a caller that gave none) switches the stabiliser off.
thread_local std::vector<int> node_hist;
thread_local bool node_hist_known = false;
struct HistoryScope {
    std::vector<int> saved;
    bool saved_known;
    HistoryScope(std::vector<int> h, bool known)
        : saved(std::move(node_hist)), saved_known(node_hist_known) {
        node_hist = std::move(h);
        node_hist_known = known;
    }
    ~HistoryScope() {
        node_hist = std::move(saved);
        node_hist_known = saved_known;
    }
};
struct Push {  // the guess of a child node's parent, for the child's stabiliser
    explicit Push(int g) { node_hist.push_back(g); }
    ~Push() { node_hist.pop_back(); }
};

// The expected-case search's face of the toolkit's CodeSymmetry (toolkit_symmetry.hpp): the
// stabiliser of the node's history (node_hist) and the never-played symbols. The stabiliser is
// kept to at most 6 positions and 2^22 dense cells (every node enumerates the N! position
// permutations) and 63 symbols (played sets are 64-bit masks).
class Symmetry {
   public:
    // The codes (nc rows of `len` symbols < n_symbols) and the symbols that count as played
    // before any guess (base_played: symbol 0 when no code may start with it).
    void init(const uint8_t* codes, int nc, int len, int n_symbols, u64 base_played) {
        const bool small = n_symbols <= 63;
        sym_.init(codes, nc, len, n_symbols, base_played & 1, small ? 6 : 0, double(1 << 22));
    }

    // The symbols of code g (the played symbols after guessing it).
    u64 symmask(int g) const { return sym_.symmask(g); }

    // Symbols never played are interchangeable: keep a guess only if its unplayed symbols
    // appear as the lowest unplayed symbols in order of first appearance.
    inline bool canonical(int g, u64 played) const { return sym_.unplayed_canonical(g, played); }

    // Guesses equivalent under the stabiliser of the history map every consistent set of the
    // node onto itself (replies are invariant when both codes are transformed), so guesses in
    // one orbit have equal values: keep the lowest of each orbit. The identity is left out:
    // the caller's `canonical` already relabelled the never-played symbols. `played` is the
    // history's symbols (with base_played), which the stabiliser derives from node_hist.
    // (The Solver's switches opt_stabiliser and opt_unplayed are checked by the caller.)
    void stabiliser_filter(u64 played, std::vector<int>& G) const {
        (void)played;
        if (!node_hist_known || !sym_.ready() || G.empty()) return;
        sym_.keep_canonical(sym_.stabiliser(node_hist.data(), node_hist.size(), false), G);
    }

   private:
    CodeSymmetry sym_;
};

}  // namespace
