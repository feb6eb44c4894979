// `wormnet sweep --summarize`: a results file grouped by some parameters
// (typically all but the source), with mean / min / max / p95 over each
// group's points of the metrics the papers plot, and a speed-up against a
// baseline group. Plain functions of the JSON lines, so tests check the numbers.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wn {

struct SummaryOptions {
  std::vector<std::string> by;               // parameter names; a line's value comes from its params, else its result
  std::string baseline_key, baseline_value;  // "algorithm", "rd-broadcast"; empty: no speed-up column
};

struct Stats {
  size_t n = 0;
  double mean = 0, min = 0, max = 0, p95 = 0;  // p95: nearest rank, the ceil(0.95 n)-th smallest
};
Stats stats_of(std::vector<double> v);

struct SummaryTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::string text() const;  // aligned columns
  std::string csv() const;
};

// Lines are those of latest_by_key() (one per point); failed points are counted, not averaged.
// ConfigError(Param::by / "--baseline") for a key no line has.
SummaryTable summarize(const std::vector<nlohmann::json>& lines, const SummaryOptions& opt);

}  // namespace wn
