// The papers' linear step model applied to a schedule: no contention, no
// skew between nodes. A step costs the most serialized startups of any node
// (k sends x alpha), plus its slowest message's network time (3(h+1)+F-1),
// plus the most serialized receive completions and copy/combine work of any
// node (k recvs x gamma + words x cycles/word); the steps add up, e.g. RD
// broadcast = sum over ceil(log2 N) steps of alpha + 3(h_s+1) + F-1 + gamma.
// With a memory port of W words per cycle, a step's network time is at least the words its
// busiest node sends and receives over W (a lower bound; equal when the port is the bottleneck
// throughout the step, as on a one-word port).
#pragma once
#include "algorithms/cost_model.h"
#include "algorithms/schedule.h"
#include "systemc/topology/topology.h"

namespace wn::alg {

double step_model_cycles(const Schedule& s, const Topology& topo, const CostParams& c);
// The prediction most families give: the schedule's steps, the step model's cycles, and the
// closed form `formula` (the family's own words).
Prediction step_model_prediction(const Schedule& s, const Topology& topo, const CostParams& c, std::string formula);
// Largest hop count of any message of the schedule, and the longest message.
int max_hops(const Schedule& s, const Topology& topo);
uint32_t max_message_words(const Schedule& s);

}  // namespace wn::alg
