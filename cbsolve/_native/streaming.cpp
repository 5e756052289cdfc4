// Streaming evaluation of a sampled heuristic strategy against every secret of a large game
// (10^6..10^8 codes), level by level, and the replay of the same strategy on one secret.
//
// The strategy (its parameters and seed are the recipe; cbsolve/strategy/streaming.py owns
// validation and the docs): at a node, ``depth`` guesses played and the class ``cls`` of secrets
// still consistent (code indices, increasing),
//   * depth 0: the recipe's first guess (or, when none is given, the best pattern by the heuristic);
//   * a class of one or two secrets: its lowest code;
//   * otherwise the best of a pool -- the class's candidates (all of them up to ``candidates``, else
//     an evenly spaced sample), at depth 1 the guesses up to the symmetry fixing the first guess,
//     and ``randoms`` codes drawn from the whole space -- scored by the heuristic on the class, or
//     on an evenly spaced sample of it when it holds more than ``sample`` secrets (``sample_top``
//     at depths 0 and 1) by the sampled heuristic. Key: heuristic, then a candidate, then the sum
//     of squared class sizes, then the lowest index. A candidate that splits a whole class into
//     singletons is taken at once (no guess does better there, worst case or total).
// The random draws are seeded by (seed, depth, lowest code, size) of the node, so a node's guess
// depends on the node alone: the breadth-first evaluation (any thread order) and the replay of one
// secret make the same choices.
//
// Memory: two arrays of uint32 code indices (each level's classes are contiguous ranges of one,
// partitioned stably into the other) and the list of classes (offset, size); codes are decoded
// from their index when scored (base-D digits, or rows of a listed space for the other rules).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "scoring_pack.hpp"
#include "streaming_tight.hpp"
#include "toolkit_bind.hpp"
#include "toolkit_control.hpp"
#include "toolkit_isa.hpp"

namespace py = pybind11;
using cbsolve_scoring::PackedCodes;
using cbsolve_scoring::u64;

