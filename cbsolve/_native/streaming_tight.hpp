// The "tight tail" test of the streaming strategy (streaming.cpp): can a reply class still be
// finished within the recipe's target? Cheap and one-sided enough to steer the choice:
//   * counting: m more guesses tell apart at most F(m) = 1 + b F(m-1) secrets (F(1) = 1), b the
//     replies other than the win -- a class above it cannot be finished (sound);
//   * two guesses left: some guess must split the class into singletons; only the class's own
//     secrets are tried, and the node's helpers when it has any (the recipe's ``tight_helpers``
//     best guesses of its pool from outside the class); a guess from elsewhere might still do
//     it: then the test says no wrongly, which only costs the rule a search;
//   * three or four guesses left, a small class (160, 40 secrets): one of its secrets (or a
//     helper) must leave reply classes that pass the test with a guess less.
// A false "no" never makes the strategy wrong: every choice is evaluated exactly afterwards; the
// test only decides where the strategy searches harder (see Streaming::tight in streaming.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

class TightTest {
   public:
    // ``pairs``: c x c replies among the class's secrets (row x: secret x played as a guess), or
    // null (then only the count is tested); ``branches``: replies other than the win;
    // ``helpers``: h rows of c replies, guesses from outside the class the test may also play
    // (a "yes" is still a guess that does it; fewer false "no"s where members split badly).
    TightTest(const uint16_t* pairs, long long c, int slots, int win, long long branches,
              const uint16_t* helpers = nullptr, long long h = 0)
        : pairs_(pairs), helpers_(helpers), c_(c), h_(h), win_(win), branches_(branches),
          stamp_(slots, 0) {}

    // The largest class m guesses can finish, saturated far above any class.
    long long capacity(int m) const {
        long long f = 0;
        for (int i = 0; i < m && f < (1LL << 40); ++i) f = 1 + branches_ * f;
        return f;
    }

    // Can the class ``members`` (indices into the pairs table, k of them) be finished with m
    // more guesses, as far as the test sees?
    bool feasible(const uint16_t* members, long long k, int m) {
        if (k <= 0) return true;
        if (m <= 0) return false;
        if (k == 1) return true;
        if (m == 1) return false;
        if (k == 2) return true;
        if (k > capacity(m)) return false;
        if (pairs_ == nullptr) return true;
        if (m == 2) return splitter(members, k);
        if ((m == 3 && k <= kLargest3) || (m == 4 && k <= kLargest4)) return leads(members, k, m);
        return true;
    }

    // The largest classes the test looks into with three and four guesses left (the cost grows
    // as k^3 and k^4 where no secret of the class leads).
    static constexpr long long kLargest3 = 160, kLargest4 = 40;

   private:
    // The guesses the test may play on a class: its members' rows, then the helpers'.
    long long rows(long long k) const { return k + h_; }
    const uint16_t* guess_row(const uint16_t* members, long long k, long long a) const {
        return a < k ? pairs_ + static_cast<long long>(members[a]) * c_ : helpers_ + (a - k) * c_;
    }

    // Some guess gives every secret of the class its own reply.
    bool splitter(const uint16_t* members, long long k) {
        for (long long a = 0; a < rows(k); ++a) {
            const uint16_t* row = guess_row(members, k, a);
            ++now_;
            bool apart = true;
            for (long long b = 0; b < k && apart; ++b) {
                uint32_t& st = stamp_[row[members[b]]];
                apart = st != now_;
                st = now_;
            }
            if (apart) return true;
        }
        return false;
    }

    // Some guess leaves reply classes that pass the test with m - 1 guesses.
    bool leads(const uint16_t* members, long long k, int m) {
        std::vector<std::pair<uint16_t, uint16_t>> order(static_cast<size_t>(k));
        std::vector<uint16_t> group;
        for (long long a = 0; a < rows(k); ++a) {
            const uint16_t* row = guess_row(members, k, a);
            for (long long b = 0; b < k; ++b) order[b] = {row[members[b]], members[b]};
            std::sort(order.begin(), order.end());
            bool ok = true;
            for (long long x = 0, y; x < k && ok; x = y) {
                for (y = x + 1; y < k && order[y].first == order[x].first; ++y) {}
                if (order[x].first == win_ || y - x <= 2) continue;
                if (y - x == k) { ok = false; break; }  // a guess that splits nothing
                group.clear();
                for (long long z = x; z < y; ++z) group.push_back(order[z].second);
                ok = feasible(group.data(), y - x, m - 1);
            }
            if (ok) return true;
        }
        return false;
    }

    const uint16_t* pairs_;
    const uint16_t* helpers_;
    long long c_, h_;
    int win_;
    long long branches_;
    std::vector<uint32_t> stamp_;
    uint32_t now_ = 0;
};
