#include "firmware/step_barrier.h"

namespace wn::fw {

StepBarrier::StepBarrier(int nodes, uint64_t cost_cycles) : next_(size_t(nodes), 0), cost_(cost_cycles) {
  if (nodes > 0) waiting_[0] = nodes;
}

void StepBarrier::arrive(int node, uint32_t next_tag) {
  uint32_t& cur = next_[size_t(node)];
  if (next_tag <= cur) return;
  const uint32_t before = waiting_.begin()->first;
  if (--waiting_[cur] == 0) waiting_.erase(cur);
  cur = next_tag;
  ++waiting_[cur];
  // Waiters re-check in the next delta cycle of this same time: a release costs no simulated time by itself.
  if (waiting_.begin()->first != before) changed_.notify(sc_core::SC_ZERO_TIME);
}

int StepBarrier::missing(uint32_t tag) const {
  int n = 0;
  for (const auto& [t, count] : waiting_) {
    if (t >= tag) break;
    n += count;
  }
  return n;
}

}  // namespace wn::fw
