// The runner of `wormnet compare` (app/compare_run.cpp), shared with `wormnet tau`, which fits the
// same selection's results.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "app/regression_output.h"
#include "app/run_options.h"

namespace wn::cli {

// Runs every point, prints the table (headed "wormnet COMMAND") and writes --json; `report_out`,
// when given, receives the report as written. Returns the exit code.
int run_compare(const RunCli& c, bool with_cost, const RegressionArgs& reg, nlohmann::json* report_out = nullptr,
                const std::string& command = "compare");

}  // namespace wn::cli
