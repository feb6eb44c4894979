// Hypercube family tests: a cycle-accurate run on cube:d (lock-step backend
// unless WN_TEST_BACKEND says otherwise) and node memory after a step.
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "experiments/collective_run.h"

namespace wn::fw {

inline ScheduleRunOptions cube_run(int d, const std::string& algo, uint32_t mprime,
                                   const std::string& order = "binary") {
  ScheduleRunOptions o;
  o.topology = "cube:" + std::to_string(d);
  o.ports = "all";
  const char* b = std::getenv("WN_TEST_BACKEND");
  o.net.backend = parse_backend(b ? b : "lockstep");
  o.run.profile = find_profile("ideal");
  o.run.snapshots = true;
  o.algorithm = algo;
  o.bytes = 4 * mprime;
  if (order != "binary") o.family_options["--order"] = order;
  return o;
}

// Snapshot of node `pa`'s memory after step `u` (every node runs every step here).
inline const std::vector<alg::Word>& after_step(const ScheduleRunResult& r, int pa, uint32_t u) {
  const auto& spans = r.run.steps[size_t(pa)];
  for (const auto& s : spans)
    if (s.tag == u) return s.memory;
  static const std::vector<alg::Word> none;
  ADD_FAILURE() << "node " << pa << " has no step " << u;
  return none;
}

}  // namespace wn::fw
