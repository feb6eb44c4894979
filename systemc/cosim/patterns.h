// Synthetic destination patterns (BookSim's definitions where they exist).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "systemc/core/rng.h"
#include "systemc/topology/topology.h"

namespace wn {

struct PatternOptions {
  int hotspot_node = 0;
  double hotspot_fraction = 0.2;  // share of packets sent to the hotspot
};

class TrafficPattern {
 public:
  virtual ~TrafficPattern() = default;
  // Destination of a packet from src, or -1 when the pattern maps src to itself (no packet).
  virtual int dest(int src, Rng& rng) const = 0;
};

struct PatternInfo {
  std::string name;
  std::string description;
  // Throws ConfigError(Param::pattern, ...) when the topology does not support it.
  std::function<std::unique_ptr<TrafficPattern>(const Topology&, const PatternOptions&)> make;
};
const std::vector<PatternInfo>& traffic_patterns();
std::unique_ptr<TrafficPattern> make_pattern(const std::string& name, const Topology& topo,
                                             const PatternOptions& opt = {});

}  // namespace wn
