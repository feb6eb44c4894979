// The network's routers of a cycle on a pool of threads (router_pool.h, --threads).
#include <algorithm>

#include "systemc/network/network.h"
#include "systemc/network/router_pool.h"
#include "systemc/router/model/router_model.h"

namespace wn {

// A block is the work one thread takes at a time: enough routers that taking it (one atomic add)
// and its cache misses are small against evaluating them. A verilated router costs ~10x the model.
void Network::start_pool(int threads) {
  const int n = topo_.nodes();
  pool_block_ = params_.backend == Backend::Model ? 64 : 8;
  // At least two blocks per thread, or the threads wait for each other more than they work.
  const int useful = std::max(1, n / (2 * pool_block_));
  threads = std::min(threads, useful);
  if (threads < 2) return;
  pool_ = std::make_unique<RouterPool>(threads);
  pool_fn_ = [this](int lo, int hi) {
    try {
      evaluate_range(lo, hi);
    } catch (...) {  // the lowest router's error, as one thread would have met it first
      std::lock_guard<std::mutex> lock(pool_error_mutex_);
      if (lo < pool_error_at_) {
        pool_error_at_ = lo;
        pool_error_ = std::current_exception();
      }
    }
  };
}

int Network::threads() const { return pool_ ? pool_->threads() : 1; }

void Network::evaluate_range(int lo, int hi) {
  const uint8_t* const want = want_.data();
  RouterModel* const models = models_.empty() ? nullptr : models_.data();
  for (int r = lo; r < hi; ++r) {
    if (!want[r]) continue;
    if (r + prefetch_ahead_ < hi && want[r + prefetch_ahead_]) prefetch_router(r + prefetch_ahead_);
    if (models)
      models[r].cycle(in_[size_t(r)], out_[size_t(r)]);
    else
      evaluate_unit(r, in_[size_t(r)], out_[size_t(r)]);
  }
}

}  // namespace wn
