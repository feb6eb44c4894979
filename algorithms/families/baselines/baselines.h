// Baseline collectives (comparison points for the papers' algorithms). Each
// builder works over ranks 0..n-1 of args.group (resolved by the pipeline,
// which maps the schedule onto physical nodes). Memory layouts are documented
// in each builder's file. Payload words: algorithms/data_words.h.
#pragma once
#include <vector>

#include "algorithms/data_words.h"
#include "algorithms/group.h"
#include "algorithms/registry.h"

namespace wn::alg {

Schedule build_rd_broadcast(const Topology& topo, const AlgorithmArgs& args);
Schedule build_direct_alltoall(const Topology& topo, const AlgorithmArgs& args);
Schedule build_pairwise_exchange(const Topology& topo, const AlgorithmArgs& args);
Schedule build_ring_allgather(const Topology& topo, const AlgorithmArgs& args);
Schedule build_ring_reduce_scatter(const Topology& topo, const AlgorithmArgs& args);
Schedule build_binomial_reduce(const Topology& topo, const AlgorithmArgs& args);
Schedule build_binomial_gather(const Topology& topo, const AlgorithmArgs& args);
Schedule build_binomial_scatter(const Topology& topo, const AlgorithmArgs& args);
Schedule build_direct_transpose(const Topology& topo, const AlgorithmArgs& args);

}  // namespace wn::alg
