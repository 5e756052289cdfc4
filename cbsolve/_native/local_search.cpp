// Stochastic local search for a secret consistent with a feedback log (find only, never proves
// none). Python (cbsolve/consistency/portfolio.py) owns validation, re-scores every code returned
// with the scoring core, and combines this with CP-SAT, which does the proving.
//
// State: one code c[0..N) and its symbol counts n[0..D). Clue i has guess g_i, target bulls B_i
// and target total matches T_i = bulls + cows (-1 in bulls-only mode). Cost (Minton et al. 1992,
// min-conflicts; weighted as in Morris 1993, "breakout"):
//     sum_i wb_i |b_i(c) - B_i| + wt_i |t_i(c) - T_i|,
// with b_i = #{p : c_p = g_ip} and t_i = sum_s min(k_is, n_s) (exact with repeats; k_is = how
// often g_i uses s). The true cost is the same sum with unit weights; 0 = consistent.
//
// Moves: change one position p from a to s, and swap two positions (symbol counts, hence every
// t_i, unchanged). All change deltas come from two tables per step, O(G N + G D^2):
//     bulls:  up[p][s] = sum_{i: g_ip = s} wb_i (|e_i + 1| - |e_i|), down[p] = same for g_ip = c_p
//             with -1 (at one position a clue gains a bull at s or loses one at a, never both);
//     totals: d t_i = [n_s < k_is] - [n_a <= k_ia] for a -> s (min(k, n) steps by 0 or 1).
// Swaps are ranked by the sum of their two changes' bull deltas (exact unless a clue is touched
// at both positions) and the chosen swap is re-evaluated exactly. Tabu (Glover 1989) on
// (position, symbol) pairs just left; when no move improves the weighted cost the weights of the
// violated terms grow by one (breakout); random-walk noise; restarts after a stall. Variants:
// distinct symbols (changes only to unused symbols; swaps keep distinctness), no leading zero
// (symbol 0 never placed at position 0), bulls-only (no total terms).
//
// Options measured on the hard band (docs/benchmarks.md, "Local-search portfolio"): swaps only (the caller starts from a
// code with the count vector the totals force, and every move keeps it: the totals then hold
// throughout, restarts shuffle the code), and Luby restarts (Luby, Sinclair & Zuckerman 1993:
// the stall threshold of restart r is `restart` x luby(r)).
//
// The kernel is deterministic for a given seed and flip budget; the time budget and the stop flag
// (an int32 the caller may set from another thread, watched by the toolkit's SearchControl) only
// cut it short. The GIL is released.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "toolkit_bind.hpp"
#include "toolkit_control.hpp"

namespace py = pybind11;

namespace {

struct Rng {  // xorshift64*: small, fast, seeded
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed * 2685821657736338717ULL + 0x9E3779B97F4A7C15ULL) {
        if (!s) s = 1;
    }
    uint64_t next() {
        s ^= s >> 12; s ^= s << 25; s ^= s >> 27;
        return s * 2685821657736338717ULL;
    }
    int below(int n) {  // multiply-shift (Lemire): no division in the tie-breaking loops
        return static_cast<int>(((next() >> 32) * static_cast<uint64_t>(n)) >> 32);
    }
    double unit() { return (next() >> 11) * (1.0 / 9007199254740992.0); }
};

// The kernel's options, built field by field from cbsolve.consistency.portfolio's frozen
// LocalSearchOptions (names and defaults the same on both sides).
struct Options {
    uint64_t seed = 0;
    int64_t max_flips = int64_t(1) << 62;
    double seconds = -1;         // time budget (< 0: none)
    int want = 1;                // stop after this many distinct solutions
    double noise = 0.05;         // probability of a random-walk move
    int tenure = 5;              // base tabu tenure
    int64_t restart = 8000;      // flips without a new best before a restart
    bool swaps_only = false;     // keep the start's symbol counts (swaps only)
    bool luby = false;           // restart thresholds scaled by the Luby sequence
};

