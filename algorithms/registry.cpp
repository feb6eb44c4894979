#include "algorithms/registry.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>

#include "algorithms/families/baselines/baselines.h"
#include "algorithms/families/hypercube/hypercube.h"
#include "systemc/core/config_error.h"

namespace wn::alg {

const std::vector<AlgorithmInfo>& algorithms() {
  static const std::vector<AlgorithmInfo> all = [] {
    std::vector<AlgorithmInfo> v;
    add_baselines(v);
    add_hypercube(v);
    return v;
  }();
  return all;
}

const AlgorithmInfo& find_algorithm(const std::string& name) {
  std::string allowed;
  for (const auto& a : algorithms()) {
    if (a.name == name) return a;
    allowed += (allowed.empty() ? "" : ", ") + a.name;
  }
  throw ConfigError("--algorithm", "unknown algorithm '" + name + "'; allowed: " + allowed);
}

uint64_t node_memory_limit_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  const uint64_t ram = pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : (uint64_t{3} << 30);
  return std::max(uint64_t{1} << 30, ram / 3);
}

void check_node_memory(const Topology& topo, uint64_t words_per_node) {
  const uint64_t total = words_per_node * uint64_t(topo.nodes()) * 4, limit = node_memory_limit_bytes();
  if (total > limit)
    throw ConfigError("--bytes", fmt::format("{} words per node need {} MiB of simulated node memory on {}; allowed: "
                                             "at most {} MiB here (a third of this machine's RAM)",
                                             words_per_node, total >> 20, topo.name(), limit >> 20));
}

}  // namespace wn::alg
