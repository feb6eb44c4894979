// Process groups and ranks, shared by every family: a family whose algorithms
// work over ranks 0..n-1 (AlgorithmInfo::groups) gets the group resolved into
// AlgorithmArgs::group by the pipeline, and the pipeline maps its schedule
// onto the physical nodes once (remap_group).
#pragma once
#include <vector>

#include "systemc/topology/topology.h"

namespace wn::alg {

// --group as physical node ids (0..N-1 when empty), validated: throws
// ConfigError(Param::group) for duplicates, out-of-range ids or fewer than 2.
std::vector<int> resolve_group(const Topology& topo, const std::vector<int>& group);
// The rank of `source` inside `group`; throws ConfigError(Param::source).
// `whole_network`: the group is every node (no --group given).
int rank_in_group(const Topology& topo, const std::vector<int>& group, int source, bool whole_network);
// ceil(log2 n) for n >= 1.
int ceil_log2(int n);

}  // namespace wn::alg
