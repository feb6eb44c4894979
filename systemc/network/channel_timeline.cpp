#include "systemc/network/channel_timeline.h"

namespace wn {

void ChannelTimeline::waited(uint32_t packet, int router, int port, Contention cls, uint32_t blocker, uint64_t now) {
  if (last_wait_.size() <= packet) last_wait_.resize(size_t(packet) + 1, 0);
  uint32_t& last = last_wait_[packet];
  if (last > 0) {
    HeadWait& w = waits_[last - 1];
    if (w.end == now && w.router == router && w.port == port && w.cls == cls && w.blocker == blocker) {
      w.end = now + 1;
      return;
    }
  }
  waits_.push_back({now, now + 1, packet, blocker, int32_t(router), int16_t(port), cls});
  last = uint32_t(waits_.size());
}

void ChannelTimeline::finish(const Occupancy& occ, uint64_t last) {
  for (int r = 0; r < occ.routers(); ++r)
    for (int s = 0; s < occ.out_slots(); ++s) {
      const Occupancy::OutSlot& o = occ.out_slot(r, s);
      if (o.holder >= 0) holds_.push_back({o.held_since, last + 1, uint32_t(o.holder), int32_t(r), int16_t(s), true});
    }
}

}  // namespace wn
