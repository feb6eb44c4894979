// The EDN thesis's closed-form broadcast costs (Tsai's thesis: torus Eqs 4.1,
// 4.2 of Ch 4, mesh Table 5.3 of Ch 5), evaluated in this network's units so a run prints the
// thesis's number next to the measured one. The thesis's unicast is
// alpha + h beta + beta L + gamma with one beta for a hop and for a byte; our
// router's zero-load unicast is alpha + 3(h+1) + F - 1 + gamma (rtl/README.md),
// so here beta L = the message's body flits (1 cycle each) and a hop's beta =
// 3 cycles. The router's 3 cycles per message of head flit and ejection are
// not in the thesis's model: a contention-free run measures at least that
// much more per step.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "algorithms/cost_model.h"
#include "systemc/topology/topology.h"

namespace wn::alg {

// The Fibonacci tree of Table 5.3: N(t, K) nodes reached in t steps with K packets,
// N(t, K) = N(t - K, K) + N(t - 1, K) for t >= K, else 1 (saturating at 2^62), and t(P, K), the
// least t with N(t, K) >= P.
uint64_t ft_nodes(int t, int k);
int ft_steps(uint64_t p, int k);

struct ThesisCost {
  double cycles = 0;
  std::string formula;  // the thesis's name and form, with the values used
};

// The thesis's cost of broadcast `algorithm` (rd-broadcast, dim-broadcast,
// sc-broadcast, edn-broadcast, ft-broadcast) of `words` words on `topo`, where
// the thesis gives one: 2^n x 2^n meshes (Table 5.3), 2D tori (Eq 4.1, U-torus
// Eq 4.2 and its X x Y form). `packets`, `ft_steps`: the Fibonacci tree's K and t(P, K).
std::optional<ThesisCost> thesis_broadcast_cost(const std::string& algorithm, const Topology& topo, const CostParams& c,
                                                uint32_t words, int packets = 1, int ft_steps = 0);

}  // namespace wn::alg