namespace {

#define CBSOLVE_ISA_SOURCE "streaming_kernels.hpp"
#include "toolkit_isa_each.hpp"

enum Heuristic { MINIMAX = 0, EXPECTED = 1, ENTROPY = 2, PARTS = 3 };
constexpr int kMaxDepth = 60;  // a strategy that never ends is a bug: stop there, say so

struct Recipe {
    int heuristic = PARTS, sampled_heuristic = EXPECTED;
    long long sample = 2000, sample_top = 20000, candidates = 200, randoms = 100;
    long long escalate_below = 0, escalate_randoms = 0, lookahead_below = 0;
    long long target = 0, tight_randoms = 0, tight_helpers = 0;  // the tight tail rule (0: off)
    long long climb = 0, climb_above = 0;      // the local search from the pool's best (0: off)
    long long search_below = 0, search_left = 0, search_tries = 0;  // the tail search (0: off)
    uint64_t seed = 0;
    long long first = -1;  // code index, -1: chosen among the root pool
};

uint64_t splitmix(uint64_t& s) {
    uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// What one thread reuses from node to node.
struct Scratch {
    std::vector<uint8_t> row;
    std::vector<u64> spos, scnt, gpos, gcnt;  // the sample's and the guess's packed words
    std::vector<uint16_t> replies;
    std::vector<uint32_t> count;
    std::vector<uint16_t> touched;
    std::vector<uint32_t> pool;
    std::vector<uint8_t> from_class;
    std::vector<uint16_t> pairs;           // a small class's replies among its own secrets
    std::vector<std::pair<uint16_t, uint16_t>> order;
    std::vector<uint32_t> stamp;
    uint32_t now = 0;
};

struct Key {
    long long excess = 0;    // secrets the tight tail test sees miss the target (0: off)
    int height = INT32_MAX;  // guesses to finish the class as the lookahead sees it (0: off)
    double primary = INFINITY;
    int not_candidate = 1;
    long long squares = 0;
    uint32_t index = UINT32_MAX;
    bool operator<(const Key& o) const {
        if (excess != o.excess) return excess < o.excess;
        if (height != o.height) return height < o.height;
        if (primary != o.primary) return primary < o.primary;
        if (not_candidate != o.not_candidate) return not_candidate < o.not_candidate;
        if (squares != o.squares) return squares < o.squares;
        return index < o.index;
    }
};

class Streaming {
   public:
    Streaming(int length, int n_symbols, bool repeats, bool bulls_only,
              py::array_t<uint8_t, py::array::c_style | py::array::forcecast> listed,
              long long size, int slots, int win, Recipe recipe,
              std::vector<uint32_t> root_pool, std::vector<uint32_t> depth1_pool)
        : N_(length), D_(n_symbols), repeats_(repeats), bulls_only_(bulls_only),
          layout_(nullptr, 0, length, n_symbols, repeats), n_(size), slots_(slots), win_(win),
          r_(recipe), root_pool_(std::move(root_pool)), depth1_pool_(std::move(depth1_pool)) {
        if (listed.size()) {
            if (listed.ndim() != 2 || listed.shape(0) != size || listed.shape(1) != length)
                throw std::invalid_argument("listed codes must be (size, length)");
            listed_.assign(listed.data(), listed.data() + listed.size());
        }
        if (size < 1 || size > UINT32_MAX) throw std::invalid_argument("size must be 1..2^32-1");
        for (uint32_t g : root_pool_) check_index(g);
        for (uint32_t g : depth1_pool_) check_index(g);
        if (r_.first >= 0) check_index(r_.first);
        else if (root_pool_.empty()) throw std::invalid_argument("no first guess and no root pool");
        if (listed_.empty() && N_ >= kChunk && D_ <= 16) {  // a table of at most 2^16 entries
            for (int i = 0; i < kChunk; ++i) chunk_size_ *= static_cast<uint32_t>(D_);
            chunk_digits_.resize(chunk_size_);
            for (uint32_t v = 0; v < chunk_size_; ++v) {
                uint32_t x = v;
                uint8_t d[kChunk];
                for (int i = kChunk - 1; i >= 0; --i) { d[i] = static_cast<uint8_t>(x % D_); x /= D_; }
                std::memcpy(&chunk_digits_[v], d, kChunk);
            }
        }
    }

    SearchControl control;

    // The guess the strategy makes first (the recipe's, or the root pool's best).
    uint32_t first_guess() {
        std::vector<uint32_t> all(static_cast<size_t>(n_));
        std::iota(all.begin(), all.end(), 0u);
        Scratch sc;
        py::gil_scoped_release nogil;
        return choose(0, all.data(), n_, sc);
    }

    // The guesses the strategy plays against ``secret`` (the last one is the secret).
    std::vector<uint32_t> play(long long secret) {
        check_index(secret);
        std::vector<uint32_t> out;
        py::gil_scoped_release nogil;
        std::vector<uint32_t> cls(static_cast<size_t>(n_));
        std::iota(cls.begin(), cls.end(), 0u);
        Scratch sc;
        std::vector<uint16_t> rep;
        for (int depth = 0; depth < kMaxDepth; ++depth) {
            const uint32_t g = guess_at(depth, cls.data(), static_cast<long long>(cls.size()), sc);
            out.push_back(g);
            if (g == secret) return out;
            const uint16_t want = reply(g, static_cast<uint32_t>(secret), sc);
            replies_of(g, cls.data(), static_cast<long long>(cls.size()), sc, rep);
            size_t k = 0;
            for (size_t j = 0; j < cls.size(); ++j)
                if (rep[j] == want) cls[k++] = cls[j];
            cls.resize(k);
        }
        throw std::runtime_error("the strategy did not finish within 60 guesses");
    }

    // The guess the strategy makes at the class ``cls`` (code indices, ascending, as the
    // evaluation holds them) after ``depth`` guesses: an independent replay of every secret
    // asks this and splits the classes itself (cbsolve/strategy/streaming_check.py).
    uint32_t choose_at(int depth, py::array_t<uint32_t, py::array::c_style | py::array::forcecast> members) {
        const long long c = static_cast<long long>(members.size());
        const uint32_t* cls = members.data();
        if (c == 0 || depth < 0) throw std::invalid_argument("choose_at: an empty class or a negative depth");
        for (long long j = 0; j < c; ++j) {
            check_index(cls[j]);
            if (j && cls[j] <= cls[j - 1]) throw std::invalid_argument("choose_at: a class must be ascending");
        }
        static thread_local Scratch sc;
        py::gil_scoped_release nogil;
        return guess_at(depth, cls, c, sc);
    }

    // Plays every secret; returns (histogram by number of guesses, stop word).
    std::pair<std::vector<long long>, std::string> evaluate() {
        std::vector<long long> hist(kMaxDepth + 3, 0);
        py::gil_scoped_release nogil;
        std::vector<uint32_t> cur(static_cast<size_t>(n_)), nxt(static_cast<size_t>(n_));
        std::iota(cur.begin(), cur.end(), 0u);
        struct Cls { uint32_t off, size; };
        std::vector<Cls> level;
        if (n_ <= 2) {  // the lowest code, then the other
            hist[1] = 1;
            if (n_ == 2) hist[2] = 1;
        } else {
            level.push_back({0, static_cast<uint32_t>(n_)});
        }
        for (int depth = 0; !level.empty() && !control.stopped(); ++depth) {
            if (depth >= kMaxDepth) throw std::runtime_error("the strategy did not finish within 60 guesses");
            std::sort(level.begin(), level.end(), [](const Cls& a, const Cls& b) {
                return a.size != b.size ? a.size > b.size : a.off < b.off;
            });
            control.count_nodes(depth, 0);
            control.top_node(0, static_cast<int64_t>(level.size()));
            std::vector<Cls> next;
            std::vector<std::string> errors;
#pragma omp parallel
            {
                Scratch sc;
                std::vector<Cls> mine;
                std::vector<long long> h(hist.size(), 0);
                std::vector<uint16_t> rep;
                std::vector<uint32_t> start(slots_ + 1);
                int64_t since = 0, done = 0;
#pragma omp for schedule(dynamic, 1) nowait
                for (long long i = 0; i < static_cast<long long>(level.size()); ++i) {
                    if (control.poll_work(since, level[i].size)) continue;
                    const uint32_t off = level[i].off, c = level[i].size;
                    const uint32_t* cls = cur.data() + off;
                    try {
                        if (searched(depth, c)) {  // the whole subtree, searched in this thread
                            uint32_t g;
                            search(depth, cls, c, sc, g, &h);
                            if (++done % 256 == 0) control.top_node(done, -1);
                            continue;
                        }
                        const uint32_t g = choose(depth, cls, c, sc);
                        replies_of(g, cls, c, sc, rep);
                        std::fill(start.begin(), start.end(), 0u);
                        for (uint32_t j = 0; j < c; ++j) ++start[rep[j] + 1];
                        for (int r = 0; r < slots_; ++r) start[r + 1] += start[r];
                        for (int r = 0; r < slots_; ++r) {
                            const uint32_t k = start[r + 1] - start[r];
                            if (k == 0) continue;
                            if (r == win_) h[depth + 1] += 1;
                            else if (k == 1) h[depth + 2] += 1;
                            else if (k == 2) { h[depth + 2] += 1; h[depth + 3] += 1; }
                            else if (k == c) throw std::runtime_error("a guess split nothing");
                            else mine.push_back({off + start[r], k});
                        }
                        for (uint32_t j = 0; j < c; ++j) nxt[off + start[rep[j]]++] = cls[j];
                    } catch (const std::exception& e) {
#pragma omp critical
                        errors.push_back(e.what());
                        control.request_stop(StopReason::kStopped);
                    }
                    if (++done % 256 == 0) control.top_node(done, -1);
                }
#pragma omp critical
                {
                    next.insert(next.end(), mine.begin(), mine.end());
                    for (size_t d = 0; d < h.size(); ++d) hist[d] += h[d];
                }
            }
            if (!errors.empty()) throw std::runtime_error(errors.front());
            level.swap(next);
            cur.swap(nxt);
        }
        const StopReason why = control.reason();
        return {hist, why == StopReason::kComplete ? "complete" : stop_word(why)};
    }

   private:
    void check_index(long long i) const {
        if (i < 0 || i >= n_) throw std::out_of_range("code index out of range");
    }

    // Symbols of code ``index``: rows of a listed space, else base-D digits read kChunk at a
    // time from a table (one division a chunk instead of one a digit).
    void decode(uint32_t index, uint8_t* row) const {
        if (!listed_.empty()) {
            std::copy_n(listed_.data() + static_cast<size_t>(index) * N_, N_, row);
            return;
        }
        int p = N_;
        for (; !chunk_digits_.empty() && p >= kChunk; p -= kChunk) {
            const uint32_t q = index / chunk_size_;
            std::memcpy(row + p - kChunk, &chunk_digits_[index - q * chunk_size_], kChunk);
            index = q;
        }
        for (--p; p >= 0; --p) {
            row[p] = static_cast<uint8_t>(index % D_);
            index /= D_;
        }
    }

    // Packs code ``index`` as PackedCodes does (scoring_pack.hpp).
    void pack(uint32_t index, u64* pos, u64* cnt, uint8_t* row) const {
        decode(index, row);
        const int w = repeats_ ? N_ : 1;
        std::fill_n(pos, layout_.pw, 0);
        std::fill_n(cnt, layout_.cw, 0);
        uint8_t seen[256];
        for (int p = 0; p < N_; ++p) seen[row[p]] = 0;
        for (int p = 0; p < N_; ++p) {
            const int s = row[p];
            pos[p / 8] |= static_cast<u64>(s) << (8 * (p % 8));
            const int bit = s * w + seen[s]++;
            cnt[bit / 64] |= 1ULL << (bit % 64);
        }
    }

    // Packs the codes ``idx[0..k)`` into the scratch's sample words.
    void pack_many(const uint32_t* idx, long long k, Scratch& sc, bool sample) const {
        auto& P = sample ? sc.spos : sc.gpos;
        auto& C = sample ? sc.scnt : sc.gcnt;
        P.resize(static_cast<size_t>(k) * layout_.pw);
        C.resize(static_cast<size_t>(k) * layout_.cw);
        sc.row.resize(N_);
        for (long long j = 0; j < k; ++j)
            pack(idx[j], P.data() + j * layout_.pw, C.data() + j * layout_.cw, sc.row.data());
    }

    uint16_t reply(uint32_t a, uint32_t b, Scratch& sc) const {
        std::vector<uint16_t> out;
        replies_of(a, &b, 1, sc, out);
        return out[0];
    }

    // out[j] = reply(g, cls[j]), in blocks (the packed words of a block only).
    void replies_of(uint32_t g, const uint32_t* cls, long long c, Scratch& sc,
                    std::vector<uint16_t>& out) const {
        constexpr long long BLOCK = 4096;
        out.resize(static_cast<size_t>(c));
        std::vector<u64> gp(layout_.pw), gc(layout_.cw);
        sc.row.resize(N_);
        pack(g, gp.data(), gc.data(), sc.row.data());
        for (long long j0 = 0; j0 < c; j0 += BLOCK) {
            const long long k = std::min(BLOCK, c - j0);
            pack_many(cls + j0, k, sc, true);
            CBSOLVE_ISA_CALL(replies_block, layout_, bulls_only_, gp.data(), gc.data(),
                             sc.spos.data(), sc.scnt.data(), k, out.data() + j0);
        }
    }

    // k evenly spaced picks from cls[0..c), the first one at a seeded offset.
    static void spaced(const uint32_t* cls, long long c, long long k, uint64_t& rng,
                       std::vector<uint32_t>& out) {
        const long long shift = static_cast<long long>(splitmix(rng) % static_cast<uint64_t>(c));
        for (long long i = 0; i < k; ++i) out.push_back(cls[(shift + i * c / k) % c]);
    }

    // The key of guess g on the sample packed in ``sc`` (S secrets); ``parts`` its class count.
    // ``bound`` (>= 0): a minimax or expected score above it loses, so the count stops there
    // and the key returned is a loser's (the choice is the same, sooner).
    Key score(uint32_t g, bool from_class, int heur, long long S, Scratch& sc, long long& parts,
              double bound = -1) const {
        constexpr long long CHUNK = 512;
        pack(g, sc.gpos.data(), sc.gcnt.data(), sc.row.data());
        sc.touched.clear();
        long long largest = 0, squares = 0;
        for (long long j0 = 0; j0 < S; j0 += CHUNK) {
            const long long k = std::min(CHUNK, S - j0);
            CBSOLVE_ISA_CALL(replies_block, layout_, bulls_only_, sc.gpos.data(), sc.gcnt.data(),
                             sc.spos.data() + j0 * layout_.pw, sc.scnt.data() + j0 * layout_.cw,
                             k, sc.replies.data() + j0);
            for (long long j = j0; j < j0 + k; ++j) {
                const uint16_t r = sc.replies[j];
                const uint32_t before = sc.count[r]++;
                if (before == 0) sc.touched.push_back(r);
                largest = std::max<long long>(largest, before + 1);
                squares += 2 * static_cast<long long>(before) + 1;
            }
            if (bound >= 0 && ((heur == MINIMAX && largest > bound) ||
                               (heur == EXPECTED && squares > bound))) {
                for (uint16_t r : sc.touched) sc.count[r] = 0;
                parts = 0;
                return Key{};
            }
        }
        Key k;
        k.index = g;
        k.not_candidate = from_class ? 0 : 1;
        k.squares = squares;
        double entropy = 0;
        for (uint16_t r : sc.touched) {
            const long long n = sc.count[r];
            sc.count[r] = 0;
            if (r == win_) k.not_candidate = 0;
            if (heur == ENTROPY && n > 1) entropy += static_cast<double>(n) * std::log2(static_cast<double>(n));
        }
        parts = static_cast<long long>(sc.touched.size());
        k.primary = heur == PARTS ? -static_cast<double>(parts)
                    : heur == MINIMAX ? static_cast<double>(largest)
                    : heur == EXPECTED ? static_cast<double>(k.squares) : entropy;
        return k;
    }

    // The pool of a node (candidates first, flagged in ``from_class``), into the scratch.
    void build_pool(int depth, const uint32_t* cls, long long c, uint64_t& rng, Scratch& sc) const {
        sc.pool.clear();
        if (depth == 0) {
            sc.pool = root_pool_;
        } else {
            if (c <= r_.candidates) sc.pool.assign(cls, cls + c);
            else spaced(cls, c, r_.candidates, rng, sc.pool);
        }
        sc.from_class.assign(sc.pool.size(), depth > 0);
        if (depth == 1) sc.pool.insert(sc.pool.end(), depth1_pool_.begin(), depth1_pool_.end());
        if (depth > 0 && r_.randoms >= n_)  // as many draws as codes: every code instead
            for (long long i = 0; i < n_; ++i) sc.pool.push_back(static_cast<uint32_t>(i));
        else if (depth > 0)
            for (long long i = 0; i < r_.randoms; ++i)
                sc.pool.push_back(static_cast<uint32_t>(splitmix(rng) % static_cast<uint64_t>(n_)));
        sc.from_class.resize(sc.pool.size(), 0);
    }

    // The lookahead of a small class (c secrets, their pairwise replies in ``sc.pairs``) for the
    // guess whose replies are in ``sc.replies``: 1 + the most guesses a reply class needs, that
    // is 0 for the guess itself, 1 for one secret, 2 for two or for a class one of its own
    // secrets splits apart, else 3 (at least).
    int lookahead(long long c, Scratch& sc) const {
        sc.order.resize(static_cast<size_t>(c));
        for (long long j = 0; j < c; ++j) sc.order[j] = {sc.replies[j], static_cast<uint16_t>(j)};
        std::sort(sc.order.begin(), sc.order.end());
        if (sc.stamp.size() < static_cast<size_t>(slots_)) sc.stamp.assign(slots_, 0);
        int need = 0;
        for (long long a = 0, b; a < c; a = b) {
            for (b = a + 1; b < c && sc.order[b].first == sc.order[a].first; ++b) {}
            const long long k = b - a;
            int here = sc.order[a].first == win_ ? 0 : k <= 2 ? static_cast<int>(k) : 3;
            for (long long m = a; here == 3 && m < b; ++m) {  // a member splitting the others
                const uint16_t* row = sc.pairs.data() + sc.order[m].second * c;
                ++sc.now;
                bool apart = true;
                for (long long x = a; x < b && apart; ++x) {
                    uint32_t& st = sc.stamp[row[sc.order[x].second]];
                    apart = st != sc.now;
                    st = sc.now;
                }
                if (apart) here = 2;
            }
            need = std::max(need, here);
        }
        return 1 + need;
    }

    // The replies of a small class's secrets to one another, into ``sc.pairs`` (c x c; the
    // class is packed in ``sc.spos``/``sc.scnt``).
    void pairwise(const uint32_t* cls, long long c, Scratch& sc) const {
        sc.pairs.resize(static_cast<size_t>(c * c));
        for (long long j = 0; j < c; ++j) {
            pack(cls[j], sc.gpos.data(), sc.gcnt.data(), sc.row.data());
            CBSOLVE_ISA_CALL(replies_block, layout_, bulls_only_, sc.gpos.data(), sc.gcnt.data(),
                             sc.spos.data(), sc.scnt.data(), c, sc.pairs.data() + j * c);
        }
    }

    // The seed of a node's draws: the recipe's seed, the depth, the lowest code and the size.
    uint64_t node_seed(int depth, const uint32_t* cls, long long c) const {
        uint64_t rng = r_.seed ^ (0xD1B54A32D192ED03ULL * (static_cast<uint64_t>(depth) + 1));
        splitmix(rng);
        return rng ^ (static_cast<uint64_t>(cls[0]) << 32) ^ static_cast<uint64_t>(c);
    }

    // The strategy's guess at a node: the tail search's where it searches, else choose's.
    uint32_t guess_at(int depth, const uint32_t* cls, long long c, Scratch& sc) const {
        if (!searched(depth, c)) return choose(depth, cls, c, sc);
        uint32_t g;
        search(depth, cls, c, sc, g, nullptr);
        return g;
    }

    // The tail search's nodes: ``search_left`` guesses or fewer left to the target, a class of
    // 3..``search_below`` secrets scored whole. Their children are such nodes too.
    bool searched(int depth, long long c) const {
        const long long cap = depth <= 1 ? r_.sample_top : r_.sample;
        return r_.search_below > 0 && r_.target > 0 && depth > 0 && c >= 3 && c <= r_.search_below &&
               c <= cap && c <= 65535 && r_.target - depth <= r_.search_left;
    }

    // The tail search at a node: choose's guess when the strategy below it (searched the same
    // way) ends every secret by the target, else the first of ``search_tries`` - 1 other guesses
    // (the pool and the codes one step from choose's guess, best key first) that does, else
    // choose's guess. ``guess`` gets the guess; with ``h`` the subtree's histogram is added to
    // it. Returns whether every secret below ends by the target. A function of the node: the
    // children's guesses found while trying are the ones their own search makes, so the
    // evaluation, the replay and ``play`` agree.
    bool search(int depth, const uint32_t* cls, long long c, Scratch& sc, uint32_t& guess,
                std::vector<long long>* h) const {
        const uint32_t base = choose(depth, cls, c, sc);
        guess = base;
        if (subtree(depth, cls, c, base, sc, nullptr)) return !h || subtree(depth, cls, c, base, sc, h);
        for (uint32_t g : alternatives(depth, cls, c, base, sc))
            if (subtree(depth, cls, c, g, sc, nullptr)) {
                guess = g;
                return !h || subtree(depth, cls, c, g, sc, h);
            }
        if (h) subtree(depth, cls, c, base, sc, h);
        return false;
    }

    // Plays ``g`` at the node and the tail search below it: whether every secret ends by the
    // target. Without ``h`` it stops at the first class that cannot (a test); with it, it adds
    // the whole subtree's histogram to ``*h``.
    bool subtree(int depth, const uint32_t* cls, long long c, uint32_t g, Scratch& sc,
                 std::vector<long long>* h) const {
        const long long T = r_.target;
        std::vector<uint16_t> rep;
        replies_of(g, cls, c, sc, rep);
        std::vector<uint32_t> start(slots_ + 1, 0);
        for (long long j = 0; j < c; ++j) ++start[rep[j] + 1];
        for (int r = 0; r < slots_; ++r) start[r + 1] += start[r];
        std::vector<uint32_t> parts(static_cast<size_t>(c));
        {
            std::vector<uint32_t> at(start.begin(), start.end() - 1);
            for (long long j = 0; j < c; ++j) parts[at[rep[j]]++] = cls[j];  // each stays ascending
        }
        std::vector<std::pair<uint32_t, int>> big;  // (size, reply) of the classes searched below
        bool ok = true;
        for (int r = 0; r < slots_; ++r) {
            const long long k = start[r + 1] - start[r];
            if (k == 0) continue;
            if (k == c && r != win_) {
                if (h) throw std::runtime_error("a guess split nothing");
                return false;
            }
            if (r == win_ || k <= 2) {  // the guess itself; one or two secrets: lowest code first
                const long long last = r == win_ ? depth + 1 : depth + 1 + k;
                if (h) {
                    if (r == win_) (*h)[depth + 1] += 1;
                    else for (long long x = 0; x < k; ++x) (*h)[depth + 2 + x] += 1;
                }
                ok = ok && last <= T;
                if (!ok && !h) return false;
            } else {
                big.push_back({static_cast<uint32_t>(k), r});
            }
        }
        std::sort(big.begin(), big.end(), std::greater<>());  // the largest (likeliest to fail) first
        const TightTest count(nullptr, 0, slots_, win_, slots_ - 1);
        for (const auto& [k, r] : big) {
            // Counting: m guesses tell apart at most F(m) secrets; a class above it cannot end
            // by the target whatever is played (a test needs no search there).
            if (!h && k > count.capacity(static_cast<int>(T - depth - 1))) return false;
            uint32_t cg;
            ok = search(depth + 1, parts.data() + start[r], k, sc, cg, h) && ok;
            if (!ok && !h) return false;
        }
        return ok;
    }

    // The other guesses the tail search tries at a node whose choose guess ``base`` fails: the
    // ``search_tries`` - 1 best by the key on the whole class among the node's pool and the codes
    // one position or one swap from ``base`` (base-D spaces), each splitting the class.
    std::vector<uint32_t> alternatives(int depth, const uint32_t* cls, long long c, uint32_t base,
                                       Scratch& sc) const {
        std::vector<uint32_t> out;
        if (r_.search_tries <= 1) return out;
        uint64_t rng = node_seed(depth, cls, c);
        pack_many(cls, c, sc, true);
        build_pool(depth, cls, c, rng, sc);
        std::vector<uint32_t> guesses = sc.pool;
        std::vector<uint8_t> member = sc.from_class;
        if (listed_.empty()) {
            std::vector<uint8_t> d(N_);
            decode(base, d.data());
            std::vector<uint32_t> place(N_);
            uint32_t w = 1;
            for (int p = N_ - 1; p >= 0; --p) { place[p] = w; w *= static_cast<uint32_t>(D_); }
            for (int p = 0; p < N_; ++p)
                for (int s = 0; s < D_; ++s)
                    if (s != d[p]) guesses.push_back(base - d[p] * place[p] + static_cast<uint32_t>(s) * place[p]);
            for (int p = 0; p < N_; ++p)
                for (int q = p + 1; q < N_; ++q)
                    if (d[p] != d[q])
                        guesses.push_back(base - d[p] * place[p] - d[q] * place[q] + d[q] * place[p] + d[p] * place[q]);
            member.resize(guesses.size(), 0);
        }
        sc.replies.resize(static_cast<size_t>(c));
        sc.count.assign(slots_, 0);
        sc.gpos.resize(layout_.pw);
        sc.gcnt.resize(layout_.cw);
        std::vector<Key> keys;
        long long parts = 0;
        for (size_t i = 0; i < guesses.size(); ++i) {
            if (guesses[i] == base) continue;
            const Key k = score(guesses[i], member[i], r_.heuristic, c, sc, parts);
            if (parts > 1) keys.push_back(k);  // a guess that splits the class
        }
        std::sort(keys.begin(), keys.end());
        for (const Key& k : keys) {
            if (static_cast<long long>(out.size()) + 1 >= r_.search_tries) break;
            if (std::find(out.begin(), out.end(), k.index) == out.end()) out.push_back(k.index);
        }
        return out;
    }

    uint32_t choose(int depth, const uint32_t* cls, long long c, Scratch& sc) const {
        if (depth == 0 && r_.first >= 0) return static_cast<uint32_t>(r_.first);
        if (c <= 2 && depth > 0) return cls[0];
        uint64_t rng = node_seed(depth, cls, c);
        const long long cap = depth <= 1 ? r_.sample_top : r_.sample;
        const bool full = c <= cap;
        std::vector<uint32_t> sample;  // the secrets scored against
        if (full) sample.assign(cls, cls + c);
        else spaced(cls, c, cap, rng, sample);
        const long long S = static_cast<long long>(sample.size());
        pack_many(sample.data(), S, sc, true);
        build_pool(depth, cls, c, rng, sc);
        const int heur = full ? r_.heuristic : r_.sampled_heuristic;
        sc.replies.resize(static_cast<size_t>(S));
        sc.count.assign(slots_, 0);
        sc.gpos.resize(layout_.pw);
        sc.gcnt.resize(layout_.cw);
        // Every secret apart: a candidate doing it is the best there is; once every candidate
        // was tried, so is any guess doing it (no candidate can).
        const bool all_candidates = full && depth > 0 && c <= r_.candidates;
        const bool look = full && depth > 0 && c <= r_.lookahead_below && c <= 65535;
        if (look) {
            pairwise(cls, c, sc);
        }
        Key best;
        long long parts = 0;
        for (size_t i = 0; i < sc.pool.size(); ++i) {
            Key k = score(sc.pool[i], sc.from_class[i], heur, S, sc, parts,
                          look || best.index == UINT32_MAX ? -1 : best.primary);
            if (look) k.height = lookahead(c, sc);
            if (full && parts == c && (k.not_candidate == 0 || all_candidates)) return k.index;
            if (k < best) best = k;
        }
        // A small class no guess of the pool splits apart: ``escalate_randoms`` more draws.
        if (all_candidates && c <= r_.escalate_below && depth > 0) {
            const bool every = r_.escalate_randoms >= n_;  // as many draws as codes: every code
            for (long long i = 0; i < (every ? n_ : r_.escalate_randoms); ++i) {
                const uint32_t g = every ? static_cast<uint32_t>(i)
                                         : static_cast<uint32_t>(splitmix(rng) % static_cast<uint64_t>(n_));
                Key k = score(g, false, heur, S, sc, parts, look ? -1 : best.primary);
                if (parts == c) return k.index;
                if (look) k.height = lookahead(c, sc);
                if (k < best) best = k;
            }
        }
        if (r_.climb > 0 && depth > 0 && c >= r_.climb_above && listed_.empty())
            best = climb(best, heur, S, look, c, sc);
        if (r_.target > 0 && full && depth > 0 && c <= 65535 &&
            c <= TightTest(nullptr, 0, slots_, win_, slots_ - 1).capacity(r_.target - depth))
            return tight(depth, cls, c, best.index, heur, look, rng, sc);
        return best.index;
    }

    // The local search (``r_.climb`` steps at most, base-D spaces): every code differing from
    // the current guess in one position, or by two of its positions swapped, is ranked by ``rank`` (a Key, lower is better); the best
    // of them replaces the current guess when its key is lower, else the search stops (steepest
    // descent). Only the node's class enters: a function of the node, as the pool is.
    template <class Rank>
    Key descend(Key best, Rank&& rank) const {
        if (best.index == UINT32_MAX) return best;
        std::vector<uint32_t> place(N_);  // D^(N-1-p): the weight of position p in an index
        uint32_t w = 1;
        for (int p = N_ - 1; p >= 0; --p) { place[p] = w; w *= static_cast<uint32_t>(D_); }
        std::vector<uint8_t> digits(N_);
        for (long long step = 0; step < r_.climb; ++step) {
            decode(best.index, digits.data());
            Key next = best;
            for (int p = 0; p < N_; ++p) {
                const uint32_t base = best.index - digits[p] * place[p];
                for (int s = 0; s < D_; ++s) {
                    if (s == digits[p]) continue;
                    const Key k = rank(base + static_cast<uint32_t>(s) * place[p], next);
                    if (k < next) next = k;
                }
            }
            for (int p = 0; p < N_; ++p)  // two positions swapped
                for (int q = p + 1; q < N_; ++q) {
                    if (digits[p] == digits[q]) continue;
                    const uint32_t g = best.index - digits[p] * place[p] - digits[q] * place[q] +
                                       digits[q] * place[p] + digits[p] * place[q];
                    const Key k = rank(g, next);
                    if (k < next) next = k;
                }
            if (next.index == best.index) break;
            best = next;
        }
        return best;
    }

    // The pool's best guess improved by the local search, scored as the pool was (same sample,
    // same key; a score above the current best is cut short as in the pool).
    Key climb(Key best, int heur, long long S, bool look, long long c, Scratch& sc) const {
        long long parts = 0;
        return descend(best, [&](uint32_t g, const Key& incumbent) {
            Key k = score(g, false, heur, S, sc, parts, look ? -1 : incumbent.primary);
            if (look && k.index != UINT32_MAX) k.height = lookahead(c, sc);
            return k;
        });
    }

    // The tight tail rule: when the guess chosen at a node (a whole class, c secrets, at
    // ``depth``) leaves a reply class the tight test says cannot be finished within the target,
    // the pool's best guess that leaves none is taken, else the first of ``tight_randoms`` more
    // draws (every code when as many as codes) that leaves none, else the chosen guess stands.
    // Nodes whose own class fails the count are not searched (no guess can help).
    uint32_t tight(int depth, const uint32_t* cls, long long c, uint32_t chosen, int heur, bool look,
                   uint64_t& rng, Scratch& sc) const {
        constexpr long long kPairs = 512;  // largest class whose pairwise replies are computed
        const bool paired = c <= kPairs;
        if (paired && !look) {
            pairwise(cls, c, sc);
        }
        long long parts = 0;
        // Helpers: the best guesses on the class from outside it (the chosen one, the pool's),
        // whose replies the test may play besides the members' (a permutation class, say, is
        // split far better by codes repeating a symbol than by its own secrets).
        std::vector<uint16_t> helpers;
        if (paired && r_.tight_helpers > 0) {
            std::vector<Key> keys;
            auto consider = [&](uint32_t g) {
                const Key k = score(g, false, heur, c, sc, parts);
                if (k.not_candidate) keys.push_back(k);
            };
            consider(chosen);
            for (size_t i = 0; i < sc.pool.size(); ++i)
                if (!sc.from_class[i]) consider(sc.pool[i]);
            std::sort(keys.begin(), keys.end());
            keys.erase(std::unique(keys.begin(), keys.end(),
                                   [](const Key& a, const Key& b) { return a.index == b.index; }),
                       keys.end());
            if (static_cast<long long>(keys.size()) > r_.tight_helpers) keys.resize(r_.tight_helpers);
            for (const Key& k : keys) {
                score(k.index, false, heur, c, sc, parts);
                helpers.insert(helpers.end(), sc.replies.begin(), sc.replies.begin() + c);
            }
        }
        TightTest test(paired ? sc.pairs.data() : nullptr, c, slots_, win_, slots_ - 1,
                       helpers.data(), static_cast<long long>(helpers.size()) / c);
        auto rank = [&](uint32_t g, bool from_class = false) {
            Key k = score(g, from_class, heur, c, sc, parts);
            if (look) k.height = lookahead(c, sc);
            k.excess = excess(depth, c, sc, test);
            return k;
        };
        if (rank(chosen, false).excess == 0) return chosen;
        Key found;  // the best guess that leaves nothing behind
        for (size_t i = 0; i < sc.pool.size(); ++i) {
            const Key k = rank(sc.pool[i], sc.from_class[i]);
            if (k.excess == 0 && k < found) found = k;
        }
        const bool every = r_.tight_randoms >= n_;
        for (long long i = 0; found.index == UINT32_MAX && i < (every ? n_ : r_.tight_randoms); ++i) {
            const uint32_t g = every ? static_cast<uint32_t>(i)
                                     : static_cast<uint32_t>(splitmix(rng) % static_cast<uint64_t>(n_));
            if (rank(g, false).excess == 0) return g;
        }
        if (found.index == UINT32_MAX && r_.climb > 0 && listed_.empty()) {
            // The local search again, from the chosen guess, the secrets left behind first.
            const Key k = descend(rank(chosen), [&](uint32_t g, const Key&) { return rank(g); });
            if (k.excess == 0) return k.index;
        }
        // None: the heuristic's choice stands (the fewest secrets left behind is no better a rule).
        return found.index == UINT32_MAX ? chosen : found.index;
    }

    // Secrets the guess whose replies on the class are in ``sc.replies`` leaves in reply classes
    // the tight test rejects (the guess itself too, when it comes after the target).
    long long excess(int depth, long long c, Scratch& sc, TightTest& test) const {
        std::vector<std::pair<uint16_t, uint16_t>> order(static_cast<size_t>(c));
        for (long long j = 0; j < c; ++j) order[j] = {sc.replies[j], static_cast<uint16_t>(j)};
        std::sort(order.begin(), order.end());
        std::vector<uint16_t> members;
        long long out = 0;
        const int left = static_cast<int>(r_.target) - depth - 1;  // guesses after this one
        for (long long a = 0, b; a < c; a = b) {
            for (b = a + 1; b < c && order[b].first == order[a].first; ++b) {}
            if (order[a].first == win_) {
                if (left < 0) out += 1;
                continue;
            }
            if (b - a == c) return c + 1;  // a guess that splits nothing is never taken
            members.clear();
            for (long long x = a; x < b; ++x) members.push_back(order[x].second);
            if (!test.feasible(members.data(), b - a, left)) out += b - a;
        }
        return out;
    }

    int N_, D_;
    bool repeats_, bulls_only_;
    PackedCodes layout_;  // no codes: the word counts of this game's packing
    long long n_;
    int slots_, win_;
    Recipe r_;
    std::vector<uint32_t> root_pool_, depth1_pool_;
    std::vector<uint8_t> listed_;
    static constexpr int kChunk = 4;
    uint32_t chunk_size_ = 1;                // D^kChunk
    std::vector<uint32_t> chunk_digits_;     // the kChunk digits of every value below it
};

}  // namespace

PYBIND11_MODULE(streaming, m) {
    m.doc() = "Streaming strategy evaluation (see cbsolve.strategy.streaming for the Python face).";
    py::class_<Recipe>(m, "Recipe")
        .def(py::init<>())
        .def_readwrite("heuristic", &Recipe::heuristic)
        .def_readwrite("sampled_heuristic", &Recipe::sampled_heuristic)
        .def_readwrite("sample", &Recipe::sample)
        .def_readwrite("sample_top", &Recipe::sample_top)
        .def_readwrite("candidates", &Recipe::candidates)
        .def_readwrite("randoms", &Recipe::randoms)
        .def_readwrite("escalate_below", &Recipe::escalate_below)
        .def_readwrite("escalate_randoms", &Recipe::escalate_randoms)
        .def_readwrite("lookahead_below", &Recipe::lookahead_below)
        .def_readwrite("target", &Recipe::target)
        .def_readwrite("tight_randoms", &Recipe::tight_randoms)
        .def_readwrite("tight_helpers", &Recipe::tight_helpers)
        .def_readwrite("climb", &Recipe::climb)
        .def_readwrite("climb_above", &Recipe::climb_above)
        .def_readwrite("search_below", &Recipe::search_below)
        .def_readwrite("search_left", &Recipe::search_left)
        .def_readwrite("search_tries", &Recipe::search_tries)
        .def_readwrite("seed", &Recipe::seed)
        .def_readwrite("first", &Recipe::first);
    py::class_<Streaming>(m, "Streaming")
        .def(py::init<int, int, bool, bool,
                      py::array_t<uint8_t, py::array::c_style | py::array::forcecast>, long long,
                      int, int, Recipe, std::vector<uint32_t>, std::vector<uint32_t>>(),
             py::arg("length"), py::arg("n_symbols"), py::arg("repeats"), py::arg("bulls_only"),
             py::arg("listed"), py::arg("size"), py::arg("slots"), py::arg("win"),
             py::arg("recipe"), py::arg("root_pool"), py::arg("depth1_pool"))
        .def("first_guess", &Streaming::first_guess)
        .def("play", &Streaming::play, py::arg("secret"))
        .def("choose_at", &Streaming::choose_at, py::arg("depth"), py::arg("members"))
        .def("evaluate", &Streaming::evaluate)
        .def("stop", [](Streaming& s, const std::string& why) {
            s.control.request_stop(stop_reason_named(why));
        }, py::arg("why"))
        .def("progress", [](const Streaming& s) {
            const Progress p = s.control.progress();
            return py::make_tuple(p.nodes, p.top_done, p.top_total);
        });
    bind_toolkit(m);
    CBSOLVE_ISA_BIND(m);
}
