#include "systemc/network/router_pool.h"

#include <sched.h>

#include <algorithm>

namespace wn {

namespace {
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}
// A waiting thread spins a few microseconds (a cycle's single-threaded part: the NIs, the traffic
// generator, the monitor), then yields its core (the thread it waits for may need it: more
// threads than free cores), and sleeps when no cycle came for about a millisecond.
constexpr int kSpins = 2000;
constexpr int kYieldsBeforeSleep = 2000;
}  // namespace

int default_threads() {
  cpu_set_t set;
  int cores = 0;
  if (sched_getaffinity(0, sizeof set, &set) == 0) cores = CPU_COUNT(&set);
  if (cores <= 0) cores = int(std::thread::hardware_concurrency());
  return std::clamp(cores, 1, 8);
}

RouterPool::RouterPool(int threads) {
  for (int t = 1; t < threads; ++t) workers_.emplace_back([this] { worker_loop(); });
}

RouterPool::~RouterPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_.store(true);
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
}

void RouterPool::work() {
  for (;;) {
    const uint64_t c = claim_.fetch_add(1, std::memory_order_acq_rel);
    const uint32_t index = uint32_t(c), blocks = uint32_t(c >> 32);
    if (index >= blocks) return;
    const int lo = int(index) * block_;
    (*fn_)(lo, std::min(n_, lo + block_));
    blocks_done_.fetch_add(1, std::memory_order_release);
  }
}

void RouterPool::worker_loop() {
  uint64_t seen = 0;
  for (;;) {
    int spins = 0;
    while (epoch_.load(std::memory_order_acquire) == seen && !stop_.load(std::memory_order_relaxed)) {
      if (++spins < kSpins) {
        cpu_relax();
        continue;
      }
      if (spins < kSpins + kYieldsBeforeSleep) {
        std::this_thread::yield();
        continue;
      }
      std::unique_lock<std::mutex> lock(mutex_);
      sleepers_.fetch_add(1);
      wake_.wait(lock, [&] { return epoch_.load() != seen || stop_.load(); });
      sleepers_.fetch_sub(1);
    }
    if (stop_.load()) return;
    seen = epoch_.load(std::memory_order_acquire);
    work();
  }
}

void RouterPool::run(int n, int block, const std::function<void(int, int)>& fn) {
  n_ = n;
  block_ = std::max(1, block);
  fn_ = &fn;
  const int blocks = (n + block_ - 1) / block_;
  blocks_done_.store(0, std::memory_order_relaxed);
  claim_.store(uint64_t(blocks) << 32, std::memory_order_release);  // publishes n_, block_, fn_
  epoch_.fetch_add(1);                                              // seq_cst: ordered before the sleepers_ read below
  if (sleepers_.load() > 0) {
    std::lock_guard<std::mutex> lock(mutex_);
    wake_.notify_all();
  }
  work();
  for (int spins = 0; blocks_done_.load(std::memory_order_acquire) < blocks; ++spins) {
    if (spins < kSpins)
      cpu_relax();
    else
      std::this_thread::yield();  // a worker holding a block was descheduled
  }
}

}  // namespace wn