struct Search {
    int G, N, D;
    bool repeats, nlz, totals;
    const uint8_t* g;            // G x N
    std::vector<int> B, T, k;    // targets; k: G x D guess symbol counts
    std::vector<uint8_t> c;
    std::vector<int> n, b, t;
    std::vector<int64_t> wb, wt;
    std::vector<int64_t> up, down, tot;   // N*D, N, D*D
    std::vector<int64_t> tabu;            // N*D: flip until which s may not return to p
    std::vector<int64_t> incu, decd;      // D: per-symbol parts of the total deltas
    std::vector<int> inc_list, dec_list;  // D: scratch
    Rng rng;

    Search(int G_, int N_, int D_, bool rep, bool nlz_, const uint8_t* g_, const int32_t* bulls,
           const int32_t* tots, uint64_t seed)
        : G(G_), N(N_), D(D_), repeats(rep), nlz(nlz_), totals(G_ > 0 && tots[0] >= 0), g(g_),
          B(bulls, bulls + G_), T(tots, tots + G_), k(static_cast<size_t>(G_) * D_, 0), c(N_),
          n(D_), b(G_), t(G_), wb(G_, 1), wt(G_, 1), up(static_cast<size_t>(N_) * D_), down(N_),
          tot(static_cast<size_t>(D_) * D_), tabu(static_cast<size_t>(N_) * D_, 0), incu(D_), decd(D_), inc_list(D_), dec_list(D_),
          rng(seed) {
        for (int i = 0; i < G; ++i)
            for (int p = 0; p < N; ++p) ++k[i * D + g[i * N + p]];
    }

    bool allowed(int p, int s) const { return !(nlz && p == 0 && s == 0); }
    bool swaps_only = false;

    // Swaps only: a random permutation of the current code (its counts kept).
    void shuffle_code() {
        for (int p = N - 1; p > 0; --p) std::swap(c[p], c[rng.below(p + 1)]);
        if (nlz && c[0] == 0)
            for (int p = 1; p < N; ++p)
                if (c[p] != 0) { std::swap(c[0], c[p]); break; }
    }

    void random_code() {
        if (repeats) {
            for (int p = 0; p < N; ++p) {
                int s;
                do s = rng.below(D); while (!allowed(p, s));
                c[p] = static_cast<uint8_t>(s);
            }
        } else {
            std::vector<uint8_t> sym(D);
            for (int s = 0; s < D; ++s) sym[s] = static_cast<uint8_t>(s);
            for (int s = D - 1; s > 0; --s) std::swap(sym[s], sym[rng.below(s + 1)]);
            for (int p = 0; p < N; ++p) c[p] = sym[p];
            if (nlz && c[0] == 0) {   // an unused symbol if any, else another position's
                if (N < D) c[0] = sym[N]; else std::swap(c[0], c[1]);
            }
        }
    }

    void recompute() {
        std::fill(n.begin(), n.end(), 0);
        for (int p = 0; p < N; ++p) ++n[c[p]];
        for (int i = 0; i < G; ++i) {
            int bb = 0;
            for (int p = 0; p < N; ++p) bb += g[i * N + p] == c[p];
            b[i] = bb;
            int tt = 0;
            for (int s = 0; s < D; ++s) tt += std::min(k[i * D + s], n[s]);
            t[i] = tt;
        }
    }

    int64_t true_cost() const {
        int64_t cost = 0;
        for (int i = 0; i < G; ++i) {
            cost += std::abs(b[i] - B[i]);
            if (totals) cost += std::abs(t[i] - T[i]);
        }
        return cost;
    }

    // Weighted cost change of moving a clue's error e by de.
    static int64_t dw(int64_t w, int e, int de) { return w * (std::abs(e + de) - std::abs(e)); }

