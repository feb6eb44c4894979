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
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "systemc/core/packet.h"
#include "systemc/network/delay_ledger.h"
#include "systemc/network/network.h"

namespace wn {

// Resource view of one packet.
struct PacketContention {
  std::array<uint64_t, kContentionClasses> cycles{};  // blocked cycles by class (incl. NI wait as port)
  std::map<uint32_t, uint64_t> blockers;              // blocking packet id -> cycles
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
  std::map<uint32_t, uint64_t> holders;     // blocking packet id -> cycles (holder or winner)
};

class ContentionMonitor {
 public:
  ContentionMonitor(const Network& net, const PacketStore& store);
  // After every Network::cycle() of cycle `now` (NIs have collected).
  void observe(const Network& net, const PacketStore& store, uint64_t now);

  const std::vector<PacketContention>& packets() const { return packets_; }     // by packet id
  std::vector<PacketContention> take_packets() { return std::move(packets_); }  // at the end of a run
  // (router, output index) -> counters of the outputs that carried or were
  // waited for; output index kMaxPorts + j = ejection j.
  std::map<std::pair<int, int>, ChannelCounters> channels() const;
  // Injection channels: (node, channel) -> flits and cycles packets waited for them.
  struct InjectionCounters {
    uint64_t flits = 0, port_wait = 0;
  };
  const std::map<std::pair<int, int>, InjectionCounters>& injection() const;
  std::array<uint64_t, kContentionClasses> totals() const;
  // Delay view, by packet id (every packet whose head was injected).
  std::vector<PacketDelay> take_delays() { return std::move(delays_); }
  // Cycles a body flit's gap grew without a stall seen to explain them (0
  // unless the reasoning in delay_ledger.h is wrong; charged as flow).
  uint64_t unexplained() const { return unexplained_; }

 private:
  // Internally every index is compact, sized by the network's actual ports,
  // VCs and channels (P ports, V VCs, I injection, E ejection channels; the
  // same for every router): input VC slots p*V+v then P*V+i, output VC slots
  // o*V+w then P*V+j, input ports p then P+i, output ports o then P+j. Each
  // order is the original (kMaxPorts-padded) order with the gaps removed, so
  // every loop visits what it visited before in the same order. A 64x64 torus
  // keeps ~2 KB per router instead of ~38 KB: the state of the routers that
  // move flits now stays in the cache.
  struct Entry {
    uint64_t arrival;  // cycle the head was presented at this input
    uint32_t packet;
    int8_t out = -1;  // compact output port its head took
    bool head_gone;
  };
  struct Candidate {
    int64_t blocker = -1;
    int r = 0, out_idx = -1;  // out_idx: compact output port
    bool port = false, sa_loss = false;
  };
  struct Flit {
    uint64_t written;     // edge it was written into the buffer
    uint32_t ledger = 0;  // its gap behind the flit ahead (delay_ledger.h)
  };
  // Per input VC slot. Its flits (those on the link to it included) and its
  // queue of worms live in rings of cap_ entries in flits_ / entries_: credits
  // bound both by the buffer depth (a worm in the queue has at least one flit
  // in the buffer or on the link, its head or its tail).
  struct InSlot {
    uint64_t last_dep = 0;                          // edge of the last flit out
    std::pair<int64_t, uint64_t> last_tail{-1, 0};  // last packet whose tail left, and when
    uint8_t bfirst = 0, bsize = 0, qfirst = 0, qsize = 0;
  };
  // Per output VC slot.
  struct OutSlot {
    int64_t holder = -1;
    uint64_t held_since = 0;  // vc_busy is added up when the hold ends (or at the end of the run)
    std::pair<int64_t, uint64_t> last_release{-1, 0};
  };
  // Per router: what observe() scans every cycle, in one small record.
  struct Hot {
    uint64_t queued = 0;    // input slots with a non-empty queue
    uint64_t held = 0;      // output slots held
    uint64_t buffered = 0;  // input slots with flits (a flit may stall)
    uint64_t sent = 0;      // input slots that sent a flit this edge
    int waiting = 0;        // heads in queues
  };
  // The counters of one output port touched on every flit (holders apart).
  struct Chan {
    uint64_t flits = 0, blocked = 0, credit_stall = 0, sa_loss = 0;
    std::array<uint64_t, kMaxVcs> vc_flits{}, vc_busy{};
  };
  void depart(int r, int op, uint64_t flit, int from_port, int from_vc, uint64_t now);
  void classify(int r, uint64_t now);
  void blame(uint32_t victim, const Candidate& c);
  void propose(uint32_t victim, const Candidate& c, uint64_t now);
  void body_stalls(int r, uint64_t now);
  // Delay view: one stall edge of a head, and a flit leaving input slot `is`.
  void head_delay(uint32_t pid, const Candidate& c, bool at_source, uint64_t now);
  void flit_delay(uint32_t pid, Flit& fl, InSlot& is, bool source, bool eject, bool head, uint64_t now);
  Contention cause_class(uint32_t victim, const Candidate& c) const {
    return c.port ? Contention::Port : c.blocker < 0 ? Contention::Flow : class_of(victim, uint32_t(c.blocker));
  }
  Contention class_of(uint32_t victim, uint32_t blocker) const;
  void ensure(uint32_t id);
  Chan& chan(int r, int op) {
    const size_t i = size_t(r) * size_t(npo_) + size_t(op);
    touched_[i] = 1;
    return chans_[i];
  }
  void set_holder(int r, int os, int64_t pid, uint64_t now);
  // Compact slot and port of the padded indices the network reports.
  int in_port(int in) const { return in < kMaxPorts ? in : P_ + in - kMaxPorts; }
  // Ring access: slot index is = r * nin_ + slot.
  InSlot& in_slot(int r, int s) { return in_[size_t(r) * size_t(nin_) + size_t(s)]; }
  OutSlot& out_slot(int r, int s) { return out_[size_t(r) * size_t(nout_) + size_t(s)]; }
  Flit& flit_at(size_t is, int i) { return flits_[is * cap_ + (size_t(i) & (cap_ - 1))]; }
  Entry& entry_at(size_t is, int i) { return entries_[is * cap_ + (size_t(i) & (cap_ - 1))]; }
  void push_flit(int r, int s, const Flit& f);
  void push_entry(int r, int s, const Entry& e);

