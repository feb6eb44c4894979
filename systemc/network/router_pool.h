// Threads that evaluate a cycle's routers together (`--threads`). Every router reads only its
// own inputs and state and writes only its own outputs and state during an edge (rtl/README.md
// §6), so which thread evaluates which router can not change a result: the network carries the
// outputs to the neighbours afterwards, in router order, on one thread.
//
// A cycle is microseconds of work, so the workers spin between cycles instead of sleeping on a
// condition variable (a wake-up costs more than a cycle), and sleep only when no cycle came for a
// while (between runs, in a firmware run's idle stretches): an idle pool costs no CPU.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace wn {

class RouterPool {
 public:
  // `threads` >= 2 (the caller is one of them).
  explicit RouterPool(int threads);
  ~RouterPool();
  RouterPool(const RouterPool&) = delete;
  RouterPool& operator=(const RouterPool&) = delete;

  int threads() const { return int(workers_.size()) + 1; }
  // fn(lo, hi) over consecutive blocks of `block` indices covering [0, n), each block once, on any
  // thread and in any order; returns when all are done. fn must not throw.
  void run(int n, int block, const std::function<void(int, int)>& fn);

 private:
  void work();
  void worker_loop();

  std::vector<std::thread> workers_;
  std::atomic<uint64_t> epoch_{0};  // one per run(): wakes the workers
  // The run's block count (high 32 bits) and its next unclaimed block (low): one fetch_add claims a
  // block and says whether it exists, so a worker that wakes late never takes a block it did not
  // claim, and the caller waits only for claimed blocks, never for a descheduled worker.
  std::atomic<uint64_t> claim_{0};
  std::atomic<int> blocks_done_{0};
  std::atomic<int> sleepers_{0};
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  int n_ = 0, block_ = 1;
  const std::function<void(int, int)>* fn_ = nullptr;
};

// The threads a run uses when the user did not say: the cores this process may run on, at most 8
// (per-cycle synchronisation grows with the threads and a cycle's work is split ever finer).
int default_threads();

}  // namespace wn
