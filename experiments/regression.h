// Regressions: a new set of results against a baseline of the same points (a sweep's results
// file, or the rows of a compare report), every measured number of every point compared. Points
// are matched by what defines them (a sweep point's key: its command and parameters; a compare
// row's variant, port model, size and sources), never by what they measured. Plain functions of
// the JSON, so tests check them; app/ names the options and turns the verdict into an exit status.
#pragma once
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace wn {

using Measured = std::vector<std::pair<std::string, nlohmann::json>>;  // path -> number or boolean

// One point of a result set.
struct RegressionPoint {
  std::string id;     // identity across runs: the defining parameters as canonical text
  std::string label;  // the same as "k=v k=v" for the table
  bool ok = true;     // false: the point failed (`error` says why)
  std::string error;
  Measured metrics;
};

// Every measured number and boolean verdict of a result, by path ("cycles",
// "latency.maximum_cycles", "steps[2].delay.port"): scalars first, then those inside arrays, each
// group in key order. Leaves out the top-level keys in `skip` (what defines the point, and
// bookkeeping) and, at any depth, what depends on the host rather than the simulation: wall time,
// speed, host names, the build's version and git revision.
Measured measured_leaves(const nlohmann::json& result, const std::set<std::string>& skip);

// A sweep's result lines as points, one per key (the line latest_by_key keeps), ordered by the
// lines' "point" and then by first appearance: id the key, label the parameters.
std::vector<RegressionPoint> sweep_points(const std::vector<nlohmann::json>& lines);
// The summary rows of a wormnet.compare report as points: id the row's variant, algorithm, family
// options, port model, size, schedule file and number of sources. ConfigError(file) when the JSON
// is not a compare report.
std::vector<RegressionPoint> compare_rows(const nlohmann::json& report, const std::string& file);

// A baseline read before anything runs. ConfigError(Param::baseline) when `path` is not a readable
// regular file; ConfigError(path) naming the line when a line is not a point's result (as
// read_result_lines), or when the file has no point at all.
std::vector<nlohmann::json> read_results_baseline(const std::string& path);
// The same for a JSON report (one document): ConfigError(path) naming the line of a syntax error.
nlohmann::json read_report_baseline(const std::string& path);

struct MetricChange {
  std::string metric, before, after;  // values as the reports write them; "-" where one side has none
  std::optional<double> relative;     // (after - before) / |before|: both numbers, before not 0
};

struct PointChange {
  std::string label;
  std::vector<MetricChange> metrics;  // those beyond the tolerance
  std::string why;                    // a failed point: its error
};

struct Regression {
  double tolerance = 0;
  size_t compared = 0;   // points in both sets that ran
  size_t unchanged = 0;  // of those, nothing moved beyond the tolerance
  size_t within = 0;     // of the unchanged, something moved within the tolerance
  std::vector<PointChange> changed, failed;
  std::vector<std::string> fresh;    // labels of points the baseline does not have
  std::vector<std::string> missing;  // labels of baseline points the new set does not have
  bool clean() const { return changed.empty() && failed.empty() && missing.empty(); }
  // Per changed point each metric before -> after and the change in %, then the failed, new and
  // missing points.
  std::string table() const;
  // One line: "all N points unchanged ..." when clean, else every count.
  std::string summary() const;
};

// Points matched by id. A number moved when |after - before| > tolerance * |before|; a boolean,
// or a metric only one side has, when it differs. A point that failed in the new set is failed;
// one that failed only in the baseline changed ("ok"). ConfigError(Param::tolerance) when the
// tolerance is negative or not finite.
Regression compare_points(const std::vector<RegressionPoint>& baseline, const std::vector<RegressionPoint>& now,
                          double tolerance);

}  // namespace wn
