#include "algorithms/registry.h"

#include "algorithms/baselines.h"
#include "algorithms/hypercube.h"
#include "core/config_error.h"

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

}  // namespace wn::alg
