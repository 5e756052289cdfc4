// The symmetry of a history, written once for the native searches (search_worst.cpp,
// search_expected.cpp through search_expected_symmetry.hpp). cbsolve/game/symmetry.py is the
// reference: the same group and the same representatives, compared on many histories by
// tests/test_toolkit.py.
//
// The group: a permutation of positions with a permutation of symbols (both fixing 0 when no
// code may start with symbol 0) maps codes to codes and keeps every reply. An element fixes a
// history when it maps each guess of it onto itself: the position part then forces the map
// sigma of the played symbols, and the never-played symbols stay free (any bijection among
// themselves). An element acts as cbsolve.game.symmetry.apply_perm does: position i of the image
// takes sigma(code[pos[i]]); the free symbols are relabelled to the lowest never-played ones in
// order of first appearance, the smallest of their images (code indices are lexicographic). A
// guess is canonical when no element of the stabiliser gives it a smaller index: the searches
// try one guess per orbit (Knuth 1977; Koyama-Lai 1993 at every level).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

class CodeSymmetry {
   public:
    static constexpr int kMaxSymbols = 64;

    // One element of a stabiliser.
    struct Elem {
        const int* pos = nullptr;    // position i of the image takes the symbol at pos[i]
        int8_t sigma[kMaxSymbols];   // a played symbol's image (-1: never played, free)
        uint8_t free[kMaxSymbols];   // the never-played symbols, ascending
        int nfree = 0;
    };

    // `codes`: nc rows of `len` symbols < n_symbols, in index order; `nlz`: no code starts with
    // symbol 0 (every element fixes position 0 and symbol 0). The stabiliser needs every
    // position permutation and a dense index of n_symbols^len cells: it is available (ready())
    // when len <= max_len, n_symbols <= kMaxSymbols and the index has at most max_dense cells.
    void init(const uint8_t* codes, int nc, int len, int n_symbols, bool nlz, int max_len,
              double max_dense) {
        len_ = len;
        d_ = n_symbols;
        nlz_ = nlz;
        codes_.assign(codes, codes + size_t(nc) * len);
        symmask_.assign(nc, 0);
        for (int g = 0; g < nc; ++g)
            for (int j = 0; j < len; ++j)
                symmask_[g] |= uint64_t(1) << std::min<int>(codes_[size_t(g) * len + j], 63);
        perms_.clear();
        double cells = 1;
        for (int j = 0; j < len; ++j) cells *= n_symbols;
        if (len > max_len || n_symbols > kMaxSymbols || cells > max_dense) return;
        dense_.assign(size_t(cells), -1);
        for (int g = 0; g < nc; ++g) dense_[value(code(g))] = g;
        std::vector<int> p(len);
        for (int j = 0; j < len; ++j) p[j] = j;
        do {  // perms_[0] is the identity
            if (!nlz || p[0] == 0) perms_.push_back(p);
        } while (std::next_permutation(p.begin(), p.end()));
    }

    bool ready() const { return !perms_.empty(); }
    // The symbols of code g, as a bit mask (what guessing it plays).
    uint64_t symmask(int g) const { return symmask_[g]; }

    // The never-played symbols alone (no position part): true when g's never-played symbols
    // appear as the lowest ones in order of first appearance. `played` includes symbol 0 when
    // no code may start with it. Without a dense index (more than 63 symbols) every g passes.
    bool unplayed_canonical(int g, uint64_t played) const {
        if (d_ > 63) return true;
        const uint8_t* c = code(g);
        const uint64_t all = (uint64_t(1) << d_) - 1;
        uint64_t assigned = 0;
        for (int j = 0; j < len_; ++j) {
            const uint64_t bit = uint64_t(1) << c[j];
            if ((played | assigned) & bit) continue;
            const uint64_t free = all & ~played & ~assigned;
            if ((free & (~free + 1)) != bit) return false;  // not the lowest free symbol
            assigned |= bit;
        }
        return true;
    }

