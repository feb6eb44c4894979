// The delay view per message, built from the per-packet one the contention
// monitor measures (systemc/network/contention_monitor.h), and the
// conservation law both obey, checked at the end of every run.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/cost_model.h"
#include "firmware/message_log.h"
#include "systemc/network/delay_ledger.h"
#include "systemc/topology/topology.h"

namespace wn::fw {

struct FirmwareRunResult;

// A message of one packet: its packet's delay view. A message of several
// packets: packets that followed each other on one injection channel form a
// chain (on a one-port node the whole message is one chain). The chain ending
// in the packet delivered last is the message's critical chain; its zero-load
// latency is CostParams::network_cycles over its packets (back to back, one
// bubble each). Its delay is the last packet's delay, plus the delay every
// earlier packet of the chain had at the source router (it pushed the later
// ones back), plus cycles the NI held a packet's head after the previous tail
// had left (flow: injection credits). latency - zero_load = delay, exactly.
struct MessageDelay {
  bool delivered = false;
  uint64_t start = 0;      // head injected: the critical chain's first packet
  uint64_t latency = 0;    // last tail delivered - start
  uint64_t zero_load = 0;  // RouterTiming::zero_load(h, flits, packets) over the chain
  uint32_t packets = 0;    // packets in the critical chain
  DelayAccount delay;      // latency - zero_load, by class and blocking packet
  uint64_t port_wait = 0;  // posted (after the startup) -> start: waiting for an injection channel, not delay
};

// Zero loads are `timing`'s (the routers of the run).
std::vector<MessageDelay> message_delays(const MessageLog& log, const std::vector<PacketRecord>& packets,
                                         const std::vector<PacketDelay>& delays, const Topology& topo,
                                         const RouterTiming& timing);

// The conservation law on every delivered packet and message of a run:
// latency - zero load = sum of the classes, the blockers' cycles = the named
// classes (flow has none), a chain's source-router share adds up, and a
// message sent as one chain has the cost model's zero load (zero loads: cost.timing). "" when it
// holds, else the first violation.
std::string delay_conservation_error(const FirmwareRunResult& r, const Topology& topo, const alg::CostParams& cost);

}  // namespace wn::fw
