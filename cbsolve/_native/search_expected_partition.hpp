// Replies and partitions of the expected-case search (search_expected.cpp): the score matrix
// with a transposed copy in compact reply numbers, the partition histograms of many guesses
// at once (the node scan's inner loop), a guess's classes with their hashes, and the detection
// of guesses that partition a set the same way.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <vector>

#include "toolkit_control.hpp"
#include "toolkit_replies.hpp"


using u64 = uint64_t;

namespace {

// The reply-set loop, compiled once per instruction set (toolkit_isa.hpp).
#define CBSOLVE_ISA_SOURCE "search_expected_sets.hpp"
#include "toolkit_isa_each.hpp"

// Per-node scratch for exploring guesses (dedup signatures, partition buffers).
struct Scratch {
    std::vector<int> part, cnt, off, pos, order, lab;
    std::vector<u64> c1, c2;
    std::unordered_multimap<u64, size_t> seen_sig;
    std::vector<uint8_t> sigs;
    std::vector<uint8_t> grow;  // on the fly: a guess's replies to the node's set, by code
    std::vector<uint8_t> rep;   // a guess's replies to the node's set, in the set's order
};

class Replies {
   public:
    // The score matrix (M[guess * nc + secret], replies < slots, `win` the winning reply),
    // borrowed: the caller keeps it alive (no copy: it is n^2 bytes, 1 GiB for Logik).
    // `responses`: the replies that occur (scoring.possible_responses), or empty. The
    // transposed copy is built afterwards by transpose_rows (the set-up, stoppable in blocks).
    void init(const uint8_t* matrix, int nc, int slots, int win, const std::vector<int>& responses) {
        nc_ = nc;
        slots_ = slots;
        win_ = win;
        M_ = matrix;
        const size_t cells = size_t(nc_) * nc_;
        // Compact reply numbers for the scans: 0 = the win, then the other replies that occur,
        // in the order they first occur in the matrix. Once every reply listed has been seen
        // no new one can follow, so the scan ends after a few rows instead of n^2 bytes.
        std::vector<int> compact(256, -1);
        compact[win_] = 0;
        nr_ = 1;
        std::vector<char> listed(256, 0);
        int unseen = 0;
        for (int r : responses)
            if (r >= 0 && r < 256 && !listed[r]) listed[r] = 1, unseen += r != win_;
        for (size_t i = 0; i < cells && (responses.empty() || unseen > 0); ++i)
            if (compact[M_[i]] < 0) {
                compact[M_[i]] = nr_++;
                unseen -= listed[M_[i]];
            }
        for (int r = 0; r < 256; ++r) {
            compact_[r] = uint8_t(compact[r] < 0 ? 0 : compact[r]);
            if (compact[r] >= 0) raw_[compact[r]] = uint8_t(r);
        }
        stride_ = nr_ <= 16 ? 16 : nr_;
        MT_ = huge_buffer(cells);  // not zeroed: transpose_rows writes every byte once
        transposed_ = 0;
        touched_ = 0;
    }
    // Transpose guess rows [transposed(), g_end) into MT_ (MT_[secret * n + guess]: the compact
    // reply of every guess to a secret), in 64 x 64 tiles through a buffer: each tile reads 64
    // row segments and writes 64 contiguous ones (writing bytes down a column thrashed the
    // TLB: 6.9-11.5 s for Logik's 1 GiB, 2.0-4.3 s this way with huge pages; a stand-alone
    // test of both loops). Threads share the tiles of a row block. Returns the rows done.
    static constexpr int kTile = 64;
    int transpose_rows(int g_end) {
        g_end = std::min(g_end, nc_);
        const int n = nc_;
        const uint8_t* const M = M_;
        uint8_t* const MT = MT_.get();
        const uint8_t* const map = compact_;
        for (; transposed_ < g_end; transposed_ = std::min(n, transposed_ + kTile)) {
            const int g0 = transposed_, gn = std::min(n, g0 + kTile) - g0;
#pragma omp parallel for schedule(static) if (int64_t(gn) * n > (int64_t(1) << 20))
            for (int s0 = 0; s0 < n; s0 += kTile) {
                alignas(64) uint8_t buf[kTile][kTile];
                const int sn = std::min(n, s0 + kTile) - s0;
                for (int g = 0; g < gn; ++g) {
                    const uint8_t* row = &M[size_t(g0 + g) * n + s0];
                    for (int s = 0; s < sn; ++s) buf[s][g] = map[row[s]];
                }
                for (int s = 0; s < sn; ++s) std::memcpy(&MT[size_t(s0 + s) * n + g0], buf[s], gn);
            }
        }
        return transposed_;
    }
    // Touch the pages of MT_ up to `bytes` (its first touch of memory: 0.5-3.5 s for a GiB on
    // the project's VM, in one block of transpose_rows otherwise, since every block writes a
    // column of every row). Returns the bytes touched so far.
    size_t touch(size_t bytes) {
        constexpr size_t kPage = 4096;
        bytes = std::min(bytes, size_t(nc_) * nc_);
        uint8_t* const MT = MT_.get();
        for (; touched_ < bytes; touched_ += kPage) MT[touched_] = 0;
        touched_ = std::min(touched_, size_t(nc_) * nc_);
        return touched_;
    }
    size_t touched() const { return touched_; }
    // Rows of the transposed copy built (n on the fly: nothing to build).
    int transposed() const { return M_ ? transposed_ : nc_; }
    bool ready() const { return transposed() == nc_; }

