// The ccl family's --partition: disjoint groups running one operation at once.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "algorithms/schedule.h"
#include "systemc/topology/topology.h"

namespace wn::alg::ccl {

// The groups of `how` (row: same coordinates but x, ordered by x; col: same
// but y, ordered by y; even-odd: node parity), each in rank order. Throws
// ConfigError("--partition") for a cube's rows or a group of one node.
std::vector<std::vector<int>> partition_nodes(const Topology& topo, const std::string& how);
// One schedule on `nodes` physical nodes: build_for(group size) per group, remapped and merged.
Schedule merge_parts(const std::vector<std::vector<int>>& parts, const std::function<Schedule(int n)>& build_for,
                     int nodes);

}  // namespace wn::alg::ccl
