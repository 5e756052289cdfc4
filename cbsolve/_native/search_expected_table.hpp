// The transposition table of the expected-case search (search_expected.cpp): values of sets
// keyed by two independent 64-bit Zobrist hashes (and the depth left when depth-capped), exact
// values with their best guess and fail-high lower bounds. Sharded with mutexes: several
// threads searching with one Solver share it.
#pragma once

#include "search_expected_bounds.hpp"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <unordered_map>

using u64 = uint64_t;

namespace {

struct Entry {
    u64 k2;
    i64 t;
    int w;
    int guess;  // best guess when exact
    bool exact;
};

struct Shard {
    std::mutex mu;
    std::unordered_map<u64, Entry> map;
};

class TranspositionTable {
   public:
    // Keys include the depth left when `capped`; about `memo_entries` entries at most.
    void init(bool capped, i64 memo_entries) {
        capped_ = capped;
        memo_cap_ = std::max<i64>(memo_entries / kShards, 1);
    }
    bool lookup(u64 h1, u64 h2, int d, Entry& out) {
        u64 k1, k2;
        key_of(h1, h2, d, k1, k2);
        Shard& s = shards_[k1 % kShards];
        std::lock_guard<std::mutex> lock(s.mu);
        auto it = s.map.find(k1);
        if (it == s.map.end() || it->second.k2 != k2) return false;
        out = it->second;
        return true;
    }
    void store(u64 h1, u64 h2, int d, Val v, int guess, bool exact) {
        u64 k1, k2;
        key_of(h1, h2, d, k1, k2);
        Shard& s = shards_[k1 % kShards];
        std::lock_guard<std::mutex> lock(s.mu);
        auto it = s.map.find(k1);
        if (it != s.map.end() && it->second.k2 == k2) {
            Entry& e = it->second;
            if (e.exact) return;  // an exact value is never replaced
            if (exact || lt(Val{e.t, e.w}, v)) e = Entry{k2, v.t, v.w, guess, exact};
            return;
        }
        if (i64(s.map.size()) >= memo_cap_) s.map.clear();  // crude but bounded: memory <= cap
        s.map[k1] = Entry{k2, v.t, v.w, guess, exact};
    }
    void clear() {
        for (auto& sh : shards_) {
            std::lock_guard<std::mutex> lock(sh.mu);
            sh.map.clear();
        }
    }
    i64 size() {
        i64 total = 0;
        for (auto& s : shards_) {
            std::lock_guard<std::mutex> lock(s.mu);
            total += i64(s.map.size());
        }
        return total;
    }

   private:
    static constexpr int kShards = 64;
    inline void key_of(u64 h1, u64 h2, int d, u64& k1, u64& k2) const {
        k1 = h1;
        k2 = h2;
        if (capped_) {
            k1 ^= u64(d) * 0x9E3779B97F4A7C15ULL;
            k2 ^= u64(d) * 0xC2B2AE3D27D4EB4FULL;
        }
    }
    bool capped_ = false;
    Shard shards_[kShards];
    i64 memo_cap_;
};

}  // namespace
