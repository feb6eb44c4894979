// Cycle-by-cycle channel-contention measurement from the outside of the
// routers: it reads only the network's registered outputs and inputs (which
// lock-step compares), so both backends give identical counts by construction.
// Classes (thesis §1.6): stepwise = blocked by a packet of the same step,
// depth = by a packet of another step, port = waiting for an ejection channel
// of the destination or behind the node's own earlier packet in its injection
// buffer, flow = nothing else holds what it needs (credits).
//
// Two views of the same observation:
//
// Resource view (per output, "who queued at this channel"): a head presented
// to a router input in cycle t leaves at edge t+2 at zero load (rtl/README.md
// §5); every later edge it is still there is one blocked cycle; a worm whose
// head has moved is blocked in a cycle when one of its body flits sits ready
// in a network input buffer and does not leave (lost the output or its input
// port in switch allocation, or credits). A packet is counted at most once per
// cycle, with the most specific cause along its worm (a named blocker beats
// flow), at the output it waited for. Stalls that overlap in time or are made
// up later are all counted, so these packet-cycles do not add up to latency.
//
// Delay view (per packet, "what contention cost this packet"): exact. With
// s = the cycle the head was injected (see `after` below), h hops and L flits,
// at zero load the tail is delivered at s + 3(h+1) + L - 1; every cycle later
// is attributed to exactly one class and one blocker (none for flow):
//  - the head: each edge it waits beyond its zero-load pipeline (as above);
//  - body flit k: the cycles it is delivered later than one cycle after flit
//    k-1, i.e. its gap when ejected, made of its own stalls along the path
//    (at any router, the source's injection buffer included) that the flit
//    ahead did not make up again (delay_ledger.h), plus cycles the NI
//    presented it late (flow: injection credits).
// The head's lag at ejection plus the body flits' gaps telescope to
// tail delivered - s - zero load. A packet that follows the previous packet
// of its own message on the same injection channel (`after`) starts at
// s = max(head injected, cycle that packet's tail left the source router):
// its wait behind its own message is the zero-load serialization
// (CostParams::network_cycles), not delay. Waiting in the NI before the head
// is injected is not delay either; it is reported as port wait.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "systemc/core/packet.h"
#include "systemc/network/blocker_tally.h"
#include "systemc/network/channel_timeline.h"
#include "systemc/network/delay_ledger.h"
#include "systemc/network/network.h"
#include "systemc/network/occupancy.h"
#include "systemc/network/packet_table.h"

namespace wn {

// Resource view of one packet.
struct PacketContention {
  std::array<uint64_t, kContentionClasses> cycles{};  // blocked cycles by class (incl. NI wait as port)
};

// One directed output of a router: network output o (0..ports-1) or
// ejection channel j (index kMaxPorts + j); injection channels are per node.
struct ChannelCounters {
  uint64_t flits = 0;
  std::array<uint64_t, kMaxVcs> vc_flits{};
  std::array<uint64_t, kMaxVcs> vc_busy{};  // cycles the VC was held by a packet
  uint64_t blocked = 0;                     // packet-cycles blocked waiting for this output (head waits + body stalls)
  uint64_t credit_stall = 0;                // ... of which flow-control (no holder, no winner)
  uint64_t sa_loss = 0;                     // ... of which lost to another packet in switch allocation
  // Blocking packet id -> cycles (holder or winner): the kTopBlockers largest (blocker_tally.h).
  std::map<uint32_t, uint64_t> holders;
};

class ContentionMonitor {
 public:
  // `occ` is the run's occupancy shadow; the monitor keeps it up to date (its
  // observe() observes the shadow, once per cycle).
  ContentionMonitor(Occupancy& occ, const Network& net, const PacketStore& store);
  // After every Network::cycle() of cycle `now` (NIs have collected).
  void observe(uint64_t now);
  // At the end of a run, while the packet store still holds its records: the
  // waits counted since their last charge go into the accounts (the packets'
  // steps name their class). The views below are complete from then on.
  void finish() { charge_waits(); }