    void tables() {
        std::fill(up.begin(), up.end(), 0);
        std::fill(down.begin(), down.end(), 0);
        for (int i = 0; i < G; ++i) {
            int e = b[i] - B[i];
            int64_t u = dw(wb[i], e, 1), d = dw(wb[i], e, -1);
            const uint8_t* gi = g + static_cast<size_t>(i) * N;
            for (int p = 0; p < N; ++p) {
                up[p * D + gi[p]] += u;
                if (gi[p] == c[p]) down[p] += d;
            }
        }
        if (!totals) return;
        // tot(a, s) = sum_i inc_i(s) u_i + dec_i(a) d_i - [f_i = 0] 2 wt_i inc_i(s) dec_i(a),
        // inc_i(s) = [n_s < k_is], dec_i(a) = [n_a <= k_ia] (u_i + d_i = 2 wt_i iff f_i = 0,
        // else 0): O(G D) plus the satisfied clues' inc x dec pairs.
        std::fill(tot.begin(), tot.end(), 0);
        std::fill(incu.begin(), incu.end(), 0);
        std::fill(decd.begin(), decd.end(), 0);
        for (int i = 0; i < G; ++i) {
            int f = t[i] - T[i];
            int64_t u = dw(wt[i], f, 1), d = dw(wt[i], f, -1);
            const int* ki = &k[i * D];
            int ninc = 0, ndec = 0;
            for (int s = 0; s < D; ++s) {
                if (n[s] < ki[s]) { incu[s] += u; inc_list[ninc++] = s; }
                if (n[s] && n[s] <= ki[s]) { decd[s] += d; dec_list[ndec++] = s; }
            }
            if (f == 0)
                for (int x = 0; x < ndec; ++x)
                    for (int y = 0; y < ninc; ++y) tot[dec_list[x] * D + inc_list[y]] -= 2 * wt[i];
        }
        for (int a = 0; a < D; ++a)
            for (int s = 0; s < D; ++s) tot[a * D + s] += incu[s] + decd[a];
    }

    int64_t change_delta(int p, int s) const {
        int a = c[p];
        return up[p * D + s] + down[p] + (totals ? tot[a * D + s] : 0);
    }

    int64_t swap_delta_exact(int p, int q) const {
        int a = c[p], s = c[q];
        int64_t d = 0;
        for (int i = 0; i < G; ++i) {
            const uint8_t* gi = g + static_cast<size_t>(i) * N;
            int db = (gi[p] == s) + (gi[q] == a) - (gi[p] == a) - (gi[q] == s);
            if (db) d += dw(wb[i], b[i] - B[i], db);
        }
        return d;
    }

    void apply_change(int p, int s) {
        int a = c[p];
        for (int i = 0; i < G; ++i) {
            uint8_t gp = g[i * N + p];
            b[i] += (gp == s) - (gp == a);
            t[i] += (n[s] < k[i * D + s]) - (n[a] <= k[i * D + a]);
        }
        --n[a];
        ++n[s];
        c[p] = static_cast<uint8_t>(s);
    }

    void apply_swap(int p, int q) {
        int a = c[p], s = c[q];
        for (int i = 0; i < G; ++i) {
            const uint8_t* gi = g + static_cast<size_t>(i) * N;
            b[i] += (gi[p] == s) + (gi[q] == a) - (gi[p] == a) - (gi[q] == s);
        }
        c[p] = static_cast<uint8_t>(s);
        c[q] = static_cast<uint8_t>(a);
    }

    bool change_ok(int p, int s) const {
        return s != c[p] && allowed(p, s) && (repeats || n[s] == 0);
    }
    bool swap_ok(int p, int q) const {
        return c[p] != c[q] && allowed(p, c[q]) && allowed(q, c[p]);
    }

    // A random move that repairs one violated term (WalkSAT-style noise); false if none.
    bool noise_move(int64_t flip) {
        std::vector<int> bad;
        for (int i = 0; i < G; ++i)
            if (b[i] != B[i] || (totals && t[i] != T[i])) bad.push_back(i);
        if (bad.empty()) return false;
        int i = bad[rng.below(static_cast<int>(bad.size()))];
        const uint8_t* gi = g + static_cast<size_t>(i) * N;
        for (int tries = 0; tries < 4 * N; ++tries) {
            int p = rng.below(N);
            if (b[i] > B[i] && gi[p] == c[p]) {          // too many bulls: break one
                if (rng.unit() < 0.5 || !totals || swaps_only) {  // by a swap (totals kept) ...
                    int q = rng.below(N);
                    if (q != p && swap_ok(p, q)) {
                        mark_swap(p, q, flip);
                        apply_swap(p, q);
                        return true;
                    }
                } else {                                 // ... or a change
                    int s = rng.below(D);
                    if (change_ok(p, s)) {
                        mark_change(p, flip);
                        apply_change(p, s);
                        return true;
                    }
                }
            } else if (b[i] < B[i] && gi[p] != c[p]) {   // too few bulls: make one
                int s = gi[p];
                int q = -1;
                for (int r = 0, o = rng.below(N); r < N; ++r) {
                    int qq = (o + r) % N;
                    if (qq != p && c[qq] == s) { q = qq; break; }
                }
                if (q >= 0 && swap_ok(p, q) && (rng.unit() < 0.5 || !repeats || swaps_only)) {
                    mark_swap(p, q, flip);
                    apply_swap(p, q);
                    return true;
                }
                if (!swaps_only && change_ok(p, s)) {
                    mark_change(p, flip);
                    apply_change(p, s);
                    return true;
                }
            } else if (totals && t[i] != T[i] && !swaps_only) {  // totals off: a change
                int s = rng.below(D);
                if (change_ok(p, s)) {
                    int df = (n[s] < k[i * D + s]) - (n[c[p]] <= k[i * D + c[p]]);
                    if ((t[i] < T[i] && df > 0) || (t[i] > T[i] && df < 0)) {
                        mark_change(p, flip);
                        apply_change(p, s);
                        return true;
                    }
                }
            }
        }
        return false;
    }

