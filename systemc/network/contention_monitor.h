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
  uint64_t blocked = 0;      // packet-cycles blocked waiting for this output (head waits + body stalls)
  uint64_t credit_stall = 0;   // ... of which flow-control (no holder, no winner)
  uint64_t sa_loss = 0;        // ... of which lost to another packet in switch allocation
  std::map<uint32_t, uint64_t> holders;  // blocking packet id -> cycles (holder or winner)
};

class ContentionMonitor {
 public:
  ContentionMonitor(const Network& net, const PacketStore& store);
  // After every Network::cycle() of cycle `now` (NIs have collected).
  void observe(const Network& net, const PacketStore& store, uint64_t now);

  const std::vector<PacketContention>& packets() const { return packets_; }  // by packet id
  std::vector<PacketContention> take_packets() { return std::move(packets_); }  // at the end of a run
  // (router, output index) -> counters of the outputs that carried or were
  // waited for; output index kMaxPorts + j = ejection j.
  std::map<std::pair<int, int>, ChannelCounters> channels() const;
  // Injection channels: (node, channel) -> flits and cycles packets waited for them.
  struct InjectionCounters {
    uint64_t flits = 0, port_wait = 0;
  };
  const std::map<std::pair<int, int>, InjectionCounters>& injection() const { return injection_; }
  std::array<uint64_t, kContentionClasses> totals() const;
  // Delay view, by packet id (every packet whose head was injected).
  std::vector<PacketDelay> take_delays() { return std::move(delays_); }
  // Cycles a body flit's gap grew without a stall seen to explain them (0
  // unless the reasoning in delay_ledger.h is wrong; charged as flow).
  uint64_t unexplained() const { return unexplained_; }

 private:
  struct Entry {
    uint32_t packet;
    uint64_t arrival;  // cycle the head was presented at this input
    bool head_gone;
    int out = -1;      // output index its head took
  };
  struct Candidate {
    int64_t blocker = -1;
    int r = 0, out_idx = -1;
    bool port = false, sa_loss = false;
  };
  struct Flit {
    uint64_t written;     // edge it was written into the buffer
    uint32_t ledger = 0;  // its gap behind the flit ahead (delay_ledger.h)
  };
  // One VC buffer's flits (and those on the link to it): credits bound them by cfg_buf <= kMaxBuf.
  struct FlitRing {
    std::array<Flit, kMaxBuf> slot;
    uint8_t first = 0, size = 0;
    bool empty() const { return size == 0; }
    Flit& front() { return slot[first]; }
    void push_back(const Flit& f) { slot[(first + size++) % kMaxBuf] = f; }
    void pop_front() {
      first = uint8_t((first + 1) % kMaxBuf);
      --size;
    }
  };
  // Input VCs (and outputs) as bits of one word, in (port, vc) order:
  // network port p VC v -> p*kMaxVcs+v, injection/ejection i -> after those.
  static constexpr int kSlots = kMaxPorts * kMaxVcs + kMaxPorts;
  static_assert(kSlots <= 64, "slots must fit a mask");
  static int slot(int in, int v) { return in < kMaxPorts ? in * kMaxVcs + v : kMaxPorts * kMaxVcs + in - kMaxPorts; }
  static int slot_port(int b) { return b < kMaxPorts * kMaxVcs ? b / kMaxVcs : b - kMaxPorts * kMaxVcs + kMaxPorts; }
  static int slot_vc(int b) { return b < kMaxPorts * kMaxVcs ? b % kMaxVcs : 0; }
  struct RouterState {
    // [input][vc]: every flit in the buffer, in order (inputs as `queue`).
    std::array<std::array<FlitRing, kMaxVcs>, 2 * kMaxPorts> body;
    std::array<std::array<uint64_t, kMaxVcs>, 2 * kMaxPorts> last_dep{};  // [input][vc]: edge of the last flit out
    std::array<int64_t, 2 * kMaxPorts> input_sender;  // packet whose flit left each input port this edge
    std::array<std::array<bool, kMaxVcs>, 2 * kMaxPorts> vc_sent{};
    // [input][vc]: inputs 0..kMaxPorts-1 network, kMaxPorts+i injection.
    std::array<std::array<std::deque<Entry>, kMaxVcs>, 2 * kMaxPorts> queue;
    std::array<std::array<int64_t, kMaxVcs>, 2 * kMaxPorts> holder;  // [output][vc], ejection vc 0
    std::array<std::array<std::pair<int64_t, uint64_t>, kMaxVcs>, 2 * kMaxPorts> last_tail;  // [input][vc]
    std::array<int64_t, 2 * kMaxPorts> winner;  // packet whose flit left each output this edge
    std::array<std::array<std::pair<int64_t, uint64_t>, kMaxVcs>, 2 * kMaxPorts> last_release;  // [output][vc]
    RouterConfig cfg;
    int waiting = 0;          // heads in queues
    uint64_t queued = 0;      // slots with a non-empty queue
    uint64_t held = 0;        // output slots held (holder >= 0)
    uint64_t buffered = 0;    // input slots with flits in `body` (a flit may stall)
  };
  void depart(int r, int out_idx, uint64_t flit, int from_port, int from_vc, uint64_t now);
  void classify(int r, uint64_t now);
  void blame(uint32_t victim, int64_t blocker, int r, int out_idx, bool port, bool sa_loss);
  void propose(uint32_t victim, const Candidate& c);
  void body_stalls(int r, uint64_t now);
  // Delay view: one stall edge of a head, and a flit leaving input `in`.
  void head_delay(uint32_t pid, const Candidate& c, bool at_source, uint64_t now);
  void flit_delay(uint32_t pid, Flit& fl, int r, int in, int v, int out_idx, bool head, uint64_t now);
  Contention cause_class(uint32_t victim, const Candidate& c) const {
    return c.port ? Contention::Port : c.blocker < 0 ? Contention::Flow : class_of(victim, uint32_t(c.blocker));
  }
  Contention class_of(uint32_t victim, uint32_t blocker) const;
  void ensure(uint32_t id);
  // Counters of output k of router r (flat: touched on every flit and blocked cycle).
  ChannelCounters& channel(int r, int k) {
    const size_t i = size_t(r) * size_t(2 * kMaxPorts) + size_t(k);
    touched_[i] = 1;
    return channels_[i];
  }
  void set_holder(RouterState& s, int k, int w, int64_t pid) {
    s.holder[size_t(k)][size_t(w)] = pid;
    const uint64_t bit = uint64_t{1} << slot(k, w);
    s.held = pid >= 0 ? s.held | bit : s.held & ~bit;
  }

  const Network& net_;
  const PacketStore& store_;
  std::vector<RouterState> routers_;
  std::vector<PacketContention> packets_;
  std::vector<ChannelCounters> channels_;  // [router * 2 kMaxPorts + output]
  std::vector<uint8_t> touched_;
  std::map<std::pair<int, int>, InjectionCounters> injection_;
  std::vector<uint32_t> pending_;  // posted, head not injected yet
  std::map<uint32_t, Candidate> edge_;  // this edge: one cause per blocked packet
  size_t seen_ = 0;
  std::vector<PacketDelay> delays_;
  LedgerPool ledgers_;
  std::vector<uint32_t> last_head_;  // [node * kMaxPorts + channel]: last packet whose head was injected
  uint64_t unexplained_ = 0;
};

}  // namespace wn
