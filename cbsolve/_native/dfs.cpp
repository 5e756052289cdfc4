// Propagating depth-first search over positions: the codes consistent with a feedback log,
// listed, counted or picked by rank, without enumerating the code space.
//
// Place in the data flow: cbsolve/consistency/dfs.py (validation, I/O, re-checking) -> this
// kernel. Positions are assigned in order 0..N-1 and symbols in ascending order, so codes come
// out in lexicographic order (the order of CodeSpace.codes). Per clue g the search keeps the
// bulls so far B_g and the total matches so far T_g = sum_s min(k_gs, n_s) (k_gs: the guess's
// count of symbol s, n_s: the partial secret's); T_g is monotone in the counts and grows by at
// most one per position. With L positions left it prunes when
//   B_g > b_g  or  B_g + L < b_g,
//   T_g > m_g  or  T_g + min(L, K_g - T_g) < m_g   (K_g = sum_s min(k_gs, cap), cap = N or 1),
//   distinct codes only: T_g + max(0, L - F_g) > m_g (F_g = unused symbols outside the guess:
//   the rest of a distinct code must gain one match per position beyond them),
// and it filters the next position's domain: B_g = b_g excludes the guess's symbol there,
// B_g + L = b_g forces it; T_g = m_g allows only symbols that gain nothing (n_s >= k_gs),
// T_g + L = m_g only symbols that gain. At the last position every symbol that survives the
// filter is a consistent code, so counting there is one popcount.
// When at most a few hundred count vectors n (symbol multiplicities) meet every clue's total,
// the search keeps those still >= the prefix's counts (the domain: symbols some vector needs)
// and bounds bulls per clue by a transportation argument. Counting and rank selection memoise
// subtree sizes by state (depth, bulls per clue, symbol counts): equal states count once.
// Listing with count vectors completes the last m positions by meet in the middle: a table of
// every suffix, found by a linear hash of its (symbol counts, bulls per clue) key.
// With `lies` = L > 0 a code may contradict up to L clues: a clue whose bounds fail is
// "broken" and the search prunes beyond L broken clues; domains are filtered once L are.
//
// Guided listing (``order``, find one): position p tries its symbols in a given order instead
// of ascending, from a fresh start, without the suffix table; same bounds, same exhaustiveness.
// A ``stop`` flag set by another thread (a race of searches) stops a call, its count vectors and
// its table build at their next check.
//
// Resumable: a call starts at the lexicographically smallest code >= ``start`` and, when it
// stops (limit, node budget, time), returns the ``start`` of the next call (None: finished).
// A Searcher object holds one log and keeps what is costly to recompute across its calls:
// the count vectors and the meet-in-the-middle table of the last positions (listing), which is
// built only once the search below that depth has done a fair share of the table's work.
// Python owns validation; kernels assume valid inputs. Cross-checked against the native filter.
//
// Parts: dfs_problem.hpp (bit masks, the problem's arrays, count vectors), dfs_search.hpp (the
// search state, bounds and domains), dfs_suffix_table.hpp (meet in the middle), the toolkit's
// toolkit_control.hpp (stop flags, deadline, stop reasons); this file holds the search loop over
// positions (Run: its named steps), the Searcher and the Python module.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "dfs_problem.hpp"
#include "dfs_search.hpp"
#include "dfs_suffix_table.hpp"
#include "toolkit_bind.hpp"
#include "toolkit_control.hpp"

namespace py = pybind11;

