// Routing function of rtl/README.md §3 (pure; shared by the C++ model, the
// topology's path computation, the deadlock explainer and static checkers).
#pragma once
#include <cstdint>

#include "systemc/core/router_types.h"

namespace wn {

struct Route {
  bool eject = false;
  int out = -1;    // network output port (when !eject)
  int vc_lo = 0;   // allowed output VC range [vc_lo, vc_hi]
  int vc_hi = 0;
};

// in_port: network input port of the head, or -1 when it comes from injection;
// in_vc: the input VC it sits in (only the torus dateline class reads them).
// Torus with the dateline needs an even cfg.vcs (network.cpp rejects odd
// ones); with vcs = 1 class 0 would be the empty range [0, -1].
Route route(const RouterConfig& cfg, uint32_t dest_addr, int in_port, int in_vc);

}  // namespace wn
