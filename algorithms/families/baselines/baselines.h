// Baseline collectives (comparison points for the papers' algorithms). Each
// builder works over ranks 0..n-1 of args.group (resolved by the pipeline,
// which maps the schedule onto physical nodes). Memory layouts are documented
// in each builder's file. Payload words encode (owner rank, block, offset):
// data_word() below, distinct over the machine for N*N*M < 2^30.
#pragma once
#include <vector>

#include "algorithms/group.h"
#include "algorithms/registry.h"

namespace wn::alg {

inline Word data_word(int rank, uint32_t block, uint32_t offset, int nranks, uint32_t words) {
  return 0x40000000u + (uint32_t(rank) * uint32_t(nranks) + block) * words + offset;
}
// A distinct "garbage" word for memory that the operation must overwrite.
inline Word scratch_word(int rank, uint32_t addr) { return 0xc0000000u ^ (uint32_t(rank) << 20) ^ addr; }


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