namespace {

enum Mode { LIST = 0, COUNT = 1, SELECT = 2 };

// What a Searcher keeps across calls on one log: the count vectors (once settled) and the
// meet-in-the-middle table with the work that decides when to build it.
struct Persistent {
    Problem P;
    int vec_cap = 0;
    long long vec_budget = 0;
    bool vec_settled = false;   // count vectors found, or given up for good (not by time)
    SuffixTable table;
    double deep_nodes = 0;      // search nodes below depth N - m, over every call
    int mitm_max_m = 1 << 20;   // automatic tables: at most this many positions (too big above)
};

// Finds the count vectors once per log (a time-out or a stop leaves them for a later call).
void settle_vectors(Persistent& K, double seconds, const volatile int32_t* stop) {
    if (K.vec_settled) return;
    VecOutcome r = VEC_GAVE_UP;
    if (K.P.totals && K.vec_cap > 0) r = count_vectors(K.P, K.vec_cap, K.vec_budget, seconds, stop);
    K.vec_settled = r != VEC_TIME;
}

// One call's answer to Python: `out` holds the codes listed, N symbols each.
py::dict reply(const std::vector<uint8_t>& out, int n, u64 count, StopReason why,
               u64 nodes, int vectors, const std::optional<std::vector<int>>& cursor) {
    size_t rows = out.size() / n;
    py::array_t<uint8_t> codes({static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(n)});
    std::copy(out.begin(), out.end(), codes.mutable_data());
    py::dict r;
    r["codes"] = codes;
    r["count"] = py::int_(count);
    r["status"] = stop_word(why);
    r["nodes"] = py::int_(nodes);
    r["vectors"] = vectors;
    if (cursor) r["cursor"] = *cursor;
    else r["cursor"] = py::none();
    return r;
}

// The arguments of one call (see the module's `run` for their meaning).
struct Call {
    int mode = LIST;
    long long limit = -1;
    std::vector<int> start;
    std::vector<u64> ranks;
    long long max_nodes = -1;
    double seconds = -1;
    long long memo_cap = 0;
    int suffix = -1;
    size_t table_cap = MITM_ROWS;
    std::vector<int> order;
    const volatile int32_t* stop = nullptr;   // set by another thread
};

// What one call found, and why it ended.
struct Answer {
    std::vector<uint8_t> out;   // the codes listed, N symbols each
    u64 count = 0, nodes = 0;
    StopReason why = StopReason::kComplete;
    std::optional<std::vector<int>> cursor;
};

// One call's search over positions, as named steps: size the suffix table, descend along
// `start`, then step (backtrack, finish the last position, or branch) until the search is
// exhausted or a limit stops it, and say where the next call starts.
template <int W>
class Run {
  public:
    Run(Persistent& K, const Call& call, const SearchControl& ctl, Clock::time_point t0)
        : K(K), P(K.P), call(call), ctl(ctl), t0(t0), S(K.P), n(K.P.n), table(K.table),
          guided(!call.order.empty()), want_key(K.P.d + K.P.g), key(K.P.n), entry(K.P.n, 0),
          storable(K.P.n, 0) {}

    Answer go() {
        size_table();
        if (call.suffix > 0) want_table();
        hash_vectors();
        descend_to_start();
        if (call.mode == SELECT && call.ranks.empty()) finish(StopReason::kLimit);
        // Counting and rank selection memoise subtree sizes: the completions of a prefix depend
        // only on (depth, bulls so far per clue, symbol counts), so equal states count once.
        memo_on = call.mode != LIST && call.memo_cap > 0 && n >= 3;
        while (!done && step()) {}
        where_next();
        return std::move(ans);
    }

  private:
    Persistent& K;
    const Problem& P;
    const Call& call;
    const SearchControl& ctl;
    Clock::time_point t0;
    Search<W> S;
    const int n;
    SuffixTable& table;
    const bool guided;   // position p tries its symbols in order[p*d ..], most likely first
    Answer ans;
    bool done = false;   // stopped early (limit/budget); else search exhausted
    int p = 0;           // the position being assigned
    size_t next_rank = 0;
    u64 iter = 0;
    // Meet in the middle: the last m positions come from the table, prefixes have h = N - m.
    int m = 0, h = 0;
    double table_rows = 1;
    bool build_failed = false;
    std::vector<u64> vec_hash;   // per count vector: hash(vector) + hash(bulls)
    std::optional<std::vector<int>> mid_cursor;   // stopped inside a suffix list
    std::vector<int> ids;
    std::vector<uint8_t> want_key;
    // The memo of subtree sizes, and per depth the entry it would store on the way back.
    bool memo_on = false;
    std::unordered_map<std::string, u64> memo;
    std::vector<std::string> key;
    std::vector<u64> entry;
    std::vector<char> storable;
    std::string k;

    bool finish(StopReason why) {
        ans.why = why;
        done = true;
        return true;
    }
    bool limit_reached() const {
        return call.limit >= 0 && ans.count >= static_cast<u64>(call.limit);
    }
    void emit(int last) {
        for (int q = 0; q < n - 1; ++q) ans.out.push_back(static_cast<uint8_t>(S.sym[q]));
        ans.out.push_back(static_cast<uint8_t>(last));
    }
    int pick(const Mask<W>& dm) const {
        if (!guided) return dm.low();
        const int* o = &call.order[static_cast<size_t>(p) * P.d];
        for (int i = 0; i < P.d; ++i)
            if (dm.test(o[i])) return o[i];
        return dm.low();
    }

