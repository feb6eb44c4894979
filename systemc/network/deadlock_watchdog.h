// The deadlock watchdog: two counters, cheap enough for every run.
#pragma once
#include <cstdint>

namespace wn {

// Raises the alarm when no flit moves for `window` cycles while flits are in the network.
class DeadlockWatchdog {
 public:
  explicit DeadlockWatchdog(uint64_t window) : window_(window) {}
  // Returns true when the network is declared deadlocked at cycle `now`.
  bool check(uint64_t now, int moves, uint64_t flits_in_network) {
    if (moves > 0 || flits_in_network == 0) last_move_ = now;
    return window_ > 0 && now - last_move_ >= window_;
  }
  uint64_t last_move() const { return last_move_; }
  uint64_t window() const { return window_; }

 private:
  uint64_t window_;
  uint64_t last_move_ = 0;
};

}  // namespace wn
