// Routing function of rtl/README.md §3: the one copy, inline because the C++ model calls it for
// every head it routes; shared with the topology's paths, the channel dependency graph (deadlock
// check), the contention monitor and the deadlock explanation (wait_explainer.h).
#pragma once
#include <cstdint>

#include "systemc/core/router_types.h"

namespace wn {

struct Route {
  bool eject = false;
  int out = -1;   // network output port (when !eject)
  int vc_lo = 0;  // allowed output VC range [vc_lo, vc_hi]
  int vc_hi = 0;
};

// in_port: network input port of the head, or -1 when it comes from injection;
// in_vc: the input VC it sits in (only the torus dateline class reads them).
// Torus with the dateline needs an even cfg.vcs (network.cpp rejects odd
// ones); with vcs = 1 class 0 would be the empty range [0, -1].
inline Route route(const RouterConfig& cfg, uint32_t dest, int in_port, int in_vc) {
  Route r;
  r.vc_hi = cfg.vcs - 1;
  if (cfg.kind == TopoKind::Cube) {
    const uint32_t diff = (dest ^ cfg.addr) & ((1u << cfg.ndims) - 1);
    if (!diff) {
      r.eject = true;
      return r;
    }
    r.out = __builtin_ctz(diff);  // e-cube: lowest differing dimension first
    return r;
  }
  int lsb = 0;
  for (int i = 0; i < cfg.ndims; ++i) {
    const uint32_t mask = (1u << cfg.width[i]) - 1;
    const int d = int((dest >> lsb) & mask), c = int((cfg.addr >> lsb) & mask);
    lsb += cfg.width[i];
    if (d == c) continue;
    const int k = cfg.k[i];
    bool plus;
    if (cfg.kind == TopoKind::Mesh) {
      plus = d > c;
    } else {
      const int delta = (d - c + k) % k;
      plus = 2 * delta <= k;  // ties (exactly k/2) go +
    }
    r.out = 2 * i + (plus ? 0 : 1);
    if (cfg.kind == TopoKind::Torus && cfg.dateline) {
      const int half = cfg.vcs / 2;
      // Class continues only within the same dimension from an upper-half VC.
      int cls = (in_port >= 0 && in_port / 2 == i && in_vc >= half) ? 1 : 0;
      if (plus ? c == k - 1 : c == 0) cls = 1;  // this hop crosses the wrap-around link
      r.vc_lo = cls ? half : 0;
      r.vc_hi = cls ? cfg.vcs - 1 : half - 1;
    }
    return r;
  }
  r.eject = true;
  return r;
}

}  // namespace wn
