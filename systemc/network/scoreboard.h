// End-to-end packet checks: every packet delivered exactly once, to the right
// node, flits in order, payload intact. A violation names the packet and the
// path the routing function gives it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "systemc/core/packet.h"
#include "systemc/topology/topology.h"

namespace wn {

class Scoreboard {
 public:
  Scoreboard(const Topology& topo, PacketStore& store) : topo_(topo), store_(store) {}
  // The NI reports the head (with the packet id it read) and every later flit.
  void head(int node, int channel, uint64_t flit, uint64_t cycle);
  // Returns true when this flit completes its packet.
  bool flit(int node, int channel, uint32_t id, int index, uint64_t f, uint64_t cycle) {
    PayloadSource payload(store_[id]);
    return flit(node, channel, id, index, f, cycle, payload);
  }
  // The same, with the packet's payloads resolved by the caller (PayloadSource of its record, as it is now).
  bool flit(int node, int channel, uint32_t id, int index, uint64_t f, uint64_t cycle, PayloadSource& payload);
  void fail(uint32_t id, const std::string& what);

  bool ok() const { return errors_.empty(); }
  const std::vector<std::string>& errors() const { return errors_; }
  uint64_t delivered() const { return delivered_; }

 private:
  std::string where(uint32_t id) const;
  const Topology& topo_;
  PacketStore& store_;
  std::vector<std::string> errors_;
  uint64_t delivered_ = 0;
};

}  // namespace wn
