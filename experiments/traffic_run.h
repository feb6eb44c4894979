// `wormnet traffic`: synthetic traffic through the co-simulated network.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "systemc/cosim/patterns.h"
#include "systemc/network/network.h"
#include "systemc/topology/port_model.h"

namespace wn {

struct TrafficOptions {
  std::string topology = "mesh:8x8";
  std::string ports = "one";  // one | all | K
  NetworkParams net;
  std::string pattern = "uniform";
  PatternOptions pattern_opt;
  double rate = 0.1;  // offered flits per node per cycle
  int packet_flits = 4;
  uint64_t cycles = 10000;  // measurement window
  uint64_t warmup = 1000;
  uint64_t drain = 0;        // max cycles after the window to drain (0: 10 x (cycles + warmup))
  uint64_t watchdog = 2000;  // cycles without any flit movement that mean deadlock
  // Track every flit so that a deadlock report names the cycle of waits. Off
  // by default: it costs ~35% of the model's speed, and the same seed
  // reproduces the deadlock when a user asks for the explanation.
  bool explain_deadlock = false;
  std::string deadlock_hint;  // printed after a deadlock report without the wait-for analysis (app/ words it)
  uint64_t seed = 1;
  std::string trace;  // FST path (RTL backend)
  // Progress display: the cycle, and the window's end (the drain after it is not known ahead).
  std::function<void(uint64_t now, uint64_t end)> progress;
  // Packets each node's source queue holds (created, not yet in the network); a packet created at
  // a full queue is refused and counted (TrafficResult::packets_refused). 0: no limit (the queue
  // is a count and a replayed random stream, traffic_source.h: memory stays flat either way).
  uint64_t source_queue_limit = 0;
};

// count, avg and max are exact. p50/p99 come from a bounded histogram
// (systemc/core/latency_histogram.h) so memory does not grow with run length:
// exact below 16384 cycles, above it at most 1.6 % high (never low).
struct LatencyStats {
  uint64_t count = 0;
  double avg = 0;
  uint64_t max = 0, p50 = 0, p99 = 0;
};

struct TrafficResult {
  bool ok = true;  // scoreboard clean and no deadlock
  bool deadlock = false;
  bool drained = true;  // every packet delivered before the drain limit
  std::string deadlock_report;
  std::vector<std::string> errors;
  uint64_t cycles_simulated = 0;
  uint64_t packets_created = 0, packets_delivered = 0;
  uint64_t packets_refused = 0;      // created at a full source queue (--source-queue-limit), never sent
  double offered = 0, accepted = 0;  // flits/node/cycle in the window
  LatencyStats network_latency, total_latency;
  double avg_hops = 0;
  std::vector<uint64_t> node_injected, node_ejected;  // flits, whole run
  double wall_seconds = 0;
  uint64_t router_evals = 0;
  int threads = 1;  // that evaluated the routers (NetworkParams::threads, or fewer on a small network)
  uint64_t flit_hops = 0;
  TrafficOptions options;          // as run: port model resolved into channel counts
  nlohmann::json to_json() const;  // deterministic: no wall time
};

// Validates everything, then runs one co-simulation (one per process: SystemC elaborates once).
TrafficResult run_traffic(const TrafficOptions& opt);

}  // namespace wn