    // Meet in the middle (listing with count vectors): the last m positions come from a
    // table of every suffix, keyed by (its symbol counts, its bulls per clue). A prefix of
    // h = N - m positions is completed exactly by the suffixes whose counts make a count
    // vector (every clue's total then holds) and whose bulls make up each clue's bulls:
    // one lookup per vector still compatible, instead of the deepest levels of the search.
    void size_table() {
        if (call.mode == LIST && P.vec_on && P.lies == 0 && n >= 2) {   // exact clues only
            if (call.suffix > 0) m = std::min(call.suffix, n - 1);
            else if (call.suffix < 0 && n >= MITM_MIN_N) {
                while (m + 1 <= std::min(n / 2, K.mitm_max_m) && table_rows * P.d <= MITM_SPACE) {
                    table_rows *= P.d;
                    ++m;
                }
            }
        }
        h = n - m;
        if (m > 0 && table.m != m) table.reset(m);
    }

    // Can the table complete prefixes of depth h? An explicit suffix builds at once; the
    // automatic one once the deep search has cost about as much as the table would (see
    // MITM_BUILD_AFTER), and a table over MITM_ROWS rows gives way to one position fewer
    // (h grows: the search goes one level deeper before completing).
    bool want_table() {
        if (m == 0 || table.ready || build_failed) return table.ready;
        if (call.suffix < 0 &&
            K.deep_nodes < MITM_BUILD_AFTER * std::min<double>(table_rows, call.table_cap))
            return false;
        auto got = table.build(P, t0, call.seconds, call.suffix > 0 ? SIZE_MAX : call.table_cap,
                               call.stop);
        if (got == SuffixTable::LATE) build_failed = true;
        if (got != SuffixTable::TOO_BIG) return table.ready;
        K.mitm_max_m = m - 1;   // for later calls too
        table_rows /= P.d;
        table.reset(--m);
        ++h;
        return false;
    }

    void hash_vectors() {
        vec_hash.assign(P.vec_on ? P.nvec : 0, 0);
        if (m == 0) return;
        table.weigh(P);
        u64 hb = 0;
        for (int g = 0; g < P.g; ++g) hb += static_cast<u64>(P.bulls[g]) * table.clue_weight[g];
        for (int i = 0; i < P.nvec; ++i) {
            u64 hv = hb;
            for (int s = 0; s < P.d; ++s) hv += P.vecs[static_cast<size_t>(i) * P.d + s] * table.sym_weight[s];
            vec_hash[i] = hv;
        }
    }

    // Lists the suffixes completing the prefix S.sym[0..h) (those >= `low` when given);
    // true when the limit is reached (mid_cursor then says where to resume).
    bool complete_prefix(const int* low) {
        ids.clear();
        u64 hp = 0;   // the prefix's hash
        for (int q = 0; q < h; ++q) hp += table.weight[q * P.d + S.sym[q]];
        const size_t width = P.d + P.g;
        for (int i : S.compat[h]) {
            int r = table.find(vec_hash[i] - hp);
            if (r < 0) continue;
            const uint8_t* v = &P.vecs[static_cast<size_t>(i) * P.d];
            for (int s2 = 0; s2 < P.d; ++s2) want_key[s2] = static_cast<uint8_t>(v[s2] - S.cnt[s2]);
            for (int g = 0; g < P.g; ++g) want_key[P.d + g] = static_cast<uint8_t>(P.bulls[g] - S.B[g]);
            for (; r >= 0; r = table.next[r])   // same hash: confirm on the key itself
                if (std::equal(want_key.begin(), want_key.end(), &table.keys[r * width])) ids.push_back(r);
        }
        std::sort(ids.begin(), ids.end());
        for (size_t t = 0; t < ids.size(); ++t) {
            const uint8_t* x = &table.codes[static_cast<size_t>(ids[t]) * m];
            if (low && std::lexicographical_compare(x, x + m, low, low + m)) continue;
            if (limit_reached()) {
                std::vector<int> c(n);
                for (int q = 0; q < h; ++q) c[q] = S.sym[q];
                for (int q = 0; q < m; ++q) c[h + q] = x[q];
                mid_cursor = c;
                return true;
            }
            for (int q = 0; q < h; ++q) ans.out.push_back(static_cast<uint8_t>(S.sym[q]));
            ans.out.insert(ans.out.end(), x, x + m);
            ++ans.count;
        }
        return limit_reached();
    }

