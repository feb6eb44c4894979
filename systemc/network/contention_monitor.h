// Cycle-by-cycle channel-contention measurement from the outside of the
// routers: it reads only the network's registered outputs (which lock-step
// compares), so both backends give identical counts by construction.
//
// It follows every head flit: a head presented to a router input in cycle t
// leaves at edge t+2 at zero load (rtl/README.md §5); every later edge it is
// still there is one blocked cycle, attributed to one class (thesis §1.6):
//  - stepwise: blocked by a packet of the same step (it holds the output VC
//    range the head needs, won the output in switch allocation, or occupies
//    the head's input VC ahead of it);
//  - depth: the same, by a packet of a different step;
//  - port: waiting for an ejection channel of the destination node (all held
//    by other packets), or, in the NI, for an injection channel of the source;
//  - flow: nothing else holds what it needs: credits (downstream buffer full)
//    or the allocation cycle after a VC was freed.
// A worm whose head has moved is blocked in a cycle when one of its body
// flits sits ready in a network input buffer and does not leave: lost the
// output (or its input port) to another packet in switch allocation, or
// credits (flow). A packet is counted at most once per cycle, with the most
// specific cause found along its worm (a named blocker beats flow). Body
// flits still in the source's injection buffer are not followed (the NI side
// of the injection channel is not observed); the head always is.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "systemc/core/packet.h"
#include "systemc/network/network.h"

namespace wn {

enum class Contention : uint8_t { Stepwise = 0, Depth = 1, Port = 2, Flow = 3 };
constexpr int kContentionClasses = 4;
const char* contention_name(Contention c);

struct PacketContention {
  std::array<uint64_t, kContentionClasses> cycles{};  // blocked cycles by class
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

 private:
  struct Entry {
    uint32_t packet;
    uint64_t arrival;  // cycle the head was presented at this input
    bool head_gone;
  };
  struct Candidate {
    int64_t blocker = -1;
    int r = 0, out_idx = -1;
    bool port = false, sa_loss = false;
  };
  struct RouterState {
    std::array<std::array<std::deque<uint64_t>, kMaxVcs>, kMaxPorts> body;  // [input][vc]: arrival cycles of flits
    std::array<bool, 2 * kMaxPorts> input_sent{};  // an input port sent a flit this edge
    std::array<std::array<bool, kMaxVcs>, 2 * kMaxPorts> vc_sent{};
    // [input][vc]: inputs 0..kMaxPorts-1 network, kMaxPorts+i injection.
    std::array<std::array<std::deque<Entry>, kMaxVcs>, 2 * kMaxPorts> queue;
    std::array<std::array<int64_t, kMaxVcs>, 2 * kMaxPorts> holder;  // [output][vc], ejection vc 0
    std::array<std::array<std::pair<int64_t, uint64_t>, kMaxVcs>, 2 * kMaxPorts> last_tail;  // [input][vc]
    std::array<int64_t, 2 * kMaxPorts> winner;  // packet whose flit left each output this edge
    std::array<std::array<std::pair<int64_t, uint64_t>, kMaxVcs>, 2 * kMaxPorts> last_release;  // [output][vc]
    RouterConfig cfg;
    int waiting = 0;      // heads in queues
    int held = 0;         // output VCs held (holder >= 0)
    int body_flits = 0;   // entries in body (a body flit may stall)
  };
  void depart(int r, int out_idx, uint64_t flit, int from_port, int from_vc, uint64_t now);
  void classify(int r, uint64_t now);
  void blame(uint32_t victim, int64_t blocker, int r, int out_idx, bool port, bool sa_loss);
  void propose(uint32_t victim, const Candidate& c);
  void body_stalls(int r, uint64_t now);
  Contention class_of(uint32_t victim, uint32_t blocker) const;
  void ensure(uint32_t id);
  // Counters of output k of router r (flat: touched on every flit and blocked cycle).
  ChannelCounters& channel(int r, int k) {
    const size_t i = size_t(r) * size_t(2 * kMaxPorts) + size_t(k);
    touched_[i] = 1;
    return channels_[i];
  }
  void set_holder(RouterState& s, int k, int w, int64_t pid) {
    int64_t& h = s.holder[size_t(k)][size_t(w)];
    s.held += int(pid >= 0) - int(h >= 0);
    h = pid;
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
};

}  // namespace wn
