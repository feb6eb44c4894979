// Shadow of where every flit sits, kept from the routers' observable I/O only
// (every output with its from-port/VC, the links, the injections), so it
// works the same for the RTL, the model and lock-step. Used to explain
// deadlocks: which packet waits on which channel held by which packet.
//
// Cost: one FIFO pop per flit that leaves a router and one push per flit
// that enters the next FIFO or an injection FIFO. A flit on a link carries
// its ring entry (packet id) along, so link arrivals need not be read.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "systemc/core/packet.h"
#include "systemc/network/network.h"

namespace wn {

class FlitTracker {
 public:
  explicit FlitTracker(const Network& net);
  // Call after every Network::cycle().
  void observe(const Network& net);
  // Flits in router FIFOs and on links (a flit on a link is counted in the
  // FIFO it enters at the next edge). In a cycle without any flit movement
  // no flit is on a link: then these are exactly the flits in the FIFOs.
  uint64_t flits_in_network() const { return occupancy_; }
  // Wait-for analysis of the current state: the cycle of waits if there is
  // one, otherwise the list of blocked packets.
  std::string explain_waits(const Network& net, const PacketStore& store) const;

 private:
  static constexpr uint32_t kHeadFlag = 1u << 31;
  static constexpr uint32_t kNone = ~uint32_t{0};  // no entry (entries are msg tags, below kHeadFlag)
  static_assert(layout::WN_MSG_W < 31, "ring entries keep the msg tag below kHeadFlag");
  // Per input VC: the packet of each flit in its FIFO, oldest first, in a
  // ring of one cache line; the ring's position and the packet arriving on
  // the VC sit apart in a small array (a flit touches one line of each).
  struct alignas(64) Slots {
    uint32_t e[kMaxBuf];
  };
  struct VcState {
    int32_t open = -1;  // injection FIFO: packet currently arriving (body flits carry no id)
    uint8_t head = 0, size = 0;
  };
  uint32_t pop(size_t i);
  void push(size_t i, uint32_t e);
  uint32_t depart(int r, int out, int out_vc, uint64_t f, int from, int from_vc);
  void inject(size_t i, uint64_t f);
  uint32_t entry(size_t i, int k) const { return slots_[i].e[(vc_[i].head + k) & (kMaxBuf - 1)]; }
  uint32_t front_entry(size_t i) const { return entry(i, 0); }
  // Compact index spaces, sized by the network actually built:
  // inputs in = network port p < ports_, then injection channel ports_ + i;
  // outputs o = network port o < ports_, then ejection channel ports_ + j.
  size_t idx(int r, int in, int vc) const {
    return (size_t(r) * size_t(nin_) + size_t(in)) * size_t(vcs_) + size_t(vc);
  }
  size_t hidx(int r, int out, int vc) const {
    return (size_t(r) * size_t(nout_) + size_t(out)) * size_t(vcs_) + size_t(vc);
  }
  int ports_ = 0, nin_ = 0, nout_ = 0, vcs_ = 1;
  std::vector<Slots> slots_;
  std::vector<VcState> vc_;
  std::vector<int32_t> holder_;  // packet holding an output VC (network o) or ejection channel (ports + j)
  std::vector<std::pair<size_t, uint32_t>> moved_;  // this edge's link flits: downstream ring, entry
  uint64_t occupancy_ = 0;
};

// Raises the alarm when no flit moves for `window` cycles while flits are in the network.
class DeadlockWatchdog {
 public:
  explicit DeadlockWatchdog(uint64_t window) : window_(window) {}
  // Returns true when the network is declared deadlocked at cycle `now`.
  bool check(uint64_t now, int moves, uint64_t flits_in_network) {
    if (moves > 0 || flits_in_network == 0) last_move_ = now;
    return window_ > 0 && now - last_move_ >= window_;
  }
  uint64_t last_move() const { return last_move_; }
  uint64_t window() const { return window_; }

 private:
  uint64_t window_;
  uint64_t last_move_ = 0;
};

}  // namespace wn
