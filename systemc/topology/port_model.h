// Port models: how many injection (= ejection) channels connect a node to its
// router. "one", "all" (one per network port) or K.
#pragma once
#include <string>

#include "systemc/topology/topology.h"

namespace wn {

// Resolves "one" | "all" | "K" into a channel count; throws ConfigError(Param::ports).
int parse_port_model(const std::string& ports, const Topology& topo);

}  // namespace wn
