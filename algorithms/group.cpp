#include "algorithms/group.h"

#include <fmt/format.h>

#include <set>

#include "systemc/core/config_error.h"

namespace wn::alg {

int ceil_log2(int n) {
  int l = 0;
  while ((1 << l) < n) ++l;
  return l;
}

std::vector<int> resolve_group(const Topology& topo, const std::vector<int>& group) {
  if (group.empty()) {
    std::vector<int> all(size_t(topo.nodes()));
    for (int i = 0; i < topo.nodes(); ++i) all[size_t(i)] = i;
    return all;
  }
  std::set<int> seen;
  for (int g : group) {
    if (g < 0 || g >= topo.nodes())
      throw ConfigError(Param::group,
                        fmt::format("node {} is not in {}; allowed: 0..{}", g, topo.name(), topo.nodes() - 1));
    if (!seen.insert(g).second)
      throw ConfigError(Param::group, fmt::format("node {} listed twice; allowed: distinct ids", g));
  }
  if (group.size() < 2) throw ConfigError(Param::group, "needs at least 2 nodes");
  return group;
}

int rank_in_group(const Topology& topo, const std::vector<int>& group, int source, bool whole_network) {
  for (size_t r = 0; r < group.size(); ++r)
    if (group[r] == source) return int(r);
  if (whole_network)
    throw ConfigError(Param::source, fmt::format("{} is not a node of {}; allowed: 0..{} or random", source,
                                                 topo.name(), topo.nodes() - 1));
  throw ConfigError(Param::source, fmt::format("node {} is not in {}; allowed: a member of the group", source,
                                               param_ref(Param::group)));
}

}  // namespace wn::alg