  const std::vector<PacketContention>& packets() {  // by packet id
    charge_waits();
    return packets_;
  }
  std::vector<PacketContention> take_packets() {  // at the end of a run
    charge_waits();
    return std::move(packets_);
  }
  // (router, output index) -> counters of the outputs that carried or were
  // waited for; output index kMaxPorts + j = ejection j. At the end of a run: the holders move out.
  std::map<std::pair<int, int>, ChannelCounters> take_channels();
  // Injection channels: (node, channel) -> flits and cycles packets waited for them.
  struct InjectionCounters {
    uint64_t flits = 0, port_wait = 0;
  };
  const std::map<std::pair<int, int>, InjectionCounters>& injection() const;
  std::array<uint64_t, kContentionClasses> totals();
  // Delay view, by packet id (every packet whose head was injected).
  std::vector<PacketDelay> take_delays() {
    charge_waits();
    return std::move(delays_);
  }
  // Cycles a body flit's gap grew without a stall seen to explain them (0
  // unless the reasoning in delay_ledger.h is wrong; charged as flow).
  uint64_t unexplained() const { return unexplained_; }
  // From the next observe() on, also record every hold, head wait and flit count into `t`
  // (channel_timeline.h; the caller finishes it after the run). Without it nothing is recorded.
  void record(ChannelTimeline* t) { timeline_ = t; }

 private:
  // The shadow's index spaces (occupancy.h); a flit's tag is its delay ledger.
  using Worm = Occupancy::Worm;
  using InSlot = Occupancy::InSlot;
  using OutSlot = Occupancy::OutSlot;
  using Hot = Occupancy::Hot;
  struct Candidate {
    int64_t blocker = -1;
    int r = 0, out_idx = -1;  // out_idx: compact output port
    bool port = false, sa_loss = false;
    bool operator==(const Candidate& o) const {
      return blocker == o.blocker && r == o.r && out_idx == o.out_idx && port == o.port && sa_loss == o.sa_loss;
    }
  };
  // Per packet in the network that was blocked. A blocked packet mostly waits
  // for what it waited for at the edge before: its edges are counted here, one
  // comparison each, and charged (class, channel, blocker: cache misses) once
  // the cause changes, when the packet is delivered, and at the end of the run
  // (finish()). The charges add up, so when they are made is free (but for
  // the holders tallies, which must know when a blocker's counts are final:
  // deferred_); the delay view's blocker order is that of first appearance,
  // which stays so as a head's waits are charged before it moves on (and
  // only then can its packet's accounts grow otherwise).
  struct Victim {
    uint64_t edge_at = 0;  // now + 1 when it has a cause at this edge: edge_[edge_pos]
    uint32_t edge_pos = 0;
    // Resource view: edges of last[k] not charged yet (two causes: a packet that loses switch
    // allocation often loses it to two others in turn); `older` is the one to charge first.
    uint32_t blamed[2] = {0, 0};
    Candidate last[2];
    uint8_t older = 0;
    uint32_t head_waits = 0;  // delay view: edges its head waited, not added to its accounts yet
    uint32_t head_blocker = kNoBlocker;
    bool head_port = false, head_at_source = false;
  };
  // The route of a waiting head (a pure function of its slot and destination), by worm.
  struct RouteNote {
    uint32_t packet;
    int8_t out, vc_lo, vc_hi;
    uint8_t flags;  // kRouted, kEject
  };
  static constexpr uint8_t kRouted = 1, kEject = 2;
  // The counters of one output port touched when a packet waits or a hold ends (the flits it
  // carried are counted per output slot: out_flits_).
  struct Chan {
    uint64_t blocked = 0, credit_stall = 0, sa_loss = 0;
    std::array<uint64_t, kMaxVcs> vc_busy{};
  };
  // What the shadow tells its observer (occupancy.h).
  friend class Occupancy;
  void departed(const Occupancy::Departure& d, uint64_t& ledger, uint64_t now);
  void released(int r, int os, uint64_t held_since, uint64_t now);
  void head_entered(uint32_t id, const PacketRecord& p);

