// The native search toolkit's control block, shared by every kernel that can run long
// (dfs.cpp, local_search.cpp, search_worst.cpp, search_expected.cpp): a stop flag, a deadline,
// named progress counters and the one list of stop reasons.
//
// Stop flags. The block owns a flag (request_stop(why): Python's stop hook, through
// cbsolve.runtime.deadline.run_interruptible) and may also watch a flag the caller owns (watch(): an
// int32 array another thread sets, as the consistency race and stop_hook do).
//
// Stop reason. The first stop is remembered with its reason (reason()): the deadline passing
// in poll() is kTime, a request names its own (Python's time limit kTime, Ctrl-C
// kInterrupted, anything else kStopped), a watched flag is kStopped. So a caller reads why
// the search ended from the block, not from its own guesses about who set the flag.
//
// Time. set_deadline(s) (the exact searches: s <= 0 means none) and set_time_limit(s) (the
// consistency kernels: s < 0 means none, 0 is a budget already spent, as a probe with nothing
// left may pass) both arm one deadline on the steady clock.
//
// Polling contract: a search calls poll() at every node and inside any loop whose one pass can
// take long (the scan of a large set). The stop flags are read at every call (a relaxed atomic
// load: cheaper than anything a node does), the clock every kClockEvery calls, so a stop request
// is seen within one node's work, which keeps Ctrl-C answered within ~0.1 s on the largest
// games measured (a node of Logik 5x8 scans 32,768 guesses in a few ms).
//
// A loop inside one node (a scan, a hash of every guess's replies) polls with poll_work(): its
// passes differ in size by orders of magnitude, so it counts work, not calls, and reads the
// clock once per kClockWork steps. A loop that read only the flags ignored set_deadline until
// the next node's poll (minutes, when the caller runs many scans and no nodes).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace {

// Why a kernel call ended. The words are cbsolve.runtime.status.StopReason's values, the one place
// Python maps them to a Status (tests/test_toolkit.py checks both lists agree).
enum class StopReason { kComplete, kLimit, kNodes, kTime, kStopped, kInterrupted };

constexpr StopReason kStopReasons[] = {StopReason::kComplete, StopReason::kLimit,
                                       StopReason::kNodes, StopReason::kTime,
                                       StopReason::kStopped, StopReason::kInterrupted};

inline const char* stop_word(StopReason r) {
    switch (r) {
        case StopReason::kComplete: return "complete";  // the search is exhausted
        case StopReason::kLimit: return "limit";        // the caller's count or list limit
        case StopReason::kNodes: return "nodes";        // the node budget
        case StopReason::kTime: return "time";          // the deadline passed
        case StopReason::kStopped: return "stopped";    // a stop flag was set
        case StopReason::kInterrupted: return "interrupted";  // the command's stop (Ctrl-C)
    }
    return "stopped";
}

// The reason a word names (a stop request from Python); an unknown word is an error.
inline StopReason stop_reason_named(const std::string& word) {
    for (StopReason r : kStopReasons)
        if (word == stop_word(r)) return r;
    throw std::invalid_argument("unknown stop reason: " + word);
}

// What a search reports while it runs, read by the Python driver's progress line.
struct Progress {
    int64_t nodes = 0;         // nodes searched
    int64_t top_done = 0;      // guesses of the top node settled ...
    int64_t top_total = 0;     // ... of this many (0: not in a top node)
    int64_t memo_entries = 0;  // entries in the transposition table
};

class SearchControl {
   public:
    static constexpr int64_t kClockEvery = 64;

    // Seconds from now (<= 0: none); also clears an earlier stop.
    void set_deadline(double seconds) {
        clear_stop();
        deadline_ns_.store(seconds > 0 ? now_ns() + int64_t(seconds * 1e9) : 0);
    }
    // Seconds from now (< 0: none; 0: already due); also clears an earlier stop.
    void set_time_limit(double seconds) {
        clear_stop();
        deadline_ns_.store(seconds >= 0 ? std::max<int64_t>(1, now_ns() + int64_t(seconds * 1e9)) : 0);
    }
    // Also stop when *flag becomes non-zero (a flag the caller owns; nullptr: none).
    void watch(const volatile int32_t* flag) { outside_ = flag; }

