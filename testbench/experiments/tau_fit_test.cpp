// The tau fit of experiments/tau_fit.h on points made by hand: exact lines come back exactly,
// the length laws parse and invert, failed rows are left out and counted, and inputs that are
// not results are refused naming the file and the field.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "experiments/tau_fit.h"

namespace wn::tau {
namespace {

Series line_series(double ts, double tn, std::initializer_list<uint32_t> sizes) {
  Series s;
  s.algorithm = s.variant = "rd-broadcast";
  s.ports = "3";
  s.topology = "mesh:8x8";
  s.profile = "t3d";
  s.profile_json = {{"name", "t3d"}};
  s.clock_ns = 2;
  for (uint32_t b : sizes) s.points.push_back({b, ts + tn * b});
  return s;
}

TEST(TauFit, LengthLaws) {
  std::string why;
  EXPECT_EQ(parse_length_law("linear", why)->packet_bytes, 0u);
  EXPECT_EQ(parse_length_law("packets:64", why)->packet_bytes, 64u);
  for (const char* bad : {"", "packets:", "packets:0", "packets:-4", "packets:4.5", "quadratic", "packets:999999999"})
    EXPECT_FALSE(parse_length_law(bad, why).has_value()) << bad;
  EXPECT_NE(why.find("allowed: linear"), std::string::npos) << why;
  const LengthLaw p{64};
  EXPECT_EQ(p(1), 1);
  EXPECT_EQ(p(64), 1);
  EXPECT_EQ(p(65), 2);
  EXPECT_EQ(p.inverse(2.5), 160);
  EXPECT_EQ(parse_metric("avg-latency"), Metric::avg_latency);
  EXPECT_FALSE(parse_metric("p99").has_value());
}

TEST(TauFit, AnExactLineComesBackExactly) {
  const Fit f = fit_series(line_series(700, 1.5, {1024, 256, 4096}), LengthLaw{});
  ASSERT_TRUE(f.ok);
  EXPECT_DOUBLE_EQ(f.cycles.ts, 700);
  EXPECT_DOUBLE_EQ(f.cycles.tn, 1.5);
  EXPECT_DOUBLE_EQ(*f.cycles.tau(), 1.5 / 700);
  EXPECT_DOUBLE_EQ(f.r2, 1);
  EXPECT_DOUBLE_EQ(f.us.ts, 1.4);                  // 2 ns cycles
  EXPECT_EQ(f.series.points.front().bytes, 256u);  // sorted by length
  for (double r : f.residuals) EXPECT_NEAR(r, 0, 1e-9);
  // Table 5.3's RD on 2^3 x 2^3: T_n = 2n beta = 6 x 1/4 cycle per byte (4-byte flits).
  ASSERT_TRUE(f.predicted_cycles.has_value());
  EXPECT_DOUBLE_EQ(f.predicted_cycles->tn, 1.5);
}

TEST(TauFit, NoisyPointsAndTooFewLengths) {
  Series s = line_series(100, 2, {64, 128, 256, 512});
  s.points[1].cycles += 10;
  const Fit f = fit_series(s, LengthLaw{});
  EXPECT_LT(f.r2, 1);
  EXPECT_GT(f.r2, 0.99);
  double sum = 0;
  for (double r : f.residuals) sum += r;
  EXPECT_NEAR(sum, 0, 1e-9);  // least squares with an intercept
  EXPECT_FALSE(fit_series(line_series(100, 2, {64, 64}), LengthLaw{}).ok);
  EXPECT_FALSE(fit_series(line_series(100, 2, {64, 128}), LengthLaw{256}).ok);  // one packet each
  EXPECT_FALSE(fit_series(line_series(100, 2, {64, 128}), LengthLaw{64}).predicted_cycles.has_value());
  EXPECT_FALSE(Fit{}.cycles.tau().has_value());
}

TEST(TauFit, CrossoversAndRegionsOfFits) {
  std::vector<Fit> fits = {fit_series(line_series(600, 1.5, {256, 1024}), LengthLaw{}),
                           fit_series(line_series(800, 1.0, {256, 1024}), LengthLaw{})};
  fits[1].series.algorithm = fits[1].series.variant = "edn-broadcast";
  const auto pairs = all_crossovers(fits);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].measured.kind, alg::tau::Crossover::Kind::crosses);
  EXPECT_NEAR(pairs[0].measured.at, 400, 1e-9);
  const auto regions = regions_around(fits, "edn-broadcast");
  ASSERT_EQ(regions.size(), 1u);
  EXPECT_EQ(regions[0].region, alg::tau::Region::D);  // RD: the smaller startup
  EXPECT_TRUE(regions_around(fits, "sc-broadcast").empty());
  const auto j = tau_json(fits, pairs, regions, LengthLaw{}, Metric::max_latency, {}, "edn-broadcast");
  EXPECT_NEAR(j["crossovers"][0]["measured"]["bytes_star"].get<double>(), 400, 1e-9);
  EXPECT_EQ(j["regions"][0]["region"], "D");
}

