// Static schedule checker (no simulation): for a schedule on a topology with
// its routing function, per step: which directed channels two messages of the
// same step share (predicted stepwise contention, as Tsai's thesis defines it),
// nodes that send or receive more messages in a step than they have ports
// (condition 2), delivery problems (a node receiving twice in an exactly-once
// operation, final memory of the timing-free run differing from the oracle),
// and hop statistics (the thesis quotes 1.86 hops/message for EDN on 32x32).
#pragma once
#include <string>
#include <vector>

#include "algorithms/schedule.h"
#include "systemc/topology/topology.h"

namespace wn::alg {

struct MessageRef {
  int src = 0, dst = 0;
};

struct ChannelConflict {
  uint32_t step = 0;
  Topology::Link link{0, 0};
  MessageRef a, b;
};

struct PortOveruse {
  uint32_t step = 0;
  int node = 0;
  int sends = 0, recvs = 0, ports = 0;
};

struct StepCheck {
  uint32_t step = 0;
  int messages = 0;
  int shared_channels = 0;       // channels used by >= 2 messages of this step
  int conflicting_messages = 0;  // messages that share at least one channel
  int max_channel_load = 0;      // most messages of this step on one channel
  int max_hops = 0;
  double avg_hops = 0;
};

struct ScheduleCheck {
  std::vector<StepCheck> steps;
  std::vector<ChannelConflict> conflicts;  // the first `max_listed` conflicting pairs
  uint64_t conflict_pairs = 0;             // all of them
  std::vector<PortOveruse> port_overuse;
  std::vector<std::string> delivery;  // problems; empty = delivered as the oracle says
  uint64_t messages = 0;
  double avg_hops = 0;
  int max_hops = 0;
  bool contention_free() const { return conflict_pairs == 0; }
  bool ok() const { return contention_free() && port_overuse.empty() && delivery.empty(); }
};

// `ports`: injection = ejection channels per node. `exactly_once`: every node
// may receive at most one message over the whole operation (broadcast, scatter).
ScheduleCheck check_schedule(const Schedule& s, const Topology& topo, int ports, bool exactly_once,
                             size_t max_listed = 20);
// Readable report (the text `wormnet check` prints).
std::string format_check(const ScheduleCheck& c, const Topology& topo);
// Name of a directed channel, e.g. "5(1,1) +x" or "cube 3 dim 2".
std::string link_name(const Topology& topo, const Topology::Link& l);

}  // namespace wn::alg
