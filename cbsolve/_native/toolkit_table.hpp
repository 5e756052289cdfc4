// What the searches' transposition tables share (search_worst.cpp's Memo,
// search_expected_table.hpp's TranspositionTable): one hashing of code sets, and storage split
// into shards behind mutexes (the threads of one search share a table), bounded.
//
// The two tables keep their own entries and policies, because their semantics differ:
//   - the worst-case Memo is a proof table: an entry is the interval of depths proved feasible
//     or infeasible for one set, and a wrong hit would make a proof wrong, so it stores the set
//     and compares it on every hit; its bound is bytes, and a full table keeps what it has
//     (stores nothing more: the search stays exact, only slower);
//   - the expected-case table stores values (exact, or lower bounds) under two independent
//     64-bit keys and no set (a false hit needs a 128-bit collision); its bound is entries per
//     shard, and a full shard is cleared (recent sets are the likely ones to come back).
// Both look up before they insert, and neither exceeds its bound.
#pragma once

#include <cstdint>
#include <mutex>
#include <random>
#include <vector>

namespace {

// A set's two hashes: the XOR of its members' keys in k1 and in k2.
inline void hash_set_with(const std::vector<uint64_t>& k1, const std::vector<uint64_t>& k2,
                          const int* s, size_t n, uint64_t& h1, uint64_t& h2) {
    h1 = h2 = 0;
    for (size_t i = 0; i < n; ++i) {
        h1 ^= k1[s[i]];
        h2 ^= k2[s[i]];
    }
}

// Two independent 64-bit Zobrist keys per code (Zobrist 1970): a set's hashes are the XOR of
// its members' keys, whatever their order, and a partition's classes hash as they are filled.
struct SetKeys {
    std::vector<uint64_t> k1, k2;

    void init(int n_codes, uint64_t seed) {
        std::mt19937_64 rng(seed);
        k1.resize(n_codes);
        k2.resize(n_codes);
        for (int i = 0; i < n_codes; ++i) {
            k1[i] = rng();
            k2[i] = rng();
        }
    }
    // The first of a set's two hashes (enough where the set itself is compared).
    uint64_t hash(const std::vector<int>& s) const {
        uint64_t h1, h2;
        hash_set_with(k1, k2, s.data(), s.size(), h1, h2);
        return h1;
    }
};

// The seed both searches draw their keys from (any fixed value: runs are reproducible).
constexpr uint64_t kSetKeySeed = 0x5eed1234abcdULL;

// A map split into kShards shards, each behind its own mutex; a set's hash picks its shard.
template <class Map>
class ShardedTable {
   public:
    static constexpr int kShards = 64;

    // f(map) with the shard of hash h locked; returns what f returns.
    template <class F>
    auto locked(uint64_t h, F&& f) {
        Shard& s = shards_[h % kShards];
        std::lock_guard<std::mutex> lock(s.mu);
        return f(s.map);
    }
    void clear() {
        for (auto& s : shards_) {
            std::lock_guard<std::mutex> lock(s.mu);
            s.map.clear();
        }
    }
    int64_t entries() {
        int64_t total = 0;
        for (auto& s : shards_) {
            std::lock_guard<std::mutex> lock(s.mu);
            total += int64_t(s.map.size());
        }
        return total;
    }

   private:
    struct Shard {
        std::mutex mu;
        Map map;
    };
    Shard shards_[kShards];
};

}  // namespace
