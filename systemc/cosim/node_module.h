// One node of the co-simulation: an SC_MODULE holding the node's network
// interface (and, for synthetic runs, its traffic source). The fabric calls
// it around every clock edge in node order, so results do not depend on the
// SystemC scheduler's process order.
#pragma once
#include <memory>
#include <systemc>

#include "systemc/cosim/network_interface.h"

namespace wn {

class NodeModule : public sc_core::sc_module {
 public:
  NodeModule(const sc_core::sc_module_name& name, int node, Network& net, PacketStore& store, Scoreboard& sb)
      : sc_core::sc_module(name), node_(node), ni(node, net, store, sb) {}
  int node() const { return node_; }

 private:
  int node_;

 public:
  NetworkInterface ni;
};

}  // namespace wn
