// The analytic cost model the algorithms predict with, in clock cycles: the
// papers' linear model (α startup per send, γ per receive, serialized per
// node; a per-hop and a per-flit term) instantiated with wormnet's router
// timing, so that a contention-free prediction can be compared exactly with
// the cycle-accurate run.
#pragma once
#include <cstdint>
#include <string>

#include "systemc/core/router_types.h"

namespace wn::alg {

// The whole cycles of `work` processor cycles after the `fraction` an earlier operation left,
// which becomes what this one leaves: a node charges fractions of a cycle per word and carries
// the remainder (a hair of tolerance, so that float sums of the same work agree).
inline double whole_cycles(double work, double& fraction) {
  const double total = fraction + work, whole = double(uint64_t(total + 1e-9));
  fraction = total > whole ? total - whole : 0;
  return whole;
}

// A local copy or combine of `words` words (a received message's store, or a reorder in memory):
// its processor cycles per word and, when it costs anything, the memory accesses it makes (a copy
// reads and writes each word, a combine reads both operands and writes one; a free one is done in
// place by the NI). The firmware charges it and the step model predicts it with this one rule.
struct LocalCost {
  double per_word = 0;
  uint64_t accesses = 0;
};
inline LocalCost local_cost(uint32_t words, bool copy, double copy_per_word, double combine_per_word,
                            double reorder_per_word) {
  const double per_word = copy ? copy_per_word + reorder_per_word : combine_per_word;
  return {per_word, per_word > 0 ? uint64_t(words) * (copy ? 2 : 3) : 0};
}

// The processor cycles of one index computation: `ops` local operations with computed addresses,
// `words` in all (a set-up per call, a part per operation and per word). The firmware charges it and
// the step model predicts it with this one rule.
inline double index_cost(uint64_t words, uint64_t ops, double setup, double per_op, double per_word) {
  return setup + per_op * double(ops) + per_word * double(words);
}

struct CostParams {
  double alpha = 0;                      // send startup, cycles (serialized per node)
  double gamma = 0;                      // receive completion, cycles (serialized per node)
  RouterTiming timing = kShippedTiming;  // the router in use: zero load P (h+1) + f (flits-1)
  int words_per_flit = 1;                // 32-bit words carried by one body flit
  uint32_t max_packet_words = 0;         // 0: a message is one packet (one worm)
  double copy_cycles_per_word = 0;       // receive copy / local copy
  double combine_cycles_per_word = 0;    // receive with a reduction operator
  double index_cycles_per_word = 0;      // computing an address per word (LocalOp::indexed)
  double reorder_cycles_per_word = 0;    // a local copy's extra per word (machine_profile.h)
  double index_setup_cycles = 0;         // per list of local operations with computed addresses
  double index_op_cycles = 0;            // per local operation with computed addresses
  int ports = 1;                         // injection (= ejection) channels per node
  // The node's memory port (systemc/cosim/memory_port.h): words per cycle for all its channels and
  // local copies together; 0: unlimited.
  double mem_words_per_cycle = 0;
  // A multi-port operation's extra startup and cycles per flit on each channel (machine_profile.h).
  double multiport_startup = 0;
  double multiport_flit_cycles = 1;

  // Packets and flits of a message of `words` words (one head flit per packet).
  uint32_t packets(uint32_t words) const;
  uint32_t flits(uint32_t words) const;
  // Network part of a message: head injected -> tail delivered, no contention.
  // Packets of one message follow each other on one channel; each head behind
  // a tail waits one cycle in the first router (its input VC is re-allocated
  // the cycle after the tail leaves, rtl/README.md §4): one bubble per extra packet.
  double network_cycles(int hops, uint32_t words) const {
    return double(timing.zero_load(hops, flits(words), packets(words)));
  }
  // The same for a message of a multi-port operation, whose body flits leave every
  // multiport_flit_cycles (the NI's pacing): body flit j (j = 0..) is presented ceil(j x) cycles
  // after the first, and the tail is delivered stage_cycles a router after it is presented, unless
  // the head's own pipeline is later (one packet; a split message: each packet paced alike).
  double multiport_network_cycles(int hops, uint32_t words) const;
  // The zero load's two terms as the predictions print them: "3(h+1)" and "F-1" for the shipped router.
  std::string hop_term() const { return std::to_string(timing.hop_cycles()) + "(h+1)"; }
  std::string flit_term() const {
    return timing.flit_cycles == 1 ? "F-1" : std::to_string(timing.flit_cycles) + "(F-1)";
  }
  // send() issued -> receive completed (copy excluded), no contention.
  double message_cycles(int hops, uint32_t words) const { return alpha + network_cycles(hops, words) + gamma; }
};

// What an algorithm predicts for one run.
struct Prediction {
  int steps = 0;
  double cycles = 0;
  std::string formula;     // the closed form, in the paper's terms, with values
  std::string data;        // the data the run moves, when --bytes alone does not say it (e.g. --elements)
  double lower_bound = 0;  // a lower bound on any algorithm for the operation (0: none given)
  std::string lower_bound_formula;
  // The source paper's own closed form, evaluated (0 / empty: the paper gives none for this case).
  double thesis_cycles = 0;
  std::string thesis_formula;
};

}  // namespace wn::alg
