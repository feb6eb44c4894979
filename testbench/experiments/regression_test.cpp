// Regressions as plain functions (experiments/regression.h): which leaves of a result are
// measurements, points matched by what defines them, the tolerance, failed / new / missing
// points, compare rows, and baselines that are not what they should be.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "experiments/regression.h"
#include "systemc/core/config_error.h"

namespace wn {
namespace {

nlohmann::json line(const std::string& key, const std::string& source, double cycles) {
  return {{"key", key},
          {"ok", true},
          {"point", std::stoi(source)},
          {"command", "run"},
          {"params", {{"algorithm", "rd-broadcast"}, {"source", source}}},
          {"config", {{"bytes", 32}, {"seed", 1}}},
          {"cycles", cycles},
          {"latency", {{"average_cycles", 44.4}, {"maximum_cycles", cycles}}},
          {"steps", {{{"end", 17}}, {{"end", cycles}}}},
          {"data_check", "PASS"},
          {"wall_seconds", 0.5},
          {"wormnet", {{"version", "0.9.0"}, {"git", "abc"}}}};
}

TEST(Regression, MeasuredLeavesAreNumbersAndVerdictsNotIdentityOrHost) {
  const Measured m = measured_leaves(line("k", "0", 62), {"key", "point", "command", "params", "config"});
  std::vector<std::string> paths;
  for (const auto& [p, v] : m) paths.push_back(p);
  // Scalars in key order, then the leaves inside arrays; no strings, wall time, identity or config.
  EXPECT_EQ(paths, (std::vector<std::string>{"cycles", "latency.average_cycles", "latency.maximum_cycles", "ok",
                                             "steps[0].end", "steps[1].end"}));
  EXPECT_EQ(m[0].second, 62);
}

TEST(Regression, SamePointsSameNumbersAreAllUnchanged) {
  const std::vector<nlohmann::json> a = {line("k0", "0", 62), line("k1", "1", 70)};
  const Regression r = compare_points(sweep_points(a), sweep_points(a), 0);
  EXPECT_TRUE(r.clean());
  EXPECT_EQ(r.compared, 2u);
  EXPECT_EQ(r.unchanged, 2u);
  EXPECT_EQ(r.table(), "");
  EXPECT_EQ(r.summary(), "all 2 points unchanged (tolerance 0); 0 new, 0 missing from the new run");
}

TEST(Regression, AMovedNumberNamesThePointBeforeAfterAndPercent) {
  const std::vector<nlohmann::json> base = {line("k0", "0", 62), line("k1", "1", 70)};
  const std::vector<nlohmann::json> now = {line("k0", "0", 62), line("k1", "1", 77)};
  const Regression r = compare_points(sweep_points(base), sweep_points(now), 0);
  EXPECT_FALSE(r.clean());
  ASSERT_EQ(r.changed.size(), 1u);
  EXPECT_EQ(r.changed[0].label, "algorithm=rd-broadcast source=1");
  ASSERT_EQ(r.changed[0].metrics.size(), 3u);  // cycles, latency.maximum_cycles, steps[1].end
  EXPECT_EQ(r.changed[0].metrics[0].metric, "cycles");
  EXPECT_EQ(r.changed[0].metrics[0].before, "70.0");
  EXPECT_EQ(r.changed[0].metrics[0].after, "77.0");
  EXPECT_DOUBLE_EQ(*r.changed[0].metrics[0].relative, 0.1);
  EXPECT_EQ(r.changed[0].metrics[2].metric, "steps[1].end");
  EXPECT_NE(r.table().find("changed  algorithm=rd-broadcast source=1\n"), std::string::npos) << r.table();
  EXPECT_NE(r.table().find("    cycles                  70.0 → 77.0  +10.00 %\n"), std::string::npos) << r.table();
  EXPECT_EQ(r.summary(), "1 point unchanged, 1 changed, 0 failed, 0 new, 0 missing from the new run (tolerance 0)");
  // 10 % is within a tolerance of 0.1, not within 0.09.
  const Regression loose = compare_points(sweep_points(base), sweep_points(now), 0.1);
  EXPECT_TRUE(loose.clean());
  EXPECT_EQ(loose.within, 1u);
  EXPECT_EQ(loose.summary(),
            "all 2 points unchanged (tolerance 0.1, 1 of them moved within it); 0 new, 0 missing from the new run");
  EXPECT_FALSE(compare_points(sweep_points(base), sweep_points(now), 0.09).clean());
}

TEST(Regression, FromZeroBooleansAndOneSidedMetricsAreChanges) {
  auto base = line("k0", "0", 62), now = base;
  base["contention"] = {{"port", 0}};
  now["contention"] = {{"port", 3}};
  now["deadlock"] = true;  // the baseline has no such metric
  base["drained"] = true;
  now["drained"] = false;
  const Regression r = compare_points(sweep_points({base}), sweep_points({now}), 1000);
  ASSERT_EQ(r.changed.size(), 1u);
  const auto& m = r.changed[0].metrics;
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].metric, "contention.port");
  EXPECT_FALSE(m[0].relative.has_value());  // from 0: no percentage, any tolerance
  EXPECT_EQ(m[1].metric, "deadlock");
  EXPECT_EQ(m[1].before, "-");
  EXPECT_EQ(m[2].metric, "drained");
  EXPECT_EQ(m[2].after, "false");
  EXPECT_NE(r.table().find("(was 0)"), std::string::npos) << r.table();
}

