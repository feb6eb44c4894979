// One router, seen cycle by cycle from the outside. Both the verilated RTL
// (router/rtl/) and the C++ cycle model (router/model/) implement this,
// following rtl/README.md; the network wires instances of it.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "systemc/core/router_types.h"

namespace wn {

class RouterUnit {
 public:
  virtual ~RouterUnit() = default;
  // Applies the configuration and holds reset for enough edges.
  virtual void reset(const RouterConfig& cfg) = 0;
  // One rising clock edge with inputs `in`; fills `out`.
  virtual void cycle(const RouterIn& in, RouterOut& out) = 0;
  virtual const char* backend_name() const = 0;
};

}  // namespace wn
