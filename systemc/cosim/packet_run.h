// Deterministic packet scenarios: given packets with their post cycles, run
// the co-simulation until all are delivered (or a deadlock / limit), and
// return every packet's timestamps. Used by latency tests and small examples.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "systemc/core/packet.h"
#include "systemc/network/network.h"

namespace wn {

struct ScheduledPacket {
  int src = 0, dst = 0, flits = 1;
  uint64_t post_cycle = 0;
  int inj_channel = -1;
  uint32_t step = 0;
};

struct PacketRunResult {
  bool ok = true;
  bool deadlock = false;
  std::string report;  // scoreboard errors / deadlock explanation
  uint64_t cycles = 0;
  std::vector<PacketRecord> packets;  // in the order given
};

PacketRunResult run_packets(const Topology& topo, const NetworkParams& params,
                            const std::vector<ScheduledPacket>& packets, uint64_t max_cycles = 100000,
                            uint64_t watchdog = 2000);

}  // namespace wn
