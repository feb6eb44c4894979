#include "app/regression_output.h"

#include <fmt/format.h>

#include "systemc/core/config_error.h"

namespace wn::cli {

void check_tolerance_read(bool tolerance_given, const std::string& baseline) {
  if (tolerance_given && baseline.empty())
    throw ConfigError(
        "--tolerance",
        "given without --baseline, so nothing would read it; allowed: --tolerance X with --baseline FILE");
}

int print_regression(const std::vector<RegressionPoint>& baseline, const std::vector<RegressionPoint>& now,
                     const std::string& file, double tolerance) {
  const Regression r = compare_points(baseline, now, tolerance);
  const std::string table = r.table();
  if (table.empty())
    fmt::print("regression against {}: {}\n", file, r.summary());
  else
    fmt::print("regression against {}:\n{}{}\n", file, table, r.summary());
  std::fflush(stdout);
  return r.clean() ? 0 : 1;
}

int sweep_regression(const std::vector<nlohmann::json>& results, const std::vector<nlohmann::json>& baseline,
                     const std::set<std::string>& keys, bool restrict_baseline, const RegressionArgs& r) {
  auto only = [&](const std::vector<nlohmann::json>& lines, bool restrict) {
    std::vector<nlohmann::json> out;
    for (const auto& j : lines)
      if (!restrict || keys.count(j["key"].get<std::string>())) out.push_back(j);
    return out;
  };
  return print_regression(sweep_points(only(baseline, restrict_baseline && !keys.empty())),
                          sweep_points(only(results, !keys.empty())), r.baseline, r.tolerance);
}

}  // namespace wn::cli
