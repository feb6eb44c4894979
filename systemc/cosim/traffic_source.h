// Bernoulli packet source of one node: a packet is created in a cycle with
// probability rate/L. Inter-arrival gaps are drawn geometrically, which is the
// same process with one random draw per packet instead of one per cycle.
#pragma once
#include <cmath>
#include <cstdint>

#include "systemc/core/packet.h"
#include "systemc/core/rng.h"
#include "systemc/cosim/network_interface.h"
#include "systemc/cosim/patterns.h"

namespace wn {

class TrafficSource {
 public:
  TrafficSource(int node, const TrafficPattern& pattern, double packet_prob, int flits, uint64_t seed)
      : node_(node), pattern_(pattern), p_(packet_prob), flits_(flits), rng_(derive_seed(seed, uint64_t(node))) {
    next_ = p_ > 0 ? gap() - 1 : kNever;
  }
  // Creates the packets of cycle `now` and posts them to the NI.
  template <typename OnCreate>
  void generate(uint64_t now, PacketStore& store, NetworkInterface& ni, bool measured, OnCreate&& on_create) {
    while (next_ <= now) {
      const int dst = pattern_.dest(node_, rng_);
      if (dst >= 0) {
        PacketRecord p;
        p.src = node_;
        p.dst = dst;
        p.flits = flits_;
        p.created = now;
        p.measured = measured;
        const uint32_t id = store.add(p);
        ni.post(id);
        on_create(id);
      }
      next_ += gap();
    }
  }
  uint64_t next_arrival() const { return next_; }
  void stop() { next_ = kNever; }

 private:
  uint64_t gap() {
    if (p_ >= 1.0) return 1;
    const double u = 1.0 - uniform01(rng_);  // (0, 1]
    return 1 + uint64_t(std::floor(std::log(u) / std::log1p(-p_)));
  }
  int node_;
  const TrafficPattern& pattern_;
  double p_;
  int flits_;
  Rng rng_;
  uint64_t next_ = kNever;
};

}  // namespace wn
