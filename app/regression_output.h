// `--baseline FILE [--tolerance X]` of `wormnet sweep` and `wormnet compare`: the new points
// against the baseline's (experiments/regression.h), printed as a table and one summary line.
#pragma once
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiments/regression.h"

namespace wn::cli {

struct RegressionArgs {
  std::string baseline;  // empty: no regression
  double tolerance = 0;
};

// --tolerance given without --baseline would be ignored: ConfigError naming it.
void check_tolerance_read(bool tolerance_given, const std::string& baseline);

// Prints the regression of `now` against `baseline` (read from `file`); 0 when nothing moved beyond
// the tolerance and no point failed or went missing, else 1.
int print_regression(const std::vector<RegressionPoint>& baseline, const std::vector<RegressionPoint>& now,
                     const std::string& file, double tolerance);

// A sweep's results against baseline lines: only the points in `keys` (all when empty); the
// baseline too when `restrict_baseline` (a shard compares its own points).
int sweep_regression(const std::vector<nlohmann::json>& results, const std::vector<nlohmann::json>& baseline,
                     const std::set<std::string>& keys, bool restrict_baseline, const RegressionArgs& r);

}  // namespace wn::cli
