// Hypercube all-to-all broadcast (all-gather) and reduction (reduce-scatter)
// of Mathur & Johnsson (CM-200). Every builder runs on cube:d,
// M' = args.words elements per node (any M', not only multiples of d), binary
// or Gray-coded node order of the data (the family option --order).
//
// Broadcast memory (per node, M' words per block, N = 2^d blocks):
//   OUT   [0, N*M')      step buffers: OUT block 0 = own data, block u+1 = what
//                        arrived in step u (the paper's working register rows)
//   FINAL [N*M', 2N*M')  the gathered array in global order after the reorder
//   IDX   [2N*M', 2N*M' + N*ceil(M'/2)) moved indices, one per 64-bit element (d-cycles with --indices moved)
// Element values are their global index (source block * M' + offset), so a
// snapshot of OUT reads like the paper's Figures 7-11.
// Reduction memory: ACC [0, N*M') = N input blocks; the result block stays in
// place (block PA in binary order, G^{-1}(PA) in Gray order).
#pragma once
#include <vector>

#include "algorithms/registry.h"

namespace wn::alg {

// The family's options (family.cpp declares them).
inline bool gray_order(const AlgorithmArgs& a) { return a.options.word("--order") == "gray"; }
// d-cycles: the reorder indices travel with the data instead of being computed.
inline bool moved_indices(const AlgorithmArgs& a) { return a.options.word("--indices") == "moved"; }
// hc-dcycles-reduce: M elements per node in the CM-200's uneven blocks (0: N x M').
inline uint32_t total_elements(const AlgorithmArgs& a) { return uint32_t(a.options.number("--elements")); }

Schedule build_hc_single_broadcast(const Topology& topo, const AlgorithmArgs& args);
Schedule build_hc_dcycles_broadcast(const Topology& topo, const AlgorithmArgs& args);
Schedule build_hc_single_reduce(const Topology& topo, const AlgorithmArgs& args);
Schedule build_hc_dcycles_reduce(const Topology& topo, const AlgorithmArgs& args);
Schedule build_hc_butterfly(const Topology& topo, const AlgorithmArgs& args);
Schedule build_hc_reduce_spread(const Topology& topo, const AlgorithmArgs& args);
Schedule build_hc_nesbt(const Topology& topo, const AlgorithmArgs& args);
Schedule build_hc_send_spread(const Topology& topo, const AlgorithmArgs& args);
// Edge-disjoint spanning binomial tree k of the d-cube rooted at 0.
uint32_t esbt_parent(uint32_t x, int k, int d);
int esbt_depth(uint32_t x, int k, int d);
// Height of the ESBTs: d + 1 for d >= 2 (the root's single child spans a sub-cube), 1 for d = 1.
uint32_t esbt_height(int d);
// send-spread's pipelined spread: each tree's part of the N*M' array in `count` chunks of `words`.
struct SpreadChunks {
  uint32_t words = 1, count = 1;
};
SpreadChunks spread_chunks(uint32_t n, uint32_t m, int d);

// Words [base + k*d + i] for all k with k*d + i < mprime: slot i of a block.
std::vector<Range> slot_ranges(uint32_t base, uint32_t mprime, int d, int i);
// Value of a reduction input: node's block b, element s.
Word reduce_input(int node, uint32_t block, uint32_t s, uint32_t mprime);

}  // namespace wn::alg