    int tenure_now(int base) { return base + rng.below(base + 1); }
    void mark_change(int p, int64_t flip) { tabu[p * D + c[p]] = flip + tenure_now(tenure_base); }
    void mark_swap(int p, int q, int64_t flip) {
        tabu[p * D + c[p]] = flip + tenure_now(tenure_base);
        tabu[q * D + c[q]] = flip + tenure_now(tenure_base);
    }
    int tenure_base = 10;

    void bump_weights() {
        for (int i = 0; i < G; ++i) {
            if (b[i] != B[i]) ++wb[i];
            if (totals && t[i] != T[i]) ++wt[i];
        }
    }
    void reset_weights() {
        std::fill(wb.begin(), wb.end(), 1);
        std::fill(wt.begin(), wt.end(), 1);
    }
};

// Luby et al. 1993: 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ... (i >= 1).
int64_t luby(int64_t i) {
    for (int64_t k = 1;; ++k) {
        int64_t full = (int64_t{1} << k) - 1;
        if (i == full) return int64_t{1} << (k - 1);
        if (i < full) return luby(i - ((int64_t{1} << (k - 1)) - 1));
    }
}

bool same(const uint8_t* a, const uint8_t* b, int n) {
    for (int i = 0; i < n; ++i)
        if (a[i] != b[i]) return false;
    return true;
}

// A forbidden pattern matches a code when every position that is not WILD agrees (a blocked
// prefix of the caller's block enumeration, or a whole code).
constexpr uint8_t WILD = 255;
bool matches(const uint8_t* pat, const uint8_t* code, int n) {
    for (int i = 0; i < n; ++i)
        if (pat[i] != WILD && pat[i] != code[i]) return false;
    return true;
}

using Codes = py::array_t<uint8_t, py::array::c_style | py::array::forcecast>;
using Ints = py::array_t<int32_t, py::array::c_style | py::array::forcecast>;

// Shapes and sizes (Python validates the log itself).
void check_inputs(const Codes& guesses, const Ints& bulls, const Ints& totals, int D, bool repeats,
                  const Codes& start, const Codes& forbidden,
                  const py::array_t<int32_t, py::array::c_style>& stop, const Options& opt) {
    if (guesses.ndim() != 2) throw std::invalid_argument("guesses must be (G, N)");
    const int G = static_cast<int>(guesses.shape(0)), N = static_cast<int>(guesses.shape(1));
    if (bulls.size() != G || totals.size() != G) throw std::invalid_argument("bulls/totals: G");
    if (start.size() != 0 && start.size() != N) throw std::invalid_argument("start: N");
    if (forbidden.size() % (N ? N : 1)) throw std::invalid_argument("forbidden: (F, N)");
    if (stop.size() < 1) throw std::invalid_argument("stop: int32[1]");
    if (D < 1 || N < 1 || (!repeats && N > D)) throw std::invalid_argument("variant");
    if (opt.swaps_only && start.size() != N) throw std::invalid_argument("swaps_only needs start");
}

// What a call found.
struct Found {
    std::vector<std::vector<uint8_t>> solutions;
    std::vector<uint8_t> best;
    int64_t best_cost = INT64_MAX, flips = 0, restarts = 0;
    StopReason why = StopReason::kComplete;   // kLimit: `want` found; kNodes: the flip budget
};

