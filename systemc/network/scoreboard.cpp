#include "systemc/network/scoreboard.h"

#include <fmt/format.h>

#include "systemc/core/flit.h"

namespace wn {

std::string Scoreboard::where(uint32_t id) const {
  if (store_.released(id)) return "delivered earlier, record released";
  if (!store_.valid(id)) return "unknown packet";
  const PacketRecord& p = store_[id];
  return fmt::format("{} -> {}, path {}", p.src, p.dst, fmt::join(topo_.path(p.src, p.dst), "-"));
}

void Scoreboard::fail(uint32_t id, const std::string& what) {
  if (errors_.size() < 50) errors_.push_back(fmt::format("packet {} ({}): {}", id, where(id), what));
}

void Scoreboard::head(int node, int channel, uint64_t f, uint64_t cycle) {
  const uint32_t id = store_.id_of_tag(flit::msg(f));
  // A released id was delivered and checked already: this head is a late duplicate.
  if (store_.released(id)) return fail(id, fmt::format("head delivered twice (node {}, cycle {})", node, cycle));
  if (!store_.valid(id)) return fail(id, fmt::format("head ejected at node {} carries an unknown id", node));
  PacketRecord& p = store_[id];
  if (p.head_ejected != kNever) return fail(id, fmt::format("head delivered twice (node {}, cycle {})", node, cycle));
  if (p.dst != node) fail(id, fmt::format("delivered to node {} instead of {}", node, p.dst));
  if (flit::dest(f) != topo_.address(p.dst) || flit::src(f) != topo_.address(p.src) ||
      flit::step(f) != (p.step & ((1u << layout::WN_STEP_W) - 1)))
    fail(id, fmt::format("head header corrupted: {:#018x}", f));
  p.head_ejected = cycle;
  p.ej_channel = channel;
}

bool Scoreboard::flit(int node, int channel, uint32_t id, int index, uint64_t f, uint64_t cycle,
                      PayloadSource& payload) {
  PacketRecord& p = store_[id];
  if (index == 0 ? !flit::is_head(f) : flit::is_head(f)) {
    fail(id, fmt::format("flit {} at node {} channel {} has type {}", index, node, channel, flit::type(f)));
    return false;
  }
  if (index > 0 && flit::payload(f) != payload.next(id, index)) {
    // Another flit's payload of the same packet: the flits arrived out of order.
    int other = -1;
    for (int k = 1; k < p.flits && other < 0; ++k)
      if (k != index && flit::payload(f) == payload.at(id, k)) other = k;
    if (other > 0)
      fail(id, fmt::format("flit {} carries flit {}'s payload: out of order", index, other));
    else
      fail(id, fmt::format("flit {} payload {:#x}, expected {:#x}", index, flit::payload(f), payload.at(id, index)));
  }
  const bool last = index == p.flits - 1;
  if (flit::is_tail(f) != last) {
    fail(id, fmt::format("flit {} of {} tail bit {}", index, p.flits, flit::is_tail(f)));
    return false;
  }
  ++p.flits_received;
  if (!last) return false;
  if (p.tail_ejected != kNever) fail(id, "delivered twice");
  p.tail_ejected = cycle;
  ++delivered_;
  return true;
}

}  // namespace wn
