// The verilated RTL router (rtl/wn_router.sv) behind the RouterUnit interface.
// One verilation per radix (4, 6, 8, 12 ports); a topology uses the smallest
// radix that fits and ties the spare ports idle.
#pragma once
#include <memory>
#include <string>

#include "systemc/router/router_unit.h"

namespace wn {

int rtl_radix_for(int ports);
// The router verilated with every channel and the package's VC and buffer limits. falling_eval
// (tests): evaluate the falling clock edge too, which a router that changes state only at the
// rising edge (rtl/README.md §4) does not need.
std::unique_ptr<RouterUnit> make_rtl_router(int ports, bool falling_eval = false);
// The same RTL, verilated trimmed to what routers configured like `cfg` use when the build has
// such a variant (one injection and one ejection channel, VCs and buffers within kTrimmedVcs and
// kTrimmedBuf: wormnet/rtl_radices.h), else the full one. The cycles are the same: the trims drop
// only hardware such a router never drives.
std::unique_ptr<RouterUnit> make_rtl_router(int ports, const RouterConfig& cfg, bool falling_eval = false);

// One FST file holding every RTL router of a network (all share one
// VerilatedContext). add() each router, then open(), then dump() each cycle.
class RtlTraceFile {
 public:
  RtlTraceFile();
  ~RtlTraceFile();
  void add(RouterUnit& rtl_router);  // throws std::invalid_argument for a non-RTL unit
  void open(const std::string& path);
  void dump(uint64_t cycle);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace wn