    // The elements fixing every guess hist[0..k) (empty unless ready()); the identity first,
    // unless left out.
    std::vector<Elem> stabiliser(const int* hist, size_t k, bool with_identity = true) const {
        std::vector<Elem> out;
        for (size_t t = with_identity ? 0 : 1; t < perms_.size(); ++t) {
            Elem e;
            if (fixes(perms_[t].data(), hist, k, e)) out.push_back(e);
        }
        return out;
    }

    // The index of g's image under e (its never-played symbols relabelled lowest first); with
    // `full`, the symbol permutation that realises it (all n_symbols images).
    int image(const Elem& e, int g, std::vector<int>* full = nullptr) const {
        const uint8_t* c = code(g);
        int8_t m[kMaxSymbols];
        std::memcpy(m, e.sigma, sizeof m);
        int next = 0;
        int64_t v = 0;
        for (int i = 0; i < len_; ++i) {
            const int s = c[e.pos[i]];
            if (m[s] < 0) m[s] = int8_t(e.free[next++]);
            v = v * d_ + m[s];
        }
        if (full) {
            for (int s = 0; s < d_; ++s)
                if (m[s] < 0) m[s] = int8_t(e.free[next++]);
            full->assign(m, m + d_);
        }
        return dense_[v];
    }

    // The lowest index in g's orbit under G (g itself when G is empty); `which` gets the
    // element reaching it (-1: g itself).
    int canonical(const std::vector<Elem>& G, int g, int* which = nullptr) const {
        int best = g, arg = -1;
        for (size_t k = 0; k < G.size(); ++k) {
            const int im = image(G[k], g);
            if (im >= 0 && im < best) {
                best = im;
                arg = static_cast<int>(k);
            }
        }
        if (which) *which = arg;
        return best;
    }

    // Keeps the guesses that are the lowest of their orbit under G (in place, order kept).
    void keep_canonical(const std::vector<Elem>& G, std::vector<int>& guesses) const {
        if (G.empty()) return;
        size_t kept = 0;
        for (int g : guesses)
            if (canonical(G, g) == g) guesses[kept++] = g;
        guesses.resize(kept);
    }

    // The position part of e, for a certificate's "mapped" entry.
    std::vector<int> positions(const Elem& e) const { return std::vector<int>(e.pos, e.pos + len_); }

   private:
    const uint8_t* code(int g) const { return &codes_[size_t(g) * len_]; }
    int64_t value(const uint8_t* c) const {
        int64_t v = 0;
        for (int i = 0; i < len_; ++i) v = v * d_ + c[i];
        return v;
    }

    // Does the position permutation p, with the symbol map it forces, fix the history? Fills
    // e (sigma on the played symbols, the free ones) when it does.
    bool fixes(const int* p, const int* hist, size_t k, Elem& e) const {
        bool taken[kMaxSymbols] = {};
        std::memset(e.sigma, -1, sizeof e.sigma);
        if (nlz_) {
            e.sigma[0] = 0;
            taken[0] = true;
        }
        for (size_t t = 0; t < k; ++t) {
            const uint8_t* c = code(hist[t]);
            for (int i = 0; i < len_; ++i) {
                const int src = c[p[i]], dst = c[i];
                if (e.sigma[src] < 0) {
                    if (taken[dst]) return false;
                    e.sigma[src] = int8_t(dst);
                    taken[dst] = true;
                } else if (e.sigma[src] != dst) {
                    return false;
                }
            }
        }
        e.pos = p;
        e.nfree = 0;
        for (int s = 0; s < d_; ++s)
            if (!taken[s]) e.free[e.nfree++] = uint8_t(s);
        return true;
    }

    int len_ = 0, d_ = 0;
    bool nlz_ = false;
    std::vector<uint8_t> codes_;
    std::vector<uint64_t> symmask_;
    std::vector<std::vector<int>> perms_;  // position permutations (empty: no stabiliser)
    std::vector<int32_t> dense_;           // code value (base n_symbols) -> index (-1: none)
};

}  // namespace
