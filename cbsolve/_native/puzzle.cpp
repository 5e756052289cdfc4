// Drawing one unique-secret puzzle over a whole reply matrix: the native twin of the reference
// in cbsolve/puzzles/draw.py (the same SplitMix64 words consumed in the same order, so the two give
// the same puzzle; the tests compare them). Python owns seeding, validation and formatting.
//
// A code's fail set is the bit set of the clues it contradicts (bit j: clue j); the secret's is
// empty. Dropping clues D keeps the secret alone iff no other fail set lies inside D, and the
// candidates left by clues P are the codes whose fail set misses P: minimising and ordering the
// clues work on the few distinct fail sets, not on the codes.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <vector>

namespace py = pybind11;

namespace {

constexpr int MAX_CLUES = 60;   // fail sets are 64-bit words; past it each clue is the strongest

// The random words: SplitMix64 (Steele, Lea and Flood 2014), one 64-bit state per stream.
uint64_t splitmix(uint64_t& state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// (the secret then the kept clues in the reference solver's order, candidates after each
// clue, the stream's state after the draw).
py::tuple draw(py::array_t<uint8_t, py::array::c_style> matrix_in, uint64_t state, int choices,
               bool weakest) {
    if (matrix_in.ndim() != 2 || matrix_in.shape(0) != matrix_in.shape(1))
        throw std::invalid_argument("the reply matrix must be square");
    const int64_t n = matrix_in.shape(0);
    const uint8_t* m = matrix_in.data();
    std::vector<int64_t> clues, order, after;
    {
        py::gil_scoped_release release;
        uint64_t w = splitmix(state);
        {
            const int64_t secret = static_cast<int64_t>(w % static_cast<uint64_t>(n));
            std::vector<int32_t> left(n), kept_left;
            for (int64_t i = 0; i < n; ++i) left[i] = static_cast<int32_t>(i);
            while (left.size() > 1) {
                const bool capped = clues.size() >= static_cast<size_t>(MAX_CLUES);
                const int tries = capped ? std::max(choices, 4) : choices;
                const bool pick_weakest = weakest && !capped;
                int64_t best_g = -1, best_after = 0;
                for (int t = 0; t < tries; ++t) {
                    w = splitmix(state);
                    const int64_t g = static_cast<int64_t>(w % static_cast<uint64_t>(n));
                    if (g == secret) continue;
                    const uint8_t* row = m + g * n;
                    const uint8_t r = row[secret];
                    int64_t cnt = 0;
                    for (int32_t x : left) cnt += row[x] == r;
                    if (cnt < static_cast<int64_t>(left.size()) &&
                        (best_g < 0 || (pick_weakest ? cnt > best_after : cnt < best_after))) {
                        best_g = g;
                        best_after = cnt;
                    }
                }
                if (best_g < 0) continue;
                const uint8_t* row = m + best_g * n;
                const uint8_t r = row[secret];
                kept_left.clear();
                for (int32_t x : left) if (row[x] == r) kept_left.push_back(x);
                left.swap(kept_left);
                clues.push_back(best_g);
            }
            const int k = static_cast<int>(clues.size());
            std::vector<uint64_t> fails(n, 0);
            for (int j = 0; j < k; ++j) {
                const uint8_t* row = m + clues[j] * n;
                const uint8_t r = row[secret];
                const uint64_t bit = uint64_t{1} << j;
                for (int64_t x = 0; x < n; ++x) if (row[x] != r) fails[x] |= bit;
            }
            // distinct fail sets, ascending, with their codes: counted densely for few clues
            std::vector<std::pair<uint64_t, int64_t>> tally;
            if (k <= 16) {
                std::vector<int32_t> dense(size_t{1} << k, 0);
                for (uint64_t f : fails) ++dense[f];
                for (size_t f = 0; f < dense.size(); ++f)
                    if (dense[f]) tally.emplace_back(f, dense[f]);
            } else {
                std::sort(fails.begin(), fails.end());
                for (uint64_t f : fails) {
                    if (tally.empty() || tally.back().first != f) tally.emplace_back(f, 0);
                    ++tally.back().second;
                }
            }
            std::vector<uint64_t> others;
            for (auto& kv : tally) if (kv.first) others.push_back(kv.first);
            // minimal: drop each clue, in a random order (Fisher-Yates from the top)
            std::vector<int> perm(k);
            for (int i = 0; i < k; ++i) perm[i] = i;
            for (int i = k - 1; i > 0; --i) {
                w = splitmix(state);
                std::swap(perm[i], perm[static_cast<int>(w % static_cast<uint64_t>(i + 1))]);
            }
            uint64_t kept = k == 64 ? ~uint64_t{0} : (uint64_t{1} << k) - 1;
            for (int i : perm) {
                const uint64_t trial = kept & ~(uint64_t{1} << i);
                bool alone = true;
                for (uint64_t o : others) if (!(o & trial)) { alone = false; break; }
                if (alone) kept = trial;
            }
            // strongest first: the clue leaving the fewest candidates with those before it
            std::map<uint64_t, int64_t> merged;
            for (auto& kv : tally) merged[kv.first & kept] += kv.second;
            std::vector<std::pair<uint64_t, int64_t>> pairs(merged.begin(), merged.end());
            std::vector<int> rest;
            for (int j = 0; j < k; ++j) if (kept >> j & 1) rest.push_back(j);
            uint64_t prefix = 0;
            while (!rest.empty()) {
                size_t best_i = 0;
                int64_t best_left = -1;
                for (size_t i = 0; i < rest.size(); ++i) {
                    const uint64_t mask = prefix | (uint64_t{1} << rest[i]);
                    int64_t cnt = 0;
                    for (auto& p : pairs) if (!(p.first & mask)) cnt += p.second;
                    if (best_left < 0 || cnt < best_left) { best_left = cnt; best_i = i; }
                }
                const int j = rest[best_i];
                rest.erase(rest.begin() + static_cast<int64_t>(best_i));
                order.push_back(clues[j]);
                after.push_back(best_left);
                prefix |= uint64_t{1} << j;
                std::vector<std::pair<uint64_t, int64_t>> still;
                for (auto& p : pairs) if (!(p.first & prefix)) still.push_back(p);
                pairs.swap(still);
            }
            order.insert(order.begin(), secret);     // the secret first, then the clues
        }
    }
    return py::make_tuple(order, after, state);
}

}  // namespace

PYBIND11_MODULE(puzzle, mod) {
    mod.doc() = "Unique-secret puzzles drawn over a whole reply matrix (cbsolve/puzzles/draw.py)";
    mod.def("draw", &draw, py::arg("matrix"), py::arg("state"), py::arg("choices"),
            py::arg("weakest"),
            "(secret then the kept clues in the reference solver's order, candidates after "
            "each clue, the random stream's state after the draw)");
}