    // Without the matrix (toolkit_replies.hpp): replies scored from packed codes, and the
    // compact rows of a node's set in a row table (RowScope) where they fit. `responses`: the
    // replies that occur (compact numbers 1.. in that order).
    void init_on_the_fly(std::unique_ptr<PackedScorer> scorer, int nc, int slots, int win,
                         const std::vector<int>& responses) {
        nc_ = nc;
        slots_ = slots;
        win_ = win;
        M_ = nullptr;
        packed_ = std::move(scorer);
        std::fill(std::begin(compact_), std::end(compact_), uint8_t(0));
        nr_ = 1;
        for (int r : responses)
            if (r != win_) compact_[r] = uint8_t(nr_++);
        stride_ = nr_ <= 16 ? 16 : nr_;
        packed_->row_map = compact_;
    }
    bool on_the_fly() const { return M_ == nullptr; }
    PackedScorer* scorer() const { return packed_.get(); }

    // Guess g's replies, readable at p[s] for every s of S[0..n): the matrix row, or scored
    // into buf (by code).
    const uint8_t* guess_row(int g, const int* S, int n, std::vector<uint8_t>& buf) const {
        if (M_) return &M_[size_t(g) * nc_];
        static thread_local std::vector<uint8_t> tmp;
        tmp.resize(n);
        packed_->many(g, S, size_t(n), tmp.data());
        if (buf.size() < size_t(nc_)) buf.resize(nc_);
        for (int i = 0; i < n; ++i) buf[S[i]] = tmp[i];
        return buf.data();
    }
    // Guess g's replies to S[0..n), in S's order, into buf: read from the secrets' rows of
    // the transposed matrix (the node's scans keep them in cache; g's own row is cold), or
    // scored on the fly.
    const uint8_t* replies_of(int g, const int* S, int n, Scratch& sc) const {
        sc.rep.resize(n);
        if (M_) {
            for (int i = 0; i < n; ++i) sc.rep[i] = raw_[MT_[size_t(S[i]) * nc_ + g]];
        } else {
            const uint8_t* row = guess_row(g, S, n, sc.grow);
            for (int i = 0; i < n; ++i) sc.rep[i] = row[S[i]];
        }
        return sc.rep.data();
    }
    // Secret s's compact replies to every guess (the transposed matrix, or the row table).
    const uint8_t* crow(int s) const { return M_ ? &MT_[size_t(s) * nc_] : tl_rows->row(s); }
    // Whether crow can be read: the matrix, or a row table (none when a stop cut its build).
    bool has_rows() const { return M_ || tl_rows; }
    int slots() const { return slots_; }
    int win() const { return win_; }
    int nr() const { return nr_; }  // compact replies (0 = the win) that occur
    // Counters per guess in a histogram: 16 (zeros beyond nr) when nr <= 16, else nr.
    int stride() const { return stride_; }

