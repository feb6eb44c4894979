// What every channel of the network did over a run, interval by interval, for a timeline
// viewer: which packet held each output VC (ejection included) from when to when, where and why
// a head waited, and how many flits were in the network. Recorded only when a run asks for it
// (ContentionMonitor::record), from the observation of the registered outputs the contention
// monitor already makes, so the model, the RTL and lock-step record the same intervals, and a
// run without it does no work and holds no memory for it. With it: one record per packet-hop
// and per run of head waits.
#pragma once
#include <cstdint>
#include <vector>

#include "systemc/network/delay_ledger.h"
#include "systemc/network/occupancy.h"

namespace wn {

// A packet held output slot `slot` of `router` (Occupancy's index space: o * V + w, then
// P * V + j for ejection channel j) over edges [start, end): from the edge its head left through
// it to the edge after its tail did, i.e. the cycles its flits crossed it.
struct ChannelHold {
  uint64_t start = 0, end = 0;
  uint32_t packet = 0;
  int32_t router = 0;
  int16_t slot = 0;
  bool open = false;  // its tail had not left when the run stopped: held to the end
};

// A head waited for output port `port` of `router` (o, or P + j: the ejection channels) over
// edges [start, end), beyond its zero-load pipeline: the waits of the contention monitor's delay
// view (contention_monitor.h), with their class and blocking packet (none for flow).
struct HeadWait {
  uint64_t start = 0, end = 0;
  uint32_t packet = 0;
  uint32_t blocker = kNoBlocker;
  int32_t router = 0;
  int16_t port = 0;
  Contention cls = Contention::Flow;
};

// From this cycle on, `flits` flits were in the network (NI to NI, injection buffers included).
struct FlitsInFlight {
  uint64_t cycle = 0, flits = 0;
};

class ChannelTimeline {
 public:
  ChannelTimeline(int ports, int vcs, int ej) : P_(ports), V_(vcs), E_(ej) {}

  // The hold of `slot` ended at edge `now` (its tail left), taken at edge `since`.
  void hold(uint32_t packet, int router, int slot, uint64_t since, uint64_t now) {
    holds_.push_back({since, now + 1, packet, int32_t(router), int16_t(slot), false});
  }
  // The head of `packet` waited at edge `now`; consecutive edges of one cause are one interval.
  void waited(uint32_t packet, int router, int port, Contention cls, uint32_t blocker, uint64_t now);
  // After edge `now`: `flits` in the network (a sample only when the count changed).
  void flits(uint64_t now, uint64_t flits) {
    if (flits == last_flits_) return;
    last_flits_ = flits;
    flits_.push_back({now, flits});
  }
  // At the end of a run observed through edge `last`: the holds still open, as open holds.
  void finish(const Occupancy& occ, uint64_t last);

  int ports() const { return P_; }
  int vcs() const { return V_; }
  int ej() const { return E_; }
  // In the order observed (deterministic; a reader sorts as it needs).
  const std::vector<ChannelHold>& holds() const { return holds_; }
  const std::vector<HeadWait>& waits() const { return waits_; }
  const std::vector<FlitsInFlight>& flits_in_flight() const { return flits_; }

 private:
  int P_, V_, E_;
  std::vector<ChannelHold> holds_;
  std::vector<HeadWait> waits_;
  std::vector<uint32_t> last_wait_;  // [packet]: index + 1 of its latest wait (0: none)
  std::vector<FlitsInFlight> flits_;
  uint64_t last_flits_ = 0;
};

}  // namespace wn
