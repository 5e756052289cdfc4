// Runs the scoring and consistency kernels (cbsolve/_native/scoring_kernels.hpp, the loops the
// scoring module's Python face calls) without Python and prints one checksum line a game, so
// that a build for another processor can be run and compared: scripts/build/check_arm.sh builds
// this file for x86-64 and, statically, for aarch64, runs the second under qemu-aarch64 and
// requires the same lines. On x86-64 CBSOLVE_ISA=scalar|avx2|avx512 picks the path, as in the
// module; on ARM the baseline path is the only one.
//
// A line: the game, FNV-1a hashes of the full reply matrix, of every guess's partition of the
// code space, of the counting verdicts (threshold 10) and of the codes consistent with a
// two-clue log, that log's count, then the minimax strategy played against every secret (the
// guess leaving the largest reply class smallest, a candidate on ties, then the lowest index:
// Knuth's rule), its total guesses and its worst case. Knuth (1976) reports 4.476 guesses on
// average, 5 at worst, for Mastermind 4x6 under that rule: 5801 / 1296.
//
//   g++ -std=c++17 -O3 -fopenmp -ffunction-sections -Wl,--gc-sections -I cbsolve/_native
//       -I PYBIND11 -I PYTHON_INCLUDE scripts/build/kernel_checksum.cpp -o kernel_checksum
// (the pybind11 and Python headers only because scoring_pack.hpp declares its NumPy
// constructor; nothing of Python is called or linked.)
#include "scoring_pack.hpp"
#include "toolkit_isa.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <vector>

using namespace cbsolve_scoring;