    // Histograms of a chunk of guesses at once, candidates in the outer loop: each candidate's
    // row of the transposed matrix (its reply to every guess) is read sequentially and every
    // guess has its own counters, so consecutive increments never wait on each other (the
    // guess-major loop serialised on repeated replies); two candidates per pass share the
    // guess index loads. A chunk's counters stay in L1.
    template <class T, class F>
    // A stop request or the deadline (`ctl`) leaves between chunks: the histograms are then incomplete and the
    // caller must discard the scan.
    void count_chunks(const int* S, int n, const std::vector<int>& G, F& consider,
                      const SearchControl& ctl) const {
        constexpr int kChunk = 256;
        static thread_local std::vector<T> H;
        H.resize(size_t(kChunk) * stride_);
        const size_t ng = G.size();
        const int sl = stride_;
        const bool scored = M_ == nullptr && tl_rows == nullptr;  // on the fly, no row table
        static thread_local std::vector<uint8_t> line;
        static thread_local int64_t since_clock = 0;
        for (size_t c0 = 0; c0 < ng; c0 += kChunk) {
            const int cn = int(std::min<size_t>(kChunk, ng - c0));
            if (ctl.poll_work(since_clock, int64_t(cn) * n)) return;
            const int* gc = &G[c0];
            std::fill(H.begin(), H.begin() + size_t(cn) * sl, T(0));
            T* h = H.data();
            int i = 0;
            if (scored) {  // each secret's replies to the chunk scored, then counted
                line.resize(kChunk);
                for (; i < n; ++i) {
                    packed_->many(S[i], gc, size_t(cn), line.data());
                    for (int j = 0; j < cn; ++j) ++h[j * sl + compact_[line[j]]];
                }
            } else if (gc[cn - 1] - gc[0] == cn - 1) {  // a contiguous run of guesses
                for (; i + 1 < n; i += 2) {
                    const uint8_t* r1 = crow(S[i]) + gc[0];
                    const uint8_t* r2 = crow(S[i + 1]) + gc[0];
                    for (int j = 0; j < cn; ++j) {
                        ++h[j * sl + r1[j]];
                        ++h[j * sl + r2[j]];
                    }
                }
                for (; i < n; ++i) {
                    const uint8_t* r1 = crow(S[i]) + gc[0];
                    for (int j = 0; j < cn; ++j) ++h[j * sl + r1[j]];
                }
            } else {
                for (; i + 1 < n; i += 2) {
                    const uint8_t* r1 = crow(S[i]);
                    const uint8_t* r2 = crow(S[i + 1]);
                    for (int j = 0; j < cn; ++j) {
                        const int g = gc[j];
                        ++h[j * sl + r1[g]];
                        ++h[j * sl + r2[g]];
                    }
                }
                for (; i < n; ++i) {
                    const uint8_t* r1 = crow(S[i]);
                    for (int j = 0; j < cn; ++j) ++h[j * sl + r1[gc[j]]];
                }
            }
            for (int j = 0; j < cn; ++j) consider(gc[j], h + size_t(j) * sl);
        }
    }

