// The generic schedule interpreter: node firmware that executes one node's
// program of an alg::Schedule with the semantics documented in
// algorithms/schedule.h (locals, then sends with serialized startups, then
// receives in arrival order, then wait for the step's injections). With
// `barrier`, every step starts with NodeApi::step_barrier (the papers'
// synchronous steps); without, nodes run free.
#pragma once
#include <vector>

#include "algorithms/schedule.h"
#include "firmware/node_api.h"

namespace wn::fw {

void run_program(NodeApi& api, const std::vector<alg::Step>& program, bool barrier = false);

}  // namespace wn::fw
