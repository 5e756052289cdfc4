// The most secrets a subset of a set S can have and still be settled within j guesses, read
// off the reply classes of every guess on S (a lower-bound table finer than counting's cap).
//
// b[0] = 0, b[1] = 1, and for j >= 2
//     b[j] = min(cap[j], max(b[j-1], max over guesses x of [x in S] + sum over x's
//                                     non-winning classes C on S of min(b[j-1], |C|))).
// Why it holds (induction on j): a subset U of S that j guesses settle has a first guess x;
// U's secrets other than x lie in x's non-winning classes on U, each inside x's class C on
// S and each settled by j-1 more guesses, so each has at most min(b[j-1], |C|) secrets;
// x itself counts only when it is in U (so in S). The b[j-1] floor stands for the guesses
// left out of the max (a useless guess gives min(b[j-1], |S|), never more).
// Consequence used by the search and checked by cbsolve/certificates/certify.py (a node's "limit"): with
// d guesses left, a guess that has a class on S larger than b[d-1] starts no strategy.
// A guess's orbit under the stabiliser of the history has its classes' sizes, so the max
// may run over one guess an orbit.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

// counts: `slots` counters per guess (guess k's class sizes at [k * slots, (k+1) * slots)),
// P guesses; member[k]: guess k is in S. Returns b[0..d].
template <class T>
std::vector<int64_t> settle_table(const std::vector<T>& counts, size_t P, int slots, int win,
                                  const std::vector<char>& member, const std::vector<int64_t>& cap,
                                  int d) {
    std::vector<int64_t> b(static_cast<size_t>(d) + 1, 0);
    if (d >= 1) b[1] = 1;
    for (int j = 2; j <= d; ++j) {
        int64_t best = b[j - 1];
        for (size_t k = 0; k < P; ++k) {
            const T* c = &counts[k * slots];
            int64_t v = member[k] ? 1 : 0;
            for (int r = 0; r < slots; ++r)
                if (r != win) v += std::min<int64_t>(b[j - 1], c[r]);
            best = std::max(best, v);
        }
        b[j] = std::min(best, cap[j]);
    }
    return b;
}