    // A code outside the three secrets S[0..2] whose replies to them all differ (it tells
    // them apart), or -1. The transposed rows are read in order, so the first one found ends
    // a short scan. Needs has_rows().
    int separates_three(const int* S) const {
        const uint8_t* a = crow(S[0]);
        const uint8_t* b = crow(S[1]);
        const uint8_t* c = crow(S[2]);
        for (int g = 0; g < nc_; ++g)
            if (a[g] && b[g] && c[g] && a[g] != b[g] && a[g] != c[g] && b[g] != c[g]) return g;
        return -1;
    }

    // Whether reply_sets can read the replies of every guess to S (at most 32 replies, at
    // most 63 classes, and the matrix or a row table of S).
    bool sets_ready() const { return nr_ <= 32 && (M_ || tl_rows); }
    // Of each guess G[0..m) (ascending) on the secrets S[0..n), one byte in out[0..m): its
    // non-winning classes in bits 0-5, bit 7 set when it is one of S (reply_set_bytes, the
    // path's copy). The codes from G[0] to G[m-1] are counted alike when G covers an eighth
    // of them at least (contiguous reads), else each guess apart. Needs sets_ready().
    void reply_sets(const int* S, int n, const int* G, int m, uint8_t* out) const {
        if (m == 0) return;
        static thread_local std::vector<const uint8_t*> rows;
        static thread_local std::vector<uint32_t> masks;
        static thread_local std::vector<uint8_t> span_out;
        rows.resize(n);
        for (int i = 0; i < n; ++i) rows[i] = crow(S[i]);
        const int span = G[m - 1] - G[0] + 1;
        if (span <= 8 * m) {  // vectorised over the span: 8-16 codes a step, scalar 1
            masks.resize(span);
            if (span == m) {
                CBSOLVE_ISA_CALL(reply_set_bytes, rows.data(), n, G[0], m, masks.data(), out);
                return;
            }
            span_out.resize(span);
            CBSOLVE_ISA_CALL(reply_set_bytes, rows.data(), n, G[0], span, masks.data(), span_out.data());
            for (int j = 0; j < m; ++j) out[j] = span_out[G[j] - G[0]];
            return;
        }
        for (int j = 0; j < m; ++j) {
            uint32_t mk = 0;
            for (int i = 0; i < n; ++i) mk |= 1u << rows[i][G[j]];
            out[j] = uint8_t(popcount32(mk & ~1u) | (mk & 1u) << 7);
        }
    }
    static int popcount32(uint32_t x) {  // no POPCNT instruction in the portable build
        x = x - ((x >> 1) & 0x55555555u);
        x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
        return int((((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
    }

    // The first guess of G (in its order) whose replies to the secrets S[0..n) all differ,
    // none of them the win (a code outside S that tells them apart), or -1; -2 when this
    // cannot tell (see sets_ready). Chunks of guesses, so an early find ends it early.
    int separator(const int* S, int n, const std::vector<int>& G) const {
        if (!sets_ready()) return -2;
        constexpr int kChunk = 256;
        uint8_t sets[kChunk];
        for (size_t c0 = 0; c0 < G.size(); c0 += kChunk) {
            const int m = int(std::min<size_t>(kChunk, G.size() - c0));
            reply_sets(S, n, &G[c0], m, sets);
            for (int j = 0; j < m; ++j)
                if (sets[j] == n) return G[c0 + j];  // n classes, not a candidate
        }
        return -1;
    }

    // Partition S by the reply to guess g into sc (a counting sort keeps each class sorted);
    // sc.order lists the non-winning classes, smallest first; sc.c1/c2 the classes' hashes
    // (z1, z2: the Zobrist keys of the codes).
    void partition(const int* S, int n, int g, const std::vector<u64>& z1, const std::vector<u64>& z2,
                   Scratch& sc) const {
        const uint8_t* rep = replies_of(g, S, n, sc);
        sc.part.resize(n);
        sc.cnt.assign(slots_, 0);
        sc.off.resize(slots_ + 1);
        sc.pos.resize(slots_);
        sc.c1.assign(slots_, 0);
        sc.c2.assign(slots_, 0);
        for (int i = 0; i < n; ++i) {
            int r = rep[i];
            ++sc.cnt[r];
            sc.c1[r] ^= z1[S[i]];
            sc.c2[r] ^= z2[S[i]];
        }
        sc.off[0] = 0;
        for (int r = 0; r < slots_; ++r) sc.off[r + 1] = sc.off[r] + sc.cnt[r];
        for (int r = 0; r < slots_; ++r) sc.pos[r] = sc.off[r];
        for (int i = 0; i < n; ++i) sc.part[sc.pos[rep[i]]++] = S[i];
        sc.order.clear();
        for (int r = 0; r < slots_; ++r)
            if (sc.cnt[r] && r != win_) sc.order.push_back(r);
        // Smallest classes first: cheap exact values tighten the budget of the big ones.
        std::sort(sc.order.begin(), sc.order.end(), [&](int a, int b) { return sc.cnt[a] < sc.cnt[b]; });
    }

    // True if an equal partition (classes renamed in order of first appearance) was seen
    // before at this node; records it otherwise. Compared exactly, the hash only files them.
    bool duplicate(const int* S, int n, int g, Scratch& sc) const {
        const uint8_t* rep = replies_of(g, S, n, sc);
        if (sc.lab.empty()) sc.lab.assign(slots_, -1);
        size_t at = sc.sigs.size();
        sc.sigs.resize(at + n);
        int next = 0;
        u64 h = 1469598103934665603ULL;
        for (int i = 0; i < n; ++i) {
            int r = rep[i];
            // the win keeps its own label: a candidate and a non-candidate with otherwise equal
            // partitions differ in value (by the singleton's cost, 0 for some weights)
            if (sc.lab[r] < 0) sc.lab[r] = r == win_ ? 255 : next++;
            sc.sigs[at + i] = uint8_t(sc.lab[r]);
            h = (h ^ u64(sc.lab[r])) * 1099511628211ULL;
        }
        std::fill(sc.lab.begin(), sc.lab.end(), -1);
        auto range = sc.seen_sig.equal_range(h);
        for (auto it = range.first; it != range.second; ++it)
            if (std::memcmp(&sc.sigs[it->second], &sc.sigs[at], n) == 0) {
                sc.sigs.resize(at);
                return true;
            }
        sc.seen_sig.emplace(h, at);
        return false;
    }

   private:
    int nc_ = 0, slots_ = 0, win_ = 0, nr_ = 1, stride_ = 16;
    const uint8_t* M_ = nullptr;
    struct FreeDeleter {
        void operator()(uint8_t* p) const { std::free(p); }
    };
    // `bytes` uninitialised, asking the kernel for 2 MiB pages (a hint; Linux): the transpose
    // and the scans read rows 32 KiB apart, one 4 KiB page each.
    static std::unique_ptr<uint8_t[], FreeDeleter> huge_buffer(size_t bytes) {
        constexpr size_t kHuge = size_t(2) << 20;
        const size_t size = (bytes + kHuge - 1) / kHuge * kHuge;
        auto* p = static_cast<uint8_t*>(std::aligned_alloc(kHuge, std::max(size, kHuge)));
        if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
        madvise(p, size, MADV_HUGEPAGE);
#endif
        return std::unique_ptr<uint8_t[], FreeDeleter>(p);
    }
    std::unique_ptr<uint8_t[], FreeDeleter> MT_;  // the transposed copy (matrix mode)
    int transposed_ = 0;              // guess rows of MT_ built so far
    size_t touched_ = 0;              // bytes of MT_ whose pages were touched (page faults)
    std::unique_ptr<PackedScorer> packed_;  // on the fly only
    uint8_t compact_[256] = {};             // reply -> compact number
    uint8_t raw_[256] = {};                 // compact number -> reply (with the matrix)
};

}  // namespace
