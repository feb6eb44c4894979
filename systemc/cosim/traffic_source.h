// Bernoulli packet source of one node: a packet is created in a cycle with
// probability rate/L. Inter-arrival gaps are drawn geometrically, which is the
// same process with one random draw per packet instead of one per cycle.
//
// The source queue (packets created, not yet in the network) is stored as a
// count, not as packets: the node's random stream is replayed by a second copy
// of the generator that lags behind, and a packet's destination and creation
// cycle are drawn again when it enters the network (take()). The draws are the
// same numbers in the same order, so every packet is the one the plain queue
// would have held, and memory past saturation stays flat however long the
// queue grows. With a queue limit, a packet created at a full queue is refused
// (counted, never sent); the queue then remembers its accepted and refused
// packets as runs, at most one per accepted packet.
#pragma once
#include <cmath>
#include <cstdint>
#include <deque>

#include "systemc/core/packet.h"
#include "systemc/core/rng.h"
#include "systemc/cosim/patterns.h"

namespace wn {

class TrafficSource {
 public:
  // `queue_limit`: packets the queue holds at most (0: no limit).
  TrafficSource(int node, const TrafficPattern& pattern, double packet_prob, int flits, uint64_t seed,
                uint64_t queue_limit = 0)
      : node_(node),
        pattern_(pattern),
        p_(packet_prob),
        flits_(flits),
        limit_(queue_limit),
        lead_{Rng(derive_seed(seed, uint64_t(node))), kNever} {
    lead_.next = p_ > 0 ? gap(lead_.rng) - 1 : kNever;
    lag_ = lead_;
  }
  // The packets due at cycle `now` (the caller calls this in every cycle with next_arrival() <=
  // now, so a packet's creation cycle is its arrival cycle). on_create() once per packet created,
  // refused ones included.
  template <typename OnCreate>
  void generate(uint64_t now, OnCreate&& on_create) {
    while (lead_.next <= now) {
      const int dst = pattern_.dest(node_, lead_.rng);
      if (dst >= 0) {
        if (limit_ && queued_ >= limit_) {
          ++refused_;
          runs_.back().refused++;  // queued_ >= 1: there is a run
        } else {
          ++queued_;
          ++created_;
          if (runs_.empty() || runs_.back().refused) runs_.push_back({0, 0});
          runs_.back().accepted++;
        }
        on_create();
      }
      lead_.next += gap(lead_.rng);
    }
  }
  uint64_t next_arrival() const { return lead_.next; }
  void stop() { lead_.next = kNever; }

  // The oldest queued packet, taken out of the queue: it enters the network now.
  struct Queued {
    uint64_t created;
    int dst;
  };
  Queued take() {
    for (;;) {
      Run& r = runs_.front();
      const Queued q = replay();
      if (r.accepted) {
        --queued_;
        if (--r.accepted == 0 && r.refused == 0) runs_.pop_front();
        return q;
      }
      if (--r.refused == 0) runs_.pop_front();  // a refused packet: drawn, never sent
    }
  }
  uint64_t queued() const { return queued_; }
  uint64_t created() const { return created_; }  // accepted into the queue
  uint64_t refused() const { return refused_; }
  int flits() const { return flits_; }

 private:
  struct Stream {
    Rng rng;
    uint64_t next = kNever;  // the next arrival cycle
  };
  struct Run {  // `accepted` queued packets, then `refused` refused ones, in creation order
    uint64_t accepted, refused;
  };
  uint64_t gap(Rng& rng) const {
    if (p_ >= 1.0) return 1;
    const double u = 1.0 - uniform01(rng);  // (0, 1]
    return 1 + uint64_t(std::floor(std::log(u) / std::log1p(-p_)));
  }
  // The lagging stream's next packet, with exactly the lead's draws (destination, then gap).
  Queued replay() {
    for (;;) {
      const int dst = pattern_.dest(node_, lag_.rng);
      const uint64_t created = lag_.next;
      lag_.next += gap(lag_.rng);
      if (dst >= 0) return {created, dst};
    }
  }
  int node_;
  const TrafficPattern& pattern_;
  double p_;
  int flits_;
  uint64_t limit_;
  Stream lead_, lag_;
  std::deque<Run> runs_;
  uint64_t queued_ = 0, created_ = 0, refused_ = 0;
};

}  // namespace wn
