// The meet-in-the-middle table of the depth-first search (dfs.cpp): every suffix of the last m
// positions, found by a linear hash of its (symbol counts, bulls per clue) key.
#pragma once

#include "dfs_problem.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

namespace {

// Meet in the middle (listing): automatic from this code length, for the largest m <= N/2
// with D^m <= MITM_SPACE, shrunk while the pruned table would exceed MITM_ROWS rows (~40 bytes
// each; a Searcher keeps its table).
constexpr int MITM_MIN_N = 8;
constexpr double MITM_SPACE = 2e6;
constexpr size_t MITM_ROWS = 600000;
// Automatic tables are built only once the search below depth N - m has visited this fraction
// of the table's rows (at most MITM_ROWS; a search node costs several table rows): a first
// secret found in a few hundred nodes never pays for a table (ski rental: within a constant
// factor of either choice). Mastermind 16x6: 0.01-0.03 alike, 0.1 slower (docs/benchmarks.md, "Native depth-first search").
constexpr double MITM_BUILD_AFTER = 0.02;

u64 splitmix(u64& state) {
    u64 z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// Every suffix of the last m positions that keeps each clue's bulls <= b_g and each symbol's
// count <= its largest count in a count vector, found by its key (symbol counts, bulls per
// clue). The key's hash is linear, sum_s c_s R_s + sum_g b_g Q_g with random R, Q, so a symbol
// at a position adds a fixed weight (`weight`), prefixes and suffixes hash in O(1) a position,
// and the suffix a prefix needs hashes as hash(vector) + hash(bulls) - hash(prefix). Hash
// matches are confirmed on the key bytes, so a collision can never list a wrong code. Built
// once per log and kept across calls (a Searcher owns it).
struct SuffixTable {
    int m = 0;
    bool ready = false;
    int builds = 0;               // completed builds (a log's table is built once)
    std::vector<u64> weight;      // n x d: R_s + sum of Q_g over clues with symbol s there
    std::vector<u64> sym_weight, clue_weight;   // R_s, Q_g
    std::vector<uint8_t> codes;   // m symbols per row, rows in lexicographic order
    std::vector<uint8_t> keys;    // (d + g) bytes per row: its symbol counts, bulls per clue
    std::vector<int> next;        // per row: the next row with the same hash, or -1
    std::vector<u64> slot_hash;   // open addressing (a power of two slots): hash, first row
    std::vector<int> slot_row;

    void reset(int new_m) {
        m = new_m;
        ready = false;
        for (auto* v : {&codes, &keys}) std::vector<uint8_t>().swap(*v);
        std::vector<int>().swap(next);
        std::vector<int>().swap(slot_row);
        std::vector<u64>().swap(slot_hash);
    }

    static u64 mix(u64 x) { return splitmix(x); }

    void weigh(const Problem& P) {
        if (!weight.empty()) return;
        u64 state = 0x5EEDC0DEULL;
        sym_weight.resize(P.d);
        clue_weight.resize(P.g);
        for (auto& r : sym_weight) r = splitmix(state);
        for (auto& q : clue_weight) q = splitmix(state);
        weight.assign(static_cast<size_t>(P.n) * P.d, 0);
        for (int p = 0; p < P.n; ++p)
            for (int s = 0; s < P.d; ++s) weight[p * P.d + s] = sym_weight[s];
        for (int g = 0; g < P.g; ++g)
            for (int p = 0; p < P.n; ++p) weight[p * P.d + P.guess[g * P.n + p]] += clue_weight[g];
    }

    // First row whose key hashes to hv, or -1.
    int find(u64 hv) const {
        const size_t mask = slot_row.size() - 1;
        for (size_t i = mix(hv) & mask; slot_row[i] >= 0; i = (i + 1) & mask)
            if (slot_hash[i] == hv) return slot_row[i];
        return -1;
    }

    enum Outcome { BUILT, LATE, TOO_BIG };
    // LATE (left empty) when `seconds` from t0 ran out first (seconds < 0: no limit) or `stop`
    // was set; TOO_BIG (left empty) beyond `max_rows` rows.
    Outcome build(const Problem& P, Clock::time_point t0, double seconds, size_t max_rows,
                  const volatile int32_t* stop = nullptr) {
        weigh(P);
        const int n = P.n, h = n - m, d = P.d;
        std::vector<int> hi_s(d, 0), c(d, 0), b(P.g, 0), x(m, 0);
        for (int i = 0; i < P.nvec; ++i)
            for (int s = 0; s < d; ++s) hi_s[s] = std::max<int>(hi_s[s], P.vecs[static_cast<size_t>(i) * d + s]);
        std::vector<std::vector<int>> hits(static_cast<size_t>(m) * d);   // clues showing s there
        for (int g = 0; g < P.g; ++g)
            for (int q = 0; q < m; ++q) hits[q * d + P.guess[g * n + h + q]].push_back(g);
        std::vector<u64> hashes;
        long long visits = 0;
        Outcome out = BUILT;
        std::function<void(int, u64)> rec = [&](int q, u64 hv) {   // position h + q
            if (out != BUILT) return;
            if ((++visits & 4095) == 0 && over_budget(t0, seconds, stop)) {
                out = LATE;
                return;
            }
            if (q == m) {
                if (hashes.size() >= max_rows) { out = TOO_BIG; return; }
                hashes.push_back(hv);
                for (int s = 0; s < d; ++s) keys.push_back(static_cast<uint8_t>(c[s]));
                for (int g = 0; g < P.g; ++g) keys.push_back(static_cast<uint8_t>(b[g]));
                for (int t = 0; t < m; ++t) codes.push_back(static_cast<uint8_t>(x[t]));
                return;
            }
            for (int s = 0; s < d; ++s) {
                if (c[s] >= hi_s[s]) continue;
                const auto& hit = hits[q * d + s];
                bool ok = true;
                for (int g : hit)
                    if (b[g] >= P.bulls[g]) { ok = false; break; }
                if (!ok) continue;
                ++c[s];
                for (int g : hit) ++b[g];
                x[q] = s;
                rec(q + 1, hv + weight[(h + q) * d + s]);
                for (int g : hit) --b[g];
                --c[s];
            }
        };
        rec(0, 0);
        if (out != BUILT) {
            reset(m);
            return out;
        }
        const int rows = static_cast<int>(hashes.size());
        size_t cap = 1;
        while (cap < 2 * static_cast<size_t>(rows) + 1) cap <<= 1;
        slot_hash.assign(cap, 0);
        slot_row.assign(cap, -1);
        next.assign(rows, -1);
        for (int r = rows - 1; r >= 0; --r) {   // chains in increasing (lexicographic) order
            size_t i = mix(hashes[r]) & (cap - 1);
            while (slot_row[i] >= 0 && slot_hash[i] != hashes[r]) i = (i + 1) & (cap - 1);
            next[r] = slot_row[i];
            slot_row[i] = r;
            slot_hash[i] = hashes[r];
        }
        ready = true;
        ++builds;
        return BUILT;
    }
};

}  // namespace
