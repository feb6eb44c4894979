// A schedule file as an algorithm: everything that runs, checks, compares or sweeps a built-in
// (the pipeline, the step model, the reports) takes a file the same way. Ranks map onto the
// group's nodes in order (no group: rank r on node r); the file's sizes are its own.
#pragma once
#include <string>

#include "algorithms/registry.h"
#include "algorithms/schedule_file.h"

namespace wn::alg {

// Read once per process and path; throws ConfigError(path, ...) for a malformed file.
const AlgorithmInfo& schedule_file_algorithm(const std::string& path);
const ScheduleFile& schedule_file_of(const AlgorithmInfo& info);  // info.file is not empty

// The lower bound a collective claim implies in the linear step model, where wormnet can
// compute one (rooted and all- broadcasts / reductions / gathers); steps 0 when none.
struct ClaimBound {
  int steps = 0;
  double cycles = 0;
  std::string formula;
};
ClaimBound claim_lower_bound(const CollectiveClaim& c, int ranks, const CostParams& cost);

}  // namespace wn::alg
