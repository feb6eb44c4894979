// `wormnet tune`: every candidate algorithm (and knob) of one CCL operation measured cycle by cycle
// at each message size, into a tuning table (algorithms/ccl/tuning.h) that `--ccl-alg tuned
// --tuning FILE` reads. tune_command.cpp: options, checks and candidates; tune_run.cpp: the runs
// (resumable, like sweeps) and the table.
#pragma once
#include <string>
#include <vector>

#include "algorithms/ccl/tuning.h"
#include "app/run_options.h"

namespace wn::cli {

struct TuneArgs {
  std::string out = "tune.jsonl";  // results, one line per finished run, appended and resumed
};

// One message size and what is tried at it; `auto_pick` is --ccl-alg auto's choice (also among
// the candidates).
struct TuneSize {
  uint64_t bytes = 0;
  std::vector<alg::ccl::TunedOptions> candidates;
  alg::ccl::TunedOptions auto_pick;
  std::vector<std::string> skipped;  // candidates the call refuses at this size, with why
};

struct TunePlan {
  fw::ScheduleRunOptions base;  // the run's options (--algorithm: the one ccl operation)
  alg::ccl::TuningScope scope;
  std::string profile;
  std::string config_key;  // every option a result depends on, besides size and candidate
  std::vector<TuneSize> sizes;
};

TunePlan plan_tune(const RunCli& c);               // every check before any simulation
int run_tune(const RunCli& c, const TuneArgs& a);  // the runs, the table, --json

}  // namespace wn::cli
