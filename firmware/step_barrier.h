// The synchronous step model of the papers (`--sync barrier`): no node starts
// step t before every node has completed all of its steps before t (a node
// with no step t counts as done with it). Releasing a barrier costs
// `cost_cycles` (an ideal hardware barrier: 0). Free-running nodes (`--sync
// free`) never wait here: their overlap shows as depth contention.
#pragma once
#include <cstdint>
#include <map>
#include <systemc>
#include <vector>

namespace wn::fw {

class StepBarrier {
 public:
  static constexpr uint32_t kDone = UINT32_MAX;  // the node's program has returned
  StepBarrier(int nodes, uint64_t cost_cycles);
  // `node` has completed every step with a tag below `next_tag` (tags only grow).
  void arrive(int node, uint32_t next_tag);
  // Every node has completed all of its steps before `tag`.
  bool released(uint32_t tag) const { return waiting_.empty() || waiting_.begin()->first >= tag; }
  // Nodes that have not completed the steps before `tag` yet.
  int missing(uint32_t tag) const;
  uint64_t cost_cycles() const { return cost_; }
  const sc_core::sc_event& changed() const { return changed_; }

 private:
  std::vector<uint32_t> next_;       // per node
  std::map<uint32_t, int> waiting_;  // next tag -> nodes at it (no zero counts)
  uint64_t cost_;
  sc_core::sc_event changed_;
};

}  // namespace wn::fw
