// `wormnet sweep SPEC.yaml` and its tools (--summarize, --merge, --emit).
// The spec is expanded once (experiments/sweep_spec.h); each point's options
// are built by the command's own CLI options (run_options.h, options.h), so a
// point behaves exactly as the equivalent `wormnet run|check|traffic` line.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiments/sweep_spec.h"

namespace wn::cli {

struct SpecSweepArgs {
  std::string spec, out;
  unsigned jobs = 0;                   // 0: the core count
  std::string shard;                   // "I/N": only points with index % N == I (array tasks, parallel jobs)
  std::vector<std::string> emit;       // {"parallel" | "slurm", DIR}
  unsigned chunks = 0, throttle = 16;  // --emit: tasks (0: min(points, 64)); Slurm tasks running at once
  std::vector<std::string> merge;
  std::string summarize, by = "algorithm,ports,bytes", csv;
  std::string baseline;  // --summarize: KEY=VALUE; SPEC.yaml and --merge: a results file to compare with
  double tolerance = 0;  // with a baseline results file: the relative change a number may move by
};

// The rules the spec parser checks keys against, from the commands' CLI options.
std::map<std::string, SpecRules> sweep_rules();
// Validates every point (parses its options, resolves the network and the algorithm)
// and returns, per point, the job a forked child runs. ConfigError names the file and the point.
std::vector<std::function<nlohmann::json()>> point_jobs(const SweepSpec& spec, const std::string& file);

int run_spec_sweep(const SpecSweepArgs& a);
int run_merge(const SpecSweepArgs& a);
int run_summarize(const SpecSweepArgs& a);
int run_emit(const SpecSweepArgs& a);

}  // namespace wn::cli
