// The transposition table of the expected-case search (search_expected.cpp): values of sets
// keyed by two independent 64-bit Zobrist hashes (and the depth left when depth-capped), exact
// values with their best guess and fail-high lower bounds. The hashing and the sharded storage
// (several threads searching with one Solver share it) are the toolkit's (toolkit_table.hpp,
// which also says how this table differs from the worst-case search's).
#pragma once

#include "search_expected_bounds.hpp"
#include "toolkit_table.hpp"

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

class TranspositionTable {
   public:
    // Keys include the depth left when `capped`; about `memo_entries` entries at most.
    void init(bool capped, i64 memo_entries) {
        capped_ = capped;
        memo_cap_ = std::max<i64>(memo_entries / Shards::kShards, 1);
    }
    bool lookup(u64 h1, u64 h2, int d, Entry& out) {
        u64 k1, k2;
        key_of(h1, h2, d, k1, k2);
        return shards_.locked(k1, [&](auto& map) {
            auto it = map.find(k1);
            if (it == map.end() || it->second.k2 != k2) return false;
            out = it->second;
            return true;
        });
    }
    void store(u64 h1, u64 h2, int d, Val v, int guess, bool exact) {
        u64 k1, k2;
        key_of(h1, h2, d, k1, k2);
        shards_.locked(k1, [&](auto& map) {
            auto it = map.find(k1);
            if (it != map.end() && it->second.k2 == k2) {
                Entry& e = it->second;
                if (e.exact) return;  // an exact value is never replaced
                if (exact || lt(Val{e.t, e.w}, v)) e = Entry{k2, v.t, v.w, guess, exact};
                return;
            }
            if (i64(map.size()) >= memo_cap_) map.clear();  // crude but bounded: memory <= cap
            map[k1] = Entry{k2, v.t, v.w, guess, exact};
        });
    }
    void clear() { shards_.clear(); }
    i64 size() { return shards_.entries(); }

   private:
    using Shards = ShardedTable<std::unordered_map<u64, Entry>>;
    inline void key_of(u64 h1, u64 h2, int d, u64& k1, u64& k2) const {
        k1 = h1;
        k2 = h2;
        if (capped_) {
            k1 ^= u64(d) * 0x9E3779B97F4A7C15ULL;
            k2 ^= u64(d) * 0xC2B2AE3D27D4EB4FULL;
        }
    }
    bool capped_ = false;
    Shards shards_;
    i64 memo_cap_;
};

}  // namespace