    // Stop; the first stop's reason is kept (recorded before the flag, so whoever sees the
    // flag sees the reason).
    void request_stop(StopReason why = StopReason::kStopped) { note_stop(why); }
    void clear_stop() {
        why_.store(kNoReason);
        stop_.store(false);
    }
    // Why the search was stopped: the first reason given; kStopped for a watched flag;
    // kComplete when nothing stopped it.
    StopReason reason() const {
        int why = why_.load();
        if (why != kNoReason) return static_cast<StopReason>(why);
        return stopped() ? StopReason::kStopped : StopReason::kComplete;
    }
    bool stopped() const {
        return stop_.load(std::memory_order_relaxed) ||
               (outside_ && __atomic_load_n(outside_, __ATOMIC_RELAXED));
    }
    // The deadline is less than `reserve` seconds away, or passed (false when there is none).
    bool out_of_time(double reserve = 0) const {
        int64_t dl = deadline_ns_.load(std::memory_order_relaxed);
        return dl && now_ns() + int64_t(reserve * 1e9) >= dl;
    }

    // True once the search must stop (flag set, or the deadline passed: then the flag is set).
    // `calls` is the caller's running count of polls (per thread or shared).
    bool poll(int64_t calls) {
        if (stopped()) return true;
        if (calls % kClockEvery == 0 && out_of_time()) {
            request_stop(StopReason::kTime);
            return true;
        }
        return false;
    }

    // poll() for a loop inside a node: `work` is this pass's elementary steps (pairs scored or
    // counted), `since` the caller's running sum (per thread). The flags are read every pass,
    // the clock once kClockWork steps have accumulated (~1 ms of counting). Const, so the
    // const scans can use it: the stop state is signalling, not the searcher's value.
    static constexpr int64_t kClockWork = int64_t(1) << 20;
    bool poll_work(int64_t& since, int64_t work) const {
        if (stopped()) return true;
        since += work;
        if (since < kClockWork) return false;
        since = 0;
        if (!out_of_time()) return false;
        note_stop(StopReason::kTime);
        return true;
    }

    // Progress counters: written by the search (relaxed stores), read by progress().
    void count_nodes(int64_t nodes, int64_t memo_entries) {
        nodes_.store(nodes, std::memory_order_relaxed);
        memo_.store(memo_entries, std::memory_order_relaxed);
    }
    void top_node(int64_t done, int64_t total) {
        top_done_.store(done, std::memory_order_relaxed);
        if (total >= 0) top_total_.store(total, std::memory_order_relaxed);
    }
    Progress progress() const {
        Progress p;
        p.nodes = nodes_.load(std::memory_order_relaxed);
        p.top_done = top_done_.load(std::memory_order_relaxed);
        p.top_total = top_total_.load(std::memory_order_relaxed);
        p.memo_entries = memo_.load(std::memory_order_relaxed);
        return p;
    }

   private:
    static int64_t now_ns() {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(
                   std::chrono::steady_clock::now().time_since_epoch()).count();
    }
    void note_stop(StopReason why) const {
        int none = kNoReason;
        why_.compare_exchange_strong(none, static_cast<int>(why));
        stop_.store(true);
    }
    static constexpr int kNoReason = -1;
    mutable std::atomic<bool> stop_{false};
    mutable std::atomic<int> why_{kNoReason};
    std::atomic<int64_t> deadline_ns_{0};
    const volatile int32_t* outside_ = nullptr;
    std::atomic<int64_t> nodes_{0}, top_done_{0}, top_total_{0}, memo_{0};
};

}  // namespace