TEST(Regression, FailedNewAndMissingPoints) {
  auto failed = line("k1", "1", 0);
  failed = {{"key", "k1"}, {"ok", false}, {"error", "deadlock"}, {"params", failed["params"]}};
  const std::vector<nlohmann::json> base = {line("k0", "0", 62), line("k1", "1", 70), line("k2", "2", 70)};
  const std::vector<nlohmann::json> now = {line("k0", "0", 62), failed, line("k3", "3", 70)};
  const Regression r = compare_points(sweep_points(base), sweep_points(now), 0);
  EXPECT_FALSE(r.clean());
  EXPECT_EQ(r.compared, 1u);
  ASSERT_EQ(r.failed.size(), 1u);
  EXPECT_EQ(r.failed[0].why, "deadlock");
  EXPECT_EQ(r.fresh, (std::vector<std::string>{"algorithm=rd-broadcast source=3"}));
  EXPECT_EQ(r.missing, (std::vector<std::string>{"algorithm=rd-broadcast source=2"}));
  EXPECT_EQ(r.summary(), "1 point unchanged, 0 changed, 1 failed, 1 new, 1 missing from the new run (tolerance 0)");
  // Only new points: nothing moved, nothing is missing.
  const Regression grown = compare_points(sweep_points({base[0]}), sweep_points({base[0], base[1]}), 0);
  EXPECT_TRUE(grown.clean());
  EXPECT_EQ(grown.summary(), "all 1 point unchanged (tolerance 0); 1 new, 0 missing from the new run");
  // A point that failed in the baseline and runs now is a change.
  const Regression healed = compare_points(sweep_points({failed}), sweep_points({base[1]}), 0);
  ASSERT_EQ(healed.changed.size(), 1u);
  EXPECT_EQ(healed.changed[0].why, "failed in the baseline: deadlock");
}

TEST(Regression, ToleranceMustBeANonNegativeNumber) {
  for (double t : {-1.0, std::nan(""), HUGE_VAL}) {
    try {
      compare_points({}, {}, t);
      ADD_FAILURE() << t;
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.param(), Param::tolerance);
    }
  }
}

nlohmann::json compare_report(double cycles) {
  auto row = [&](const std::string& ports, double c) {
    return nlohmann::json{{"algorithm", "rd-broadcast"},
                          {"variant", "rd-broadcast"},
                          {"options", nlohmann::json::object()},
                          {"ports", ports},
                          {"bytes", 32},
                          {"sources", 1},
                          {"data_ok", 1},
                          {"mean_cycles", c},
                          {"mean_delay", {{"port", 11.0}}}};
  };
  return {{"schema", "wormnet.compare/3"},
          {"runs", nlohmann::json::array()},
          {"summary", {row("one", 62), row("all", cycles)}}};
}

TEST(Regression, CompareRowsMatchByVariantPortsAndSize) {
  const auto base = compare_rows(compare_report(62), "b.json");
  ASSERT_EQ(base.size(), 2u);
  EXPECT_EQ(base[1].label, "rd-broadcast ports=all bytes=32");
  Measured expected = {{"data_ok", 1}, {"mean_cycles", 62.0}, {"mean_delay.port", 11.0}};
  EXPECT_EQ(base[1].metrics, expected);
  EXPECT_TRUE(compare_points(base, compare_rows(compare_report(62), "n.json"), 0).clean());
  const Regression r = compare_points(base, compare_rows(compare_report(93), "n.json"), 0);
  ASSERT_EQ(r.changed.size(), 1u);
  EXPECT_EQ(r.changed[0].label, "rd-broadcast ports=all bytes=32");
  EXPECT_DOUBLE_EQ(*r.changed[0].metrics[0].relative, 0.5);
  // A report of another kind, or a row without its identity, is named by the file.
  EXPECT_THROW(compare_rows(nlohmann::json{{"schema", "wormnet.run/2"}}, "x.json"), ConfigError);
  auto bad = compare_report(62);
  bad["summary"][1].erase("variant");
  try {
    compare_rows(bad, "x.json");
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.field(), "x.json");
    EXPECT_NE(std::string(e.what()).find("summary row 1"), std::string::npos) << e.what();
  }
}

std::string temp(const std::string& name, const std::string& text) {
  const std::string d = std::string(WN_BINARY_DIR) + "/regression_test";
  std::filesystem::create_directories(d);
  std::ofstream(d + "/" + name) << text;
  return d + "/" + name;
}

TEST(Regression, BaselinesThatAreNotResultsNameTheFileAndLine) {
  const std::string good = line("k0", "0", 62).dump();
  EXPECT_EQ(read_results_baseline(temp("ok.jsonl", good + "\n")).size(), 1u);
  try {
    read_results_baseline(temp("bad.jsonl", good + "\n{\"cycles\": 3}\n" + good + "\n"));
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.jsonl: line 2 is not a point's result"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_results_baseline(temp("empty.jsonl", "")), ConfigError);
  for (const std::string& p : {std::string(WN_BINARY_DIR), std::string("/nonexistent/b.jsonl")}) {
    try {
      read_results_baseline(p);
      ADD_FAILURE() << p;
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.param(), Param::baseline) << e.what();
    }
  }
  try {
    read_report_baseline(temp("bad.json", "{\n  \"schema\": \"wormnet.compare/3\",\n  \"summary\": [,]\n}\n"));
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json: line 3 is not JSON"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace wn
