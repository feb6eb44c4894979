// Shadow of where every flit sits, kept from the routers' observable I/O only
// (link arrivals and the from-port/VC of every output), so it works the same
// for the RTL, the model and lock-step. Used to explain deadlocks: which
// packet waits on which channel held by which packet.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/packet.h"
#include "network/network.h"

namespace wn {

class FlitTracker {
 public:
  explicit FlitTracker(const Network& net);
  // Call after every Network::cycle().
  void observe(const Network& net);
  uint64_t flits_in_network() const { return occupancy_; }
  // Wait-for analysis of the current state: the cycle of waits if there is
  // one, otherwise the list of blocked packets.
  std::string explain_waits(const Network& net, const PacketStore& store) const;

 private:
  static constexpr uint32_t kHeadFlag = 1u << 31;
  struct Ring {
    uint32_t e[kMaxBuf];
    uint8_t head = 0, size = 0;
    void push(uint32_t v) { e[(head + size++) & (kMaxBuf - 1)] = v; }
    uint32_t pop() {
      const uint32_t v = e[head];
      head = uint8_t((head + 1) & (kMaxBuf - 1));
      --size;
      return v;
    }
    uint32_t front() const { return e[head]; }
    uint32_t at(int i) const { return e[(head + i) & (kMaxBuf - 1)]; }
  };
  // Compact index spaces, sized by the network actually built:
  // inputs in = network port p < ports_, then injection channel ports_ + i;
  // outputs o = network port o < ports_, then ejection channel ports_ + j.
  size_t idx(int r, int in, int vc) const { return (size_t(r) * size_t(nin_) + size_t(in)) * size_t(vcs_) + size_t(vc); }
  size_t hidx(int r, int out, int vc) const {
    return (size_t(r) * size_t(nout_) + size_t(out)) * size_t(vcs_) + size_t(vc);
  }
  int ports_ = 0, nin_ = 0, nout_ = 0, vcs_ = 1;
  std::vector<Ring> rings_;
  std::vector<int32_t> open_;    // packet currently arriving on an input VC (body flits carry no id)
  std::vector<int32_t> holder_;  // packet holding an output VC (network o) or ejection channel (ports + j)
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
