#include "systemc/router/router_timing.h"

#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "systemc/core/flit.h"
#include "systemc/router/rtl/router_rtl.h"

namespace wn {

namespace {
constexpr int kProbeCycles = 64;  // far beyond any pipeline the flit fields can describe
constexpr int kProbeFlits = 3;    // two spacings: an uneven router is named
}  // namespace

RouterTiming probe_router_timing(RouterUnit& unit) {
  // Node 0 of cube:2 sends to node 1 (one hop on port 0): the smallest router every radix has.
  RouterConfig cfg;
  cfg.kind = TopoKind::Cube;
  cfg.ndims = 2;
  cfg.ports = 2;
  cfg.addr = 0;
  unit.reset(cfg);
  const uint64_t worm[kProbeFlits] = {flit::make_head(false, 1, 0, 0, 0), flit::make_body(false, 1),
                                      flit::make_body(true, 2)};
  int left[kProbeFlits] = {};
  int sent = 0, seen = 0, credits = cfg.buf;
  RouterIn in;
  RouterOut out;
  for (int t = 0; t < kProbeCycles && seen < kProbeFlits; ++t) {
    in.inj_valid = 0;
    if (sent < kProbeFlits && credits > 0) {
      in.inj_valid = 1;
      in.inj_flit[0] = worm[sent++];
      --credits;
    }
    unit.cycle(in, out);
    if (out.inj_credit & 1) ++credits;
    if (out.ej_valid) throw std::runtime_error("router timing probe: a flit for node 1 was ejected at node 0");
    if (out.out_valid) left[seen++] = t;
  }
  if (seen < kProbeFlits)
    throw std::runtime_error("router timing probe: " + std::to_string(seen) + " of " + std::to_string(kProbeFlits) +
                             " flits left the router within " + std::to_string(kProbeCycles) + " cycles");
  const int f = left[1] - left[0];
  if (left[2] - left[1] != f)
    throw std::runtime_error("router timing probe: the flits of one worm left " + std::to_string(f) + " and " +
                             std::to_string(left[2] - left[1]) +
                             " cycles apart; the delay accounting needs one spacing");
  return RouterTiming{left[0], f};
}

RouterTiming rtl_router_timing(int ports) {
  static std::mutex mu;
  static std::map<int, RouterTiming> probed;
  const int radix = rtl_radix_for(ports);
  const std::lock_guard<std::mutex> lock(mu);
  auto it = probed.find(radix);
  if (it == probed.end()) it = probed.emplace(radix, probe_router_timing(*make_rtl_router(radix))).first;
  return it->second;
}

}  // namespace wn