    // Descend along `start`: level q keeps symbols >= start[q] while on its path. Guided
    // listing starts fresh instead (no descent, no suffix table).
    void descend_to_start() {
        const std::vector<int>& start = call.start;
        if (!S.feasible(0)) {
            S.dom[0].clear();
            return;
        }
        if (guided) {
            S.dom[0] = S.domain(0);
            return;
        }
        for (p = 0;; ++p) {
            if (m > 0 && p == h && table.ready) {
                S.dom[p].clear();
                if (complete_prefix(&start[h])) finish(StopReason::kLimit);
                break;
            }
            S.dom[p] = S.domain(p);
            S.dom[p].keep_from(start[p]);
            if (p == n - 1 || !S.dom[p].test(start[p])) break;
            S.dom[p].reset(start[p]);
            S.assign(p, start[p]);
            ++ans.nodes;
            if (!S.feasible(p + 1)) {
                S.undo(p);
                break;
            }
        }
    }

    // The node budget, another thread's stop (a race, Ctrl-C) and the deadline, checked every
    // 256 steps. Freeing a full memo takes time too (up to ~0.5 us an entry under load): it is
    // kept in the time budget.
    bool out_of_budget() {
        if (call.max_nodes >= 0 && ans.nodes >= static_cast<u64>(call.max_nodes))
            return finish(StopReason::kNodes);
        if (ctl.stopped()) return finish(StopReason::kStopped);
        if (ctl.out_of_time(6e-7 * static_cast<double>(memo.size())))
            return finish(StopReason::kTime);
        return false;
    }

    // One move of the search; false when it ends (exhausted, or stopped: then `done`).
    bool step() {
        if ((++iter & 255) == 0 && out_of_budget()) return false;
        Mask<W>& dm = S.dom[p];
        if (dm.empty()) return backtrack();
        if (p == n - 1) last_position(dm);
        else branch(dm);
        return !done;
    }

    // Position p is exhausted: store its subtree's size, go back one position.
    bool backtrack() {
        if (storable[p]) {
            storable[p] = 0;
            if (memo.size() < static_cast<size_t>(call.memo_cap)) memo.emplace(key[p], ans.count - entry[p]);
        }
        if (p == 0) return false;
        --p;
        S.undo(p);
        return true;
    }

    // Every symbol surviving at the last position completes a consistent code.
    void last_position(Mask<W>& dm) {
        int c = dm.count();
        if (m > 0) K.deep_nodes += c;
        if (call.mode == COUNT) {
            ans.count += c;
            dm.clear();
            if (limit_reached()) finish(StopReason::kLimit);   // a cap: "at least"
        } else if (call.mode == SELECT) {
            const std::vector<u64>& ranks = call.ranks;
            if (ans.count + c <= ranks[next_rank]) {
                ans.count += c;
                dm.clear();
                return;
            }
            while (!dm.empty()) {
                int s = dm.low();
                dm.reset(s);
                if (ans.count == ranks[next_rank]) {
                    emit(s);
                    if (++next_rank == ranks.size()) {
                        ++ans.count;
                        finish(StopReason::kLimit);
                        break;
                    }
                }
                ++ans.count;
            }
        } else {
            while (!dm.empty()) {
                int s = pick(dm);
                dm.reset(s);
                emit(s);
                ++ans.count;
                if (limit_reached()) {
                    finish(StopReason::kLimit);
                    break;
                }
            }
        }
    }

    // Assign position p its next symbol and go one deeper (unless that prunes): the suffix
    // table completes depth h, the memo answers a state counted before.
    void branch(Mask<W>& dm) {
        int s = pick(dm);
        dm.reset(s);
        S.assign(p, s);
        ++ans.nodes;
        if (m > 0 && p >= h) K.deep_nodes += 1;
        if (!S.feasible(p + 1)) {
            S.undo(p);
            return;
        }
        ++p;
        if (m > 0 && p == h && want_table()) {
            S.dom[p].clear();
            if (complete_prefix(nullptr)) finish(StopReason::kLimit);
            return;
        }
        S.dom[p] = S.domain(p);
        if (memo_on && p < n - 1) recall_or_mark();
    }

    // The memo's key of the state at `depth`: (depth, bulls per clue, symbol counts or, for
    // distinct codes, the used symbols as mask bytes: short keys).
    void state_key(int depth) {
        k.assign(1, static_cast<char>(depth));
        for (int g = 0; g < P.g; ++g) k.push_back(static_cast<char>(S.B[g]));
        if (P.repeats) {
            for (int s2 = 0; s2 < P.d; ++s2) k.push_back(static_cast<char>(S.cnt[s2]));
        } else {
            for (int w = 0; w < W; ++w)
                for (int byte = 0; byte < 8; ++byte)
                    if (64 * w + 8 * byte < P.d) k.push_back(static_cast<char>((S.used.w[w] >> (8 * byte)) & 0xFF));
        }
    }

