// Symmetries of the expected-case search (search_expected.cpp): symbols never played are
// interchangeable (one canonical relabelling), and the stabiliser of the history (position
// permutations with a map of the played symbols) keeps one guess per orbit. The history of the
// node being searched is per thread, set by the Python entry points and pushed by the search.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

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

class Symmetry {
   public:
    // The codes (nc rows of `len` symbols < n_symbols) and the symbols that count as played
    // before any guess (base_played: symbol 0 when no code may start with it).
    void init(const uint8_t* codes, int nc, int len, int n_symbols, u64 base_played) {
        len_ = len;
        n_symbols_ = n_symbols;
        base_played_ = base_played;
        codes_.assign(codes, codes + size_t(nc) * len_);
        symmask_.assign(nc, 0);
        for (int g = 0; g < nc; ++g)
            for (int j = 0; j < len_; ++j) symmask_[g] |= u64(1) << std::min(codes_[size_t(g) * len_ + j], uint8_t(63));
        unplayed_ok_ = n_symbols_ <= 63;
        // Stabiliser support: all position permutations (N <= 6) and a dense code index.
        double dense = 1;
        for (int j = 0; j < len_; ++j) dense *= n_symbols_;
        if (len_ <= 6 && unplayed_ok_ && dense <= double(1 << 22)) {
            code_index_.assign(size_t(dense), -1);
            for (int g = 0; g < nc; ++g) code_index_[code_key(&codes_[size_t(g) * len_])] = g;
            std::vector<int> p(len_);
            for (int j = 0; j < len_; ++j) p[j] = j;
            do perms_.push_back(p);
            while (std::next_permutation(p.begin(), p.end()));
        }
    }

    // The symbols of code g (the played symbols after guessing it).
    u64 symmask(int g) const { return symmask_[g]; }

    // Symbols never played are interchangeable: keep a guess only if its unplayed symbols
    // appear as the lowest unplayed symbols in order of first appearance.
    inline bool canonical(int g, u64 played) const {
        if (!unplayed_ok_) return true;
        const uint8_t* c = &codes_[size_t(g) * len_];
        u64 all = (n_symbols_ >= 64) ? ~u64(0) : ((u64(1) << n_symbols_) - 1);
        u64 assigned = 0;
        for (int j = 0; j < len_; ++j) {
            u64 bit = u64(1) << c[j];
            if ((played | assigned) & bit) continue;
            u64 free = all & ~played & ~assigned;
            if ((free & (~free + 1)) != bit) return false;  // not the lowest free symbol
            assigned |= bit;
        }
        return true;
    }

    // Guesses equivalent under the stabiliser of the history (Knuth 1977, Koyama–Lai 1993,
    // applied at every level): a permutation pi of positions with a map sigma of the played
    // symbols such that every history guess h satisfies h[pi(j)] = sigma(h[j]) maps every
    // consistent set of the node onto itself (replies are invariant when both codes are
    // transformed), so guesses in one orbit have equal values. Combined with the never-played
    // symbols (relabelled to the lowest free ones in order of first appearance), each orbit
    // keeps only its smallest canonical code. sigma fixes the base-played symbol (no leading
    // zero) and then pi must fix position 0, so the code space is mapped onto itself.
    // (The Solver's switches opt_stabiliser and opt_unplayed are checked by the caller.)
    void stabiliser_filter(u64 played, std::vector<int>& G) const {
        if (!node_hist_known || perms_.empty() || G.empty()) return;
        struct Elem {
            const int* pi;
            uint8_t sigma[64];
        };
        std::vector<Elem> group;
        const u64 all = (n_symbols_ >= 64) ? ~u64(0) : ((u64(1) << n_symbols_) - 1);
        for (size_t p = 1; p < perms_.size(); ++p) {  // perms_[0] is the identity
            const int* pi = perms_[p].data();
            if (base_played_ && pi[0] != 0) continue;
            Elem e;
            e.pi = pi;
            uint8_t inv[64];
            std::memset(e.sigma, 255, sizeof e.sigma);
            std::memset(inv, 255, sizeof inv);
            bool ok = true;
            auto bind = [&](int a, int b) {
                if (e.sigma[a] == 255 && inv[b] == 255) {
                    e.sigma[a] = uint8_t(b);
                    inv[b] = uint8_t(a);
                } else if (e.sigma[a] != b) {
                    ok = false;
                }
            };
            for (int s = 0; s < n_symbols_ && ok; ++s)
                if ((base_played_ >> s) & 1) bind(s, s);
            for (size_t t = 0; t < node_hist.size() && ok; ++t) {
                const uint8_t* h = &codes_[size_t(node_hist[t]) * len_];
                for (int j = 0; j < len_ && ok; ++j) bind(h[j], h[pi[j]]);
            }
            if (!ok) continue;
            for (int s = 0; s < n_symbols_; ++s)
                if (!((played >> s) & 1)) {
                    if (e.sigma[s] != 255 || inv[s] != 255) { ok = false; break; }  // cannot happen
                    e.sigma[s] = uint8_t(s);
                }
            if (ok) group.push_back(e);
        }
        if (group.empty()) return;
        size_t kept = 0;
        uint8_t img[16];
        for (size_t i = 0; i < G.size(); ++i) {
            const int g = G[i];
            const uint8_t* c = &codes_[size_t(g) * len_];
            bool keep = true;
            for (const Elem& e : group) {
                for (int j = 0; j < len_; ++j) img[e.pi[j]] = e.sigma[c[j]];
                // relabel never-played symbols by first appearance
                uint8_t relabel[64];
                std::memset(relabel, 255, sizeof relabel);
                u64 used = 0;
                for (int j = 0; j < len_; ++j) {
                    const int a = img[j];
                    if ((played >> a) & 1) continue;
                    if (relabel[a] == 255) {
                        const u64 free = all & ~played & ~used;
                        const int b = __builtin_ctzll(free);
                        relabel[a] = uint8_t(b);
                        used |= u64(1) << b;
                    }
                    img[j] = relabel[a];
                }
                const int other = code_index_[code_key(img)];
                if (other >= 0 && other < g) {
                    keep = false;
                    break;
                }
            }
            if (keep) G[kept++] = g;
        }
        G.resize(kept);
    }

   private:
    size_t code_key(const uint8_t* c) const {
        size_t k = 0;
        for (int j = len_ - 1; j >= 0; --j) k = k * n_symbols_ + c[j];
        return k;
    }

    int len_ = 0, n_symbols_ = 0;
    u64 base_played_ = 0;
    bool unplayed_ok_ = true;
    std::vector<uint8_t> codes_;
    std::vector<u64> symmask_;
    std::vector<std::vector<int>> perms_;  // position permutations (empty: stabiliser off)
    std::vector<int> code_index_;          // dense code -> index (-1: not a code)
};

}  // namespace