// The search loop over one Search state, as named steps: a restart after a stall, a noise
// move, or the best (change or swap) move, each followed by the bookkeeping of bests.
class Walk {
  public:
    Walk(Search&& search, const Options& opt, const std::vector<uint8_t>& forbidden, int F,
         const SearchControl& ctl)
        : S(std::move(search)), opt(opt), forb(forbidden), F(F), N(S.N), D(S.D), ctl(ctl) {}

    Found go(const std::vector<uint8_t>& start) {
        Search& S = this->S;
        if (!start.empty()) S.c = start; else S.random_code();
        S.recompute();
        int64_t cost = S.true_cost(), run_best = cost, since = 0;
        out.best = S.c;
        out.best_cost = cost;
        for (;;) {
            if (cost == 0 && is_new_solution()) {
                out.solutions.push_back(S.c);
                if (static_cast<int>(out.solutions.size()) >= opt.want) {
                    out.why = StopReason::kLimit;
                    break;
                }
            }
            if (out.flips >= opt.max_flips) {
                out.why = StopReason::kNodes;
                break;
            }
            if ((out.flips & 63) == 0 && out_of_budget()) break;
            ++out.flips;
            if (since > restart_threshold()) {
                cost = run_best = restart();
                since = 0;
                continue;
            }
            if (S.rng.unit() < opt.noise && S.noise_move(out.flips)) cost = S.true_cost();
            else cost = best_move();
            ++since;
            if (cost < run_best) { run_best = cost; since = 0; }
            if (cost < out.best_cost) { out.best_cost = cost; out.best = S.c; }
        }
        return std::move(out);
    }

  private:
    Search S;   // owned: a local of the walk's own, which the compiler keeps unaliased
    const Options& opt;
    const std::vector<uint8_t>& forb;
    const int F, N, D;
    const SearchControl& ctl;
    Found out;

    bool out_of_budget() {
        if (ctl.stopped()) out.why = StopReason::kStopped;
        else if (ctl.out_of_time()) out.why = StopReason::kTime;
        else return false;
        return true;
    }

    bool is_new_solution() const {
        for (int f = 0; f < F; ++f)
            if (matches(&forb[static_cast<size_t>(f) * N], S.c.data(), N)) return false;
        for (auto& s : out.solutions)
            if (same(s.data(), S.c.data(), N)) return false;
        return true;
    }

    int64_t restart_threshold() const {
        return opt.luby ? opt.restart * luby(out.restarts + 1) : opt.restart;
    }

    // Stall: restart from a fresh random code (the same counts when swaps only); its cost.
    int64_t restart() {
        if (opt.swaps_only) S.shuffle_code(); else S.random_code();
        S.recompute();
        S.reset_weights();
        std::fill(S.tabu.begin(), S.tabu.end(), 0);
        ++out.restarts;
        return S.true_cost();
    }

    // The best non-tabu move: changes scored exactly from the tables, swaps ranked by the
    // separable estimate and the chosen one re-evaluated exactly. In a local minimum of the
    // weighted cost the violated terms' weights grow (breakout); all tabu: a random move.
    // Returns the new cost.
    int64_t best_move() {
        // Locals, not members: the compiler keeps them in registers across the scans (as
        // members they are reloaded after every write through S, ~10% of the kernel's time).
        Search& S = this->S;
        const int N = this->N, D = this->D;
        const int64_t flips = out.flips;
        S.tables();
        int64_t bd = INT64_MAX;
        int bp = -1, bs = -1, bq = -1, ties = 0;
        for (int p = 0; p < N && !S.swaps_only; ++p)
            for (int s = 0; s < D; ++s) {
                if (!S.change_ok(p, s)) continue;
                int64_t d = S.change_delta(p, s);
                if (S.tabu[p * D + s] > flips) continue;
                if (d < bd) { bd = d; bp = p; bs = s; bq = -1; ties = 1; }
                else if (d == bd && S.rng.below(++ties) == 0) { bp = p; bs = s; bq = -1; }
            }
        int64_t sd = INT64_MAX;
        int sp = -1, sq = -1, sties = 0;
        for (int p = 0; p < N; ++p)
            for (int q = p + 1; q < N; ++q) {
                if (!S.swap_ok(p, q)) continue;
                int a = S.c[p], s = S.c[q];
                if (S.tabu[p * D + s] > flips || S.tabu[q * D + a] > flips) continue;
                int64_t d = S.up[p * D + s] + S.down[p] + S.up[q * D + a] + S.down[q];
                if (d < sd) { sd = d; sp = p; sq = q; sties = 1; }
                else if (d == sd && S.rng.below(++sties) == 0) { sp = p; sq = q; }
            }
        if (sp >= 0) {
            int64_t ex = S.swap_delta_exact(sp, sq);
            if (ex < bd || bp < 0) { bd = ex; bp = sp; bq = sq; }
        }
        if (bp < 0) {
            S.noise_move(flips);
        } else {
            if (bd >= 0) S.bump_weights();
            if (bq >= 0) { S.mark_swap(bp, bq, flips); S.apply_swap(bp, bq); }
            else { S.mark_change(bp, flips); S.apply_change(bp, bs); }
        }
        return S.true_cost();
    }
};