namespace {

#define CBSOLVE_ISA_SOURCE "scoring_kernels.hpp"
#include "toolkit_isa_each.hpp"

struct Game {
    const char* name;
    int length, symbols;
    bool repeats, bulls_only;
};

// Every code of the game, in the package's order (lexicographic, as cbsolve/game/codes.py lists them).
std::vector<uint8_t> all_codes(const Game& g, int& n) {
    std::vector<uint8_t> out, code(g.length, 0);
    n = 0;
    for (;;) {
        bool ok = true;
        if (!g.repeats)
            for (int i = 0; i < g.length && ok; ++i)
                for (int j = i + 1; j < g.length && ok; ++j) ok = code[i] != code[j];
        if (ok) {
            out.insert(out.end(), code.begin(), code.end());
            ++n;
        }
        int p = g.length - 1;
        while (p >= 0 && ++code[p] == g.symbols) code[p--] = 0;
        if (p < 0) return out;
    }
}

struct Hash {
    uint64_t h = 1469598103934665603ULL;
    template <class T>
    void add(const T* p, size_t n) {
        const auto* b = reinterpret_cast<const unsigned char*>(p);
        for (size_t i = 0; i < n * sizeof(T); ++i) h = (h ^ b[i]) * 1099511628211ULL;
    }
};

int reply_slots(const Game& g) { return g.bulls_only ? g.length + 1 : (g.length + 1) * (g.length + 1); }

// The minimax strategy against every secret of `cands` (indices into `codes`): adds each
// secret's number of guesses to `total`, returns the deepest.
int play_minimax(const Game& g, const std::vector<uint8_t>& rows, const PackedCodes& all,
                 const std::vector<int>& cands, int depth, long long& total) {
    const int slots = reply_slots(g), win = g.bulls_only ? g.length : g.length * (g.length + 1);
    if (cands.size() == 1) {
        total += depth + 1;
        return depth + 1;
    }
    std::vector<uint8_t> crow;
    for (int c : cands) crow.insert(crow.end(), rows.begin() + c * g.length, rows.begin() + (c + 1) * g.length);
    const PackedCodes cp(crow.data(), static_cast<int>(cands.size()), g.length, g.symbols, g.repeats);
    std::vector<uint32_t> parts(static_cast<size_t>(all.n) * slots);
    CBSOLVE_ISA_CALL(partition_rows, all, cp, g.bulls_only, slots, parts.data());
    std::vector<char> is_cand(all.n, 0);
    for (int c : cands) is_cand[c] = 1;
    int best = -1;
    uint32_t best_worst = UINT32_MAX;
    for (int i = 0; i < all.n; ++i) {
        const uint32_t worst = *std::max_element(&parts[size_t(i) * slots], &parts[size_t(i + 1) * slots]);
        if (worst < best_worst || (worst == best_worst && is_cand[i] && !is_cand[best])) {
            best = i;
            best_worst = worst;
        }
    }
    const PackedCodes guess(&rows[size_t(best) * g.length], 1, g.length, g.symbols, g.repeats);
    std::vector<uint16_t> reply(cands.size());
    CBSOLVE_ISA_CALL(matrix_rows<uint16_t>, guess, cp, g.bulls_only, reply.data());
    int deepest = 0;
    for (int r = 0; r < slots; ++r) {
        std::vector<int> cls;
        for (size_t j = 0; j < cands.size(); ++j)
            if (reply[j] == r) cls.push_back(cands[j]);
        if (cls.empty()) continue;
        if (r == win) {
            total += depth + 1;
            deepest = std::max(deepest, depth + 1);
        } else {
            deepest = std::max(deepest, play_minimax(g, rows, all, cls, depth + 1, total));
        }
    }
    return deepest;
}

void check(const Game& g) {
    int n = 0;
    const std::vector<uint8_t> rows = all_codes(g, n);
    const PackedCodes all(rows.data(), n, g.length, g.symbols, g.repeats);
    const int slots = reply_slots(g), win = g.bulls_only ? g.length : g.length * (g.length + 1);

    std::vector<uint16_t> matrix(static_cast<size_t>(n) * n);
    CBSOLVE_ISA_CALL(matrix_rows<uint16_t>, all, all, g.bulls_only, matrix.data());
    Hash hm;
    hm.add(matrix.data(), matrix.size());

    std::vector<uint32_t> parts(static_cast<size_t>(n) * slots);
    CBSOLVE_ISA_CALL(partition_rows, all, all, g.bulls_only, slots, parts.data());
    Hash hp;
    hp.add(parts.data(), parts.size());

    std::vector<uint8_t> verdicts(n);
    CBSOLVE_ISA_CALL(verdict_rows, all, all, g.bulls_only, slots, win, 10LL, verdicts.data());
    Hash hv;
    hv.add(verdicts.data(), verdicts.size());

    // A log of two clues: the first and the middle code guessed against the last code.
    const int clue[2] = {0, n / 2};
    std::vector<uint8_t> log_rows;
    for (int c : clue) log_rows.insert(log_rows.end(), rows.begin() + c * g.length, rows.begin() + (c + 1) * g.length);
    const PackedCodes log(log_rows.data(), 2, g.length, g.symbols, g.repeats);
    const int32_t replies[2] = {matrix[size_t(clue[0]) * n + (n - 1)], matrix[size_t(clue[1]) * n + (n - 1)]};
    std::unique_ptr<bool[]> ok(new bool[n]);
    CBSOLVE_ISA_CALL(filter_rows, all, log, replies, g.bulls_only, ok.get());
    Hash hc;
    hc.add(ok.get(), n);
    const long long consistent = std::count(ok.get(), ok.get() + n, true);

    std::vector<int> cands(n);
    for (int i = 0; i < n; ++i) cands[i] = i;
    long long total = 0;
    const int worst = play_minimax(g, rows, all, cands, 0, total);

    std::printf("%s codes %d matrix %016llx partitions %016llx verdicts %016llx consistent %lld %016llx "
                "minimax total %lld worst %d\n", g.name, n, (unsigned long long)hm.h,
                (unsigned long long)hp.h, (unsigned long long)hv.h, consistent, (unsigned long long)hc.h,
                total, worst);
}

}  // namespace

int main() {
    std::printf("path %s\n", cbsolve_isa::name(cbsolve_isa::current()));
    const Game games[] = {
        {"mastermind-4x6", 4, 6, true, false},
        {"bulls-and-cows-3x6", 3, 6, false, false},
        {"bulls-and-cows-4x8", 4, 8, false, false},
        {"black-peg-4x4", 4, 4, true, true},
        {"logik-5x4", 5, 4, true, false},
        {"nine-positions-9x2", 9, 2, true, false},  // two position words: another kernel shape
    };
    for (const Game& g : games) check(g);
    return 0;
}