  void classify(int r, uint64_t now);
  const RouteNote& route_of(size_t worm, const Worm& e, const RouterConfig& cfg, int in, int v);
  void blame(uint32_t victim, const Candidate& c);
  void charge(uint32_t victim, const Candidate& c, uint64_t edges);
  void propose(uint32_t victim, const Candidate& c, uint64_t now);
  void charge(uint32_t id, Victim& v);  // its uncharged edges
  void body_stalls(int r, uint64_t now);
  // Delay view: one stall edge of a head, and a flit leaving its input slot.
  void head_delay(uint32_t pid, const Candidate& c, bool at_source, uint64_t now);
  void add_head_waits(uint32_t pid, Victim& v);
  // The stall edges a slot's front flit has in its note go into its ledger.
  void note_stalls(uint32_t pid, Occupancy::SlotNote& note, uint64_t& ledger);
  void flit_delay(uint32_t pid, uint64_t& ledger, uint64_t& last_dep, bool source, bool eject, bool head, uint64_t now);
  void charge_waits();  // every count above into the accounts
  Contention cause_class(uint32_t victim, const Candidate& c) const {
    return c.port ? Contention::Port : c.blocker < 0 ? Contention::Flow : class_of(victim, uint32_t(c.blocker));
  }
  Contention class_of(uint32_t victim, uint32_t blocker) const;
  // Packet `pid` cannot be charged as a blocker from now on (its holders counts are final): no
  // blocked edge can name it any more, and no victim holds edges naming it uncharged.
  bool blocks_no_more(uint32_t pid) const;
  // A cause the holders counts are charged with (a blocker named, at an output).
  static bool tallied(const Candidate& c) { return c.blocker >= 0 && c.out_idx >= 0; }
  Chan& chan(int r, int op) { return chans_[size_t(r) * size_t(npo_) + size_t(op)]; }

  Occupancy& occ_;
  const Network& net_;
  const PacketStore& store_;
  int P_ = 0, V_ = 0, I_ = 0, npo_ = 0, nout_ = 0;
  uint64_t flit_cycles_ = 1;       // the router's zero-load spacing of a worm's flits (RouterTiming)
  std::vector<RouterConfig> cfg_;  // [router]: for the route of a waiting head
  std::vector<PacketContention> packets_;
  std::vector<uint32_t> steps_;  // [packet]: its step (class_of, without a record's cache miss)
  // [packet]: the victims' uncharged causes (Victim::last) that name it and are tallied; while
  // any, its holders counts can still grow (blocks_no_more).
  std::vector<uint32_t> deferred_;
  PacketTable<Victim> victims_;    // the packets in the network that were blocked
  DenseVector<RouteNote> routes_;  // [Occupancy::worm_index]
  // A channel carried a flit or was waited for (the only ones reported) when it has flits or
  // blocked cycles: a hold ends only on an output a head took, and blame() counts a blocked cycle.
  DenseVector<uint64_t> out_flits_;    // [router * output slots + output slot]
  DenseVector<Chan> chans_;            // [router * npo_ + output port]
  std::vector<BlockerTally> holders_;  // same index, charged when a victim's edges are
  // Reported when it carried a flit or a packet waited for it (flits or port_wait).
  std::vector<InjectionCounters> inj_;                                  // [node * I + channel]
  mutable std::map<std::pair<int, int>, InjectionCounters> injection_;  // built by injection()
  // This edge: one cause per blocked packet (Victim::edge_at, edge_pos).
  std::vector<std::pair<uint32_t, Candidate>> edge_;
  uint64_t last_now_ = 0;
  uint64_t edge_now_ = 0;  // the edge observe() is at (or was at last): when a charge is made
  bool observed_ = false;
  std::vector<PacketDelay> delays_;
  LedgerPool ledgers_;
  std::vector<uint32_t> last_head_;  // [node * I + channel]: last packet whose head was injected
  uint64_t unexplained_ = 0;
  ChannelTimeline* timeline_ = nullptr;
};

}  // namespace wn