py::array_t<uint8_t> as_array(const std::vector<uint8_t>& code) {
    py::array_t<uint8_t> a(static_cast<py::ssize_t>(code.size()));
    std::copy(code.begin(), code.end(), a.mutable_data());
    return a;
}

py::dict solve(Codes guesses, Ints bulls, Ints totals, int n_symbols, bool repeats,
               bool no_leading_zero, Codes start, Codes forbidden,
               py::array_t<int32_t, py::array::c_style> stop, const Options& opt) {
    check_inputs(guesses, bulls, totals, n_symbols, repeats, start, forbidden, stop, opt);
    const int G = static_cast<int>(guesses.shape(0)), N = static_cast<int>(guesses.shape(1));
    const int F = static_cast<int>(forbidden.size() / N);
    std::vector<uint8_t> forb(forbidden.data(), forbidden.data() + forbidden.size());
    std::vector<uint8_t> st(start.data(), start.data() + start.size());
    std::vector<int32_t> tots(totals.data(), totals.data() + G);
    if (G == 0) tots.push_back(-1);

    Search S(G, N, n_symbols, repeats, no_leading_zero, guesses.data(), bulls.data(), tots.data(),
             opt.seed);
    S.tenure_base = opt.tenure;
    S.swaps_only = opt.swaps_only;
    Found found;
    {
        py::gil_scoped_release release;
        SearchControl ctl;
        ctl.watch(stop.data());
        ctl.set_time_limit(opt.seconds);
        Walk walk(std::move(S), opt, forb, F, ctl);
        found = walk.go(st);
    }
    py::list out;
    for (auto& s : found.solutions) out.append(as_array(s));
    py::dict r;
    r["solutions"] = out;
    r["best"] = as_array(found.best);
    r["best_cost"] = found.best_cost;
    r["flips"] = found.flips;
    r["restarts"] = found.restarts;
    r["stop"] = stop_word(found.why);
    return r;
}

}  // namespace

PYBIND11_MODULE(local_search, m) {
    m.doc() = "Stochastic local search (tabu + breakout weights) for a code consistent with a log";
    bind_toolkit(m);
    py::class_<Options>(m, "Options", "The kernel's options (cbsolve.consistency.portfolio."
                                      "LocalSearchOptions builds them)")
        .def(py::init<>())
        .def_readwrite("seed", &Options::seed)
        .def_readwrite("max_flips", &Options::max_flips)
        .def_readwrite("seconds", &Options::seconds)
        .def_readwrite("want", &Options::want)
        .def_readwrite("noise", &Options::noise)
        .def_readwrite("tenure", &Options::tenure)
        .def_readwrite("restart", &Options::restart)
        .def_readwrite("swaps_only", &Options::swaps_only)
        .def_readwrite("luby", &Options::luby);
    m.def("solve", &solve, py::arg("guesses"), py::arg("bulls"), py::arg("totals"),
          py::arg("n_symbols"), py::arg("repeats"), py::arg("no_leading_zero"), py::arg("start"),
          py::arg("forbidden"), py::arg("stop").noconvert(), py::arg("options"),
          "Search for up to `options.want` codes of cost 0 matching no row of `forbidden` (255 = "
          "any symbol); returns a dict with solutions, best, best_cost, flips, restarts and "
          "stop (why it ended: a word of stop_reasons()).");
}
