// The papers' linear step model applied to a schedule: no contention, no skew between nodes.
// Each step starts on every node together; a node posts its sends one startup (alpha, plus the
// multi-port startup; one per `ports` sends of a multi-port operation) after another, each takes
// the injection channel free first and reaches its receiver in its network time
// (3(h+1) + F-1), a receiver's ejection channels delivering what arrives one message after
// another; the step ends at its last delivery, plus the most serialized receive completions and
// copy/combine work of any node (k recvs x gamma + words x cycles/word). The steps add up, e.g.
// RD broadcast = sum over ceil(log2 N) steps of alpha + 3(h_s+1) + F-1 + gamma.
// With a memory port of W words per cycle, a node's messages end no earlier than its first
// message plus the words it sends and receives over W (a lower bound; equal when the port is the
// bottleneck throughout the step, as on a one-word port).
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
