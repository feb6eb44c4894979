// Tests build schedules the way the product does: through the pipeline
// (options, group, source, checks, generator, remap, validation).
#pragma once
#include <map>
#include <string>

#include "algorithms/pipeline.h"

namespace wn::alg {

inline Schedule make_schedule(const std::string& algo, const Topology& topo, AlgorithmArgs a,
                              const std::map<std::string, std::string>& options = {}) {
  const AlgorithmInfo& info = find_algorithm(algo);
  a.options = parse_options(info, options);
  return build_schedule(info, topo, a).schedule;
}

}  // namespace wn::alg