    // A state counted before adds its whole subtree at once (when the ranks wanted lie beyond
    // it); a new one is marked for storing when position p is exhausted.
    void recall_or_mark() {
        state_key(p);
        auto it = memo.find(k);
        if (it == memo.end()) {
            storable[p] = 1;
            entry[p] = ans.count;
            key[p] = k;
            return;
        }
        u64 v = it->second;
        if (call.mode == COUNT || ans.count + v <= call.ranks[next_rank]) {
            ans.count += v;
            S.dom[p].clear();
            if (call.mode == COUNT && limit_reached()) finish(StopReason::kLimit);
        }
    }

    // Where the next call starts: the first untried branch, or nothing left at all.
    void where_next() {
        if (mid_cursor) {
            ans.cursor = mid_cursor;
            return;
        }
        if (!done) return;
        while (S.dom[p].empty() && p > 0) {
            --p;
            S.undo(p);
        }
        if (S.dom[p].empty()) {
            ans.why = StopReason::kComplete;   // nothing left: the search is exhausted after all
            return;
        }
        std::vector<int> c(n, 0);
        for (int q = 0; q < p; ++q) c[q] = S.sym[q];
        c[p] = pick(S.dom[p]);
        ans.cursor = c;
    }
};

template <int W>
py::dict run_search(Persistent& K, const Call& call) {
    Answer ans;
    {
        py::gil_scoped_release release;
        auto t0 = Clock::now();
        SearchControl ctl;
        ctl.watch(call.stop);
        ctl.set_time_limit(call.seconds);
        settle_vectors(K, call.seconds < 0 ? -1.0 : 0.25 * call.seconds, call.stop);
        ans = Run<W>(K, call, ctl, t0).go();
    }
    return reply(ans.out, K.P.n, ans.count, ans.why, ans.nodes, K.P.vec_on ? K.P.nvec : -1, ans.cursor);
}

// One log's search, kept across calls: the count vectors and the meet-in-the-middle table
// are computed once (a listing in chunks, a probe and then the answer share them). Calls on
// one Searcher are serialised by its mutex, taken with the GIL released.
class Searcher {
  public:
    Searcher(int n, int d, bool repeats, bool nlz, bool totals,
             py::array_t<uint8_t, py::array::c_style | py::array::forcecast> guesses,
             std::vector<int> bulls, std::vector<int> total, int vec_cap, long long vec_budget,
             int lies) {
        if (guesses.ndim() != 2 || guesses.shape(1) != n) throw std::invalid_argument("guesses must be (G, N)");
        if (d < 1 || d > 256 || n < 1) throw std::invalid_argument("bad N or D");
        Problem& P = K.P;
        P.n = n; P.d = d; P.g = static_cast<int>(guesses.shape(0));
        P.repeats = repeats; P.nlz = nlz; P.totals = totals;
        if (static_cast<int>(bulls.size()) != P.g || (totals && static_cast<int>(total.size()) != P.g))
            throw std::invalid_argument("one bulls (and total) value per guess");
        P.guess.assign(guesses.data(), guesses.data() + static_cast<size_t>(P.g) * n);
        P.bulls = bulls;
        P.total = totals ? total : std::vector<int>(P.g, 0);
        P.k.assign(static_cast<size_t>(P.g) * d, 0);
        P.kcap.assign(P.g, 0);
        for (int g = 0; g < P.g; ++g) {
            for (int p = 0; p < n; ++p) {
                int s = P.guess[g * n + p];
                if (s >= d) throw std::invalid_argument("guess symbol out of range");
                ++P.k[g * d + s];
            }
            for (int s = 0; s < d; ++s) P.kcap[g] += repeats ? P.k[g * d + s] : std::min<int>(P.k[g * d + s], 1);
        }
        if (lies < 0) throw std::invalid_argument("lies must be >= 0");
        P.lies = lies;
        K.vec_cap = vec_cap;
        K.vec_budget = vec_budget;
    }