  const Network& net_;
  const PacketStore& store_;
  int P_ = 0, V_ = 0, I_ = 0, E_ = 0;
  int nin_ = 0, nout_ = 0, npi_ = 0, npo_ = 0;
  size_t cap_ = 1;                 // ring capacity: the buffer depth rounded up to a power of two
  std::vector<Hot> hot_;           // [router]
  std::vector<InSlot> in_;         // [router * nin_ + input slot]
  std::vector<OutSlot> out_;       // [router * nout_ + output slot]
  std::vector<Flit> flits_;        // [input slot * cap_ + i]
  std::vector<Entry> entries_;     // [input slot * cap_ + i]
  std::vector<int64_t> winner_;    // [router * npo_ + output port]: packet whose flit left it this edge
  std::vector<int64_t> sender_;    // [router * npi_ + input port]: packet whose flit left it this edge
  std::vector<RouterConfig> cfg_;  // [router]: for the route of a waiting head
  std::vector<PacketContention> packets_;
  std::vector<Chan> chans_;                            // [router * npo_ + output port]
  std::vector<std::map<uint32_t, uint64_t>> holders_;  // same index, touched on blocked cycles only
  std::vector<uint8_t> touched_;
  std::vector<InjectionCounters> inj_;  // [node * I + channel]
  std::vector<uint8_t> inj_touched_;
  mutable std::map<std::pair<int, int>, InjectionCounters> injection_;  // built by injection()
  std::vector<uint32_t> pending_;                                       // posted, head not injected yet
  // This edge: one cause per blocked packet (edge_at_[victim] = now + 1 when
  // it has one, at edge_[edge_pos_[victim]]). The charges add up, so their order is free.
  std::vector<std::pair<uint32_t, Candidate>> edge_;
  std::vector<uint64_t> edge_at_;
  std::vector<uint32_t> edge_pos_;
  size_t seen_ = 0;
  uint64_t last_now_ = 0;
  bool observed_ = false;
  std::vector<PacketDelay> delays_;
  LedgerPool ledgers_;
  std::vector<uint32_t> last_head_;  // [node * I + channel]: last packet whose head was injected
  uint64_t unexplained_ = 0;
};

}  // namespace wn
