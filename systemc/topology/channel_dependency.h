// Deadlock freedom of the routing function (Dally & Seitz): the channel
// dependency graph over virtual channels (router, output port, VC), with an
// edge c1 -> c2 whenever a packet that holds c1 may request c2 next. It is
// built from the routing function itself (route_function.h, the one the RTL
// implements) by walking every (source, destination) pair through every VC
// the function allows, so only reachable dependencies enter. Acyclic means no
// routing deadlock is possible; otherwise one cycle of channels is returned.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "systemc/topology/topology.h"

namespace wn {

struct VirtualChannel {
  int router = 0, port = 0, vc = 0;  // the output of `router` on `port`, virtual channel `vc`
};

struct DependencyGraph {
  uint64_t channels = 0;  // virtual channels some route uses
  uint64_t edges = 0;     // dependencies
  uint64_t states = 0;    // (router, input VC, destination) states walked
  bool acyclic = true;
  std::vector<VirtualChannel> cycle;  // c0 -> c1 -> ... -> c0 when !acyclic
};

// `base`: vcs and dateline as the network would use them (ports / addresses come from `topo`).
DependencyGraph channel_dependencies(const Topology& topo, const RouterConfig& base);
// "r5 +x vc0 -> r6 +x vc0 -> ..." (port names: +x -x +y -y +z -z, cube d0 d1 ...).
std::string describe_cycle(const Topology& topo, const std::vector<VirtualChannel>& cycle, size_t max_shown = 16);

}  // namespace wn