    py::dict run(int mode, long long limit, std::vector<int> start, std::vector<u64> ranks,
                 long long max_nodes, double seconds, long long memo_cap, int suffix,
                 size_t table_cap, std::vector<int> order,
                 std::optional<py::array_t<int32_t, py::array::c_style>> stop) {
        const volatile int32_t* stop_flag = nullptr;   // set by another thread
        if (stop) {
            if (stop->size() < 1) throw std::invalid_argument("stop: int32[1]");
            stop_flag = stop->data();
        }
        const int n = K.P.n;
        if (start.empty()) start.assign(n, 0);
        if (static_cast<int>(start.size()) != n) throw std::invalid_argument("start must have N symbols");
        for (int q = 0; q < n; ++q)
            if (start[q] < 0 || start[q] >= K.P.d) throw std::invalid_argument("start symbol out of range");
        if (!order.empty()) {
            if (order.size() != static_cast<size_t>(n) * K.P.d) throw std::invalid_argument("order must have N*D symbols");
            for (int v : order)
                if (v < 0 || v >= K.P.d) throw std::invalid_argument("order symbol out of range");
            if (mode != LIST) throw std::invalid_argument("order is for listing only");
            suffix = 0;
        }
        if (mode < LIST || mode > SELECT) throw std::invalid_argument("mode must be 0, 1 or 2");
        // Wait for another thread's call on this log without the GIL, and no longer than this
        // call's own time limit or stop flag allow: the wait counts against `seconds`.
        std::unique_lock<std::mutex> lock(mu_, std::defer_lock);
        const auto entered = Clock::now();
        auto waited = [&] { return std::chrono::duration<double>(Clock::now() - entered).count(); };
        std::optional<StopReason> gave_up;
        {
            py::gil_scoped_release release;
            while (!lock.try_lock()) {
                if (stop_flag && *stop_flag) gave_up = StopReason::kStopped;
                else if (seconds >= 0 && waited() >= seconds) gave_up = StopReason::kTime;
                if (gave_up) break;
                std::this_thread::sleep_for(std::chrono::microseconds(100));
            }
        }
        if (gave_up)   // nothing done (K is another call's meanwhile): the next call starts here
            return reply({}, n, 0, *gave_up, 0, -1, start);
        if (seconds >= 0) seconds = std::max(0.0, seconds - waited());
        Call call{mode, limit, std::move(start), std::move(ranks), max_nodes, seconds, memo_cap,
                  suffix, table_cap, std::move(order), stop_flag};
        if (K.P.d <= 64) return run_search<1>(K, call);
        return run_search<4>(K, call);
    }

    // Count vectors in use (-1: none, or not settled yet); meet-in-the-middle table rows (0: none).
    int vectors() const { return K.P.vec_on ? K.P.nvec : -1; }
    size_t table_rows() const { return K.table.ready ? K.table.codes.size() / std::max(1, K.table.m) : 0; }
    int table_builds() const { return K.table.builds; }

  private:
    Persistent K;
    std::mutex mu_;
};

}  // namespace

PYBIND11_MODULE(dfs, m) {
    m.doc() = "Propagating depth-first search of the codes consistent with a feedback log.";
    bind_toolkit(m);
    py::class_<Searcher>(m, "Searcher")
        .def(py::init<int, int, bool, bool, bool,
                      py::array_t<uint8_t, py::array::c_style | py::array::forcecast>,
                      std::vector<int>, std::vector<int>, int, long long, int>(),
             py::arg("n"), py::arg("d"), py::arg("repeats"), py::arg("no_leading_zero"),
             py::arg("totals"), py::arg("guesses"), py::arg("bulls"), py::arg("total"),
             py::arg("vec_cap") = 256, py::arg("vec_budget") = 2000000, py::arg("lies") = 0)
        .def("run", &Searcher::run, py::arg("mode"), py::arg("limit"), py::arg("start"),
             py::arg("ranks"), py::arg("max_nodes"), py::arg("seconds"),
             py::arg("memo_cap") = 1000000, py::arg("suffix") = -1,
             py::arg("table_cap") = MITM_ROWS, py::arg("order") = std::vector<int>(),
             py::arg("stop").noconvert() = py::none(),   // a converted copy would miss the flag
             "mode 0 list (up to limit codes), 1 count, 2 the codes at sorted ranks; order: N*D "
             "symbols, each position's try order (listing only); stop: int32[1] flag; returns "
             "{codes, count, status: complete|limit|nodes|time|stopped, nodes, cursor (next "
             "start or None)}")
        .def_property_readonly("vectors", &Searcher::vectors)
        .def_property_readonly("table_rows", &Searcher::table_rows)
        .def_property_readonly("table_builds", &Searcher::table_builds);
}
