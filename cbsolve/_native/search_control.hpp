// The control block shared by the exact searches (search_worst.cpp, search_expected.cpp): one
// stop flag that the Python driver sets (Ctrl-C or the time limit, through
// cbsolve.deadline.run_interruptible), an optional deadline of its own, and a node counter.
//
// Polling contract: a search calls poll() at every node and inside any loop whose one pass can
// take long (the scan of a large set). The stop flag is read at every call (a relaxed atomic
// load: cheaper than anything a node does), the clock every kClockEvery calls, so a stop request
// is seen within one node's work, which keeps Ctrl-C answered within ~0.1 s on the largest
// games measured (a node of Logik 5x8 scans 32,768 guesses in a few ms).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace {

class SearchControl {
   public:
    static constexpr int64_t kClockEvery = 64;

    // Seconds from now (<= 0: none); also clears an earlier stop.
    void set_deadline(double seconds) {
        stop_.store(false);
        deadline_ns_.store(seconds > 0 ? now_ns() + int64_t(seconds * 1e9) : 0);
    }
    void request_stop() { stop_.store(true); }
    void clear_stop() { stop_.store(false); }
    bool stopped() const { return stop_.load(std::memory_order_relaxed); }

    // True once the search must stop (flag set, or the deadline passed: then the flag is set).
    // `calls` is the caller's running count of polls (per thread or shared).
    bool poll(int64_t calls) {
        if (stop_.load(std::memory_order_relaxed)) return true;
        if (calls % kClockEvery == 0) {
            int64_t dl = deadline_ns_.load(std::memory_order_relaxed);
            if (dl && now_ns() > dl) {
                stop_.store(true);
                return true;
            }
        }
        return false;
    }

   private:
    static int64_t now_ns() {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(
                   std::chrono::steady_clock::now().time_since_epoch()).count();
    }
    std::atomic<bool> stop_{false};
    std::atomic<int64_t> deadline_ns_{0};
};

}  // namespace