nlohmann::json compare_report() {
  const nlohmann::json profile = {
      {"name", "ideal"}, {"clock_ns", 1.0}, {"alpha", 0}, {"gamma", 0}, {"bytes_per_flit", 4}};
  nlohmann::json summary = nlohmann::json::array();
  for (uint32_t b : {64u, 128u, 256u})
    summary.push_back({{"algorithm", "rd-broadcast"},
                       {"variant", "rd-broadcast"},
                       {"options", nlohmann::json::object()},
                       {"ports", "one"},
                       {"bytes", b},
                       {"sources", 2},
                       {"data_ok", b == 128 ? 1 : 2},
                       {"mean_cycles", 10.0 + b},
                       {"latency_cycles", {{"mean_average", 5.0 + b}, {"mean_maximum", 9.0 + b}}}});
  return {{"schema", "wormnet.compare/3"},
          {"runs", {{{"config", {{"topology", "mesh:4x4"}, {"profile", profile}}}}}},
          {"summary", summary}};
}

TEST(TauFit, ReadsCompareReportsAndRefusesOtherFiles) {
  const auto s = series_of_compare(compare_report(), "c.json", Metric::max_latency);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].points.size(), 2u);
  EXPECT_EQ(s[0].failed, 1);  // the 128-byte row: one of its two runs failed
  EXPECT_EQ(s[0].points[1].cycles, 265.0);
  EXPECT_EQ(s[0].topology, "mesh:4x4");
  for (const nlohmann::json bad : {nlohmann::json(64.5), nlohmann::json(-64), nlohmann::json(1e30)}) {
    nlohmann::json r = compare_report();
    r["summary"][0]["bytes"] = bad;
    EXPECT_THROW(series_of_compare(r, "c.json", Metric::max_latency), ConfigError) << bad;
  }
  const auto merged = merge_series({s[0], s[0]});
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].points.size(), 4u);
  const std::string d = std::filesystem::temp_directory_path() / "wn_tau_fit_test";
  std::filesystem::create_directories(d);
  std::ofstream(d + "/c.json") << compare_report().dump();
  EXPECT_EQ(read_series(d + "/c.json", "from", Metric::cycles)[0].points[0].cycles, 74.0);
  std::ofstream(d + "/t.jsonl") << "{\"command\": \"traffic\", \"ok\": true}\n";
  try {
    read_series(d + "/t.jsonl", "from", Metric::max_latency);
    FAIL() << "a traffic sweep was read";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.field(), d + "/t.jsonl: line 1");
    EXPECT_NE(e.detail().find("\"command\" is 'traffic'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_series(d + "/none.json", "from", Metric::max_latency), ConfigError);
  std::filesystem::remove_all(d);
}

}  // namespace
}  // namespace wn::tau
